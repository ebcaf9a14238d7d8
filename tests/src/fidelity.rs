//! Fidelity probes shared by the isolation tests and the benchmark (`examples/bench_fidelity.rs`): a
//! bare `fetch` + `reader.read()` loop run in the page's browser session (the floor any page can reach),
//! a `longtask` observer registered before a run is started by clicking Run, the JS heap, and the
//! raw-socket peer ([`streamscope_lab::peer`]) on the same stream.
//!
//! [`bare_worker`] runs the same kind of loop in a dedicated worker and keeps its reads (the floor of the
//! page's measuring worker); [`measured`] derives the same figures for the page and the peers from their reads (issue 13).
//!
//! Everything here reads the report tolerantly: fields the page may add (`measured_in`, per-read
//! detail) are used when present and never required.

pub mod bare_worker;
pub mod cpu;
pub mod measured;

use std::time::Duration;

use serde_json::Value;
use streamscope_lab::peer::{self, PeerReport, PeerRequest};
use tokio::time::Instant;

use crate::page::{Page, Report};

/// What a bare `fetch` + `reader.read()` loop saw, ms from the `fetch()` call.
#[derive(Debug, Clone, Default)]
pub struct BareRun {
    /// `fetch()` resolved.
    pub headers_ms: Option<f64>,
    /// The first read resolved.
    pub ttfb_ms: Option<f64>,
    /// The read completing the first SSE event with non-empty `content` resolved.
    pub ttft_ms: Option<f64>,
    /// The stream ended.
    pub total_ms: Option<f64>,
    /// Reads that returned data.
    pub reads: usize,
    /// Content events completed by each read that completed at least one.
    pub content_per_read: Vec<usize>,
    /// A failure, if any.
    pub error: Option<String>,
}

/// Starts the loop in the page and stores its result in `window.__ssBare[key]`; kept minimal so that
/// it costs what any page's reader loop must cost (decode, split on blank lines, look for content).
const BARE_LOOP_JS: &str = r#"
const [url, key] = arguments;
const slot = (window.__ssBare = window.__ssBare || {});
slot[key] = null;
(async () => {
  const out = {headers_ms: null, ttfb_ms: null, ttft_ms: null, total_ms: null, reads: 0, content_per_read: [], error: null};
  const t0 = performance.now();
  try {
    const response = await fetch(url, {cache: 'no-store'});
    out.headers_ms = performance.now() - t0;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let pending = '';
    for (;;) {
      const {done, value} = await reader.read();
      const t = performance.now() - t0;
      if (done) { out.total_ms = t; break; }
      out.reads++;
      if (out.ttfb_ms === null) out.ttfb_ms = t;
      pending += decoder.decode(value, {stream: true});
      let n = 0, at;
      while ((at = pending.indexOf('\n\n')) >= 0) {
        if (/"content":"[^"]/.test(pending.slice(0, at))) n++;
        pending = pending.slice(at + 2);
      }
      if (n > 0) {
        out.content_per_read.push(n);
        if (out.ttft_ms === null) out.ttft_ms = t;
      }
    }
  } catch (e) { out.error = String(e); }
  slot[key] = out;
})();
return true;
"#;

/// Runs a bare fetch loop on `url` in the open page and waits (up to `limit`) for it to end.
pub async fn bare_fetch(page: &Page, url: &str, limit: Duration) -> BareRun {
    let key = format!("run{}", rand_key());
    page.client()
        .execute(BARE_LOOP_JS, vec![Value::from(url), Value::from(key.as_str())])
        .await
        .unwrap_or_else(|err| panic!("cannot start the bare fetch loop: {err}"));
    let Some(result) = wait_for_result(page, "__ssBare", &key, limit).await else {
        return BareRun { error: Some(format!("no result after {limit:?}")), ..BareRun::default() };
    };
    let f = |k: &str| result[k].as_f64();
    BareRun {
        headers_ms: f("headers_ms"),
        ttfb_ms: f("ttfb_ms"),
        ttft_ms: f("ttft_ms"),
        total_ms: f("total_ms"),
        reads: result["reads"].as_u64().unwrap_or(0) as usize,
        content_per_read: result["content_per_read"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).map(|n| n as usize).collect())
            .unwrap_or_default(),
        error: result["error"].as_str().map(String::from),
    }
}

