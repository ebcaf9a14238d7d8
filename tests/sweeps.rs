//! End-to-end: concurrency sweeps (issue 11). Streams of one level start together, `per_level` rounds
//! per level; the report has a row per level and the knee. Over HTTP/1.1 a browser opens at most 6
//! connections to one origin, so a level of 12 against a server that never queues shows the browser's
//! own staircase: `browser_connection_limit`, and no knee blamed on the server.

use serde_json::Value;
use streamscope_e2e::{with_page, Page};

fn level<'a>(report: &'a Value, level: u64) -> &'a Value {
    report["sweep"]
        .as_array()
        .and_then(|levels| levels.iter().find(|l| l["level"] == level))
        .unwrap_or_else(|| panic!("no level {level}: {report:#}"))
}

fn finding<'a>(report: &'a Value, code: &str) -> Option<&'a Value> {
    report["findings"].as_array().and_then(|all| all.iter().find(|f| f["code"] == code))
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
        let f = finding(&report, "browser_connection_limit").unwrap_or_else(|| panic!("no browser finding: {report:#}"));
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
