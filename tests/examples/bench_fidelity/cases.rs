//! The issue-8 cases: the release page in headless Chromium against the in-process lab on loopback,
//! each case also timed by the raw-socket peer and by a bare `fetch` + `reader.read()` loop in the same
//! browser session. Prints a markdown table (and one JSON line per case on stderr).
//!
//! `bench_fidelity [case-name ...]`. Case names: `1k@20`,
//! `2k@5`, `5k@2`, `20k@1`, `20k@0.5`, `keepalive-4mb`, `100k@0.5`, `instant`; none means all.
//!
//! Per case: the page's verdict (`#report-json` once `data-state` is `done`/`error`), reads, content
//! events per read (page: median and p99 when the report carries per-read counts, otherwise its mean
//! and max, marked `~`), TTFT of page, peer and bare loop, the page's long tasks (a `longtask`
//! observer registered before Run is clicked), the JS heap and (when reachable) the wasm memory at
//! the end. The page may report extra fields (`measured_in`, ...): they are shown, never required.

use std::time::Duration;

use serde_json::{json, Value};
use streamscope_e2e::fidelity::{self, BareRun};
use streamscope_e2e::{with_page, Page};

/// One benchmark case: a name, a label and the lab's stream parameters.
struct Case {
    name: &'static str,
    label: &'static str,
    params: &'static str,
    /// How long the stream itself lasts, to size the time-outs.
    stream_s: f64,
}

const CASES: &[Case] = &[
    Case { name: "1k@20", label: "1,000 events @ 20 ms", params: "tokens=1000&cadence_ms=20&first_ms=100", stream_s: 20.1 },
    Case { name: "2k@5", label: "2,000 @ 5 ms", params: "tokens=2000&cadence_ms=5&first_ms=100", stream_s: 10.1 },
    Case { name: "5k@2", label: "5,000 @ 2 ms", params: "tokens=5000&cadence_ms=2&first_ms=100", stream_s: 10.1 },
    Case { name: "20k@1", label: "20,000 @ 1 ms", params: "tokens=20000&cadence_ms=1&first_ms=100", stream_s: 20.1 },
    Case { name: "20k@0.5", label: "20,000 @ 0.5 ms", params: "tokens=20000&cadence_ms=0.5&first_ms=100", stream_s: 10.1 },
    Case { name: "keepalive-4mb", label: "4 MB keep-alive flood, then 50 @ 20 ms", params: "tokens=50&cadence_ms=20&first_ms=300&keepalive_bytes=4194304", stream_s: 1.3 },
    Case { name: "100k@0.5", label: "100,000 @ 0.5 ms", params: "tokens=100000&cadence_ms=0.5&first_ms=100", stream_s: 50.1 },
    Case { name: "instant", label: "instant first token, 50 @ 20 ms", params: "tokens=50&cadence_ms=20&first_ms=0", stream_s: 1.0 },
];

/// Runs the cases named in `wanted` (all when empty).
pub async fn main(wanted: Vec<String>) {
    let cases: Vec<&'static Case> = CASES
        .iter()
        .filter(|c| wanted.is_empty() || wanted.iter().any(|w| w == c.name))
        .collect();
    if cases.is_empty() {
        eprintln!("no such case; known: {}", CASES.iter().map(|c| c.name).collect::<Vec<_>>().join(", "));
        std::process::exit(2);
    }
    with_page(move |page: Page| async move {
        let mut rows = Vec::new();
        for case in cases {
            eprintln!("[bench] {} ({})", case.label, case.params);
            let row = run_case(&page, case).await;
            eprintln!("{}", row);
            rows.push(row);
        }
        print_table(&rows);
    })
    .await;
}

async fn run_case(page: &Page, case: &Case) -> Value {
    let url = page.lab_url(&format!("/v1/chat/completions?{}", case.params));
    let limit = Duration::from_secs_f64((case.stream_s * 4.0 + 60.0).min(420.0));

    // 1. The raw socket.
    let peer = fidelity::peer(&url).await;
    let peer_per_read = peer.content_events_per_read();

    // 2. The bare loop, in the page's origin on an idle page (opened without run=1).
    page.open(&page.query_for(&url, "").replace("&run=1", "")).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let bare = fidelity::bare_fetch(page, &url, limit).await;

    // 3. The page, started by clicking Run with a longtask observer in place.
    let query = page.query_for(&url, "").replace("&run=1", "");
    let observed = fidelity::open_observe_and_run(page, &query).await;
    let (state, report) = wait(page, limit).await;
    let tasks = fidelity::long_tasks(page).await;
    let (heap, wasm) = fidelity::memory(page).await;
    let epr = fidelity::page_events_per_read(&report);

    let f = |v: &Value| v.as_f64();
    json!({
        "case": case.name,
        "label": case.label,
        "params": case.params,
        "page": {
            "state": state,
            "verdict": report["verdict"],
            "measured_in": report.get("measured_in"),
            "ttft_ms": f(&report["ttft_ms"]),
            "ttfb_ms": f(&report["ttfb_ms"]),
            "headers_ms": f(&report["headers_ms"]),
            "reads": report["reads"],
            "content_events": report["content_events"],
            "events_per_read_p50": epr.p50,
            "events_per_read_p99": epr.p99,
            "events_per_read_mean": epr.mean,
            "events_per_read_max": epr.max,
            "findings": report["findings"].as_array().map(|a| a.iter().filter_map(|x| x["code"].as_str()).collect::<Vec<_>>()),
            "long_tasks": {"observed": observed && tasks.supported, "count": tasks.count, "total_ms": tasks.total_ms, "max_ms": tasks.max_ms},
            "js_heap_bytes": heap,
            "wasm_memory_bytes": wasm,
        },
        "peer": {
            "ttft_ms": peer.ttft_ms,
            "ttfb_ms": peer.ttfb_ms,
            "headers_ms": peer.headers_ms,
            "reads": peer.reads.len(),
            "content_events": peer.content_events(),
            "events_per_read_p50": fidelity::percentile(&peer_per_read, 0.5),
            "events_per_read_p99": fidelity::percentile(&peer_per_read, 0.99),
            "error": peer.error,
        },
        "bare": bare_json(&bare),
    })
}

