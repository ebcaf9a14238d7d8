//! English words of the concurrency sweep's sentence.

use crate::i18n::keys::SweepKey;

/// The English template of `key`.
pub fn template(key: SweepKey) -> &'static str {
    match key {
        SweepKey::NoKneeToRead => "No level produced a first token, so there is no knee to read.",
        SweepKey::BrowserHeld => " Above {n} streams the browser itself held requests back (HTTP/1.1): that wait is left out of the knee.",
        SweepKey::KneeAt => "The server starts queueing at {level} streams at once: TTFT p50 {at} there against {baseline} at {first} (more than {threshold} above: 3 × the spread of its {runs} runs at level {first}, at least 10% and 10 ms).",
        SweepKey::NoKnee => "No knee up to {last} streams at once: TTFT p50 stays within {threshold} of the {baseline} measured at {first}.",
    }
}
