//! The reader loop: `fetch()` with an `AbortController`, then `reader.read()` until the body ends,
//! timestamping each read the moment it resolves. It only appends to the shared trace and never waits on
//! rendering, so a busy page cannot merge chunks and invent buffering.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Promise, Reflect, Uint8Array};
use streamscope_core::trace::{TimeoutKind, Trace, TraceEnd};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{AbortController, ReadableStreamDefaultReader, RequestInit, Response};

use super::clock::now_ms;
use super::race::{race_with_deadline, Raced};
use super::request::{RunSpec, Timeouts};
use super::probes::probe_failure;
use super::resource_timing::connection_timing;

/// The trace of a run in progress, shared with the UI, which reads it once per animation frame.
pub type SharedTrace = Rc<RefCell<Trace>>;

/// Cancels a run at any moment; cloning shares the same run.
#[derive(Clone)]
pub struct RunHandle {
    controller: AbortController,
    cancelled: Rc<Cell<bool>>,
}

impl RunHandle {
    /// Aborts the request; the run ends with [`TraceEnd::Cancelled`] and keeps what it recorded.
    pub fn cancel(&self) {
        self.cancelled.set(true);
        self.controller.abort();
    }
}

/// Starts measuring `spec` into `trace` (which is reset). Returns the handle to cancel it and the future
/// that performs the run; the future resolves once `trace.end` is set.
pub fn start_run(spec: RunSpec, trace: SharedTrace) -> Result<(RunHandle, impl std::future::Future<Output = ()>), String> {
    let controller = AbortController::new().map_err(describe)?;
    let handle = RunHandle { controller, cancelled: Rc::new(Cell::new(false)) };
    *trace.borrow_mut() = Trace { request: spec.summary(), ..Trace::default() };
    let run = {
        let handle = handle.clone();
        async move {
            let end = measure(&spec, &trace, &handle).await;
            let connection = connection_timing(&spec.url);
            // After the measured run, and before its end is published: the report needs the probes.
            let status = trace.borrow().status;
            let probes = if handle.cancelled.get() { Default::default() } else { probe_failure(&spec, status, &end).await };
            let mut t = trace.borrow_mut();
            t.connection = connection;
            t.probes = probes;
            t.end = Some(end);
        }
    };
    Ok((handle, run))
}

