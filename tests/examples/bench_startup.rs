//! Start-up benchmark (issue 13): how long from navigation until the form is interactive (the Run
//! button enabled), on loopback in headless Chromium, cold and warm. Prints a markdown table (and one
//! JSON line per sample on stderr).
//!
//! `cargo run --release -p streamscope-e2e --example bench_startup -- [--repeats N] [--via nginx|nginx-h2|lab]`;
//! run through `scripts/bench-startup.sh`, which builds the page and records the machine.
//!
//! Served as in production by default: `scripts/package.sh` packs the built page, and real nginx serves
//! the package's `site/` through the shipped snippet (`gzip_static`: the precompressed `.gz` files)
//! under `/tools/streamscope/`, over HTTP/1.1 (`--via nginx`) or HTTP/2 with TLS (`--via nginx-h2`);
//! `--via lab` opens the built page at the lab's root instead (no precompressed files).
//!
//! Each sample is a new browser with a new profile (empty HTTP and code caches): **cold** is its first
//! navigation to the page, **warm** a second navigation to the same URL in the same browser after the
//! first has settled ([`SETTLE`]; the files are revalidated, `Cache-Control: no-cache`). Times are the
//! page's own, in ms from the navigation's start (`performance.timeOrigin`): the User Timing mark
//! `streamscope:ready` that the page sets once the form is mounted with Run enabled, and the Navigation
//! and Resource Timing entries of the document, the JS glue and the wasm. Nothing is polled from the
//! WebDriver side, so its round trips do not blur the figures.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use streamscope_e2e::{shared_lab, with_page, Package, Page, SiteNginx, Snippet};

/// Where the shipped snippets put the page.
const SUB_PATH: &str = "/tools/streamscope/";
/// What nginx's readiness probe asks the API for (the lab's model list).
const API_PROBE: &str = "/v1/models";
/// The goal for a cold start (issue 13), ms from navigation to Run enabled.
const COLD_GOAL_MS: f64 = 300.0;
/// Samples by default.
const DEFAULT_REPEATS: usize = 20;
/// How long the cold page may go on (its measuring worker starting, the wasm's code cache being
/// written) before the warm navigation.
const SETTLE: Duration = Duration::from_secs(1);

/// Collects the page's start-up figures once the ready mark exists, the `load` event has ended and the
/// first contentful paint is in (at most 2 s after the mark: headless may skip a paint). WebDriver's
/// asynchronous script: the last argument is the callback.
const COLLECT: &str = r#"
const done = arguments[arguments.length - 1];
const MARK = 'streamscope:ready';
const waitFor = (test, limitMs) => new Promise(resolve => {
  const started = performance.now();
  const poll = () => (test() || performance.now() - started > limitMs) ? resolve() : setTimeout(poll, 10);
  poll();
});
const resource = match => {
  const e = performance.getEntriesByType('resource').find(r => match(new URL(r.name).pathname));
  return e ? { start_ms: e.startTime, response_start_ms: e.responseStart, response_end_ms: e.responseEnd,
               transfer_bytes: e.transferSize, encoded_bytes: e.encodedBodySize, decoded_bytes: e.decodedBodySize,
               protocol: e.nextHopProtocol } : null;
};
(async () => {
  await waitFor(() => performance.getEntriesByName(MARK).length > 0, 20000);
  await waitFor(() => performance.getEntriesByType('navigation')[0]?.loadEventEnd > 0, 5000);
  await waitFor(() => performance.getEntriesByName('first-contentful-paint').length > 0, 2000);
  const mark = performance.getEntriesByName(MARK)[0];
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const file = path => path.split('/').pop();
  const starts = performance.getEntriesByType('resource').map(r => r.startTime);
  done({
    first_request_ms: starts.length ? Math.min(...starts) : null,
    ready_ms: mark ? mark.startTime : null,
    run_enabled: !!document.querySelector('[data-testid="run"]:not([disabled])'),
    document: { response_start_ms: nav.responseStart, response_end_ms: nav.responseEnd,
                dom_content_loaded_ms: nav.domContentLoadedEventEnd, load_ms: nav.loadEventEnd,
                transfer_bytes: nav.transferSize, encoded_bytes: nav.encodedBodySize,
                decoded_bytes: nav.decodedBodySize, protocol: nav.nextHopProtocol },
    boot: resource(p => file(p) === 'boot.js'),
    glue: resource(p => /^streamscope-[0-9a-f]+\.js$/.test(file(p))),
    wasm: resource(p => /^streamscope-[0-9a-f]+_bg\.wasm$/.test(file(p))),
    fcp_ms: fcp ? fcp.startTime : null,
  });
})().catch(e => done({ error: String(e) }));
"#;

