//! The page's parts that come after it ([`super::split`]), in two chunks: `panels` (the seven panels a
//! reader needs only after a run or on demand) and `report` (a run's report, a campaign's, and the JSON
//! text of `#report-json`). Both are fetched as soon as the page has mounted; a campaign starts only
//! once each has arrived or failed and the report's part is there ([`settle_parts`]), so that no chunk
//! compiles during a run and no measured run waits for code, or is lost for want of it.

use std::cell::Cell;

use leptos::prelude::*;

use super::cache_connection::CacheAndConnection;
use super::compare_panel::ComparePanel;
use super::form::FormState;
use super::handoff::Handoff;
use super::hops_panel::HopsPanel;
use super::prefix_check::PrefixCheckPanel;
use super::raw_view::RawView;
use super::session::Session;
use super::split::{split_part, within_ms, PartMissing};
use streamscope_core::analysis::Analysis;
use streamscope_core::report::campaign::{CampaignReport, Layout, RunTag};
use streamscope_core::i18n::Lang;
use streamscope_core::report::export::{report_json_text, ImportSource};
use streamscope_core::report::Report;
use streamscope_core::trace::Trace;
use super::sweep_panel::SweepPanel;

split_part!(panels, preload_compare_panel; fn compare_panel(session: Session) -> AnyView {
    view! { <ComparePanel session=session /> }.into_any()
});

split_part!(panels, preload_sweep_panel; fn sweep_panel(session: Session) -> AnyView {
    view! { <SweepPanel session=session /> }.into_any()
});

split_part!(panels, preload_hops_panel; fn hops_panel(session: Session) -> AnyView {
    view! { <HopsPanel session=session /> }.into_any()
});

split_part!(panels, preload_cache_panel; fn cache_panel(session: Session) -> AnyView {
    view! { <CacheAndConnection session=session /> }.into_any()
});

split_part!(panels, preload_prefix_panel; fn prefix_panel(form: FormState) -> AnyView {
    view! { <PrefixCheckPanel form=form /> }.into_any()
});

split_part!(panels, preload_raw_panel; fn raw_panel(session: Session) -> AnyView {
    view! { <RawView session=session /> }.into_any()
});

split_part!(panels, preload_share_panel; fn share_panel(session: Session) -> AnyView {
    view! { <Handoff session=session /> }.into_any()
});

split_part!(report, preload_report; pub fn derive_report(trace: Trace, analysis: Analysis) -> (Trace, Analysis, Report) {
    let report = Report::from_analysis(&trace, &analysis);
    (trace, analysis, report)
});

split_part!(report, preload_campaign_report; pub fn derive_campaign(runs: Vec<(RunTag, Report)>, layout: Layout) -> CampaignReport {
    CampaignReport::of(runs, &layout)
});

split_part!(report, preload_report_json; pub fn report_json(campaign: &CampaignReport, imported_from: Option<ImportSource>, lang: Lang) -> String {
    report_json_text(campaign, imported_from, lang)
});

/// How long a campaign's start waits for the parts (as for the Chinese words, `net::catalogue`).
pub const PART_LOAD_LIMIT_MS: i32 = 15_000;

thread_local! {
    /// Whether the report's part has loaded (it stays loaded).
    static REPORT_PART_LOADED: Cell<bool> = const { Cell::new(false) };
    /// Whether every part has been waited for once (each arrived or failed).
    static PARTS_SETTLED: Cell<bool> = const { Cell::new(false) };
}

/// Whether a campaign may start now: every part was waited for once and the report's part is loaded.
pub fn ready_to_measure() -> bool {
    PARTS_SETTLED.with(Cell::get) && report_part_loaded()
}

/// Waits (at most [`PART_LOAD_LIMIT_MS`]) for every part, so that no part's compilation shares the main
/// thread with a run, and says whether the report's part is there.
pub async fn settle_parts() -> Result<(), PartMissing> {
    let _ = within_ms(PART_LOAD_LIMIT_MS, preload_all()).await;
    PARTS_SETTLED.with(|settled| settled.set(true));
    if report_part_loaded() { Ok(()) } else { Err(PartMissing) }
}

/// Whether the report's part is loaded: then [`derive_report`] and [`derive_campaign`] are ready at
/// their first poll.
pub fn report_part_loaded() -> bool {
    REPORT_PART_LOADED.with(Cell::get)
}

/// Fetches the report's part (once; a failure is tried again at the next call).
pub async fn ensure_report_part() -> Result<(), PartMissing> {
    if !report_part_loaded() {
        // One preload per function, though they share a chunk: each function keeps its own loaded flag
        // (wasm_split's loader), and only a function whose flag is set is ready at its first poll, which
        // `now_or_later` and `ready_now` rely on at a run's end and in `#report-json`.
        preload_report().await?;
        preload_campaign_report().await?;
        preload_report_json().await?;
        REPORT_PART_LOADED.with(|loaded| loaded.set(true));
    }
    Ok(())
}

/// Fetches every part's code (each tried even when one before it failed); `Err` when one did not arrive
/// (that part says so where it would be).
pub async fn preload_all() -> Result<(), PartMissing> {
    let loads = [
        ensure_report_part().await,
        preload_compare_panel().await.map_err(PartMissing::from),
        preload_sweep_panel().await.map_err(PartMissing::from),
        preload_hops_panel().await.map_err(PartMissing::from),
        preload_cache_panel().await.map_err(PartMissing::from),
        preload_prefix_panel().await.map_err(PartMissing::from),
        preload_raw_panel().await.map_err(PartMissing::from),
        preload_share_panel().await.map_err(PartMissing::from),
    ];
    loads.into_iter().collect()
}

/// The panels of the compare, sweep and hop-ladder campaigns and the cache and connection card, in the
/// page's order (between the form and the metrics).
pub fn campaign_panels(session: Session, form: FormState) -> impl IntoView {
    use super::split::lazy_panel;
    view! {
        {lazy_panel("compare", compare_panel(session))}
        {lazy_panel("sweep", sweep_panel(session))}
        {lazy_panel("hops", hops_panel(session))}
        {lazy_panel("cache", cache_panel(session))}
        {lazy_panel("prefix", prefix_panel(form))}
    }
}

/// The raw reads and the share and import card, in the page's order (after the text).
pub fn after_text_panels(session: Session) -> impl IntoView {
    use super::split::lazy_panel;
    view! {
        {lazy_panel("raw", raw_panel(session))}
        {lazy_panel("share", share_panel(session))}
    }
}
