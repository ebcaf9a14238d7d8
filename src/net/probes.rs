//! Follow-up requests after a failure, made only once the measured run is over (they never touch its
//! timing): a `no-cors` request tells a CORS refusal (a server answered) from an unreachable host
//! (nothing did), and `GET …/models` tells a missing `/v1` or lists the model ids that exist. A models
//! answer is read as a stream and at most [`MODELS_BODY_MAX_BYTES`] (1 MiB) of it is kept: the reader is
//! cancelled there (the bug this avoids: `response.text()` held any answer whole, however large).

use js_sys::{Promise, Reflect, Uint8Array};
use streamscope_core::config::page_config::models_probe_urls;
use streamscope_core::dialect::models_list::{model_ids, MODELS_BODY_MAX_BYTES};
use streamscope_core::secrets::{redact_url, Scrubber, Secret};
use streamscope_core::trace::{ModelsProbe, Probes, TraceEnd};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{AbortController, ReadableStreamDefaultReader, RequestInit, RequestMode, Response};

use super::race::{race_with_deadline, Raced};
use super::request::RunSpec;
use super::scope::Scope;

/// How long one probe may take.
const PROBE_LIMIT_MS: f64 = 4_000.0;

/// The probes a failed run calls for: `no-cors` after a network error before any response, `…/models`
/// after a 400, 404 or 422.
pub async fn probe_failure(spec: &RunSpec, status: Option<u16>, end: &TraceEnd) -> Probes {
    let mut probes = Probes::default();
    if matches!(end, TraceEnd::NetworkError { during_body: false, .. }) && status.is_none() {
        probes.no_cors_reached = Some(no_cors_reaches(&spec.url).await);
    }
    if matches!(status, Some(400 | 404 | 422)) {
        let scrubber = spec.scrubber();
        for url in models_probe_urls(&spec.url) {
            probes.models.push(models(&url, &spec.headers, &scrubber).await);
        }
    }
    probes
}

/// Sends `init` to `url` and waits at most [`PROBE_LIMIT_MS`]; `None` when it failed or timed out.
async fn fetch_with_limit(url: &str, init: &RequestInit, controller: &AbortController) -> Option<Response> {
    let scope = Scope::current()?;
    init.set_signal(Some(&controller.signal()));
    let promise: Promise = scope.fetch(url, init);
    match race_with_deadline(promise, Some(PROBE_LIMIT_MS)).await {
        Raced::Value(v) => v.dyn_into().ok(),
        Raced::Rejected(_) => None,
        Raced::TimedOut => {
            controller.abort();
            None
        }
    }
}

/// Whether any server answered a `no-cors` GET to `url` (an opaque answer counts).
async fn no_cors_reaches(url: &str) -> bool {
    let Ok(controller) = AbortController::new() else {
        return false;
    };
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_mode(RequestMode::NoCors);
    init.set_cache(web_sys::RequestCache::NoStore);
    fetch_with_limit(url, &init, &controller).await.is_some()
}

/// `GET url` with the run's headers (an API may want the key for its models list too).
async fn models(url: &str, headers: &[(String, Secret)], scrubber: &Scrubber) -> ModelsProbe {
    let mut probe = ModelsProbe { url: redact_url(url).into_owned(), ..ModelsProbe::default() };
    let (Ok(controller), Ok(h)) = (AbortController::new(), web_sys::Headers::new()) else {
        return probe;
    };
    for (name, value) in headers {
        if !name.eq_ignore_ascii_case("content-type") {
            let _ = h.set(name.trim(), value.expose());
        }
    }
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_headers(&h);
    init.set_cache(web_sys::RequestCache::NoStore);
    let Some(response) = fetch_with_limit(url, &init, &controller).await else {
        return probe;
    };
    probe.status = Some(response.status());
    if response.ok() {
        let body = read_capped(&response, MODELS_BODY_MAX_BYTES).await;
        let list = model_ids(&String::from_utf8_lossy(&body));
        probe.ids_total = list.is_cut().then_some(list.total);
        // A server may list what it was sent (the key among its "ids"): scrubbed like everything else.
        probe.ids = list.ids.into_iter().map(|id| scrubber.scrub_str(&id)).collect();
    }
    probe
}

/// The body's first `cap_bytes` at most, read chunk by chunk (each read within [`PROBE_LIMIT_MS`]); the
/// reader is cancelled once the cap is reached, so a huge answer is never held whole.
async fn read_capped(response: &Response, cap_bytes: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let Some(stream) = response.body() else {
        return out;
    };
    let Ok(reader) = stream.get_reader().dyn_into::<ReadableStreamDefaultReader>() else {
        return out;
    };
    let (done_key, value_key) = (JsValue::from_str("done"), JsValue::from_str("value"));
    while out.len() < cap_bytes {
        let Raced::Value(result) = race_with_deadline(reader.read(), Some(PROBE_LIMIT_MS)).await else {
            break;
        };
        if Reflect::get(&result, &done_key).map(|d| d.is_truthy()).unwrap_or(true) {
            return out;
        }
        if let Ok(chunk) = Reflect::get(&result, &value_key).and_then(|v| v.dyn_into::<Uint8Array>()) {
            let take = (chunk.length() as usize).min(cap_bytes - out.len());
            let start = out.len();
            out.resize(start + take, 0);
            chunk.subarray(0, take as u32).copy_to(&mut out[start..]);
        }
    }
    let _ = reader.cancel();
    out
}