fn bare_json(bare: &BareRun) -> Value {
    json!({
        "ttft_ms": bare.ttft_ms,
        "ttfb_ms": bare.ttfb_ms,
        "headers_ms": bare.headers_ms,
        "reads": bare.reads,
        "content_events": bare.content_per_read.iter().sum::<usize>(),
        "events_per_read_p50": fidelity::percentile(&bare.content_per_read, 0.5),
        "events_per_read_p99": fidelity::percentile(&bare.content_per_read, 0.99),
        "error": bare.error,
    })
}

/// Waits for `data-state` done/error without panicking: a page that never finishes is a result.
async fn wait(page: &Page, limit: Duration) -> (String, Value) {
    let started = tokio::time::Instant::now();
    loop {
        let (state, text) = page.report_element().await;
        if let Some(state) = state.filter(|s| s == "done" || s == "error") {
            return (state, serde_json::from_str(&text).unwrap_or(Value::Null));
        }
        if started.elapsed() > limit {
            return (format!("no report after {} s", limit.as_secs()), Value::Null);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

fn ms(v: &Value) -> String {
    v.as_f64().map_or("–".into(), |x| format!("{x:.1}"))
}

fn diff(a: &Value, b: &Value) -> String {
    match (a.as_f64(), b.as_f64()) {
        (Some(a), Some(b)) => format!("{:+.1}", a - b),
        _ => "–".into(),
    }
}

fn count(v: &Value) -> String {
    v.as_f64().map_or("–".into(), |x| if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.1}") })
}

fn print_table(rows: &[Value]) {
    println!("| case | page verdict | reads page / bare / peer | events per read page p50 / p99 | bare p50 / p99 | peer p50 / p99 | TTFT page / bare / peer (ms) | page − peer | bare − peer | long tasks (n, total, max ms) | JS heap MB | wasm MB |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let (p, b, q) = (&r["page"], &r["bare"], &r["peer"]);
        let verdict = match (p["verdict"].as_str(), p["measured_in"].as_str()) {
            (Some(v), Some(m)) => format!("{v} ({m})"),
            (Some(v), None) => v.to_string(),
            _ => p["state"].as_str().unwrap_or("?").to_string(),
        };
        let page_epr = if p["events_per_read_p50"].is_number() {
            format!("{} / {}", count(&p["events_per_read_p50"]), count(&p["events_per_read_p99"]))
        } else {
            format!("~{} / ~{}", count(&p["events_per_read_mean"]), count(&p["events_per_read_max"]))
        };
        let lt = &p["long_tasks"];
        let long_tasks = if lt["observed"].as_bool() == Some(true) {
            format!("{}, {:.0}, {:.0}", lt["count"], lt["total_ms"].as_f64().unwrap_or(0.0), lt["max_ms"].as_f64().unwrap_or(0.0))
        } else {
            "n/a".into()
        };
        let mb = |v: &Value| v.as_f64().map_or("–".into(), |x| format!("{:.1}", x / 1_048_576.0));
        println!(
            "| {} | {} | {} / {} / {} | {} | {} / {} | {} / {} | {} / {} / {} | {} | {} | {} | {} | {} |",
            r["label"].as_str().unwrap_or(""),
            verdict,
            count(&p["reads"]), count(&b["reads"]), count(&q["reads"]),
            page_epr,
            count(&b["events_per_read_p50"]), count(&b["events_per_read_p99"]),
            count(&q["events_per_read_p50"]), count(&q["events_per_read_p99"]),
            ms(&p["ttft_ms"]), ms(&b["ttft_ms"]), ms(&q["ttft_ms"]),
            diff(&p["ttft_ms"], &q["ttft_ms"]),
            diff(&b["ttft_ms"], &q["ttft_ms"]),
            long_tasks,
            mb(&p["js_heap_bytes"]),
            mb(&p["wasm_memory_bytes"]),
        );
    }
    println!();
    println!("`~` = the report has no per-read counts: its mean (`delivery.content_events_per_read_mean`) and max instead of p50 / p99.");
}
