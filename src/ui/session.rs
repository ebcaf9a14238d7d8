//! One campaign at a time (a run, N runs, or A/B runs): starts the net runs, drains each run's feed ten
//! times a second at an animation frame (four while reads come fast: [`super::pace`]) into the
//! incremental analyzer (each read is analysed once, and the final report is built from that same
//! analysis), and publishes what the components render, in place and in proportion to what is new. The
//! reader loop runs in the measuring worker, so no task here can hold a read back; the pace keeps the
//! drawing from taking the CPU the worker and the browser's network threads need. Running a campaign
//! (its rounds, each run's start and its drain) is code in the `after` chunk, entered through
//! `parts::run_campaign` once the parts are loaded: the page's main module holds only what the form needs
//! before a run.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use leptos::prelude::*;
use streamscope_core::analysis::Analyzer;
use streamscope_core::config::page_config::PageConfig;
use streamscope_core::i18n::Text;
use streamscope_core::report::campaign::{CampaignReport, CompareSetup, Layout, RunTag};
use streamscope_core::report::compare::Side;
use streamscope_core::report::export::ImportSource;
use streamscope_core::report::Report;
use streamscope_core::trace::{MeasuredIn, Trace};

use super::live_view::{raw_rows, LiveView, RawRow, RAW_PREVIEW_TOTAL_BYTES};
use super::form::RunRequest;
use super::parts::{
    analyze_reads, campaign_plan, campaign_views_ready, derive_campaign, derive_report, needs_campaign_views, ready_to_measure,
    run_campaign, settle_campaign_views, settle_parts,
};
use super::split::{now_or_later, ready_now, PartMissing};
use streamscope_core::i18n::keys::UiKey;
use super::pace::LIVE_REFRESH_MS;
use crate::net::clock::now_ms;
use crate::net::{start_run, Placement, RunFeed, RunHandle, RunSpec, SharedFeed};

/// Where the page is in its life; mirrored into `#report-json[data-state]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunState {
    /// Nothing has run yet.
    Idle,
    /// A run is in progress.
    Running,
    /// The last run produced a report.
    Done,
    /// The last run failed (verdict `failed`); the report says why.
    Error,
}

impl RunState {
    /// The `data-state` attribute value.
    pub fn as_attr(self) -> &'static str {
        match self {
            RunState::Idle => "idle",
            RunState::Running => "running",
            RunState::Done => "done",
            RunState::Error => "error",
        }
    }
}

/// The signals one measurement publishes; `Copy`, so components capture it freely.
#[derive(Clone, Copy)]
pub struct Session {
    /// Run state for `data-state` and the Run/Cancel buttons.
    pub state: RwSignal<RunState>,
    /// Live view, updated in place at each drain ([`super::pace`]).
    pub live: RwSignal<LiveView>,
    /// Raw reads, appended at each drain.
    pub raw_rows: RwSignal<Vec<RawRow>>,
    /// The final report of the last finished run.
    pub report: RwSignal<Option<Report>>,
    /// A message when a run could not even start (said in the page's language when shown).
    pub start_error: RwSignal<Option<Text>>,
    /// Every finished run of the current campaign, in order.
    pub records: RwSignal<Vec<RunRecord>>,
    /// The campaign's report (single, repeat, compare, sweep or hops) once every run has ended.
    pub campaign: RwSignal<Option<CampaignReport>>,
    /// How the current campaign's runs are grouped (what it compares, its levels or hops).
    pub layout: RwSignal<Layout>,
    /// `(finished runs, planned runs)` of the current campaign.
    pub progress: RwSignal<(usize, usize)>,
    /// Which side the run in progress (or the last one) belongs to.
    pub current_side: RwSignal<Side>,
    /// The configuration of the current campaign (for the permalink and the export; no secrets).
    pub config: RwSignal<Option<PageConfig>>,
    /// Set when what is shown was imported from a file rather than measured here, and from what.
    pub imported: RwSignal<Option<ImportSource>>,
    /// What was shown before the last import, one click away (see [`super::session_import`]).
    pub(super) before_import: StoredValue<Option<super::session_import::Shown>, LocalStorage>,
    pub(super) local: StoredValue<Local, LocalStorage>,
}

