//! What the live panels draw, kept up to date incrementally: each frame adds only the reads and events
//! that arrived since the last one (work proportional to what is new, never to the total), and the raw
//! view's rows.

use std::sync::Arc;

use streamscope_core::analysis::event::EventKind;
use streamscope_core::analysis::Analysis;
use streamscope_core::measure::LiveFigures;
use streamscope_core::trace::{answer_status, ReadChunk, Trace};

use super::timeline_bins::TimelineBins;

/// One read as the raw view shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRow {
    /// Read number from 0.
    pub index: usize,
    /// When it resolved.
    pub at_ms: f64,
    /// Bytes it delivered.
    pub len_bytes: usize,
    /// The bytes as text (invalid UTF-8 replaced), cut to [`RAW_PREVIEW_BYTES`]; empty once the run's
    /// previews reached [`RAW_PREVIEW_TOTAL_BYTES`].
    pub preview: Arc<str>,
    /// Bytes not shown.
    pub hidden_bytes: usize,
}

/// How many bytes of one read the raw view shows; the rest is counted, not rendered (a 1 MB line must not
/// freeze the tab).
pub const RAW_PREVIEW_BYTES: usize = 2048;

/// How many preview bytes one run keeps for the raw view in all; later rows keep time and size only (the
/// export has the bytes, up to the trace's own cap).
pub const RAW_PREVIEW_TOTAL_BYTES: usize = 8 * 1024 * 1024;

/// What the live panels draw while the stream arrives, updated in place once per frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveView {
    /// Which run this is (views that append, like the answer text, start over when it changes).
    pub run_id: u64,
    /// Time since the request was sent (the run's end once it ended).
    pub elapsed_ms: f64,
    /// Response headers time.
    pub headers_ms: Option<f64>,
    /// HTTP status.
    pub status: Option<u16>,
    /// TTFB, TTFT, counts: read off the analysis by core, never computed here.
    pub figures: LiveFigures,
    /// When the last read resolved (the timeline's span).
    pub last_read_ms: Option<f64>,
    /// Arrival time of every content event (8 bytes each: what the replay steps through).
    pub content_at_ms: Vec<f64>,
    /// Length of `text` (bytes) once each content event had arrived, parallel to `content_at_ms`.
    pub text_len_after: Vec<usize>,
    /// Content text so far.
    pub text: String,
    /// Reasoning text so far.
    pub reasoning: String,
    /// Reads and events per time bin, for the timeline.
    pub timeline: TimelineBins,
    /// Analysis events already taken in.
    events_seen: usize,
}

impl LiveView {
    /// An empty view for run `run_id`.
    pub fn new(run_id: u64) -> LiveView {
        LiveView { run_id, ..LiveView::default() }
    }

    /// Takes in reads that just arrived.
    pub fn add_reads(&mut self, reads: &[ReadChunk]) {
        for read in reads {
            self.last_read_ms = Some(read.at_ms);
            self.timeline.add_read(read.at_ms, read.len_bytes());
        }
    }

    /// Takes in the events `analysis` produced since the last call.
    pub fn add_events(&mut self, analysis: &Analysis) {
        // The body of an error status is the error (shown in the raw view and the findings), not text.
        let answered = answer_status(self.status);
        for event in analysis.events.get(self.events_seen..).unwrap_or_default().iter().filter(|_| answered) {
            match &event.kind {
                EventKind::Content(text) | EventKind::ToolArgs(text) => {
                    self.text.push_str(text);
                    self.content_at_ms.push(event.at_ms);
                    self.text_len_after.push(self.text.len());
                    self.timeline.add_content(event.at_ms);
                }
                EventKind::Reasoning(text) => {
                    self.reasoning.push_str(text);
                    self.timeline.add_reasoning(event.at_ms);
                }
                _ => {}
            }
        }
        self.events_seen = analysis.events.len();
        self.figures = LiveFigures::of(analysis, answered);
    }

    /// The view of a finished trace and its analysis (an import, or a run not drawn live).
    pub fn of_run(run_id: u64, trace: &Trace, analysis: &Analysis) -> LiveView {
        let mut live = LiveView::new(run_id);
        live.headers_ms = trace.headers_ms;
        live.status = trace.status;
        live.add_reads(&trace.reads);
        live.add_events(analysis);
        live.elapsed_ms = trace.end.as_ref().map_or(0.0, |e| e.at_ms());
        live
    }

    /// The view of a finished trace, analysed here.
    #[cfg(test)]
    pub fn from_trace(run_id: u64, trace: &Trace) -> LiveView {
        LiveView::of_run(run_id, trace, &streamscope_core::analysis::analyze(trace))
    }
}

/// Raw-view rows for reads that just arrived, numbered from `first_index`; `preview_budget` is what is
/// left of [`RAW_PREVIEW_TOTAL_BYTES`] for this run (updated).
pub fn raw_rows(first_index: usize, reads: &[ReadChunk], preview_budget: &mut usize) -> Vec<RawRow> {
    reads.iter().enumerate().map(|(i, r)| raw_row(first_index + i, r.at_ms, &r.bytes, preview_budget)).collect()
}

/// The raw-view row of one read.
pub fn raw_row(index: usize, at_ms: f64, bytes: &[u8], preview_budget: &mut usize) -> RawRow {
    let shown = &bytes[..bytes.len().min(RAW_PREVIEW_BYTES).min(*preview_budget)];
    *preview_budget -= shown.len();
    RawRow {
        index,
        at_ms,
        len_bytes: bytes.len(),
        preview: Arc::from(String::from_utf8_lossy(shown).as_ref()),
        hidden_bytes: bytes.len() - shown.len(),
    }
}
