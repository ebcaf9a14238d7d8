//! One measurement at a time: starts the net run, drains the shared trace once per animation frame into
//! the incremental analyzer, and publishes what the components render. Nothing here blocks the reader.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use streamscope_core::analyzer::Analyzer;
use streamscope_core::event::EventKind;
use streamscope_core::report::Report;
use streamscope_core::trace::{Trace, TraceEnd};
use streamscope_core::verdict::Verdict;

use crate::net::clock::now_ms;
use crate::net::{start_run, RunHandle, RunSpec, SharedTrace};

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

/// One read as the raw view shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRow {
    /// Read number from 0.
    pub index: usize,
    /// When it resolved.
    pub at_ms: f64,
    /// Bytes it delivered.
    pub len_bytes: usize,
    /// The bytes as text (invalid UTF-8 replaced), cut to [`RAW_PREVIEW_BYTES`]; shared, so the row
    /// list is cheap to clone every frame.
    pub preview: Arc<str>,
    /// Bytes not shown.
    pub hidden_bytes: usize,
}

/// How many bytes of one read the raw view shows; the rest is counted, not rendered (a 1 MB line must not
/// freeze the tab).
pub const RAW_PREVIEW_BYTES: usize = 2048;

/// What the live panels draw while the stream arrives (cheap to compute from the analyzer each frame).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveView {
    /// Time since the request was sent.
    pub elapsed_ms: f64,
    /// Response headers time.
    pub headers_ms: Option<f64>,
    /// HTTP status.
    pub status: Option<u16>,
    /// `(at_ms, len_bytes)` of every read.
    pub reads: Vec<(f64, usize)>,
    /// Arrival time of every content event.
    pub content_at_ms: Vec<f64>,
    /// Length of `text` (bytes) once each content event had arrived, parallel to `content_at_ms`: what
    /// the replay shows at each moment.
    pub text_len_after: Vec<usize>,
    /// Arrival time of every reasoning event.
    pub reasoning_at_ms: Vec<f64>,
    /// Content text so far.
    pub text: String,
    /// Reasoning text so far.
    pub reasoning: String,
    /// Body bytes so far.
    pub bytes: usize,
}

/// The signals one measurement publishes; `Copy`, so components capture it freely.
#[derive(Clone, Copy)]
pub struct Session {
    /// Run state for `data-state` and the Run/Cancel buttons.
    pub state: RwSignal<RunState>,
    /// Live view, replaced at most once per animation frame.
    pub live: RwSignal<LiveView>,
    /// Raw reads, appended at most once per animation frame.
    pub raw_rows: RwSignal<Vec<RawRow>>,
    /// The final report of the last run.
    pub report: RwSignal<Option<Report>>,
    /// A message when a run could not even start.
    pub start_error: RwSignal<Option<String>>,
    local: StoredValue<Local, LocalStorage>,
}

/// Browser-only state (JS handles, `Rc`s) that must not cross threads.
struct Local {
    trace: SharedTrace,
    handle: Option<RunHandle>,
    run_id: u64,
}

impl Session {
    /// A fresh session with nothing run.
    pub fn new() -> Session {
        Session {
            state: RwSignal::new(RunState::Idle),
            live: RwSignal::new(LiveView::default()),
            raw_rows: RwSignal::new(Vec::new()),
            report: RwSignal::new(None),
            start_error: RwSignal::new(None),
            local: StoredValue::new_local(Local {
                trace: Rc::new(RefCell::new(Trace::default())),
                handle: None,
                run_id: 0,
            }),
        }
    }

    /// Starts measuring `spec`, cancelling any run in progress.
    pub fn start(self, spec: RunSpec) {
        self.cancel();
        let trace: SharedTrace = Rc::new(RefCell::new(Trace::default()));
        let (handle, run) = match start_run(spec, trace.clone()) {
            Ok(started) => started,
            Err(message) => {
                self.start_error.set(Some(message));
                self.state.set(RunState::Error);
                return;
            }
        };
        let run_id = self.local.with_value(|l| l.run_id) + 1;
        self.local.update_value(|l| {
            l.trace = trace.clone();
            l.handle = Some(handle);
            l.run_id = run_id;
        });
        self.start_error.set(None);
        self.report.set(None);
        self.live.set(LiveView::default());
        self.raw_rows.set(Vec::new());
        self.state.set(RunState::Running);
        leptos::task::spawn_local(run);
        let drain = Drain { session: self, run_id, trace, analyzer: None, fed_reads: 0, started_ms: now_ms() };
        drain.schedule();
    }