/// Where the page is served from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Via {
    Nginx,
    NginxH2,
    Lab,
}

impl Via {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "nginx" => Some(Self::Nginx),
            "nginx-h2" => Some(Self::NginxH2),
            "lab" => Some(Self::Lab),
            _ => None,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Nginx => "nginx (shipped snippet, gzip_static), HTTP/1.1",
            Self::NginxH2 => "nginx (shipped snippet, gzip_static), HTTP/2 + TLS",
            Self::Lab => "the lab at its root (built page as it is, no precompressed files)",
        }
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let (repeats, via) = parse_args();
    let lab = shared_lab();
    // Kept alive (the package's folder, nginx) until every sample is done.
    let mut _package = None;
    let mut _nginx = None;
    let url = match via {
        Via::Lab => format!("http://{lab}/"),
        Via::Nginx | Via::NginxH2 => {
            let package = Package::make().unwrap_or_else(|err| panic!("{err}"));
            let snippet = package.snippet(Snippet::Nginx, &format!("http://{lab}")).unwrap_or_else(|err| panic!("{err}"));
            let nginx = SiteNginx::start(&snippet, SUB_PATH, API_PROBE).await.unwrap_or_else(|err| panic!("{err}"));
            let url = if via == Via::Nginx { nginx.http_url(SUB_PATH) } else { nginx.https_url(SUB_PATH) };
            _package = Some(package);
            _nginx = Some(nginx);
            url
        }
    };
    eprintln!("[bench] {repeats} samples of {url} via {}", via.label());

    let samples: Arc<Mutex<Vec<(Value, Value)>>> = Arc::default();
    for index in 0..repeats {
        let (url, samples) = (url.clone(), samples.clone());
        with_page(move |page: Page| async move {
            let cold = navigate(&page, &url).await;
            tokio::time::sleep(SETTLE).await;
            let warm = navigate(&page, &url).await;
            eprintln!("{}", json!({ "sample": index, "cold": cold, "warm": warm }));
            samples.lock().expect("samples").push((cold, warm));
        })
        .await;
    }
    let samples = samples.lock().expect("samples").clone();
    if via != Via::Lab {
        // Served like production: the browser downloaded the precompressed wasm, not the plain file.
        for (cold, _) in &samples {
            let (encoded, decoded) = (cold["wasm"]["encoded_bytes"].as_f64(), cold["wasm"]["decoded_bytes"].as_f64());
            assert!(encoded.zip(decoded).is_some_and(|(e, d)| e > 0.0 && e < d), "the wasm was not sent compressed: {cold}");
        }
    }
    print_table(&url, via, &samples);
}

fn parse_args() -> (usize, Via) {
    let usage = "usage: bench_startup [--repeats N] [--via nginx|nginx-h2|lab]";
    let (mut repeats, mut via) = (DEFAULT_REPEATS, Via::Nginx);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next();
        match (arg.as_str(), value.as_deref()) {
            ("--repeats", Some(n)) if n.parse::<usize>().is_ok_and(|n| n > 0) => repeats = n.parse().unwrap_or(DEFAULT_REPEATS),
            ("--via", Some(v)) if Via::parse(v).is_some() => via = Via::parse(v).unwrap_or(Via::Nginx),
            _ => {
                eprintln!("{usage}");
                std::process::exit(2);
            }
        }
    }
    (repeats, via)
}

/// Navigates to `url` and returns the page's figures ([`COLLECT`]); panics when the page never became
/// ready.
async fn navigate(page: &Page, url: &str) -> Value {
    page.client().goto(url).await.unwrap_or_else(|err| panic!("cannot open {url}: {err}"));
    let figures = page.client().execute_async(COLLECT, vec![]).await.unwrap_or_else(|err| panic!("collecting the figures: {err}"));
    assert!(figures["ready_ms"].is_number() && figures["run_enabled"] == true, "the page did not become ready at {url}: {figures}");
    figures
}