/// Polls `window[slot][key]`, where a script started in the page leaves its result, every 250 ms until it
/// is set; `None` after `limit`.
async fn wait_for_result(page: &Page, slot: &str, key: &str, limit: Duration) -> Option<Value> {
    let started = Instant::now();
    loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let result = page
            .client()
            .execute("return (window[arguments[0]] || {})[arguments[1]] || null;", vec![Value::from(slot), Value::from(key)])
            .await
            .unwrap_or(Value::Null);
        if !result.is_null() {
            return Some(result);
        }
        if started.elapsed() > limit {
            return None;
        }
    }
}

fn rand_key() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Long tasks seen during a run.
#[derive(Debug, Clone, Default)]
pub struct LongTasks {
    /// The browser supports the `longtask` entry type.
    pub supported: bool,
    /// How many ended after the run started.
    pub count: usize,
    /// Their total duration.
    pub total_ms: f64,
    /// The longest.
    pub max_ms: f64,
}

/// Opens `/?<query>` (which must not contain `run=1`), waits for the Run button and then
/// [`settle_ms`]: the page's start-up (its measuring worker compiling the wasm and warming up) is over
/// before anything is measured beside it.
pub async fn open_and_settle(page: &Page, query: &str) {
    page.open(query).await;
    let started = Instant::now();
    while page.testid_count("run").await == 0 {
        if started.elapsed() > Duration::from_secs(30) {
            panic!("no Run button after 30 s: {}", page.body_text().await);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(settle_ms())).await;
}

/// How long [`open_and_settle`] waits after the Run button appears (the issue measured runs started
/// after load), unless `BENCH_SETTLE_MS` says otherwise.
pub const SETTLE_MS: u64 = 500;

/// [`SETTLE_MS`], or `BENCH_SETTLE_MS` when set (to see what a run started sooner or later after load
/// measures).
pub fn settle_ms() -> u64 {
    std::env::var("BENCH_SETTLE_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(SETTLE_MS)
}

/// Opens `/?<query>` (which must not contain `run=1`), as [`open_and_settle`], registers a
/// `longtask` observer (`buffered: true`) and starts the run by clicking Run from the same script, so
/// that the observer is in place before the first byte is requested.
pub async fn open_observe_and_run(page: &Page, query: &str) -> bool {
    open_and_settle(page, query).await;
    // For experiments by hand: a script run on the page before the run (e.g. hiding a panel to see what
    // its rendering costs).
    if let Ok(js) = std::env::var("BENCH_PRE_JS") {
        page.client().execute(&js, vec![]).await.unwrap_or_else(|err| panic!("BENCH_PRE_JS failed: {err}"));
    }
    let script = r#"
      window.__ssLongTasks = [];
      const supported = typeof PerformanceObserver !== 'undefined'
        && (PerformanceObserver.supportedEntryTypes || []).includes('longtask');
      if (supported) {
        new PerformanceObserver(list => {
          for (const e of list.getEntries()) window.__ssLongTasks.push([e.startTime, e.duration]);
        }).observe({type: 'longtask', buffered: true});
      }
      window.__ssRunStart = performance.now();
      document.querySelector('[data-testid="run"]').click();
      return supported;
    "#;
    page.client()
        .execute(script, vec![])
        .await
        .unwrap_or_else(|err| panic!("cannot register the observer and click Run: {err}"))
        .as_bool()
        .unwrap_or(false)
}

/// The long tasks that ended after the run was started by [`open_observe_and_run`].
pub async fn long_tasks(page: &Page) -> LongTasks {
    let script = r#"
      const start = window.__ssRunStart || 0;
      const tasks = (window.__ssLongTasks || []).filter(([s, d]) => s + d >= start);
      return [Array.isArray(window.__ssLongTasks), tasks.map(([s, d]) => d)];
    "#;
    let answer = page.client().execute(script, vec![]).await.unwrap_or(Value::Null);
    let durations: Vec<f64> = answer[1]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    LongTasks {
        supported: answer[0].as_bool().unwrap_or(false),
        count: durations.len(),
        total_ms: durations.iter().sum(),
        max_ms: durations.iter().copied().fold(0.0, f64::max),
    }
}

/// `performance.memory.usedJSHeapSize` and the size of the page's wasm memory, in bytes. Trunk 0.21
/// keeps the wasm-bindgen glue on `window.wasmBindings`; its `default()` (init) returns the already
/// instantiated exports, `memory` among them. `None` where either cannot be reached.
pub async fn memory(page: &Page) -> (Option<u64>, Option<u64>) {
    let script = r#"
      const done = arguments[arguments.length - 1];
      const heap = performance.memory ? performance.memory.usedJSHeapSize : null;
      (async () => {
        let wasm = null;
        try {
          const b = window.wasmBindings;
          if (b && typeof b.default === 'function') {
            const exports = await b.default();
            if (exports && exports.memory instanceof WebAssembly.Memory) wasm = exports.memory.buffer.byteLength;
          }
        } catch (e) {}
        done([heap, wasm]);
      })();
    "#;
    let answer = page.client().execute_async(script, vec![]).await.unwrap_or(Value::Null);
    (answer[0].as_u64(), answer[1].as_u64())
}

/// Runs the raw-socket peer on `url` (off the async runtime).
pub async fn peer(url: &str) -> PeerReport {
    peer_with(PeerRequest::get(url)).await
}

/// Runs the raw-socket peer on `url`, keeping every read's body bytes (for [`measured::peer_trace`]).
pub async fn peer_keeping_body(url: &str) -> PeerReport {
    peer_with(PeerRequest { keep_body: true, ..PeerRequest::get(url) }).await
}

async fn peer_with(request: PeerRequest) -> PeerReport {
    tokio::task::spawn_blocking(move || peer::run(&request))
        .await
        .expect("the peer thread panicked")
}

/// Runs curl on `url` ([`peer::curl`]), keeping every read's body bytes.
pub async fn curl_keeping_body(url: &str) -> PeerReport {
    let url = url.to_string();
    tokio::task::spawn_blocking(move || peer::curl::run(&url, true))
        .await
        .expect("the curl thread panicked")
}

/// The page's export (every run's raw trace) as *Export as text* shows it, once the run has ended;
/// panics when it is not built within `limit`.
pub async fn export_text(page: &Page, limit: Duration) -> String {
    page.click("export-text-toggle").await;
    let started = Instant::now();
    loop {
        let text = page.testid_prop("export-text", "value").await.unwrap_or_default();
        if !text.is_empty() {
            return text;
        }
        assert!(started.elapsed() < limit, "the export text was not built within {limit:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits for a run started by [`open_observe_and_run`] to end.
pub async fn wait_report(page: &Page, limit: Duration) -> Report {
    page.wait_for_report(limit).await
}

/// The value at quantile `q` (nearest rank), `None` when empty.
pub fn percentile(values: &[usize], q: f64) -> Option<usize> {
    peer::percentile(values, q)
}

/// Median of `values` (the lower middle for an even count).
pub fn median_f64(values: &[f64]) -> Option<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    Some(sorted[(sorted.len() - 1) / 2])
}

/// Events per read from a page report: the median and p99 from per-read detail when the report has it
/// (`content_events_per_read` as an array, or `{p50, p99}`), otherwise `None` with the mean
/// (`content_events / reads`-style, from `delivery.content_events_per_read_mean`) and the max.
#[derive(Debug, Clone, Default)]
pub struct PageEventsPerRead {
    /// Median, when the report gives per-read detail.
    pub p50: Option<f64>,
    /// 99th percentile, when the report gives per-read detail.
    pub p99: Option<f64>,
    /// Mean over reads that carried content.
    pub mean: Option<f64>,
    /// Most content events in one read.
    pub max: Option<f64>,
}

/// Reads [`PageEventsPerRead`] from a report, tolerating either schema.
pub fn page_events_per_read(report: &Value) -> PageEventsPerRead {
    let delivery = &report["delivery"];
    let mut out = PageEventsPerRead {
        mean: delivery["content_events_per_read_mean"].as_f64(),
        max: delivery["content_events_per_read_max"].as_f64(),
        ..PageEventsPerRead::default()
    };
    out.p50 = delivery["content_events_per_read_p50"].as_f64();
    out.p99 = delivery["content_events_per_read_p99"].as_f64();
    for source in [&report["content_events_per_read"], &delivery["content_events_per_read"]] {
        if let Some(list) = source.as_array() {
            let counts: Vec<usize> = list.iter().filter_map(Value::as_u64).map(|n| n as usize).filter(|&n| n > 0).collect();
            out.p50 = percentile(&counts, 0.5).map(|n| n as f64);
            out.p99 = percentile(&counts, 0.99).map(|n| n as f64);
        } else if source.is_object() {
            out.p50 = source["p50"].as_f64().or(out.p50);
            out.p99 = source["p99"].as_f64().or(out.p99);
        }
    }
    out
}
