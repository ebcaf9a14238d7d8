//! English words of the page itself.

use crate::i18n::keys::UiKey;

/// The English template of `key`.
pub fn template(key: UiKey) -> &'static str {
    match key {
        UiKey::Tagline => "Measure an LLM stream where your users see it: in the browser.",
        UiKey::LanguageLabel => "Language",
        UiKey::VerdictStreaming => "Streaming: content arrived as it was produced.",
        UiKey::VerdictBuffered => "Buffered: something held the content back and released it in bursts.",
        UiKey::VerdictCollected => "Collected: the whole answer arrived at once at the end.",
        UiKey::VerdictFailed => "Failed: no usable stream. The findings below say why and what to do.",
        UiKey::Measuring => "Measuring…",
        UiKey::PressRun => "Press Run to measure the stream.",
        UiKey::ImportedTraces => "Imported, not measured here: recomputed from the file's recorded traces.",
        UiKey::ImportedReport => "Imported report without traces: its figures as written in the file, not re-measured or recomputed.",
        UiKey::BackToMeasurement => "Back to your measurement",
        UiKey::RunOf => "Run {done} of {planned}",
        UiKey::RunOfSide => "Run {done} of {planned} (side {side})",
        UiKey::RunsDisagree => "Not every run ended alike: {counts}.",
        UiKey::RunsDisagreeSides => "Not every run ended alike: side A {a}; side B {b}.",
        UiKey::FixLabel => "Fix: ",
        UiKey::ReplayStart => "Replay at recorded speed",
        UiKey::ReplayStop => "Stop replay (+{at} s)",
        UiKey::ReportJsonAria => "Report JSON",
        UiKey::ReportJsonHeading => "Report (JSON)",
        UiKey::LanguageUnavailable => "The words of this language could not be loaded ({reason}), so the page speaks English.",
        UiKey::PartUnavailable => "This part of the page did not load ({part}): the network dropped, or the page was updated on the server since it opened. Reload the page; what you measured is still shown above.",
    }
}
