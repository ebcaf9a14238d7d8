//! Await a JS promise with a deadline: the promise races a `setTimeout` that resolves to `undefined`.

use js_sys::Promise;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::scope::Scope;

/// How a raced promise ended.
pub enum Raced {
    /// The promise resolved with this value.
    Value(JsValue),
    /// The promise rejected with this reason.
    Rejected(JsValue),
    /// The deadline passed first.
    TimedOut,
}

/// Waits for `promise` for at most `limit_ms` (no limit when `None`). `promise` must never resolve to
/// `undefined` (fetch and reader.read() never do), since `undefined` marks the time-out.
pub async fn race_with_deadline(promise: Promise, limit_ms: Option<f64>) -> Raced {
    let Some(limit_ms) = limit_ms else {
        return match JsFuture::from(promise).await {
            Ok(v) => Raced::Value(v),
            Err(e) => Raced::Rejected(e),
        };
    };
    let Some(scope) = Scope::current() else {
        return Raced::Rejected(JsValue::from_str("no window or worker scope for a timer"));
    };
    let mut timer_id = None;
    let timer = Promise::new(&mut |resolve, _reject| {
        let delay = limit_ms.clamp(0.0, i32::MAX as f64).ceil() as i32;
        timer_id = scope.set_timeout(resolve.unchecked_ref(), delay);
    });
    let both = js_sys::Array::of2(&promise, &timer);
    let outcome = JsFuture::from(Promise::race(&both)).await;
    if let Some(id) = timer_id {
        scope.clear_timeout(id);
    }
    match outcome {
        Ok(v) if v.is_undefined() => Raced::TimedOut,
        Ok(v) => Raced::Value(v),
        Err(e) => Raced::Rejected(e),
    }
}
