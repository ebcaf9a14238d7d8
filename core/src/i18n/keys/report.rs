//! Keys of the words the report's files share: the verdicts' names and the connection-cost notes ([`crate::report`]).

key_group! {
    /// A message of [`crate::report`].
    pub enum ReportKey {
        VerdictStreaming,
        VerdictBuffered,
        VerdictCollected,
        VerdictFailed,
        ConnectionUnavailable,
        ConnectionPreflight,
    }
}
