//! Keys of the prefix check's cache-breaker warnings ([`crate::prefix::warnings`]).

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
    }
}
