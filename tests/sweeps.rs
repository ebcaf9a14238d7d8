//! End-to-end: concurrency sweeps (issue 11). Streams of one level start together, `per_level` rounds
//! per level; the report has a row per level and the knee. Over HTTP/1.1 a browser opens at most 6
//! connections to one origin, so a level of 12 against a server that never queues shows the browser's
//! own staircase: `browser_connection_limit`, and no knee blamed on the server; the same twelve over
//! HTTP/2 (nginx with TLS) go out at once. A lab serving 3 streams at a time (`slots=3`) has its knee
//! at 8 when swept at 1, 2, 4, 8: TTFT p95 rises from 4 (one run in four waits a whole stream), the p50
//! only from 8.

use serde_json::Value;
use streamscope_e2e::{encode_component, finding, with_page, with_page_and_nginx, Page, Proxies, Proxy};

fn level(report: &Value, level: u64) -> &Value {
    report["sweep"]
        .as_array()
        .and_then(|levels| levels.iter().find(|l| l["level"] == level))
        .unwrap_or_else(|| panic!("no level {level}: {report:#}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twelve_at_once_over_http1_is_the_browser_s_limit_not_a_knee() {
    with_page(|page: Page| async move {
        // 600 ms to the first token (a usual hosted TTFT: twelve streams at once on a loaded 2-core
        // machine move it by tens of ms, well under the knee's 10% floor), 10 tokens 30 ms apart: each
        // stream holds its connection ~0.9 s.
        let query = page.stream_query("tokens=10&cadence_ms=30&first_ms=600", "concurrency=1,12&per_level=2");
        let report = page.run_page(&query).await;
        let twelve = level(&report, 12);
        assert_eq!(twelve["runs"], 24, "{report:#}");
        assert_eq!(twelve["errors"], 0, "{report:#}");
        assert_eq!(twelve["protocol"], "http/1.1", "{report:#}");
        assert_eq!(twelve["browser_queued"], 12, "6 in each of 2 rounds: {report:#}");
        let f = finding(&report, "browser_connection_limit");
        assert!(!f.is_null(), "no browser finding: {report:#}");
        assert_eq!(f["evidence"]["queued_runs"], 12, "{f:#}");
        // The held runs' TTFT includes a whole stream's wait; the server's does not move.
        let p95 = twelve["ttft_p95_ms"].as_f64().unwrap_or(0.0);
        assert!(p95 > 1300.0, "TTFT p95 at 12 {p95}: the held runs waited for a connection");
        let server = twelve["server_ttft_p50_ms"].as_f64().unwrap_or(f64::NAN);
        assert!((server - 600.0).abs() < 60.0, "server-side TTFT p50 {server}");
        assert!(report["knee"].is_null(), "the browser's queue is not the server's knee: {report:#}");
        let summary = report["summary"].as_str().unwrap_or_default();
        assert!(summary.contains("No knee") && summary.contains("browser itself held"), "{summary}");

        // The page shows the level rows, the knee and the finding.
        assert_eq!(page.testid_count("sweep-row").await, 2);
        assert_eq!(page.testid_text("sweep-knee").await.as_deref(), Some("none"));
        assert_eq!(page.testid_text("sweep-browser-queued-12").await.as_deref(), Some("12"));
        assert!(page.testid_count("campaign-finding-browser_connection_limit").await == 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_with_three_slots_has_its_knee_at_8() {
    with_page(|page: Page| async move {
        // Each stream: 500 ms to the first token, 10 tokens 30 ms apart (~0.8 s in a slot). A pool of its
        // own, so no other test's streams share the 3 slots.
        let stream = "tokens=10&cadence_ms=30&first_ms=500&slots=3&slot_pool=knee-test";
        let report = page.run_page(&page.stream_query(stream, "concurrency=1,2,4,8&per_level=2")).await;
        let p50 = |l: u64| level(&report, l)["ttft_p50_ms"].as_f64().unwrap_or(f64::NAN);
        let p95 = |l: u64| level(&report, l)["ttft_p95_ms"].as_f64().unwrap_or(f64::NAN);
        for l in [1, 2, 4, 8] {
            assert_eq!(level(&report, l)["runs"], 2 * l, "{report:#}");
            assert_eq!(level(&report, l)["errors"], 0, "{report:#}");
        }
        // Levels 1 and 2 fit the slots; at 4 one stream in four waits ~0.8 s (p95), at 8 most do (p50).
        for l in [1, 2] {
            assert!((p50(l) - 500.0).abs() < 100.0 && p95(l) < 700.0, "level {l}: p50 {} p95 {}", p50(l), p95(l));
        }
        assert!((p50(4) - 500.0).abs() < 100.0, "level 4 p50 {}", p50(4));
        assert!(p95(4) > 1000.0, "level 4 p95 {}: the fourth stream waited for a slot", p95(4));
        assert!(p50(8) > 1000.0, "level 8 p50 {}", p50(8));
        assert_eq!(report["knee"], 8, "{report:#}");
        let summary = report["summary"].as_str().unwrap_or_default();
        assert!(summary.starts_with("The server starts queueing at 8 streams at once"), "{summary}");
        assert_eq!(page.testid_text("sweep-knee").await.as_deref(), Some("8"));
        assert_eq!(page.testid_attr("sweep-chart-ttft", "role").await.as_deref(), Some("img"));
        // Both charts draw a point per level and series (TTFT p50 and p95; TPOT p50), the knee marked once.
        assert_eq!(chart_points(&page, "sweep-chart-ttft", "s-p50").await, 4);
        assert_eq!(chart_points(&page, "sweep-chart-ttft", "s-p95").await, 4);
        assert_eq!(chart_points(&page, "sweep-chart-tpot", "s-tpot").await, 4);
        assert_eq!(chart_points(&page, "sweep-chart-tpot", "knee-mark").await, 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twelve_at_once_over_http2_all_go_out_together() {
    with_page_and_nginx(|page: Page, proxies: Proxies| async move {
        let target = proxies.stream_url(Proxy::TlsH2Unbuffered, "tokens=10&cadence_ms=30&first_ms=600");
        let query = format!("url={}&concurrency=1,12&per_level=2&run=1", encode_component(&target));
        let report = page.run_page(&query).await;
        let twelve = level(&report, 12);
        assert_eq!((twelve["runs"].as_u64(), twelve["errors"].as_u64()), (Some(24), Some(0)), "{report:#}");
        assert_eq!(twelve["protocol"], "h2", "{report:#}");
        assert_eq!(twelve["browser_queued"], 0, "{report:#}");
        assert!(finding(&report, "browser_connection_limit").is_null(), "{report:#}");
        // Nothing waited: every TTFT is the server's 600 ms, the slowest within a few hundred ms of it.
        let p95 = twelve["ttft_p95_ms"].as_f64().unwrap_or(f64::NAN);
        assert!(p95 < 900.0, "TTFT p95 at 12 over h2 {p95}");
        assert!(report["knee"].is_null(), "{report:#}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sweep_of_more_than_500_runs_is_refused_before_anything_is_sent() {
    with_page(|page: Page| async move {
        let query = page.stream_query("tokens=3", "concurrency=1,2,4,8,16,32,64&per_level=4");
        let report = page.run_report(&query).await;
        assert_eq!(report.state, "error", "{}", report.text);
        assert!(report.text.trim().is_empty(), "no report: {}", report.text);
        let reason = page.testid_text("start-error").await.unwrap_or_default();
        assert!(reason.contains("508 runs") && reason.contains("at most 500"), "{reason}");
    })
    .await;
}

/// How many elements of class `class` the chart with this test id draws (its points, or its knee mark).
async fn chart_points(page: &Page, testid: &str, class: &str) -> u64 {
    let script = "const c = document.querySelector(`[data-testid=\"${arguments[0]}\"]`); \
                  return c ? c.querySelectorAll(`circle.${arguments[1]}, line.${arguments[1]}`).length : -1;";
    let found = page.client().execute(script, vec![Value::from(testid), Value::from(class)]).await;
    found.ok().and_then(|v| v.as_u64()).unwrap_or(0)
}
