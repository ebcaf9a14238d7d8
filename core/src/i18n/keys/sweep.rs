//! Keys of the concurrency sweep's sentence ([`crate::report::sweep`]).

key_group! {
    /// A message of [`crate::report::sweep`].
    pub enum SweepKey {
        NoKneeToRead,
        BrowserHeld,
        KneeAt,
        NoKnee,
    }
}
