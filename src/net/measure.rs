//! The reader loop: `fetch()` with an `AbortController`, then `reader.read()` until the body ends,
//! timestamping each read the moment it resolves. It must never wait on anything but the network and its
//! own deadlines: it hands each read to a [`RunSink`] and goes straight back to `reader.read()`. It runs
//! in the measuring worker (the page's rendering cannot delay it there) or, as a fallback, on the page.
//! Its code is in the `measure` chunk ([`crate::split`]): the worker loads it before it says ready, the
//! page only when it measures on its own thread ([`measure_part`]).

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::{Promise, Reflect, Uint8Array};
use streamscope_core::trace::{ConnectionTiming, Probes, TimeoutKind, TraceEnd, AFTER_END_LIMIT_MS};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader, RequestInit, Response};

use super::clock::now_ms;
use super::probes::probe_failure;
use super::race::{race_with_deadline, Raced};
use super::request::{RunSpec, Timeouts};
use super::resource_timing::connection_timing;
use super::scope::Scope;
use super::watchdog::{nearest, AnswerEnd, Watchdog};
use crate::split::split_part;

/// Where the reader loop puts raw facts, the moment it has them. Implementations must return at once
/// (queue, never render).
pub trait RunSink {
    /// `fetch()` is called now: `t0_ms` on this scope's clock, `unix_ms` the wall clock (only to compare
    /// with a server's own timestamps, never for timing).
    fn started(&self, t0_ms: f64, unix_ms: f64);
    /// Response headers arrived `at_ms` after `fetch()`.
    fn headers(&self, at_ms: f64, status: u16, headers: Vec<(String, String)>);
    /// A read resolved `at_ms` after `fetch()` with these (non-empty) bytes.
    fn read(&self, at_ms: f64, chunk: Uint8Array);
}

/// How a measured run ended, with what was learnt after it.
pub struct Outcome {
    /// How the run ended.
    pub end: TraceEnd,
    /// Resource Timing of the request, when the browser has it.
    pub connection: Option<ConnectionTiming>,
    /// Follow-up probes after a failure.
    pub probes: Probes,
}

/// Aborts a run at any moment; cloning shares the same run.
#[derive(Clone)]
pub struct Abort {
    controller: AbortController,
    cancelled: Rc<Cell<bool>>,
    answer_end: Rc<AnswerEnd>,
}

impl Abort {
    /// A fresh abort switch.
    pub fn new() -> Result<Abort, String> {
        let controller = AbortController::new().map_err(describe)?;
        Ok(Abort { controller, cancelled: Rc::new(Cell::new(false)), answer_end: Rc::default() })
    }

    /// The page saw the answer's end marker in the read at `at_ms`: the run stops reading
    /// [`AFTER_END_LIMIT_MS`] after it if the response is still open then (`TimeoutKind::AfterEnd`).
    pub fn answer_ended(&self, at_ms: f64) {
        self.answer_end.ended_at(at_ms);
    }

    /// Aborts the request; the run ends with [`TraceEnd::Cancelled`] and keeps what it recorded.
    pub fn cancel(&self) {
        self.cancelled.set(true);
        self.controller.abort();
    }

    /// Whether [`Abort::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.get()
    }
}

split_part!(measure, preload_measure; pub fn measure_part(spec: RunSpec, sink: Rc<dyn RunSink>, abort: Abort) -> Pin<Box<dyn Future<Output = Outcome>>> {
    Box::pin(async move { measure(&spec, &*sink, &abort).await })
});

impl Outcome {
    /// A run that could not be measured at all: it ends as a network error saying `message`.
    pub fn unmeasured(message: String) -> Outcome {
        Outcome { end: TraceEnd::NetworkError { at_ms: 0.0, message, during_body: false }, connection: None, probes: Probes::default() }
    }
}

