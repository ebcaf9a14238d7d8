//! What a run in progress has delivered so far, wherever it is measured: the reader loop (in the worker,
//! relayed by messages, or on the page as a fallback) appends raw facts here, and the session drains the
//! new reads once per animation frame, feeding each one to the analyzer exactly once.

use std::cell::RefCell;
use std::rc::Rc;

use streamscope_core::trace::{ReadChunk, Trace};

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
    /// Takes the reads delivered since the last call.
    pub fn take_pending(&mut self) -> Vec<ReadChunk> {
        std::mem::take(&mut self.pending)
    }
}

/// The feed of one run, shared by the reader (or the worker relay) and the session.
pub type SharedFeed = Rc<RefCell<RunFeed>>;
