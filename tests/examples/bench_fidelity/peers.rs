//! Issue 13: the page against two peers outside the browser, on the same lab streams in the same run.
//!
//! For each rate (20, 5, 2, 1 and 0.5 ms per event, 10 s of events each, the first after 100 ms) and
//! each of `BENCH_REPEATS` repeats (default 5), one after the other (the order rotates per repeat):
//! - **page**: the release page in headless Chromium, opened without `run=1`, Run clicked (as
//!   `fidelity::open_observe_and_run`), its trace taken from *Export as text*;
//! - **worker**: a bare `fetch` + `reader.read()` loop in a dedicated worker of the same browser, on the
//!   idle page ([`bare_worker_trace`]): the floor the page's measuring worker can reach;
//! - **peer**: `streamscope-peer`'s socket loop (`Instant` per `recv()`);
//! - **curl**: `curl -N --trace-time --trace -` (curl's own time stamp per `recv()`).
//!
//! All four are derived alike ([`streamscope_e2e::fidelity::measured`]): TTFT (page from `fetch()`,
//! peers from `connect`), reads, median content events per read, the page's verdict rules, and the
//! per-event arrival error against the lab's `server_ms` with the clock offset removed (pooled over the
//! repeats: p50, p99), and the share of the lab's sends (events stamped apart) each one got merged into
//! the read before. Then the nginx case: a 21 KiB stream through nginx with its default buffering,
//! where all three must see the same bursts. One warm-up run of each measurer comes first (the first
//! run in a fresh browser pays for a cold worker). Prints markdown; one JSON line per run on stderr.
//!
//! Arguments: rates in ms (`20 0.5`) and/or `nginx`; none means all.

use std::time::Duration;

use serde_json::json;
use streamscope_core::stats::median;
use streamscope_e2e::fidelity::bare_worker::bare_worker_trace;
use streamscope_e2e::fidelity::cpu::{CpuUse, CpuWindow};
use streamscope_e2e::fidelity::measured::{page_trace, peer_trace, ttft_differences_ms, Measured, Pooled};
use streamscope_e2e::fidelity::{curl_keeping_body, export_text, open_and_settle, open_observe_and_run, peer_keeping_body};
use streamscope_e2e::{with_page_and_nginx, Page, Proxies, Proxy};

/// Milliseconds between content events, and how many (10 s of events each).
const RATES: [(f64, u32); 5] = [(20.0, 500), (5.0, 2000), (2.0, 5000), (1.0, 10_000), (0.5, 20_000)];
/// The nginx case: 50 events of ~420 bytes (`pad=200`) 20 ms apart, ~21 KiB, overflowing nginx's
/// 4/8 KiB proxy buffers several times (as `tests/paths.rs` (a)).
const NGINX_PARAMS: &str = "tokens=50&cadence_ms=20&first_ms=300&pad=200";
/// How long the nginx case's stream plays (300 ms to the first event, 50 at 20 ms).
const NGINX_STREAM: Duration = Duration::from_millis(1300);
/// Longest a single run may take.
const RUN_LIMIT: Duration = Duration::from_secs(180);

/// Goals of the issue, with their units in the names.
const TTFT_DIFF_P50_GOAL_MS: f64 = 10.0;
const ARRIVAL_P99_GOAL_MS: f64 = 2.0;
/// The rate (ms per event) the arrival goal is set at: 50 events/s.
const ARRIVAL_GOAL_RATE_MS: f64 = 20.0;
/// The fastest rate (ms per event) at which the page must not merge events: 1,000 events/s.
const NO_MERGE_UP_TO_RATE_MS: f64 = 1.0;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Who {
    Page,
    Worker,
    Peer,
    Curl,
}

const WHO: [Who; 4] = [Who::Page, Who::Worker, Who::Peer, Who::Curl];

impl Who {
    fn name(self) -> &'static str {
        match self {
            Who::Page => "page",
            Who::Worker => "worker",
            Who::Peer => "peer",
            Who::Curl => "curl",
        }
    }
}

/// Every run of one stream, per measurer (in [`WHO`]'s order), with the browser's CPU time during each.
#[derive(Default)]
struct Runs([Vec<Measured>; WHO.len()], [Vec<f64>; WHO.len()]);

impl Runs {
    fn push(&mut self, who: Who, measured: Measured, browser_cpu_ms: Option<f64>) {
        self.0[who as usize].push(measured);
        self.1[who as usize].extend(browser_cpu_ms);
    }

    fn of(&self, who: Who) -> Vec<&Measured> {
        self.0[who as usize].iter().collect()
    }

    /// The browser's CPU time while the stream played, per run of `who`, in ms.
    fn browser_cpu_ms(&self, who: Who) -> &[f64] {
        &self.1[who as usize]
    }
}