/// Measures `spec` into `sink`, then reads Resource Timing and, after a failure, probes (never during the
/// measured run).
pub async fn measure(spec: &RunSpec, sink: &dyn RunSink, abort: &Abort) -> Outcome {
    let (mut status, mut t0_ms) = (None, None);
    let end = read_all(spec, sink, abort, &mut status, &mut t0_ms).await;
    let connection = connection_timing_after_end(&spec.url, t0_ms).await;
    let probes = if abort.is_cancelled() { Probes::default() } else { probe_failure(spec, status, &end).await };
    Outcome { end, connection, probes }
}

/// How often, and how far apart, Resource Timing is asked again when its entry is not there yet.
const RESOURCE_TIMING_TRIES: usize = 10;
const RESOURCE_TIMING_RETRY_MS: f64 = 10.0;

/// Resource Timing for `url`, asked again a few times when the entry is not there yet: the browser adds it
/// a moment after the body's last read (seen missing in CI for a body that arrived in one piece at the end).
/// Runs after the measured run, so the wait costs nothing measured. `t0_ms` (when `fetch()` was called,
/// on this scope's clock) picks this run's entry when several runs of one URL overlap (a sweep level).
async fn connection_timing_after_end(url: &str, t0_ms: Option<f64>) -> Option<ConnectionTiming> {
    for _ in 0..RESOURCE_TIMING_TRIES {
        if let Some(found) = connection_timing(url, t0_ms) {
            return Some(found);
        }
        // A promise that never settles, raced against the retry delay: a plain timer.
        let _ = race_with_deadline(Promise::new(&mut |_, _| {}), Some(RESOURCE_TIMING_RETRY_MS)).await;
    }
    connection_timing(url, t0_ms)
}

async fn read_all(
    spec: &RunSpec,
    sink: &dyn RunSink,
    abort: &Abort,
    status: &mut Option<u16>,
    t0_out: &mut Option<f64>,
) -> TraceEnd {
    let t = spec.timeouts;
    let init = match request_init(spec, abort) {
        Ok(init) => init,
        Err(message) => return TraceEnd::NetworkError { at_ms: 0.0, message, during_body: false },
    };
    let Some(scope) = Scope::current() else {
        return TraceEnd::NetworkError { at_ms: 0.0, message: "no window or worker to fetch from".into(), during_body: false };
    };

    let mut scrubber = spec.scrubber();
    let unix_ms = js_sys::Date::now();
    let t0 = now_ms();
    *t0_out = Some(t0);
    sink.started(t0, unix_ms);
    let fetch = scope.fetch(&spec.url, &init);
    let stage = [(t.headers_ms, TimeoutKind::Headers), (t.total_ms, TimeoutKind::Total)];
    // Deadlines are ms after `fetch()`, which is now: each is also the time left.
    let deadline = nearest(&stage);
    let response: Response = match race_with_deadline(fetch, deadline.map(|(at_ms, _)| at_ms)).await {
        Raced::Value(v) => {
            let at_ms = now_ms() - t0;
            let response: Response = v.unchecked_into();
            *status = Some(response.status());
            let read = read_headers(&response);
            sink.headers(at_ms, response.status(), read.into_iter().map(|(n, v)| (n, scrubber.scrub_str(&v))).collect());
            response
        }
        Raced::Rejected(e) => return failure(abort, now_ms() - t0, e, false),
        Raced::TimedOut => {
            let kind = deadline.map_or(TimeoutKind::Total, |(_, kind)| kind);
            return time_out(abort, None, now_ms() - t0, kind, &t);
        }
    };

    let Some(body) = response.body() else {
        return TraceEnd::Complete { at_ms: now_ms() - t0 };
    };
    let reader: ReadableStreamDefaultReader = match body.get_reader().dyn_into() {
        Ok(r) => r,
        Err(e) => return failure(abort, now_ms() - t0, e.into(), true),
    };
    let done_key = JsValue::from_str("done");
    let value_key = JsValue::from_str("value");
    // No timer per read: one watchdog for the body's deadlines cancels the reader when one passes.
    let watchdog = Watchdog::start(scope, &reader, t0, t, abort.answer_end.clone());
    loop {
        let read = JsFuture::from(reader.read()).await;
        let at_ms = now_ms() - t0;
        let result = match read {
            Ok(result) => result,
            Err(e) => {
                return match watchdog.expired() {
                    Some(kind) => time_out(abort, Some(&reader), at_ms, kind, &t),
                    None => failure(abort, at_ms, e, true),
                }
            }
        };
        let done = Reflect::get(&result, &done_key).map(|d| d.is_truthy()).unwrap_or(true);
        if !done {
            if let Ok(chunk) = Reflect::get(&result, &value_key).and_then(|v| v.dyn_into::<Uint8Array>()) {
                if chunk.byte_length() > 0 {
                    // Only with a key to hide: a copy out, the mask, the same bytes back (same length).
                    if !scrubber.is_empty() {
                        let mut bytes = chunk.to_vec();
                        scrubber.scrub(&mut bytes);
                        chunk.copy_from(&bytes);
                    }
                    sink.read(at_ms, chunk);
                    watchdog.read_at(at_ms);
                }
            }
        }
        if let Some(kind) = watchdog.expired() {
            return time_out(abort, Some(&reader), at_ms, kind, &t);
        }
        if done {
            return TraceEnd::Complete { at_ms };
        }
    }
}

