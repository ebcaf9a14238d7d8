//! English words of the prefix check's cache-breaker warnings.

use crate::i18n::keys::PrefixKey as K;

/// The English template of `key`.
pub fn template(key: K) -> &'static str {
    match key {
        K::SideA => "request A",
        K::SideB => "request B",
        K::SideBoth => "both requests (alike now, but the next request's will differ)",
        K::WhatTimestamp => "A date or time",
        K::WhatUuid => "A UUID",
        K::WhatRequestId => "A request or trace id",
        K::Volatile => "{what} in {path} of {side}: it changes with every request, so the provider's cache can reuse nothing from here on.",
        K::ToolOrder => "The same tools in another order: A sends {a}; B sends {b}. The tools come first in the prefix, so nothing after them can be reused.",
        K::KeyOrder => "The same keys in another order at {path}: A sends {a}; B sends {b}. The provider renders them as sent, so the prefix differs from here on (serialise with sorted keys, or build the object once).",
        K::SideNotJson => "not JSON (it breaks at byte {at}): compared as plain text, {size}",
        K::SideText => "plain text, {size}",
        K::SideJson => "JSON: {parts}{messages}, prefix {size}{left_out}",
        K::SideNoMembers => "no prompt members",
        K::SideMessages => " ({n} {n:message|messages})",
        K::SideLeftOut => "; left out: {names}",
        K::SideLeftOutMore => "; left out: {names} and {more} more",
        K::Identical => "identical prefixes: a repeat can reuse all {n} {n:byte|bytes} from the cache",
        K::PlaceBoth => "{a} (in B: {b})",
        K::FirstDifference => "first difference at byte {byte} (character {char}), in {place}",
        K::FirstDifferenceLast => "; that is the last message, the usual new turn: everything before it can come from the cache",
        K::Shared => "{shared} of {shorter} {shorter:byte|bytes} shared ({percent}% of the shorter prefix; A {a} {a:byte|bytes}, B {b} {b:byte|bytes})",
        K::FindingTitle => "The prompt prefix changes from request to request",
        K::FindingListed => "{kind} in {path} ({text})",
        K::FindingListSep => "; ",
        K::FindingMore => ", and more",
        K::FindingParted => " The two requests part at byte {byte} ({path}).",
        K::FindingDetail => "The provider's prompt cache reuses a prompt only up to its first change, and {n} {n:cache breaker sits|cache breakers sit} in the part meant to stay the same: {listed}{more}. Everything from the first of them on ({first}) is read and billed again on every request.{parted}",
        K::FindingFix => "Keep the start of the prompt byte-for-byte the same: move volatile values (the current date or time, request ids, UUIDs) to the end of the prompt, after the tools and instructions (e.g. into the last user message), and send tools and JSON keys in one fixed order (build them once, or serialise with sorted keys). Then repeat a request: at least 70% of its prompt should come from the cache (prompt_cache_hit_tokens, cached_tokens, cache_read_input_tokens).",
    }
}
