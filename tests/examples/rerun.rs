//! Overhead check: one page, the same stream measured several times in a row (Run clicked again), so the
//! first run (page just loaded) can be compared with runs on a settled page.
//!
//! `cargo run -p streamscope-e2e --example rerun -- [runs] [lab stream params]`

use streamscope_e2e::{with_page, Page, REPORT_LIMIT};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
    let params = args.next().unwrap_or_else(|| "tokens=50&cadence_ms=20&first_ms=300".into());
    with_page(move |page: Page| async move {
        for run in 0..runs {
            let report = if run == 0 {
                page.run_report(&page.stream_query(&params, "")).await
            } else {
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                page.click("run").await;
                tokio::time::sleep(std::time::Duration::from_millis(300)).await;
                page.wait_for_report(REPORT_LIMIT).await
            };
            let r = &report.json;
            let f = |k: &str| r[k].as_f64().map_or("null".to_string(), |v| format!("{v:.1}"));
            println!(
                "run {run}: headers_ms {} ttfb_ms {} ttft_ms {} tpot_ms {} total_ms {}",
                f("headers_ms"), f("ttfb_ms"), f("ttft_ms"), f("tpot_ms"), f("total_ms")
            );
        }
    })
    .await;
}