/// Runs the rates and the nginx case named in `wanted` (all when empty).
pub async fn main(wanted: Vec<String>) {
    let repeats: usize = std::env::var("BENCH_REPEATS").ok().and_then(|r| r.parse().ok()).unwrap_or(5).max(1);
    let rates: Vec<(f64, u32)> = RATES
        .into_iter()
        .filter(|(ms, _)| wanted.is_empty() || wanted.iter().any(|w| w.parse::<f64>().ok() == Some(*ms)))
        .collect();
    let nginx = wanted.is_empty() || wanted.iter().any(|w| w == "nginx");
    if rates.is_empty() && !nginx {
        eprintln!("no such rate; known: 20 5 2 1 0.5 (ms per event) and nginx");
        std::process::exit(2);
    }
    with_page_and_nginx(move |page: Page, proxies: Proxies| async move {
        // `BENCH_WINDOW=WxH`: the browser window's size (the harness's default leaves a 780 × 437 view,
        // in which the live metrics sit below the fold; 1280x1000 is a laptop's, with them in view).
        let view = page.size_window_from_env("BENCH_WINDOW").await;
        let warm_up = page.lab_url("/v1/chat/completions?tokens=20&cadence_ms=5&first_ms=50");
        for who in WHO {
            measure(&page, who, &warm_up, Duration::from_millis(150)).await;
        }
        let mut results = Vec::new();
        for &(ms, tokens) in &rates {
            let url = page.lab_url(&format!("/v1/chat/completions?tokens={tokens}&cadence_ms={ms}&first_ms=100"));
            let stream = Duration::from_secs_f64((100.0 + ms * f64::from(tokens)) / 1000.0);
            results.push((ms, tokens, repeat(&page, &url, repeats, &format!("{ms} ms"), stream).await));
        }
        let nginx_runs = if nginx {
            let url = proxies.stream_url(Proxy::Defaults, NGINX_PARAMS);
            Some(repeat(&page, &url, repeats, "nginx", NGINX_STREAM).await)
        } else {
            None
        };
        println!("BENCH_REPEATS={repeats}; rates: 10 s of events each, first at 100 ms; nginx: `{NGINX_PARAMS}` through nginx defaults (buffering on); the page's view {}.", view.map_or("unknown".into(), |v| v.to_string()));
        println!();
        if !results.is_empty() {
            print_rates(&results);
        }
        if let Some(runs) = nginx_runs {
            print_nginx(&runs);
        }
    })
    .await;
}

/// `stream`: how long the lab's stream plays, the window of the browser's CPU time.
async fn repeat(page: &Page, url: &str, repeats: usize, label: &str, stream: Duration) -> Runs {
    let mut runs = Runs::default();
    for r in 0..repeats {
        for i in 0..WHO.len() {
            let who = WHO[(i + r) % WHO.len()];
            let (measured, cpu) = measure(page, who, url, stream).await;
            let cpu_ms = cpu.as_ref().map(|c| c.total_ms);
            // Where the time went: the busiest kinds of thread (renderer main thread, the measuring
            // worker, the compositor, the network service, ...).
            let cpu_by_thread: Option<Vec<(&str, f64)>> =
                cpu.as_ref().map(|c| c.by_thread_ms.iter().take(8).map(|(n, ms)| (n.as_str(), *ms)).collect());
            eprintln!(
                "{}",
                json!({
                    "case": label, "repeat": r + 1, "who": who.name(), "ttft_ms": measured.ttft_ms,
                    "browser_cpu_ms": cpu_ms, "browser_cpu_by_thread_ms": cpu_by_thread,
                    "reads": measured.reads, "content_events": measured.content_events,
                    "sent_apart": measured.sent_apart, "merged_apart": measured.merged_apart,
                    "events_per_read_p50": measured.events_per_read_p50,
                    "arrival_p50_ms": measured.arrival().map(|p| p.p50), "arrival_p99_ms": measured.arrival().map(|p| p.p99),
                    "arrival_max_ms": measured.arrival().map(|p| p.max),
                    "bursts": measured.burst_count, "verdict": measured.verdict.as_str(),
                    // Each burst's size and start, for a stream with few of them (the nginx case).
                    "burst_events": (measured.burst_events.len() <= 20).then_some(&measured.burst_events),
                    "burst_start_ms": (measured.burst_start_ms.len() <= 20)
                        .then(|| measured.burst_start_ms.iter().map(|t| (t * 10.0).round() / 10.0).collect::<Vec<_>>()),
                })
            );
            runs.push(who, measured, cpu_ms);
        }
    }
    runs
}

