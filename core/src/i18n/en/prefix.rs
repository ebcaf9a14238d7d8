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
    }
}