/// One finished run: its side (and level or hop), its report, what the live panels drew, and its raw
/// trace (for export).
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// A or B.
    pub side: Side,
    /// The sweep level or hop index; 0 otherwise.
    pub group: u32,
    /// The run's report.
    pub report: Report,
    /// The run as the live panels drew it (timeline, text).
    pub live: LiveView,
    /// The raw facts.
    pub trace: Trace,
}

impl RunRecord {
    /// Where the run belongs in its campaign.
    pub fn tag(&self) -> RunTag {
        RunTag { side: self.side, group: self.group }
    }
}

/// What one press of Run measures: rounds of runs started together, and how to summarise them.
#[derive(Debug, Clone, Default)]
pub struct CampaignPlan {
    /// The rounds in order; the runs of a round start together.
    pub rounds: Vec<Vec<(RunTag, RunSpec)>>,
    /// How the runs are grouped in the report.
    pub layout: Layout,
}

/// Browser-only state (JS handles) that must not cross threads.
pub(super) struct Local {
    /// Runs in flight (one, A and B at once, or a sweep level's streams).
    handles: Vec<RunHandle>,
    /// Bumped by every new campaign or import: drains of an older one stop.
    pub(super) campaign_id: u64,
    /// Rounds still to do in this campaign; the runs of a round start together.
    queue: VecDeque<Vec<(RunTag, RunSpec)>>,
    /// Runs of the current round not finished yet.
    in_flight: usize,
    /// Numbers every run (and every imported one) for the live view.
    next_run_id: u64,
    /// A campaign waiting for the parts that come after the page: its number, and the state to go back
    /// to if it is cancelled before it starts.
    pending_start: Option<(u64, RunState)>,
    /// Numbers the campaigns that waited for the parts.
    next_start: u64,
}

/// Pause between the runs of a campaign, so one run's tail does not overlap the next one's start.
const PAUSE_BETWEEN_RUNS_MS: u64 = 250;

impl Session {
    /// A fresh session with nothing run.
    pub fn new() -> Session {
        Session {
            state: RwSignal::new(RunState::Idle),
            live: RwSignal::new(LiveView::default()),
            raw_rows: RwSignal::new(Vec::new()),
            report: RwSignal::new(None),
            start_error: RwSignal::new(None),
            records: RwSignal::new(Vec::new()),
            campaign: RwSignal::new(None),
            layout: RwSignal::new(Layout::Runs),
            progress: RwSignal::new((0, 0)),
            current_side: RwSignal::new(Side::A),
            config: RwSignal::new(None),
            imported: RwSignal::new(None),
            before_import: StoredValue::new_local(None),
            local: StoredValue::new_local(Local {
                handles: Vec::new(),
                campaign_id: 0,
                queue: VecDeque::new(),
                in_flight: 0,
                next_run_id: 1,
                pending_start: None,
                next_start: 0,
            }),
        }
    }