/// One run of `who` on `url`, and the browser's CPU time (ms) from the request for `stream`: for the page and
/// the bare loop, the browser's work while it reads; for the peers, the same browser idle beside them.
async fn measure(page: &Page, who: Who, url: &str, stream: Duration) -> (Measured, Option<CpuUse>) {
    match who {
        Who::Page => {
            // Run is clicked at the end of this: the window starts within milliseconds of the request.
            open_observe_and_run(page, &page.query_for(url, "").replace("&run=1", "")).await;
            let cpu = CpuWindow::start(stream);
            let report = page.wait_for_report(RUN_LIMIT).await;
            let cpu_ms = cpu.finish();
            assert_eq!(report.state, "done", "the page's run failed: {}", report.text);
            let trace = page_trace(&export_text(page, Duration::from_secs(60)).await)
                .unwrap_or_else(|e| panic!("the page's export: {e}"));
            let measured = Measured::of(&trace);
            // The export's trace must give the figures the page reported.
            assert_eq!(report.json["ttft_ms"].as_f64(), measured.ttft_ms, "TTFT from the export vs the report");
            (measured, cpu_ms)
        }
        Who::Worker => {
            // The page open and idle beside the worker, as a user's tab before Run, settled as for the
            // page's own run (before, the bare loop's first seconds shared the CPU with the page's start-up).
            open_and_settle(page, &page.query_for(url, "").replace("&run=1", "")).await;
            let cpu = CpuWindow::start(stream);
            let trace = bare_worker_trace(page, url, RUN_LIMIT).await.unwrap_or_else(|e| panic!("{e}"));
            (Measured::of(&trace), cpu.finish())
        }
        Who::Peer => {
            let cpu = CpuWindow::start(stream);
            let measured = Measured::of(&peer_trace(&peer_keeping_body(url).await, url));
            (measured, cpu.finish())
        }
        Who::Curl => {
            let cpu = CpuWindow::start(stream);
            let report = curl_keeping_body(url).await;
            let cpu_ms = cpu.finish();
            assert!(report.error.is_none(), "curl: {:?}", report.error);
            (Measured::of(&peer_trace(&report, url)), cpu_ms)
        }
    }
}

/// The browser's CPU time per second of a `stream_ms` stream, median over the runs: the page's run, the
/// bare loop's, and the idle browser beside the socket peers (their runs pooled).
fn cpu_per_s(runs: &Runs, stream_ms: f64) -> String {
    let per_s = |values: &[f64]| n(median(values).map(|ms| (ms * 1000.0 / stream_ms).round()));
    let idle: Vec<f64> = [Who::Peer, Who::Curl].iter().flat_map(|&w| runs.browser_cpu_ms(w).iter().copied()).collect();
    format!("{} / {} / {}", per_s(runs.browser_cpu_ms(Who::Page)), per_s(runs.browser_cpu_ms(Who::Worker)), per_s(&idle))
}

fn f1(v: Option<f64>) -> String {
    v.map_or("–".into(), |x| format!("{x:+.1}"))
}

fn f2(v: Option<f64>) -> String {
    v.map_or("–".into(), |x| format!("{x:.2}"))
}

fn n(v: Option<f64>) -> String {
    v.map_or("–".into(), |x| if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.1}") })
}

fn pct(share: Option<f64>) -> String {
    share.map_or("–".into(), |s| format!("{:.1}", 100.0 * s))
}

fn verdicts(p: &Pooled) -> String {
    p.verdicts.iter().map(|(v, k)| format!("{} ×{k}", v.as_str())).collect::<Vec<_>>().join(", ")
}

fn max(values: &[f64]) -> Option<f64> {
    values.iter().copied().reduce(f64::max)
}