/// Remaining time until the nearest deadline that applies at this stage, and which one it is.
/// Deadlines are absolute, in ms since `fetch()`.
fn nearest_deadline(candidates: &[(Option<f64>, TimeoutKind)], elapsed_ms: f64) -> Option<(f64, TimeoutKind)> {
    candidates
        .iter()
        .filter_map(|&(deadline_ms, kind)| deadline_ms.map(|d| ((d - elapsed_ms).max(0.0), kind)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

async fn measure(spec: &RunSpec, trace: &SharedTrace, handle: &RunHandle) -> TraceEnd {
    let t = spec.timeouts;
    let init = match request_init(spec, handle) {
        Ok(init) => init,
        Err(message) => return TraceEnd::NetworkError { at_ms: 0.0, message, during_body: false },
    };
    let window = web_sys::window().expect("a window");

    // Wall clock only to tell a cache replay (chunks `created` long before now), never for timing.
    trace.borrow_mut().started_unix_ms = Some(js_sys::Date::now());
    let t0 = now_ms();
    let fetch = window.fetch_with_str_and_init(&spec.url, &init);
    let stage = [(t.headers_ms, TimeoutKind::Headers), (t.total_ms, TimeoutKind::Total)];
    let deadline = nearest_deadline(&stage, 0.0);
    let response: Response = match race_with_deadline(fetch, deadline.map(|(remaining_ms, _)| remaining_ms)).await {
        Raced::Value(v) => {
            let at_ms = now_ms() - t0;
            let response: Response = v.unchecked_into();
            let mut tr = trace.borrow_mut();
            tr.headers_ms = Some(at_ms);
            tr.status = Some(response.status());
            tr.headers = read_headers(&response);
            response
        }
        Raced::Rejected(e) => return failure(handle, now_ms() - t0, e, false),
        Raced::TimedOut => return time_out(handle, None, now_ms() - t0, deadline, &t),
    };

    let Some(body) = response.body() else {
        return TraceEnd::Complete { at_ms: now_ms() - t0 };
    };
    let reader: ReadableStreamDefaultReader = match body.get_reader().dyn_into() {
        Ok(r) => r,
        Err(e) => return failure(handle, now_ms() - t0, e.into(), true),
    };
    let mut last_read_ms: Option<f64> = None;
    loop {
        let elapsed_ms = now_ms() - t0;
        let idle_deadline = last_read_ms.zip(t.idle_ms).map(|(last, idle)| last + idle);
        let first_byte_deadline = if last_read_ms.is_none() { t.first_byte_ms } else { None };
        let stage = [
            (first_byte_deadline, TimeoutKind::FirstByte),
            (idle_deadline, TimeoutKind::Idle),
            (t.total_ms, TimeoutKind::Total),
        ];
        let deadline = nearest_deadline(&stage, elapsed_ms);
        let read: Promise = reader.read();
        match race_with_deadline(read, deadline.map(|(remaining_ms, _)| remaining_ms)).await {
            Raced::Value(result) => {
                let at_ms = now_ms() - t0;
                let done = Reflect::get(&result, &"done".into()).map(|d| d.is_truthy()).unwrap_or(true);
                if done {
                    return TraceEnd::Complete { at_ms };
                }
                let value = Reflect::get(&result, &"value".into()).unwrap_or(JsValue::UNDEFINED);
                let bytes = Uint8Array::new(&value).to_vec();
                if !bytes.is_empty() {
                    trace.borrow_mut().push_read(at_ms, bytes);
                    last_read_ms = Some(at_ms);
                }
            }
            Raced::Rejected(e) => return failure(handle, now_ms() - t0, e, true),
            Raced::TimedOut => return time_out(handle, Some(&reader), now_ms() - t0, deadline, &t),
        }
    }
}

fn request_init(spec: &RunSpec, handle: &RunHandle) -> Result<RequestInit, String> {
    let headers = web_sys::Headers::new().map_err(describe)?;
    headers.set("Accept", "text/event-stream").map_err(describe)?;
    let has_content_type = spec.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
    if spec.body.is_some() && !has_content_type {
        headers.set("Content-Type", "application/json").map_err(describe)?;
    }
    for (name, value) in &spec.headers {
        headers
            .set(name.trim(), value)
            .map_err(|e| format!("header {:?} cannot be sent: {}", name.trim(), describe(e)))?;
    }
    let init = RequestInit::new();
    init.set_method(&spec.method);
    init.set_headers(&headers);
    init.set_signal(Some(&handle.controller.signal()));
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

fn failure(handle: &RunHandle, at_ms: f64, error: JsValue, during_body: bool) -> TraceEnd {
    if handle.cancelled.get() {
        TraceEnd::Cancelled { at_ms }
    } else {
        TraceEnd::NetworkError { at_ms, message: describe(error), during_body }
    }
}

fn time_out(
    handle: &RunHandle,
    reader: Option<&ReadableStreamDefaultReader>,
    at_ms: f64,
    deadline: Option<(f64, TimeoutKind)>,
    limits: &Timeouts,
) -> TraceEnd {
    if let Some(reader) = reader {
        let _ = reader.cancel();
    }
    handle.controller.abort();
    let timeout = deadline.map_or(TimeoutKind::Total, |(_, kind)| kind);
    let limit_ms = match timeout {
        TimeoutKind::Headers => limits.headers_ms,
        TimeoutKind::FirstByte => limits.first_byte_ms,
        TimeoutKind::Idle => limits.idle_ms,
        TimeoutKind::Total => limits.total_ms,
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