    /// Measures the plan's rounds in order (cancelling any campaign in progress): the runs of a round
    /// start together (one run, A and B at once, or a sweep level's streams), and the next round starts
    /// when all of them have ended.
    pub fn start_campaign(self, request: RunRequest) {
        self.cancel();
        if let Some(reason) = request.config.plan_error() {
            // `#report-json` must not say `error` over an older campaign's report.
            self.campaign.set(None);
            self.start_error.set(Some(reason));
            self.state.set(RunState::Error);
            return;
        }
        let needs_views = needs_campaign_views(&request.config);
        if !ready_to_measure() || (needs_views && !campaign_views_ready()) {
            // Nothing is measured before the parts that come after the page are here: their compilation
            // would share the main thread with the run, and a run that ended without the code that
            // derives its report would wait for it, or be lost if it never came. A campaign of more than
            // one run also waits for its views (the `campaign` chunk).
            let before = self.state.get_untracked();
            let start = self
                .local
                .try_update_value(|l| {
                    l.next_start += 1;
                    l.pending_start = Some((l.next_start, before));
                    l.next_start
                })
                .unwrap_or_default();
            self.state.set(RunState::Running);
            leptos::task::spawn_local(async move {
                let parts = match settle_parts().await {
                    Ok(()) if needs_views => settle_campaign_views().await.map_err(|_| "campaign"),
                    Ok(()) => Ok(()),
                    Err(PartMissing) => Err("report"),
                };
                // Cancelled (or replaced by a newer start) while it waited: nothing to start.
                let still_pending = self
                    .local
                    .try_update_value(|l| {
                        let mine = l.pending_start.is_some_and(|(n, _)| n == start);
                        if mine {
                            l.pending_start = None;
                        }
                        mine
                    })
                    .unwrap_or(false);
                if !still_pending {
                    return;
                }
                match parts {
                    Ok(()) => self.start_campaign(request),
                    Err(part) => {
                        self.campaign.set(None);
                        self.start_error.set(Some(Text::msg(UiKey::PartUnavailable).with("part", part)));
                        self.state.set(RunState::Error);
                    }
                }
            });
            return;
        }
        // Ready at once: the parts are loaded (checked above).
        let Some(Ok(Some(plan))) = ready_now(campaign_plan(&request)) else { return self.part_missing() };
        self.start_error.set(None);
        self.local.update_value(|l| l.campaign_id += 1);
        self.config.set(Some(request.config));
        self.imported.set(None);
        self.before_import.set_value(None);
        self.records.set(Vec::new());
        self.campaign.set(None);
        self.layout.set(plan.layout);
        self.progress.set((0, plan.rounds.iter().map(Vec::len).sum()));
        self.local.update_value(|l| l.queue = plan.rounds.into());
        self.state.set(RunState::Running);
        if ready_now(run_campaign(self)).is_none_or(|ran| ran.is_err()) {
            self.part_missing();
        }
    }

    /// What the current campaign compares, when it compares (tracked).
    pub fn compare_setup(self) -> Option<CompareSetup> {
        self.layout.with(|l| match l {
            Layout::Compare(setup) => Some(setup.clone()),
            _ => None,
        })
    }

    /// Starts the next round, or ends the campaign when none is left.
    pub(super) fn next(self) {
        let round = self
            .local
            .try_update_value(|l| {
                let round = l.queue.pop_front().unwrap_or_default();
                l.in_flight = round.len();
                round
            })
            .unwrap_or_default();
        if round.is_empty() {
            return self.finish_campaign();
        }
        // With several runs at once the live panels follow one: in a sweep the first (never held back by
        // the browser's connection limit), in A and B at once the last (B).
        let sweep = self.layout.with_untracked(|l| matches!(l, Layout::Sweep(_)));
        let followed = if sweep { 0 } else { round.len() - 1 };
        for (i, (tag, spec)) in round.into_iter().enumerate() {
            self.start_one(tag, spec, i == followed);
        }
    }

    fn finish_campaign(self) {
        let runs = self.records.with_untracked(|r| r.iter().map(|r| (r.tag(), r.report.clone())).collect::<Vec<_>>());
        if runs.is_empty() {
            self.state.set(if self.start_error.get_untracked().is_some() { RunState::Error } else { RunState::Idle });
            return;
        }
        let campaign_id = self.local.with_value(|l| l.campaign_id);
        let layout = self.layout.get_untracked();
        // A single run's campaign is its report, with no part: a single run never fetches the `campaign`
        // chunk, which derives every other campaign (loaded before such a campaign started).
        let derived = async move {
            match CampaignReport::of_single(runs, &layout) {
                Ok(single) => Ok(single),
                Err(runs) => derive_campaign(runs, layout).await,
            }
        };
        now_or_later(derived, move |campaign| {
            if self.local.try_with_value(|l| l.campaign_id) != Some(campaign_id) {
                return;
            }
            match campaign {
                Ok(campaign) => {
                    let state = if campaign.failed() { RunState::Error } else { RunState::Done };
                    self.campaign.set(Some(campaign));
                    self.state.set(state);
                }
                Err(PartMissing) => self.part_missing(),
            }
        });
    }

