//! End-to-end over HTTP/2 and TLS: the page (served by the lab over plain HTTP) measures the lab's
//! stream through a real nginx that speaks HTTP/2 over TLS to the browser (a self-signed certificate
//! made at test time; the test Chromium ignores certificate errors). With buffering off the stream
//! must stay `streaming` and Resource Timing must say `h2` (the lab's `Timing-Allow-Origin: *` passes
//! nginx); with nginx's default buffering a small answer is held to the end, over HTTP/2 as over
//! HTTP/1.1.
//!
//! Needs a built page (`trunk build --release`), chromium, chromium-driver, nginx and openssl.

use streamscope_e2e::{with_page_and_nginx, Check, Outcomes, Page, Proxies, Proxy};

/// The reference stream: 50 tokens, 20 ms apart, the first after 300 ms.
const REFERENCE: &str = "tokens=50&cadence_ms=20&first_ms=300";
/// How far a TTFT through nginx and TLS may sit from the schedule on a loaded 2-core machine.
const SLACK_MS: f64 = 40.0;

async fn run(page: &Page, target_url: &str) -> serde_json::Value {
    page.run_page(&page.query_for(target_url, "")).await
}

/// Expects Resource Timing's protocol to be HTTP/2.
fn over_h2(check: &mut Check) {
    let protocol = check.report()["connection"]["next_hop_protocol"].clone();
    check.that(protocol == "h2", || {
        format!("connection.next_hop_protocol {protocol}, expected \"h2\"")
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http2_over_tls_through_nginx() {
    with_page_and_nginx(|page: Page, proxies: Proxies| async move {
        let unbuffered = proxies.stream_url(Proxy::TlsH2Unbuffered, REFERENCE);
        assert!(unbuffered.starts_with("https://127.0.0.1:"), "{unbuffered}");
        // One unchecked run: the first of a fresh browser (and its first TLS handshake) is slower.
        run(&page, &proxies.stream_url(Proxy::TlsH2Unbuffered, "tokens=3&cadence_ms=10&first_ms=50")).await;
        let mut outcomes = Outcomes::new();

        let report = run(&page, &unbuffered).await;
        let mut check = Check::new("TLS + HTTP/2, buffering off", &report);
        check
            .verdict("streaming")
            .near("ttft_ms", 300.0, SLACK_MS)
            .near("tpot_ms", 20.0, 3.0)
            .no_finding("bursts")
            .no_finding("collected");
        over_h2(&mut check);
        check.that(report["content_events"] == 50, || {
            format!("content_events {}, expected 50", report["content_events"])
        });
        outcomes.add(check);

        // CORS and Timing-Allow-Origin from the lab reach script through nginx's HTTP/2.
        let names = ["access-control-allow-origin", "timing-allow-origin"];
        let (status, values) = page.fetch_headers(&unbuffered, &names).await;
        let mut check = Check::new("TLS + HTTP/2 headers", &report);
        check.that(status == 200 && values == [Some("*".to_string()), Some("*".to_string())], || {
            format!("status {status}, {names:?} = {values:?}")
        });
        outcomes.add(check);

        // nginx's default buffering: ~2 KiB fits one buffer, released when the last token is due (440 ms).
        let small = proxies.stream_url(Proxy::TlsH2Buffered, "tokens=8&cadence_ms=20&first_ms=300");
        let report = run(&page, &small).await;
        let mut check = Check::new("TLS + HTTP/2, buffering on, 2 KiB", &report);
        check.verdict("collected").between("ttft_ms", 430.0, 440.0 + 300.0);
        over_h2(&mut check);
        outcomes.add(check);

        outcomes.finish();
    })
    .await;
}
