//! What a run in progress has delivered so far, wherever it is measured: the reader loop (in the worker,
//! relayed by messages, or on the page as a fallback) appends raw facts here, and the session drains the
//! new reads at its pace (`ui::pace`), feeding each one to the analyzer exactly once.

use std::cell::RefCell;
use std::rc::Rc;

use streamscope_core::trace::{ConnectionTiming, Probes, ReadChunk, Trace, TraceEnd};

use super::clock::now_ms;

/// A run's raw facts as they arrive.
#[derive(Debug, Default)]
pub struct RunFeed {
    /// Everything but the reads' bytes: request, headers, status, end, connection, probes; the session
    /// appends each read to `trace` after the analyzer has consumed it.
    pub trace: Trace,
    /// Reads delivered since the session last drained the feed, in order.
    pub pending: Vec<ReadChunk>,
    /// When `fetch()` was called, on the page's clock (`performance.now()` of the page), once known.
    pub t0_page_ms: Option<f64>,
}

impl RunFeed {
    /// `fetch()` was called at `t0_page_ms` on the page's clock; `unix_ms` is the wall clock then.
    pub fn started(&mut self, t0_page_ms: Option<f64>, unix_ms: Option<f64>) {
        self.t0_page_ms = t0_page_ms;
        self.trace.started_unix_ms = unix_ms;
    }

    /// Response headers arrived `at_ms` after `fetch()`.
    pub fn headers(&mut self, at_ms: Option<f64>, status: Option<u16>, headers: Vec<(String, String)>) {
        self.trace.headers_ms = at_ms;
        self.trace.status = status;
        self.trace.headers = headers;
    }

    /// The run ended; what was learnt after it comes with the end.
    pub fn ended(&mut self, end: TraceEnd, connection: Option<ConnectionTiming>, probes: Probes) {
        self.trace.connection = connection;
        self.trace.probes = probes;
        self.trace.end = Some(end);
    }

    /// Time since the run's `fetch()` on the page's clock (0 before it is known).
    pub fn elapsed_ms(&self) -> f64 {
        self.t0_page_ms.map_or(0.0, |t0| (now_ms() - t0).max(0.0))
    }

    /// Takes the reads delivered since the last call.
    pub fn take_pending(&mut self) -> Vec<ReadChunk> {
        std::mem::take(&mut self.pending)
    }
}

/// The feed of one run, shared by the reader (or the worker relay) and the session.
pub type SharedFeed = Rc<RefCell<RunFeed>>;
