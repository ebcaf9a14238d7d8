//! Keys of what an import says is wrong with a file ([`crate::report::export`], [`crate::report::import_check`]).

key_group! {
    /// A message of [`crate::report::export`], [`crate::report::import_check`].
    pub enum ImportKey {
        Empty,
        NotJson,
        Version,
        Damaged,
        NoRuns,
        DamagedAt,
        NotOurs,
        NotATime,
        Negative,
        TooLate,
        OutOfOrder,
        TooLarge,
    }
}
