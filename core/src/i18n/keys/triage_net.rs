//! Keys of the network triage ([`crate::findings::triage::net`]).

key_group! {
    /// A message of [`crate::findings::triage::net`].
    pub enum TriageNetKey {
        CorsTitle,
        CorsDetail,
        CorsPreflight,
        CorsNginxPreflight,
        CorsFix,
        UnreachableTitle,
        UnreachableDetail,
        UnreachableFix,
    }
}
