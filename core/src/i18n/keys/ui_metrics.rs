//! Keys of the page's words for the metrics and timeline, said by the UI through [`crate::i18n::Text`].

key_group! {
    /// A word of the metrics and timeline.
    pub enum UiMetricsKey {
        /// The metrics grid (`metrics_panel.rs`): its section, then each metric's label and hint.
        MetricsSection,
        HttpStatusLabel,
        HeadersLabel,
        HeadersHint,
        TtfbLabel,
        TtfbHint,
        TtftLabel,
        TtftHint,
        ReasoningTtftLabel,
        TpotLabel,
        TpotHint,
        ItlLabel,
        ItlHint,
        TotalLabel,
        ContentEventsLabel,
        ReadsLabel,
        ReadsHint,
        EventsPerReadLabel,
        BodyLabel,
        DecodeRateLabel,
        FormatLabel,
        PromptCacheLabel,
        MeasuredInLabel,
        MeasuredInHint,
        /// The metrics' values said in words: events per read (`{mean}`, `{max}`: figures).
        EventsPerReadValue,
        /// The prompt cache's hit ratio (`{percent}`: `"83%"`).
        CacheHit,
        CacheNotReported,
        MeasuredInWorker,
        MeasuredInMainThread,
        /// The timeline (`timeline.rs`): the section's name and heading, the chart, its rows and marks.
        Timeline,
        TimelineChart,
        RowReads,
        RowTokens,
        MarkHeaders,
        /// Where a run that did not complete stopped: a network error, a time-out, a cancel.
        MarkNetworkError,
        MarkTimeout,
        MarkCancelled,
        /// The timeline's legend.
        LegendRead,
        LegendContent,
        LegendReasoning,
        LegendHeld,
        /// The answer (`text_view.rs`).
        Answer,
        Reasoning,
        /// Said in the answer's place when a finished run showed no answer text: the body came with an
        /// error status (`{status}`: `502`) with a body or an empty one, a body arrived without content,
        /// nothing arrived.
        AnswerNoneStatus,
        AnswerNoneStatusEmpty,
        AnswerNoneText,
        AnswerNoneNothing,
        /// The raw view (`raw_view.rs`): the section, its summary around the read count, the pager.
        RawSection,
        RawSummaryHead,
        RawSummaryTail,
        RawFirst,
        RawOlder,
        RawNewer,
        RawLatest,
        /// No rows to show in the window.
        RawWindowNone,
        /// After a read's preview (`{size}`: `"1.0 KiB"`).
        RawMoreNotShown,
    }
}
