//! Keys of the page's own words (labels, banners, buttons), said by the UI through [`crate::i18n::Text`].

key_group! {
    /// A word of the page itself.
    pub enum UiKey {
        Tagline,
        LanguageLabel,
        VerdictStreaming,
        VerdictBuffered,
        VerdictCollected,
        VerdictFailed,
        Measuring,
        PressRun,
        ImportedTraces,
        ImportedReport,
        BackToMeasurement,
        RunOf,
        RunOfSide,
        /// Under the verdict of a campaign whose runs ended in different verdicts (`report::verdict_tally`).
        RunsDisagree,
        RunsDisagreeSides,
        FixLabel,
        /// The text view's replay button (`replay.rs`).
        ReplayStart,
        ReplayStop,
        /// The `#report-json` card (`report_json.rs`).
        ReportJsonAria,
        ReportJsonHeading,
        /// Beside the switcher when a language's words could not be loaded (`lang.rs`).
        LanguageUnavailable,
        /// In place of a part of the page whose code, loaded after the page, did not arrive (`split.rs`).
        PartUnavailable,
    }
}