    /// The part that analyses reads and derives reports was not there during or at the end of a run (it
    /// is fetched before any run starts, so only if that was bypassed): say so instead of a report.
    fn part_missing(self) {
        self.campaign.set(None);
        self.start_error.set(Some(Text::msg(UiKey::PartUnavailable).with("part", "report")));
        self.state.set(RunState::Error);
    }

    /// A run ended: keep it (the findings card shows it when it is the run the live panels follow); once
    /// the round is over, go on with the campaign.
    fn run_ended(self, record: RunRecord, followed: bool) {
        if followed {
            self.report.set(Some(record.report.clone()));
        }
        self.records.update(|r| r.push(record));
        self.progress.update(|p| p.0 += 1);
        let round_over = self
            .local
            .try_update_value(|l| {
                l.in_flight = l.in_flight.saturating_sub(1);
                if l.in_flight == 0 {
                    l.handles.clear();
                }
                l.in_flight == 0
            })
            .unwrap_or(false);
        if round_over {
            set_timeout(move || self.next(), std::time::Duration::from_millis(PAUSE_BETWEEN_RUNS_MS));
        }
    }

    pub(super) fn new_run_id(self) -> u64 {
        self.local
            .try_update_value(|l| {
                l.next_run_id += 1;
                l.next_run_id
            })
            .unwrap_or_default()
    }

    /// Starts measuring one run; `publish` makes it the one the live panels draw.
    fn start_one(self, tag: RunTag, spec: RunSpec, publish: bool) {
        let feed: SharedFeed = Rc::new(RefCell::new(RunFeed::default()));
        let (handle, run) = start_run(spec, feed.clone(), placement());
        let campaign_id = self.local.with_value(|l| l.campaign_id);
        let run_id = self.new_run_id();
        self.local.update_value(|l| l.handles.push(handle.clone()));
        if publish {
            self.current_side.set(tag.side);
            self.start_error.set(None);
            self.report.set(None);
            self.live.set(LiveView::new(run_id));
            self.raw_rows.set(Vec::new());
        }
        leptos::task::spawn_local(run);
        let drain = Drain {
            session: self,
            campaign_id,
            tag,
            publish,
            run_id,
            feed,
            handle,
            told_answer_end: false,
            analyzer: None,
            preview_budget: RAW_PREVIEW_TOTAL_BYTES,
            block_main_ms: if publish { block_main_ms() } else { 0.0 },
        };
        drain.schedule_frame();
    }

    /// Cancels the campaign: the runs in flight end (their partial traces are kept and reported) and no
    /// further run starts.
    pub fn cancel(self) {
        let (handles, pending) = self
            .local
            .try_update_value(|l| {
                l.queue.clear();
                (std::mem::take(&mut l.handles), l.pending_start.take())
            })
            .unwrap_or_default();
        if let Some((_, before)) = pending {
            self.state.set(before);
        }
        for handle in handles {
            handle.cancel();
        }
    }

    /// Whether a run is in progress.
    pub fn running(self) -> bool {
        self.state.get() == RunState::Running
    }
}

