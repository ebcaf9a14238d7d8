//! Keys of the page's words for the form and its links, said by the UI through [`crate::i18n::Text`].

key_group! {
    /// A word of the form and its links.
    pub enum UiFormKey {
        /// The form's `aria-label`.
        RequestAria,
        /// The mode tabs.
        ModePreset,
        ModeExact,
        /// The exact request's fields.
        Url,
        Method,
        Body,
        VsUrl,
        Repeat,
        AtOnce,
        /// The preset's fields.
        Api,
        PresetOpenaiChat,
        PresetOpenaiResponses,
        PresetAnthropic,
        PresetOllama,
        PresetGemini,
        Base,
        Model,
        MaxTokens,
        Prompt,
        VsModel,
        /// The sweep and ladder fields.
        MoreCampaign,
        Concurrency,
        PerLevel,
        Hops,
        HopLabels,
        /// Headers, key and time-outs.
        MoreOptions,
        ApiKey,
        ExtraHeaders,
        HeadersTimeout,
        FirstByteTimeout,
        IdleTimeout,
        TotalTimeout,
        /// Run and Cancel.
        Run,
        Cancel,
        /// Warnings and one-click fixes under the form.
        UrlCredentialWarning,
        ShareKeyB,
        UseBase,
        ModelsListed,
        FirstModels,
        /// A plan too large to run (`start-error`).
        TooManyRuns,
        /// Share and import (`handoff.rs`).
        HandoffAria,
        Share,
        ShareFirst,
        DownloadJson,
        CopyMarkdown,
        Permalink,
        ImportedBanner,
        ExportText,
        MarkdownSummary,
        Import,
        ImportPlaceholder,
        ImportApply,
        /// The share and import note (`handoff-note`).
        NoteImportedExport,
        NoteImportedReport,
        NoteDownloaded,
        NoteDownloadFailed,
        NoteNothingToExport,
        NoteMarkdownCopied,
        NoteClipboardRefused,
    }
}
