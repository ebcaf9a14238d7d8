//! English words of the hop ladder's sentence.

use crate::i18n::keys::HopsKey;

/// The English template of `key`.
pub fn template(key: HopsKey) -> &'static str {
    match key {
        HopsKey::NoTtft => "n/a",
        HopsKey::Same => "The stream is the same at every hop: {verdict} from {first} to {last}, TTFT {first_ttft} to {last_ttft}.",
        HopsKey::NoHop => "No hop was measured.",
        HopsKey::FirstHop => "The stream is already {verdict} at the first hop ({label}, TTFT {ttft}): the cause is there or behind it, not in the layers after it.",
        HopsKey::ChangeStarts => "{change} starts between {before} and {bad}: {before} is {before_verdict} (TTFT {before_ttft}), {bad} is {bad_verdict} (TTFT {bad_ttft}).",
        HopsKey::ChangeStreaming => "Streaming",
        HopsKey::ChangeBuffering => "Buffering",
        HopsKey::ChangeCollecting => "Collecting the whole answer",
        HopsKey::ChangeFailure => "Failure",
        HopsKey::TtftGrows => "TTFT grows by {rise} between {before} and {bad} ({before_ttft} to {bad_ttft}), both {verdict}: look at what {bad} adds (queueing, authentication, a new connection per request).",
    }
}
