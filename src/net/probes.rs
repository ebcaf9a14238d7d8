//! Follow-up requests after a failure, made only once the measured run is over (they never touch its
//! timing): a `no-cors` request tells a CORS refusal (a server answered) from an unreachable host
//! (nothing did), and `GET …/models` tells a missing `/v1` or lists the model ids that exist.

use js_sys::Promise;
use streamscope_core::config::page_config::{model_ids, models_probe_urls};
use streamscope_core::secrets::{redact_url, Scrubber, Secret};
use streamscope_core::trace::{ModelsProbe, Probes, TraceEnd};
use wasm_bindgen::JsCast;
use web_sys::{AbortController, RequestInit, RequestMode, Response};

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
        if let Ok(text) = response.text() {
            if let Raced::Value(body) = race_with_deadline(text, Some(PROBE_LIMIT_MS)).await {
                probe.ids = model_ids(&body.as_string().unwrap_or_default())
                    .into_iter()
                    .map(|id| scrubber.scrub_str(&id))
                    .collect();
            }
        }
    }
    probe
}
