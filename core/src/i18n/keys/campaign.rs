//! Keys of the findings about several runs together ([`crate::findings::campaign`]).

key_group! {
    /// A message of [`crate::findings::campaign`].
    pub enum CampaignKey {
        ConnLimitTitle,
        ConnLimitDetail,
        ConnLimitFix,
        LowCacheTitle,
        LowCacheDetail,
        LowCacheTtfts,
        LowCacheFix,
    }
}
