//! The page's parts that come after it ([`super::split`]). Chunk `after`: everything a run shows or
//! offers (the verdict and findings, the metrics, the timeline, the text, the cache and connection card,
//! the prefix check's form, the raw reads, share and import, the form's URL checks and one-click fixes),
//! the running of a campaign (its rounds, each run's start and the drain of its reads, [`run_campaign`]),
//! the analysis of a run's reads as they arrive, and the derivation of a run's report and of the JSON
//! text of `#report-json` for a single run. The page before it holds the form and the measuring worker's client
//! (the reader loop itself is the `measure` chunk's, which the worker loads: `net::measure`). `after`,
//! and the English words it says (`en.txt`), are fetched as soon as the page has mounted; a campaign
//! starts only once they are there ([`settle_parts`]), so that no code compiles during a run and no
//! measured run waits for code or words, or is lost for want of them.
//! Chunk `campaign`: the views and the derivation of a campaign of more than one run (the repeat and A/B
//! table, the sweep, the ladder; their summaries, comparison, knee and first bad hop, and the JSON text
//! of their `#report-json`), fetched by the
//! start of such a campaign before its first run ([`settle_campaign_views`]) or by an import that shows
//! one; a single run never fetches it.
//! What a run never needs, an import's reading and showing (and going back from it), the prefix check's
//! inside once opened and the share card's export, Markdown, download and copy, is the `on_demand`
//! chunk's, fetched only when used (`super::on_demand`).
//! Few chunks rather than many: code shared by two chunks goes to a third, and every chunk repeats
//! imports and is compressed on its own (measured: 9.4 KB more gzipped with every panel apart from the
//! rest; BENCHMARKS.md, Size). Each split was measured: what a visitor who runs downloads against every
//! file together (BENCHMARKS.md, Size, "Imports on demand", "The prefix check on demand", "The main
//! module under 150 KB").

use std::cell::Cell;

use leptos::prelude::*;
use super::erased::show_when;

use super::findings::Findings;
use super::metrics_panel::MetricsPanel;
use super::text_view::TextView;
use super::timeline::Timeline;
use super::cache_connection::CacheAndConnection;
use super::compare_panel::ComparePanel;
use super::form::{plan_campaign_rounds, plan_from_form, CampaignRounds, FormAdvice, FormState, RequestLine, RunRequest};
use super::handoff::Handoff;
use super::hops_panel::HopsPanel;
use super::prefix_check::PrefixCheckPanel;
use super::raw_view::RawView;
use super::session::{CampaignPlan, Session};
use super::split::{split_parts, within_ms, PartMissing};
use streamscope_core::analysis::{Analysis, Analyzer};
use streamscope_core::config::page_config::{CampaignKind, PageConfig};
use streamscope_core::report::campaign::{CampaignReport, Layout, RunTag};
use streamscope_core::i18n::Lang;
use streamscope_core::report::export::{report_json_text, run_report_json_text, ImportSource};
use streamscope_core::report::Report;
use streamscope_core::trace::{ReadChunk, Trace, TraceEnd};
use super::sweep_panel::SweepPanel;