/// `q` quantile (nearest rank) of `values`, or `None` when there are none.
fn quantile(values: &[f64], q: f64) -> Option<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

/// One figure of every sample (`pointer` into a sample's JSON), skipping samples without it.
fn column(samples: &[&Value], pointer: &str) -> Vec<f64> {
    samples.iter().filter_map(|s| s.pointer(pointer).and_then(Value::as_f64)).collect()
}

fn ms(value: Option<f64>) -> String {
    value.map_or("n/a".to_string(), |v| format!("{v:.1}"))
}

fn kb(value: Option<f64>) -> String {
    value.map_or("n/a".to_string(), |v| format!("{:.1}", v / 1000.0))
}

/// What each breakdown row is, and where it is in a sample.
const BREAKDOWN: [(&str, &str); 9] = [
    ("document responseEnd (index.html in)", "/document/response_end_ms"),
    ("first file requested (style, boot.js, glue, wasm preload)", "/first_request_ms"),
    ("boot.js responseEnd", "/boot/response_end_ms"),
    ("JS glue responseEnd", "/glue/response_end_ms"),
    ("wasm responseStart (first byte)", "/wasm/response_start_ms"),
    ("wasm responseEnd (fetched)", "/wasm/response_end_ms"),
    ("load event end", "/document/load_ms"),
    ("**ready mark (Run enabled)**", "/ready_ms"),
    ("first contentful paint", "/fcp_ms"),
];

fn print_table(url: &str, via: Via, samples: &[(Value, Value)]) {
    let cold: Vec<&Value> = samples.iter().map(|(c, _)| c).collect();
    let warm: Vec<&Value> = samples.iter().map(|(_, w)| w).collect();
    println!("Served by {} at `{url}`; {} samples, each a new browser profile.\n", via.label(), samples.len());
    println!("| ready (ms from navigation) | p50 | p95 | max |");
    println!("|---|---|---|---|");
    for (name, group) in [("cold", &cold), ("warm", &warm)] {
        let ready = column(group, "/ready_ms");
        println!("| {name} | {} | {} | {} |", ms(quantile(&ready, 0.5)), ms(quantile(&ready, 0.95)), ms(quantile(&ready, 1.0)));
    }
    let cold_ready = column(&cold, "/ready_ms");
    let verdict = |q: f64| match quantile(&cold_ready, q) {
        Some(v) if v <= COLD_GOAL_MS => "met",
        Some(_) => "not met",
        None => "n/a",
    };
    println!("\nGoal <= {COLD_GOAL_MS} ms cold: {} at the median, {} at p95.", verdict(0.5), verdict(0.95));
    println!("\nBreakdown, medians in ms from navigation (cold / warm):\n");
    println!("| step | cold p50 | warm p50 |");
    println!("|---|---|---|");
    for (name, pointer) in BREAKDOWN {
        println!("| {name} | {} | {} |", ms(quantile(&column(&cold, pointer), 0.5)), ms(quantile(&column(&warm, pointer), 0.5)));
    }
    let gap = |group: &[&Value]| -> Vec<f64> {
        group
            .iter()
            .filter_map(|s| Some(s["ready_ms"].as_f64()? - s.pointer("/wasm/response_end_ms")?.as_f64()?))
            .collect()
    };
    println!(
        "| wasm fetched -> ready (compile rest, instantiate, mount) | {} | {} |",
        ms(quantile(&gap(&cold), 0.5)),
        ms(quantile(&gap(&warm), 0.5))
    );
    println!("\nBytes, medians (kB; transfer = on the wire with headers, 0 from cache):\n");
    println!("| file | encoded (cold) | decoded | transfer cold | transfer warm | protocol |");
    println!("|---|---|---|---|---|---|");
    for (name, key) in [("index.html", "document"), ("JS glue", "glue"), ("wasm", "wasm")] {
        let at = |group: &[&Value], field: &str| quantile(&column(group, &format!("/{key}/{field}")), 0.5);
        let protocol = cold.first().and_then(|s| s[key]["protocol"].as_str()).unwrap_or("n/a");
        println!(
            "| {name} | {} | {} | {} | {} | {protocol} |",
            kb(at(&cold, "encoded_bytes")),
            kb(at(&cold, "decoded_bytes")),
            kb(at(&cold, "transfer_bytes")),
            kb(at(&warm, "transfer_bytes")),
        );
    }
}
