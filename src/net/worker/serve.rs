//! The worker's side: listens for runs, measures each with the same reader loop as the page fallback,
//! and posts what it records to the page. Reads wait in the worker until the page pulls them, as it is
//! about to draw ([`protocol::PULL`]); only a run's first read goes at once (the live TTFT), and the rest
//! when the run ends. Timestamps are taken when each read resolves, so batching only paces the page's live
//! view, never the measurement.
//!
//! Why pull, not push: a message per read (at most every 8 ms, as before) woke the page's main thread 50
//! times a second at 50 events/s, 0.44 ms each, and on 2 cores any main-thread work delays the worker's
//! next timestamp (measured, BENCHMARKS.md "Where the page's CPU goes"). A drain needs the reads once per
//! refresh, so one message per refresh carries them.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Float64Array, Uint8Array};
use streamscope_core::trace::{ConnectionTiming, Probes, TraceEnd};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::by_run::ByRun;
use super::end;
use super::protocol::{self, message, set};
use crate::split::split_part;
use crate::net::clock::time_origin_ms;
use crate::net::measure::{measure, Abort, RunSink};
use crate::net::request::RunSpec;

/// Whether this wasm runs in the measuring worker (a dedicated worker's scope) rather than on the page.
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

/// Starts serving runs in this worker and tells the page it is ready. Call once, from `main`, in the
/// worker. The serving code (with the reader loop) is the `measure` chunk's ([`crate::split`]), fetched
/// now: the page's main module does not carry it. When it does not arrive, the worker tells the page
/// ([`protocol::FAILED`]), which measures on its own thread instead.
pub fn serve() {
    crate::task::spawn(async {
        if serve_runs().await.is_err() {
            let m = message(protocol::FAILED, None);
            set(&m, "message", &JsValue::from_str("the measuring worker's code did not load"));
            post(&m, None);
        }
    });
}

split_part!(measure, preload_serve_runs; fn serve_runs() -> () {
    listen()
});

/// Listens for the page's messages, warms the reader loop up, then says ready.
fn listen() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let runs: Runs = Rc::default();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let data = event.data();
        if protocol::get_str(&data, "kind").as_deref() == Some(protocol::PULL) {
            for (run, (_, batch)) in runs.borrow().iter() {
                flush(run, batch);
            }
            return;
        }
        let Some(run) = protocol::get_run(&data) else { return };
        match protocol::get_str(&data, "kind").as_deref() {
            Some(protocol::START) => {
                let spec = super::spec::from_js(&protocol::get(&data, "spec"));
                crate::task::spawn(run_in_worker(run, spec, runs.clone()));
            }
            Some(protocol::CANCEL) => {
                if let Some((abort, _)) = runs.borrow().get(run) {
                    abort.cancel();
                }
            }
            Some(protocol::ANSWER_END) => {
                if let (Some((abort, _)), Some(at_ms)) = (runs.borrow().get(run), protocol::get_f64(&data, "at_ms")) {
                    abort.answer_ended(at_ms);
                }
            }
            _ => {}
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    crate::task::spawn(async {
        warm_up().await;
        post(&message(protocol::READY, None), None);
    });
}

/// A stream the worker measures once before it says ready (a `data:` URL: no network).
const WARM_UP_URL: &str = "data:text/event-stream,data%3A%20%7B%7D%0A%0A";

/// Runs the whole measuring path once on a local `data:` URL before the first real run: the browser
/// compiles wasm functions lazily, on first call, so a first run paid for compiling the reader loop.
/// A first run in a fresh browser is still 5-15 ms slower to its response headers than later ones
/// (measured here, also after a 3 s wait and after a warm-up over the network), so the cold cost is
/// mostly the browser's own.
async fn warm_up() {
    struct Discard;
    impl RunSink for Discard {
        fn started(&self, _: f64, _: f64) {}
        fn headers(&self, _: f64, _: u16, _: Vec<(String, String)>) {}
        fn read(&self, _: f64, _: Uint8Array) {}
    }
    let spec = RunSpec {
        url: WARM_UP_URL.into(),
        method: "GET".into(),
        body: None,
        headers: Vec::new(),
        timeouts: Default::default(),
        key_has_whitespace: false,
    };
    if let Ok(abort) = Abort::new() {
        let _ = measure(&spec, &Discard, &abort).await;
    }
}

/// The runs being measured: how to cancel each, and its reads waiting for the page's next pull.
type Runs = Rc<RefCell<ByRun<(Abort, Rc<RefCell<Batch>>)>>>;

