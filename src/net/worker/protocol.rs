//! The messages between the page and the measuring worker. Plain JS objects with a `kind`; the run's
//! spec as a plain object too (`spec`), and the end of a run as plain objects (`end`; the page reads
//! them with code that comes after its main module, `client::read_end`), response headers as
//! `[name, value]` pairs: nothing between them is JSON;
//! reads travel as their own `Uint8Array`s with the buffers transferred (no copy) and their times in one
//! `Float64Array`.
//!
//! page -> worker: `load {js, wasm}` (first, read by the loader script, `streamscope-worker_loader.js`:
//! the page's glue and wasm to run), `start {run, spec}`, `cancel {run}`, `answer_end {run, at_ms}` (the
//! page saw the answer's end marker in the read at `at_ms`), `pull` (post the reads waiting, every run's:
//! sent when the page is about to draw).
//! worker -> page: `ready` (or `failed {message}`), `started {run, t0_origin_ms, unix_ms}`,
//! `headers {run, at_ms, status, headers: [[name, value]]}`,
//! `reads {run, at_ms: Float64Array, chunks: [Uint8Array]}`, `end {run, end, connection, probes}`.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// Page -> worker loader: the glue (`js`) and the wasm (`wasm`) to run, as the page names them.
pub const LOAD: &str = "load";
/// The worker loaded its wasm and listens (messages sent before this are lost).
pub const READY: &str = "ready";
/// Worker -> page: the worker cannot measure (its code did not load); `message` says why.
pub const FAILED: &str = "failed";
/// Page -> worker: measure this spec as run `run`.
pub const START: &str = "start";
/// Page -> worker: cancel run `run`.
pub const CANCEL: &str = "cancel";
/// Page -> worker: the answer's end marker arrived in run `run`'s read at `at_ms` (the run stops reading
/// a little later if the response stays open: `measure::Abort::answer_ended`).
pub const ANSWER_END: &str = "answer_end";
/// Page -> worker: post every run's waiting reads now (the page is about to draw them).
pub const PULL: &str = "pull";
/// Worker -> page: `fetch()` is called now.
pub const STARTED: &str = "started";
/// Worker -> page: response headers arrived.
pub const HEADERS: &str = "headers";
/// Worker -> page: a batch of reads.
pub const READS: &str = "reads";
/// Worker -> page: the run ended.
pub const END: &str = "end";

/// A message of `kind` for run `run` (`None` for messages about no run).
pub fn message(kind: &str, run: Option<u32>) -> Object {
    let m = Object::new();
    set(&m, "kind", &JsValue::from_str(kind));
    if let Some(run) = run {
        set(&m, "run", &JsValue::from(run));
    }
    m
}

/// Sets `key` on a message.
pub fn set(message: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(message, &JsValue::from_str(key), value);
}

/// The value of `key` (undefined when missing).
pub fn get(message: &JsValue, key: &str) -> JsValue {
    Reflect::get(message, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A string field, `None` when missing or not a string.
pub fn get_str(message: &JsValue, key: &str) -> Option<String> {
    get(message, key).as_string()
}

/// A number field, `None` when missing or not a number.
pub fn get_f64(message: &JsValue, key: &str) -> Option<f64> {
    get(message, key).as_f64()
}

/// A number field, or `null` for none.
pub fn opt_f64(value: Option<f64>) -> JsValue {
    value.map_or(JsValue::NULL, JsValue::from_f64)
}

/// A whole-number field that a `u64` holds exactly (no fraction, at least 0, at most 2^53 - 1), `None`
/// otherwise.
pub fn get_whole(message: &JsValue, key: &str) -> Option<u64> {
    get_f64(message, key).filter(|n| n.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(n)).map(|n| n as u64)
}

/// `[name, value]` pairs as a JS array of two-string arrays (response headers, a spec's headers).
pub fn pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Array {
    pairs.into_iter().map(|(name, value)| Array::of2(&JsValue::from_str(name), &JsValue::from_str(value))).collect()
}

/// One `[name, value]` pair of [`pairs`]; the error says what it is instead.
pub fn pair(value: &JsValue) -> Result<(String, String), &'static str> {
    let pair = value.dyn_ref::<Array>().ok_or("a header that is not a pair")?;
    match (pair.get(0).as_string(), pair.get(1).as_string()) {
        (Some(name), Some(value)) => Ok((name, value)),
        _ => Err("a header that is not text"),
    }
}

/// The run id of a message, `None` when missing or not a valid id.
pub fn get_run(message: &JsValue) -> Option<u32> {
    get_whole(message, "run").and_then(|r| u32::try_from(r).ok())
}
