//! Keys of the A/B comparison's sentence ([`crate::report::compare`]).

key_group! {
    /// A message of [`crate::report::compare`].
    pub enum CompareKey {
        BothFailed,
        SideFailed,
        LeadPath,
        LeadModel,
        TtftSame,
        TtftLater,
        TtftEarlier,
        And,
        TextDiffers,
        Streams,
        BurstsOf,
        /// A side whose only sign of buffering is its held start (`{held}`: the least wait).
        HeldStart,
        Bursts,
        Collected,
        Fails,
        HeldTpot,
        Semicolon,
        Pace,
        PathSame,
        ModelSame,
        TokenSlower,
        TokenFaster,
        TotalLater,
        TotalSooner,
        End,
    }
}