async fn run_in_worker(run: u32, spec: Result<RunSpec, String>, runs: Runs) {
    let end_now = |message: String| {
        let end = TraceEnd::NetworkError { at_ms: 0.0, message, during_body: false };
        post_end(run, &end, None, &Probes::default());
    };
    let spec = match spec {
        Ok(spec) => spec,
        Err(e) => return end_now(format!("the measuring worker could not read the request: {e}")),
    };
    let abort = match Abort::new() {
        Ok(abort) => abort,
        Err(e) => return end_now(e),
    };
    let sink = PostingSink { run, batch: Rc::new(RefCell::new(Batch::default())) };
    runs.borrow_mut().insert(run, (abort.clone(), sink.batch.clone()));
    let outcome = measure(&spec, &sink, &abort).await;
    flush(run, &sink.batch);
    runs.borrow_mut().remove(run);
    post_end(run, &outcome.end, outcome.connection.as_ref(), &outcome.probes);
}

/// The run's end, its connection's figures and the probes' answers, as plain objects (`super::end`).
fn post_end(run: u32, end: &TraceEnd, connection: Option<&ConnectionTiming>, probes: &Probes) {
    let m = message(protocol::END, Some(run));
    set(&m, "end", &end::end_to_js(end));
    set(&m, "connection", &end::connection_to_js(connection));
    set(&m, "probes", &end::probes_to_js(probes));
    post(&m, None);
}

fn post(message: &JsValue, transfer: Option<&Array>) {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else { return };
    let sent = match transfer {
        Some(list) => scope.post_message_with_transfer(message, list),
        None => scope.post_message(message),
    };
    if sent.is_err() && transfer.is_some() {
        // A buffer that cannot be transferred is copied instead: slower, never lost.
        let _ = scope.post_message(message);
    }
}

/// Reads waiting to be posted.
#[derive(Default)]
struct Batch {
    at_ms: Vec<f64>,
    chunks: Vec<Uint8Array>,
    /// Whether a read was posted yet (the first goes at once).
    posted: bool,
}

/// Posts reads to the page in batches when it pulls them (buffers transferred, not copied).
struct PostingSink {
    run: u32,
    batch: Rc<RefCell<Batch>>,
}

impl RunSink for PostingSink {
    fn started(&self, t0_ms: f64, unix_ms: f64) {
        let m = message(protocol::STARTED, Some(self.run));
        set(&m, "t0_origin_ms", &JsValue::from_f64(time_origin_ms() + t0_ms));
        set(&m, "unix_ms", &JsValue::from_f64(unix_ms));
        post(&m, None);
    }

    fn headers(&self, at_ms: f64, status: u16, headers: Vec<(String, String)>) {
        let m = message(protocol::HEADERS, Some(self.run));
        set(&m, "at_ms", &JsValue::from_f64(at_ms));
        set(&m, "status", &JsValue::from(status));
        // As `[name, value]` pairs (structured clone): the page reads them with no JSON parser.
        set(&m, "headers", &protocol::pairs(headers.iter().map(|(name, value)| (name.as_str(), value.as_str()))));
        post(&m, None);
    }

    fn read(&self, at_ms: f64, chunk: Uint8Array) {
        // A view on part of a larger buffer is copied, so every transferred buffer is its own.
        let whole = chunk.byte_offset() == 0 && chunk.byte_length() == chunk.buffer().byte_length();
        let chunk = if whole { chunk } else { chunk.slice(0, chunk.length()) };
        let first = {
            let mut b = self.batch.borrow_mut();
            b.at_ms.push(at_ms);
            b.chunks.push(chunk);
            !b.posted
        };
        if first {
            flush(self.run, &self.batch);
        }
    }
}

/// Posts every waiting read now.
fn flush(run: u32, batch: &Rc<RefCell<Batch>>) {
    let mut b = batch.borrow_mut();
    if b.at_ms.is_empty() {
        return;
    }
    b.posted = true;
    let chunks = Array::new();
    let transfer = Array::new();
    for chunk in b.chunks.drain(..) {
        transfer.push(&chunk.buffer());
        chunks.push(&chunk);
    }
    let m = message(protocol::READS, Some(run));
    set(&m, "at_ms", &Float64Array::from(&b.at_ms[..]));
    set(&m, "chunks", &chunks);
    b.at_ms.clear();
    drop(b);
    post(&m, Some(&transfer));
}