/// A test hook's value in the page's query.
fn test_hook(name: &str) -> Option<String> {
    super::query::query_pairs().into_iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

/// The test hook `measure_on=main-thread`: measure on the page's main thread even when the worker is
/// there (the fallback, and the control that shows what the worker protects against).
fn placement() -> Placement {
    match test_hook("measure_on").as_deref() {
        Some("main-thread") => Placement::MainThread,
        _ => Placement::Auto,
    }
}

/// The test hook `block_main_ms=N` in the page's query: once the first content event is drawn, the
/// page's main thread busy-waits N ms, to prove that a busy page changes nothing measured.
fn block_main_ms() -> f64 {
    test_hook("block_main_ms")
        .and_then(|v| streamscope_core::decimal::parse_decimal(&v))
        .filter(|ms| ms.is_finite() && *ms > 0.0)
        .map_or(0.0, |ms| ms.min(10_000.0))
}

/// How long a drain waits for an animation frame before it runs anyway (a hidden tab gets none).
const HIDDEN_TAB_DRAIN_MS: u64 = 250;

/// The per-frame drain of one run.
struct Drain {
    session: Session,
    campaign_id: u64,
    tag: RunTag,
    /// Whether this run feeds the live panels (only one does when A and B run at once).
    publish: bool,
    run_id: u64,
    feed: SharedFeed,
    /// The run's handle, to say when its answer ended.
    handle: RunHandle,
    /// Whether the run was told its answer ended ([`RunHandle::answer_ended`]).
    told_answer_end: bool,
    analyzer: Option<Analyzer>,
    /// What is left of the raw view's preview budget for this run.
    preview_budget: usize,
    /// The main-thread-block test hook, 0 when off or done.
    block_main_ms: f64,
}

impl Drain {
    /// Runs the next drain `delay_ms` from now ([`LIVE_REFRESH_MS`]), at the next animation frame
    /// after it.
    fn schedule_after(self, delay_ms: f64) {
        let delay = std::time::Duration::from_millis(delay_ms.ceil() as u64);
        let slot = Rc::new(RefCell::new(Some(self)));
        let on_timer = slot.clone();
        let set = set_timeout_with_handle(
            move || {
                if let Some(drain) = on_timer.borrow_mut().take() {
                    drain.schedule_frame();
                }
            },
            delay,
        );
        if set.is_err() {
            // No timer: draw at the next frame rather than never.
            if let Some(drain) = slot.borrow_mut().take() {
                drain.schedule_frame();
            }
        }
    }

    /// Runs the next drain at the next animation frame or, in a hidden tab (where the browser stops
    /// animation frames), after [`HIDDEN_TAB_DRAIN_MS`], whichever comes first: a run finishes and is
    /// reported even while the user looks at another tab.
    fn schedule_frame(self) {
        // The worker holds the reads until asked: one message per drawing, not one per read.
        if self.feed.borrow().trace.measured_in == Some(MeasuredIn::Worker) {
            crate::net::worker::client::pull();
        }
        let slot = Rc::new(RefCell::new(Some(self)));
        let timer: Rc<std::cell::Cell<Option<TimeoutHandle>>> = Rc::default();
        let (on_frame, frame_clears) = (slot.clone(), timer.clone());
        request_animation_frame(move || {
            if let Some(handle) = frame_clears.take() {
                handle.clear();
            }
            Drain::tick(&on_frame);
        });
        let delay = std::time::Duration::from_millis(HIDDEN_TAB_DRAIN_MS);
        timer.set(set_timeout_with_handle(move || Drain::tick(&slot), delay).ok());
    }

    /// One drain, by whichever of the two callbacks comes first (the other finds the slot empty).
    fn tick(slot: &Rc<RefCell<Option<Drain>>>) {
        let Some(mut drain) = slot.borrow_mut().take() else { return };
        // A newer campaign (or an import) replaced this one: stop drawing the old run.
        if drain.session.local.try_with_value(|l| l.campaign_id) != Some(drain.campaign_id) {
            return;
        }
        if let Some(delay_ms) = drain.frame() {
            drain.schedule_after(delay_ms);
        }
    }

    /// Feeds the reads that arrived since the last frame to the analyzer (each exactly once), publishes
    /// what is new, and at the end builds the report from that same analysis. Returns how long to wait
    /// before the next drain ([`LIVE_REFRESH_MS`]) while the run is going, `None` once it ended.
    fn frame(&mut self) -> Option<f64> {
        let shared = self.feed.clone();
        let mut feed = shared.borrow_mut();
        let new_reads = feed.take_pending();
        let ended = feed.trace.end.clone();
        let next_delay_ms = LIVE_REFRESH_MS;
        if self.analyzer.is_none() && feed.trace.headers_ms.is_none() && new_reads.is_empty() && ended.is_none() {
            if self.publish {
                let elapsed = feed.elapsed_ms();
                self.session.live.update(|l| l.elapsed_ms = elapsed);
            }
            return Some(next_delay_ms);
        }
        // Ready at once: the part is loaded before any run starts (`Session::start_campaign`).
        let analyzed = ready_now(analyze_reads(&mut self.analyzer, feed.trace.header("content-type"), &new_reads, ended.as_ref()));
        let Some(analyzer) = self.analyzer.as_ref().filter(|_| matches!(analyzed, Some(Ok(())))) else {
            drop(feed);
            self.session.cancel();
            self.session.part_missing();
            return None;
        };
        if self.publish {
            let first_index = feed.trace.reads.len();
            let elapsed = ended.as_ref().map_or_else(|| feed.elapsed_ms(), |e| e.at_ms());
            let (headers_ms, status) = (feed.trace.headers_ms, feed.trace.status);
            let analysis = analyzer.analysis();
            self.session.live.update(|l| {
                l.elapsed_ms = elapsed;
                l.headers_ms = headers_ms;
                l.status = status;
                l.add_reads(&new_reads);
                l.add_events(analysis);
            });
            if !new_reads.is_empty() {
                let rows = raw_rows(first_index, &new_reads, &mut self.preview_budget);
                self.session.raw_rows.update(|r| r.extend(rows));
            }
            self.maybe_block_main_thread();
        }
        // A response left open after the answer's end marker would hold the report until the idle
        // time-out: the run stops reading a little after the marker instead (`AFTER_END_LIMIT_MS`).
        let answer_ended = self.analyzer.as_ref().is_some_and(|a| a.analysis().answer_ended());
        if ended.is_none() && !self.told_answer_end && answer_ended {
            if let Some(last) = new_reads.last() {
                self.told_answer_end = true;
                self.handle.answer_ended(last.at_ms);
            }
        }
        for read in new_reads {
            feed.trace.push_read(read.at_ms, read.bytes);
        }
        if ended.is_none() {
            return Some(next_delay_ms);
        }
        let trace = std::mem::take(&mut feed.trace);
        drop(feed);
        let analysis = self.analyzer.take().map(|a| a.into_analysis()).unwrap_or_default();
        let (session, tag, publish, run_id, campaign_id) = (self.session, self.tag, self.publish, self.run_id, self.campaign_id);
        // In this same task: the report's part is loaded before any run starts.
        now_or_later(derive_report(trace, analysis), move |derived| {
            if session.local.try_with_value(|l| l.campaign_id) != Some(campaign_id) {
                return;
            }
            let Ok((trace, analysis, report)) = derived else { return session.part_missing() };
            let live = if publish { session.live.get_untracked() } else { LiveView::of_run(run_id, &trace, &analysis) };
            session.run_ended(RunRecord { side: tag.side, group: tag.group, report, live, trace }, publish);
        });
        None
    }

    fn maybe_block_main_thread(&mut self) {
        if self.block_main_ms > 0.0 && self.session.live.with_untracked(|l| !l.content_at_ms.is_empty()) {
            let until = now_ms() + self.block_main_ms;
            self.block_main_ms = 0.0;
            while now_ms() < until {}
        }
    }
}