fn print_rates(results: &[(f64, u32, Runs)]) {
    println!("| ms per event (events/s) | TTFT page − peer p50 / max (ms) | page − worker / curl p50 | arrival error p50 / p99 (ms): page | worker | peer | curl | events per read (median) page / worker / peer / curl | reads page / worker / peer / curl (median) | sends merged into the read before (median %) page / worker / peer / curl | bursts (median per run, content in them %) page / worker / peer / curl | verdicts page / worker / peer / curl | browser CPU while it plays, ms per s (median): page / bare loop / idle |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut goals = Goals::default();
    for (ms, tokens, runs) in results {
        let page = runs.of(Who::Page);
        let vs = |who: Who| ttft_differences_ms(&page, &runs.of(who));
        let vs_peer = vs(Who::Peer);
        let pooled: Vec<Pooled> = WHO.iter().map(|&who| Pooled::of(&runs.of(who))).collect();
        let arrival = |p: &Pooled| format!("{} / {}", f2(p.arrival.map(|a| a.p50)), f2(p.arrival.map(|a| a.p99)));
        let all = |f: &dyn Fn(&Pooled) -> String, sep: &str| pooled.iter().map(f).collect::<Vec<_>>().join(sep);
        println!(
            "| {ms} ({:.0}, {tokens} events) | {} / {} | {} / {} | {} | {} | {} | {} | {} | {} | {} |",
            1000.0 / ms,
            f1(median(&vs_peer)), f1(max(&vs_peer)), f1(median(&vs(Who::Worker))), f1(median(&vs(Who::Curl))),
            all(&arrival, " | "),
            all(&|p| n(p.events_per_read_p50), " / "),
            all(&|p| n(p.reads), " / "),
            all(&|p| pct(p.merged_share), " / "),
            all(&|p| format!("{} ({})", n(p.bursts), pct(p.burst_share)), " / "),
            all(&verdicts, " / "),
            cpu_per_s(runs, 100.0 + ms * f64::from(*tokens)),
        );
        goals.add(*ms, median(&vs_peer), &pooled[0], &pooled[1]);
    }
    println!();
    goals.print();
    println!();
}

/// The goals, checked against the page's figures per rate.
#[derive(Default)]
struct Goals {
    ttft: Vec<(f64, Option<f64>)>,
    arrival_p99_ms: Option<f64>,
    worker_arrival_p99_ms: Option<f64>,
    per_read: Vec<(f64, Option<f64>)>,
}

impl Goals {
    fn add(&mut self, ms: f64, ttft_diff_p50_ms: Option<f64>, page: &Pooled, worker: &Pooled) {
        self.ttft.push((ms, ttft_diff_p50_ms));
        if ms == ARRIVAL_GOAL_RATE_MS {
            self.arrival_p99_ms = page.arrival.map(|a| a.p99);
            self.worker_arrival_p99_ms = worker.arrival.map(|a| a.p99);
        }
        if ms >= NO_MERGE_UP_TO_RATE_MS {
            self.per_read.push((ms, page.events_per_read_p50));
        }
    }

    fn print(&self) {
        let met = |ok: bool| if ok { "met" } else { "**not met**" };
        let list = |items: &[(f64, Option<f64>)], fmt: fn(Option<f64>) -> String, unit: &str| {
            items.iter().map(|(ms, v)| format!("{}{unit} at {ms} ms/event", fmt(*v))).collect::<Vec<_>>().join(", ")
        };
        if !self.ttft.is_empty() {
            let ok = self.ttft.iter().all(|(_, v)| v.is_some_and(|v| v <= TTFT_DIFF_P50_GOAL_MS));
            println!("- TTFT page − peer p50 ≤ {TTFT_DIFF_P50_GOAL_MS} ms: {} ({}).", met(ok), list(&self.ttft, f1, " ms"));
        }
        if let Some(p99) = self.arrival_p99_ms {
            println!(
                "- Per-event arrival error p99 ≤ {ARRIVAL_P99_GOAL_MS} ms at 50 events/s (page): {} ({p99:.2} ms; a bare loop in a worker of the same browser: {} ms).",
                met(p99 <= ARRIVAL_P99_GOAL_MS),
                f2(self.worker_arrival_p99_ms)
            );
        }
        if !self.per_read.is_empty() {
            let ok = self.per_read.iter().all(|(_, v)| *v == Some(1.0));
            println!("- Median events per read 1 up to 1,000 events/s (page): {} ({}).", met(ok), list(&self.per_read, n, ""));
        }
    }
}

fn print_nginx(runs: &Runs) {
    println!("Through nginx with its default buffering (`proxy_buffering on`), `{NGINX_PARAMS}`:");
    println!();
    println!("| repeat | reads page / worker / peer / curl | bursts page / worker / peer / curl | content events per burst: page | worker | peer | curl | same bursts as the page: worker / peer / curl | verdict page / worker / peer / curl |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let all: Vec<Vec<&Measured>> = WHO.iter().map(|&who| runs.of(who)).collect();
    let repeats = all.iter().map(Vec::len).min().unwrap_or(0);
    for r in 0..repeats {
        let row: Vec<&Measured> = all.iter().map(|runs| runs[r]).collect();
        let page = row[0];
        let same = |m: &Measured| if m.burst_events == page.burst_events { "yes" } else { "**no**" };
        let sizes = |m: &Measured| m.burst_events.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
        let each = |f: &dyn Fn(&Measured) -> String, sep: &str| row.iter().map(|m| f(m)).collect::<Vec<_>>().join(sep);
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            r + 1,
            each(&|m| m.reads.to_string(), " / "),
            each(&|m| m.burst_count.to_string(), " / "),
            each(&sizes, " | "),
            row[1..].iter().map(|m| same(m)).collect::<Vec<_>>().join(" / "),
            each(&|m| m.verdict.as_str().to_string(), " / "),
        );
    }
    println!();
}
