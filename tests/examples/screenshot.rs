//! Looks at the page as a user would: runs the built page against the lab in headless Chromium and saves
//! a full-page PNG, plus the report JSON next to it.
//!
//! `cargo run -p streamscope-e2e --example screenshot -- <out.png> [lab stream params] [page params]`
//! e.g. `-- /tmp/page.png "tokens=50&cadence_ms=20&first_ms=300"`. In the page params, `{lab}` stands for
//! the lab's base URL, e.g. `"vs={lab}/v1/chat/completions%3Fcadence_ms%3D40&repeat=2"`. `SHOT_HEIGHT`
//! and `SHOT_WIDTH` set the window's size (default 1280 × 2000); `SHOT_JS` is a script run before the picture (fill a panel, click a button);
//! `SHOT_AS_IS=1` leaves folded panels folded; `SHOT_RUN_SIZE=WxH` sizes the window before the run
//! (default: the harness's), `SHOT_PRINT_VIEWPORT=1` prints the viewport the run had; `SHOT_DURING_MS=N`
//! also saves `<out>.during.png`, taken N ms after the page opened and started its run.

use streamscope_e2e::{with_page, Page};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "streamscope.png".into());
    let params = args.next().unwrap_or_else(|| "tokens=50&cadence_ms=20&first_ms=300".into());
    let extra = args.next().unwrap_or_default();
    with_page(move |page: Page| async move {
        let lab = streamscope_e2e::encode_component(&page.lab_url(""));
        let extra = extra.replace("{lab}", &lab);
        // `SHOT_RUN_SIZE=WxH`: the window's size while the page loads and runs (what is in view then).
        let view = page.size_window_from_env("SHOT_RUN_SIZE").await;
        // `SHOT_DURING_MS=N`: also a picture N ms after the page opened and started its run, while the
        // stream plays (saved beside the other as `<out>.during.png`).
        let during_ms: Option<u64> = std::env::var("SHOT_DURING_MS").ok().and_then(|ms| ms.parse().ok());
        let report = match during_ms {
            None => page.run_report(&page.stream_query(&params, &extra)).await,
            Some(ms) => {
                page.open(&page.stream_query(&params, &extra)).await;
                tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
                let png = page.client().screenshot().await.expect("screenshot during the run");
                std::fs::write(format!("{out}.during.png"), png).expect("write the PNG");
                page.wait_for_report(std::time::Duration::from_secs(120)).await
            }
        };
        if std::env::var_os("SHOT_PRINT_VIEWPORT").is_some() {
            println!("viewport during the run: {}", view.map_or("unknown".into(), |v| v.to_string()));
        }
        // Open every folded panel so the picture shows it too (`SHOT_AS_IS=1`: as a visitor sees it).
        if std::env::var_os("SHOT_AS_IS").is_none() {
            let _ = page
                .client()
                .execute("document.querySelectorAll('details').forEach(d => d.open = true);", vec![])
                .await;
        }
        // `SHOT_JS`: a script to run before the picture (fill a panel, click a button).
        if let Ok(script) = std::env::var("SHOT_JS") {
            page.client().execute(&script, vec![]).await.expect("SHOT_JS");
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
        let height: u32 = std::env::var("SHOT_HEIGHT").ok().and_then(|h| h.parse().ok()).unwrap_or(2000);
        let width: u32 = std::env::var("SHOT_WIDTH").ok().and_then(|w| w.parse().ok()).unwrap_or(1280);
        let _ = page.client().set_window_size(width, height).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let png = page.client().screenshot().await.expect("screenshot");
        std::fs::write(&out, png).expect("write the PNG");
        std::fs::write(format!("{out}.json"), &report.text).expect("write the report");
        println!("{out}: state={} ({} bytes of report)", report.state, report.text.len());
    })
    .await;
}