split_parts! { after, preload_every_part;
    preload_cache_panel; fn cache_panel(session: Session) -> AnyView {
        view! { <CacheAndConnection session=session /> }.into_any()
    }

    preload_prefix_panel; fn prefix_panel(form: FormState) -> AnyView {
        view! { <PrefixCheckPanel form=form /> }.into_any()
    }

    preload_raw_panel; fn raw_panel(session: Session) -> AnyView {
        view! { <RawView session=session /> }.into_any()
    }

    preload_share_panel; fn share_panel(session: Session) -> AnyView {
        view! { <Handoff session=session /> }.into_any()
    }

    preload_findings_card; fn findings_card(session: Session) -> AnyView {
        view! { <Findings session=session /> }.into_any()
    }

    preload_metrics_card; fn metrics_card(session: Session) -> AnyView {
        view! { <MetricsPanel session=session /> }.into_any()
    }

    preload_timeline_card; fn timeline_card(session: Session) -> AnyView {
        view! { <Timeline session=session /> }.into_any()
    }

    preload_text_card; fn text_card(session: Session) -> AnyView {
        view! { <TextView session=session /> }.into_any()
    }

    preload_analyze; pub fn analyze_reads(analyzer: &mut Option<Analyzer>, content_type: Option<&str>, reads: &[ReadChunk], end: Option<&TraceEnd>) -> () {
        let analyzer = analyzer.get_or_insert_with(|| Analyzer::new(content_type));
        for read in reads {
            analyzer.push(read.at_ms, &read.bytes);
        }
        match end {
            Some(end @ TraceEnd::Complete { .. }) => analyzer.finish(end.at_ms()),
            // A cut-off stream's last partial line is not an event.
            Some(end) => analyzer.abort(end.at_ms()),
            None => {}
        }
    }

    preload_form_advice; fn form_advice(form: FormState, session: Session) -> AnyView {
        view! { <FormAdvice form=form session=session /> }.into_any()
    }

    preload_model_in_body; pub fn model_in_body(body: String, model: String) -> Option<String> {
        streamscope_core::config::page_config::body_with_model(&body, &model)
    }

    preload_report; pub fn derive_report(trace: Trace, analysis: Analysis) -> (Trace, Analysis, Report) {
        let report = Report::from_analysis(&trace, &analysis);
        (trace, analysis, report)
    }

    preload_campaign_plan;
    /// The rounds of runs a press of Run measures, planned from what the form said at the click (`None`
    /// when the `campaign` chunk, which plans a comparison, a sweep or a ladder, is missing).
    pub fn campaign_plan(request: &RunRequest) -> Option<CampaignPlan> {
        plan_from_form(request)
    }

    preload_campaign_runner;
    /// Starts the campaign's next round (and so every later one: the code of the rounds, of each run's start
    /// and of the drain of its reads is all reachable from here only).
    pub fn run_campaign(session: Session) -> () {
        session.next()
    }

    preload_report_json;
    /// The text of `#report-json` for a single run (a campaign of several runs: [`campaign_report_json`]).
    pub fn report_json(report: &Report, imported_from: Option<ImportSource>, lang: Lang) -> String {
        run_report_json_text(report, imported_from, lang)
    }
}

// The views and the derivation of a campaign of more than one run (repeats, A/B, sweep, ladder): a chunk
// of their own, which a single run never fetches; a campaign's start fetches it before its first run, an
// import of such a campaign when it shows it.
split_parts! { campaign, preload_campaign_views;
    preload_compare_panel; fn compare_panel(session: Session) -> AnyView {
        view! { <ComparePanel session=session /> }.into_any()
    }

    preload_sweep_panel; fn sweep_panel(session: Session) -> AnyView {
        view! { <SweepPanel session=session /> }.into_any()
    }

    preload_hops_panel; fn hops_panel(session: Session) -> AnyView {
        view! { <HopsPanel session=session /> }.into_any()
    }

    preload_plan_campaign;
    /// The rounds of a comparison, a sweep or a ladder (`form::plan_from_form` plans a single request's
    /// repeats itself).
    pub fn plan_campaign(config: &PageConfig, lines: &[RequestLine]) -> CampaignRounds {
        plan_campaign_rounds(config, lines)
    }

    preload_campaign_report;
    /// The report of a campaign of more than one run, or of a sweep or a ladder (a single run's is its
    /// own report: `Session::finish_campaign`).
    pub fn derive_campaign(runs: Vec<(RunTag, Report)>, layout: Layout) -> CampaignReport {
        CampaignReport::of(runs, &layout)
    }

    preload_campaign_report_json;
    /// The text of `#report-json` for a campaign of several runs, a sweep or a ladder: their writers are
    /// this chunk's, not every run's.
    pub fn campaign_report_json(campaign: &CampaignReport, imported_from: Option<ImportSource>, lang: Lang) -> String {
        report_json_text(campaign, imported_from, lang)
    }
}

/// How long a campaign's start waits for the parts (as for the Chinese words, `net::catalogue`).
pub const PART_LOAD_LIMIT_MS: i32 = 15_000;

thread_local! {
    /// Whether every part's code has loaded (it stays loaded).
    static PARTS_LOADED: Cell<bool> = const { Cell::new(false) };
    /// Whether the campaign views' code has loaded (it stays loaded).
    static CAMPAIGN_VIEWS_LOADED: Cell<bool> = const { Cell::new(false) };
}

/// Whether a press of Run with this configuration plans more than one run, or a sweep or a ladder: the
/// `campaign` chunk (the views and the derivation of such a campaign) must then be here before it starts.
pub fn needs_campaign_views(config: &PageConfig) -> bool {
    config.campaign_kind() != CampaignKind::Runs || config.repeat > 1
}

