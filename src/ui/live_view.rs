//! What the live panels draw: the live view of a run (recomputed at most once per frame while it streams,
//! or once from a finished trace) and the raw view's rows.

use std::sync::Arc;

use streamscope_core::analysis::Analyzer;
use streamscope_core::analysis::event::EventKind;
use streamscope_core::trace::{Trace, TraceEnd};

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

impl LiveView {
    /// The live view of a finished trace (as the panels drew it at the end of the run).
    pub fn from_trace(trace: &Trace) -> LiveView {
        let mut analyzer = Analyzer::new(trace.header("content-type"));
        for read in &trace.reads {
            analyzer.push(read.at_ms, &read.bytes);
        }
        match &trace.end {
            Some(end @ TraceEnd::Complete { .. }) => analyzer.finish(end.at_ms()),
            Some(end) => analyzer.abort(end.at_ms()),
            None => {}
        }
        live_view(trace, &analyzer, trace.end.as_ref().map_or(0.0, |e| e.at_ms()))
    }
}

/// Raw-view rows of every read of a trace.
pub fn raw_rows(trace: &Trace) -> Vec<RawRow> {
    trace.reads.iter().enumerate().map(|(i, r)| raw_row(i, r.at_ms, &r.bytes)).collect()
}

/// The live view of `trace` as `analyzer` has parsed it so far.
pub fn live_view(trace: &Trace, analyzer: &Analyzer, elapsed_ms: f64) -> LiveView {
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
        reads: trace.reads.iter().map(|r| (r.at_ms, r.len_bytes())).collect(),
        content_at_ms,
        text_len_after,
        reasoning_at_ms,
        text: analyzer.text().to_string(),
        reasoning: analyzer.reasoning_text().to_string(),
        bytes: trace.body_bytes(),
    }
}

/// The raw-view row of one read.
pub fn raw_row(index: usize, at_ms: f64, bytes: &[u8]) -> RawRow {
    let shown = &bytes[..bytes.len().min(RAW_PREVIEW_BYTES)];
    RawRow {
        index,
        at_ms,
        len_bytes: bytes.len(),
        preview: Arc::from(String::from_utf8_lossy(shown).as_ref()),
        hidden_bytes: bytes.len() - shown.len(),
    }
}
