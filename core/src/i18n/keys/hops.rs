//! Keys of the hop ladder's sentence ([`crate::report::hops`]).

key_group! {
    /// A message of [`crate::report::hops`].
    pub enum HopsKey {
        NoTtft,
        Same,
        NoHop,
        FirstHop,
        ChangeStarts,
        ChangeStreaming,
        ChangeBuffering,
        ChangeCollecting,
        ChangeFailure,
        TtftGrows,
    }
}