/// Whether the campaign views' code is loaded.
pub fn campaign_views_ready() -> bool {
    CAMPAIGN_VIEWS_LOADED.with(Cell::get)
}

/// Waits (at most [`PART_LOAD_LIMIT_MS`]) for the campaign views' code: `Err` when it did not arrive in
/// time (tried again at the next call).
pub async fn settle_campaign_views() -> Result<(), PartMissing> {
    if !campaign_views_ready() {
        within_ms(PART_LOAD_LIMIT_MS, preload_campaign_views()).await.unwrap_or(Err(PartMissing))?;
        CAMPAIGN_VIEWS_LOADED.with(|loaded| loaded.set(true));
    }
    Ok(())
}

/// Whether a campaign may start now: every part's code is loaded, so that none compiles during a run
/// and a run's report is derived in the same task as its last read.
pub fn ready_to_measure() -> bool {
    PARTS_LOADED.with(Cell::get)
}

/// Waits (at most [`PART_LOAD_LIMIT_MS`]) for every part's code: `Err` when it did not arrive in time.
pub async fn settle_parts() -> Result<(), PartMissing> {
    within_ms(PART_LOAD_LIMIT_MS, ensure_parts()).await.unwrap_or(Err(PartMissing))
}

/// Fetches every part's code and the English words they say (`en.txt`, `net::catalogue`), once; a
/// failure is tried again at the next call. One chunk holds them all, but each function keeps its own
/// loaded flag (wasm_split's loader) and only a function whose flag is set is ready at its first poll,
/// which `now_or_later` and `ready_now` rely on during and at the end of a run and in `#report-json`: so
/// each is preloaded (the chunk itself is fetched once): the parts above and net's, each through the one
/// list its `split_parts!` writes.
pub async fn ensure_parts() -> Result<(), PartMissing> {
    if !ready_to_measure() {
        preload_every_part().await?;
        // net's parts of this chunk (the run's end, read in the page), through net's own list.
        crate::net::worker::client::preload_after_parts().await?;
        // The words these parts say (`en.txt`; the wasm carries only the form's).
        crate::net::catalogue::english_words().await.map_err(|_| PartMissing)?;
        PARTS_LOADED.with(|loaded| loaded.set(true));
    }
    Ok(())
}

/// Whether the session shows a campaign of more than one run (planned, running or imported).
fn shows_a_campaign(session: Session) -> bool {
    session.progress.with(|(_, planned)| *planned > 1)
        || session.campaign.with(|c| c.as_ref().is_some_and(|c| !matches!(c, CampaignReport::Single(_))))
}

/// The panels of the compare, sweep and hop-ladder campaigns (only once there is such a campaign: their
/// code is the `campaign` chunk's), in the page's order (between the form and the metrics: a campaign's
/// table is its headline).
pub fn campaign_panels(session: Session) -> impl IntoView {
    use super::split::lazy_panel;
    view! {
        {show_when(move || shows_a_campaign(session), move || view! {
            {lazy_panel("compare", compare_panel(session))}
            {lazy_panel("sweep", sweep_panel(session))}
            {lazy_panel("hops", hops_panel(session))}
        }.into_any())}
    }
}

/// What follows the answer's text, in the page's order: the raw reads, the cache and connection card,
/// the prefix check (a tool of its own, folded) and the share and import card. The run's own figures
/// come first so that they sit right under the form.
pub fn after_text_panels(session: Session, form: FormState) -> impl IntoView {
    use super::split::lazy_panel;
    view! {
        {lazy_panel("raw", raw_panel(session))}
        {lazy_panel("cache", cache_panel(session))}
        {lazy_panel("prefix", prefix_panel(form))}
        {lazy_panel("share", share_panel(session))}
    }
}

/// The URL checks and the last run's one-click fixes, under the form's request line.
pub fn form_advice_panel(form: FormState, session: Session) -> impl IntoView {
    super::split::lazy_panel("form-advice", form_advice(form, session))
}

/// The verdict and findings card (at the top of the page).
pub fn verdict_card(session: Session) -> impl IntoView {
    super::split::lazy_panel("findings", findings_card(session))
}

/// The metrics, the timeline and the answer's text, in the page's order.
pub fn result_cards(session: Session) -> impl IntoView {
    use super::split::lazy_panel;
    view! {
        {lazy_panel("metrics", metrics_card(session))}
        {lazy_panel("timeline", timeline_card(session))}
        {lazy_panel("text", text_card(session))}
    }
}
