//! Keys of the prefix check's words: the cache-breaker warnings ([`crate::prefix::warnings`]), how each
//! body was read, where the prefixes part, and the `unstable_prefix` finding ([`crate::prefix`]).

key_group! {
    /// A message of [`crate::prefix::warnings`].
    pub enum PrefixKey {
        SideA,
        SideB,
        SideBoth,
        WhatTimestamp,
        WhatUuid,
        WhatRequestId,
        Volatile,
        ToolOrder,
        KeyOrder,
        SideNotJson,
        SideText,
        SideJson,
        SideNoMembers,
        SideMessages,
        SideLeftOut,
        SideLeftOutMore,
        Identical,
        PlaceBoth,
        FirstDifference,
        FirstDifferenceLast,
        Shared,
        FindingTitle,
        FindingListed,
        FindingListSep,
        FindingMore,
        FindingParted,
        FindingDetail,
        FindingFix,
    }
}
