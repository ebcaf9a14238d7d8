//! Keys of the URL triage ([`crate::findings::triage::url`]).

key_group! {
    /// A message of [`crate::findings::triage::url`].
    pub enum TriageUrlKey {
        WhatRequestUrl,
        WhatBaseUrl,
        WhitespaceTitle,
        WhitespaceInside,
        WhitespaceAround,
        WhitespaceFix,
        DoubledTitle,
        DoubledDetail,
        DoubledFix,
        SuffixTitle,
        SuffixDetail,
        SuffixFix,
        BaseSuffixTitle,
        BaseSuffixDetail,
        BaseSuffixFix,
        BaseDoubledTitle,
        BaseDoubledDetail,
        BaseDoubledFix,
        SlashEndTitle,
        SlashEndDetail,
        SlashDoubleTitle,
        SlashDoubleDetail,
        SlashFix,
        MixedTitle,
        MixedDetail,
        MixedFix,
        MissingV1Title,
        MissingV1Detail,
        MissingV1NoResponse,
        MissingV1Fix,
    }
}
