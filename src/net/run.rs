//! Starting a run: in the measuring worker when it is ready (see [`super::worker`]), else on the page's
//! main thread, and the report says which (`measured_in`). Either way the reader loop only appends raw
//! facts to the run's feed and never waits on rendering.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;

use js_sys::Uint8Array;
use streamscope_core::trace::{MeasuredIn, ReadChunk, Trace, TraceEnd};
use wasm_bindgen_futures::JsFuture;

use super::feed::{RunFeed, SharedFeed};
use super::measure::{measure_part, Abort, Outcome, RunSink};
use crate::split::PartMissing;
use super::request::RunSpec;
use super::worker::client;

/// Where a run may be measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// In the worker when it is ready, else on the page.
    Auto,
    /// On the page's main thread (the fallback; tests of the reader loop itself).
    MainThread,
}

enum Target {
    /// Not started yet (waiting for the worker).
    Pending,
    Worker(u32),
    Local(Abort),
}

/// Cancels a run at any moment; cloning shares the same run.
#[derive(Clone)]
pub struct RunHandle {
    cancelled: Rc<Cell<bool>>,
    target: Rc<RefCell<Target>>,
}

impl RunHandle {
    /// Aborts the request; the run ends with [`TraceEnd::Cancelled`] and keeps what it recorded.
    pub fn cancel(&self) {
        self.cancelled.set(true);
        match &*self.target.borrow() {
            Target::Pending => {}
            Target::Worker(run) => client::cancel(*run),
            Target::Local(abort) => abort.cancel(),
        }
    }

    /// The page saw the answer's end marker in the read at `at_ms` (ms after `fetch()`): the run stops
    /// reading [`streamscope_core::trace::AFTER_END_LIMIT_MS`] after it if the response is still open.
    pub fn answer_ended(&self, at_ms: f64) {
        match &*self.target.borrow() {
            Target::Pending => {}
            Target::Worker(run) => client::answer_ended(*run, at_ms),
            Target::Local(abort) => abort.answer_ended(at_ms),
        }
    }
}

/// Starts measuring `spec` into `feed` (which is reset). Returns the handle to cancel it and the future
/// that performs the run; the future resolves once the feed's `trace.end` is set.
pub fn start_run(spec: RunSpec, feed: SharedFeed, placement: Placement) -> (RunHandle, impl Future<Output = ()>) {
    let handle = RunHandle { cancelled: Rc::new(Cell::new(false)), target: Rc::new(RefCell::new(Target::Pending)) };
    *feed.borrow_mut() = RunFeed { trace: Trace { request: spec.summary(), ..Trace::default() }, ..RunFeed::default() };
    let run = {
        let handle = handle.clone();
        async move {
            if placement == Placement::Auto && client::ready().await && !handle.cancelled.get() {
                if let Some((run, finished)) = client::start(&spec, feed.clone()) {
                    *handle.target.borrow_mut() = Target::Worker(run);
                    let _ = JsFuture::from(finished).await;
                    return;
                }
            }
            if handle.cancelled.get() {
                feed.borrow_mut().trace.end = Some(TraceEnd::Cancelled { at_ms: 0.0 });
                return;
            }
            let abort = match Abort::new() {
                Ok(abort) => abort,
                Err(message) => {
                    feed.borrow_mut().trace.end = Some(TraceEnd::NetworkError { at_ms: 0.0, message, during_body: false });
                    return;
                }
            };
            *handle.target.borrow_mut() = Target::Local(abort.clone());
            feed.borrow_mut().trace.measured_in = Some(MeasuredIn::MainThread);
            let sink = Rc::new(LocalSink { feed: feed.clone() });
            let outcome = match measure_part(spec, sink, abort).await {
                Ok(measuring) => measuring.await,
                Err(PartMissing) => Outcome::unmeasured(
                    "the page's measuring code did not load (its file could not be fetched): reload the page".into(),
                ),
            };
            feed.borrow_mut().ended(outcome.end, outcome.connection, outcome.probes);
        }
    };
    (handle, run)
}

/// The page-thread sink: copies each read into the feed.
struct LocalSink {
    feed: SharedFeed,
}

impl RunSink for LocalSink {
    fn started(&self, t0_ms: f64, unix_ms: f64) {
        self.feed.borrow_mut().started(Some(t0_ms), Some(unix_ms));
    }

    fn headers(&self, at_ms: f64, status: u16, headers: Vec<(String, String)>) {
        self.feed.borrow_mut().headers(Some(at_ms), Some(status), headers);
    }

    fn read(&self, at_ms: f64, chunk: Uint8Array) {
        self.feed.borrow_mut().pending.push(ReadChunk::new(at_ms, chunk.to_vec()));
    }
}