fn request_init(spec: &RunSpec, abort: &Abort) -> Result<RequestInit, String> {
    let headers = web_sys::Headers::new().map_err(describe)?;
    headers.set("Accept", "text/event-stream").map_err(describe)?;
    let has_content_type = spec.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
    if spec.body.is_some() && !has_content_type {
        headers.set("Content-Type", "application/json").map_err(describe)?;
    }
    for (name, value) in &spec.headers {
        headers
            .set(name.trim(), value.expose())
            .map_err(|e| format!("header {:?} cannot be sent: {}", name.trim(), describe(e)))?;
    }
    let init = RequestInit::new();
    init.set_method(&spec.method);
    init.set_headers(&headers);
    init.set_signal(Some(&abort.controller.signal()));
    init.set_cache(web_sys::RequestCache::NoStore);
    if let Some(body) = &spec.body {
        init.set_body(&JsValue::from_str(body));
    }
    Ok(init)
}

/// Readable response headers, names lower-cased (CORS hides all but the safelisted and exposed ones).
fn read_headers(response: &Response) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Ok(Some(entries)) = js_sys::try_iter(&response.headers()) {
        for pair in entries.flatten() {
            let pair: js_sys::Array = pair.unchecked_into();
            let name = pair.get(0).as_string().unwrap_or_default().to_ascii_lowercase();
            let value = pair.get(1).as_string().unwrap_or_default();
            out.push((name, value));
        }
    }
    out
}

fn failure(abort: &Abort, at_ms: f64, error: JsValue, during_body: bool) -> TraceEnd {
    if abort.is_cancelled() {
        TraceEnd::Cancelled { at_ms }
    } else {
        TraceEnd::NetworkError { at_ms, message: describe(error), during_body }
    }
}

fn time_out(
    abort: &Abort,
    reader: Option<&ReadableStreamDefaultReader>,
    at_ms: f64,
    timeout: TimeoutKind,
    limits: &Timeouts,
) -> TraceEnd {
    if let Some(reader) = reader {
        let _ = reader.cancel();
    }
    abort.controller.abort();
    let limit_ms = match timeout {
        TimeoutKind::Headers => limits.headers_ms,
        TimeoutKind::FirstByte => limits.first_byte_ms,
        TimeoutKind::Idle => limits.idle_ms,
        TimeoutKind::Total => limits.total_ms,
        TimeoutKind::AfterEnd => Some(AFTER_END_LIMIT_MS),
    };
    TraceEnd::Timeout { at_ms, timeout, limit_ms: limit_ms.unwrap_or(0.0) }
}

/// A readable message for a JS error value (`TypeError: Failed to fetch`, `AbortError: ...`).
pub fn describe(error: JsValue) -> String {
    if let Some(e) = error.dyn_ref::<js_sys::Error>() {
        let name: String = e.name().into();
        let message: String = e.message().into();
        return if message.is_empty() { name } else { format!("{name}: {message}") };
    }
    error.as_string().unwrap_or_else(|| format!("{error:?}"))
}