    /// Cancels the run in progress, if any; its partial trace is kept and reported.
    pub fn cancel(self) {
        let handle = self.local.try_update_value(|l| l.handle.take()).flatten();
        if let Some(handle) = handle {
            handle.cancel();
        }
    }

    /// Whether a run is in progress.
    pub fn running(self) -> bool {
        self.state.get() == RunState::Running
    }
}

/// The per-frame drain of one run.
struct Drain {
    session: Session,
    run_id: u64,
    trace: SharedTrace,
    analyzer: Option<Analyzer>,
    fed_reads: usize,
    started_ms: f64,
}

impl Drain {
    fn schedule(mut self) {
        request_animation_frame(move || {
            // A newer run replaced this one: stop drawing the old trace.
            if self.session.local.try_with_value(|l| l.run_id) != Some(self.run_id) {
                return;
            }
            if self.frame() {
                self.schedule();
            }
        });
    }

    /// Feeds new reads and publishes; returns whether the run is still going.
    fn frame(&mut self) -> bool {
        let trace = self.trace.borrow();
        let analyzer = self
            .analyzer
            .get_or_insert_with(|| Analyzer::new(trace.header("content-type")));
        let mut new_rows = Vec::new();
        for (index, read) in trace.reads.iter().enumerate().skip(self.fed_reads) {
            analyzer.push(read.at_ms, &read.bytes);
            new_rows.push(raw_row(index, read.at_ms, &read.bytes));
        }
        self.fed_reads = trace.reads.len();
        match &trace.end {
            Some(end @ TraceEnd::Complete { .. }) => analyzer.finish(end.at_ms()),
            // A cut-off stream's last partial line is not an event (the report's analysis agrees).
            Some(end) => analyzer.abort(end.at_ms()),
            None => {}
        }
        let live = live_view(&trace, analyzer, now_ms() - self.started_ms);
        if !new_rows.is_empty() {
            self.session.raw_rows.update(|rows| rows.extend(new_rows));
        }
        self.session.live.set(live);
        if trace.end.is_none() {
            return true;
        }
        let report = Report::from_trace(&trace);
        let state = if report.verdict == Verdict::Failed { RunState::Error } else { RunState::Done };
        self.session.local.update_value(|l| l.handle = None);
        self.session.report.set(Some(report));
        self.session.state.set(state);
        false
    }
}

fn live_view(trace: &Trace, analyzer: &Analyzer, elapsed_ms: f64) -> LiveView {
    let mut content_at_ms = Vec::new();
    let mut text_len_after = Vec::new();
    let mut reasoning_at_ms = Vec::new();
    let mut text_len = 0;
    for event in analyzer.events() {
        match &event.kind {
            EventKind::Content(text) => {
                content_at_ms.push(event.at_ms);
                text_len += text.len();
                text_len_after.push(text_len);
            }
            EventKind::Reasoning(_) => reasoning_at_ms.push(event.at_ms),
            _ => {}
        }
    }
    LiveView {
        elapsed_ms: trace.end.as_ref().map_or(elapsed_ms, |e| e.at_ms()),
        headers_ms: trace.headers_ms,
        status: trace.status,
        reads: trace.reads.iter().map(|r| (r.at_ms, r.bytes.len())).collect(),
        content_at_ms,
        text_len_after,
        reasoning_at_ms,
        text: analyzer.text().to_string(),
        reasoning: analyzer.reasoning_text().to_string(),
        bytes: trace.body_bytes(),
    }
}

fn raw_row(index: usize, at_ms: f64, bytes: &[u8]) -> RawRow {
    let shown = &bytes[..bytes.len().min(RAW_PREVIEW_BYTES)];
    RawRow {
        index,
        at_ms,
        len_bytes: bytes.len(),
        preview: Arc::from(String::from_utf8_lossy(shown).as_ref()),
        hidden_bytes: bytes.len() - shown.len(),
    }
}
