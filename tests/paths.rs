//! End-to-end: diagnosing the path between the model and the browser. The built page in headless
//! Chromium, driven only through the automation contract (`?url=…&run=1`, `#report-json`), against the
//! lab directly (healthy variants that must stay `streaming`, lab-made faults) and through a real nginx
//! in five configurations. Scenarios are grouped (one browser session each, nginx started once); every
//! scenario is checked and the test fails at the end with a table of what each one measured.
//!
//! Needs a built page (`trunk build --release`), chromium, chromium-driver and nginx.

use std::time::Duration;

use streamscope_e2e::{finding, with_page, with_page_and_nginx, Check, Outcomes, Page, Proxies, Proxy};
use streamscope_lab::scenarios::schedule::deadlines_ms;

/// The reference stream: 50 tokens, 20 ms apart, the first after 300 ms.
const REFERENCE: &str = "tokens=50&cadence_ms=20&first_ms=300";
/// Its generation time: the last token is due at 300 + 49 × 20 ms.
const REFERENCE_LAST_MS: f64 = 1280.0;
/// How far a directly measured TTFT may sit from the schedule on a loaded 2-core machine.
const DIRECT_SLACK_MS: f64 = 25.0;

async fn run(page: &Page, target_url: &str) -> serde_json::Value {
    page.run_page(&page.query_for(target_url, "")).await
}

/// One short unchecked run: the first run of a fresh browser is slower than the ones after it.
async fn warm_up(page: &Page) {
    run(
        page,
        &page.lab_url("/v1/chat/completions?tokens=3&cadence_ms=10&first_ms=50"),
    )
    .await;
}

/// Checks a healthy stream: `streaming`, TTFT on schedule (`first_ms` after the request was sent),
/// TPOT near `tpot_ms`.
fn streaming(name: &str, report: &serde_json::Value, first_ms: f64, tpot_ms: f64) -> Check {
    let mut check = Check::new(name, report);
    check
        .verdict("streaming")
        .near("ttft_ms", first_ms + streamscope_e2e::request_sent_ms(report), DIRECT_SLACK_MS)
        .near("tpot_ms", tpot_ms, (tpot_ms * 0.15).max(1.5));
    for code in [
        "bursts",
        "collected",
        "compressed",
        "cached_replay",
        "content_length",
    ] {
        check.no_finding(code);
    }
    check
}

/// Checks that everything came at once at the end: first content at ≥ 90% of the total time.
fn all_at_the_end(check: &mut Check) {
    let (ttft_ms, total_ms) = (check.number("ttft_ms"), check.number("total_ms"));
    check.that(
        matches!((ttft_ms, total_ms), (Some(t), Some(e)) if t >= 0.9 * e),
        || format!("ttft_ms {ttft_ms:?} is not at the end (total_ms {total_ms:?})"),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthy_variants_direct_are_streaming() {
    with_page(|page: Page| async move {
        warm_up(&page).await;
        let mut outcomes = Outcomes::new();
        let url = |params: &str| page.lab_url(&format!("/v1/chat/completions?{params}"));

        let report = run(&page, &url(REFERENCE)).await;
        outcomes.add(streaming(
            "direct 20 ms × 50, first 300",
            &report,
            300.0,
            20.0,
        ));

        // The lab's jitter is deterministic: the first token is due at a known time near 300 ms.
        let first_due_ms = deadlines_ms(300.0, 20.0, 8, 1)[0];
        let report = run(&page, &url(&format!("{REFERENCE}&jitter_ms=8"))).await;
        outcomes.add(streaming(
            "direct jitter_ms=8 at 20 ms",
            &report,
            first_due_ms,
            20.0,
        ));

        let report = run(&page, &url("cadence_ms=7&jitter_ms=3&tokens=150")).await;
        let mut check = streaming("direct slow local model 7±3 ms × 150", &report, 300.0, 7.0);
        check.that(report["content_events"] == 150, || {
            "not 150 content events".into()
        });
        outcomes.add(check);

        let report = run(&page, &url("tokens=50&cadence_ms=20&first_ms=2000")).await;
        outcomes.add(streaming(
            "direct cold first_ms=2000",
            &report,
            2000.0,
            20.0,
        ));

        // 50 tokens in 17 events 20 ms apart: TPOT counts tokens (usage), 16 × 20 / 49 ≈ 6.5 ms.
        let report = run(&page, &url(&format!("{REFERENCE}&tokens_per_event=3"))).await;
        let mut check = streaming("direct tokens_per_event=3", &report, 300.0, 320.0 / 49.0);
        check
            .that(report["content_events"] == 17, || {
                "not 17 content events".into()
            })
            .that(report["tpot_n"] == 50, || "tpot_n is not 50 (usage)".into());
        outcomes.add(check);

        let report = run(&page, &url(&format!("{REFERENCE}&split_events=1"))).await;
        let mut check = streaming("direct split_events=1", &report, 300.0, 20.0);
        let (reads, events) = (report["reads"].as_u64(), report["content_events"].as_u64());
        check.that(
            matches!((reads, events), (Some(r), Some(e)) if r > e),
            || format!("{reads:?} reads for {events:?} events: the halves were merged"),
        );
        outcomes.add(check);

        outcomes.finish();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_made_faults_direct_are_named() {
    with_page(|page: Page| async move {
        warm_up(&page).await;
        let mut outcomes = Outcomes::new();
        let url = |params: &str| page.lab_url(&format!("/v1/chat/completions?{params}"));

        // Released at 500 ms, 1000 ms and at the end (1280 ms).
        let report = run(
            &page,
            &url(&format!("{REFERENCE}&mode=bursts&burst_every_ms=500")),
        )
        .await;
        let mut check = Check::new("direct mode=bursts burst_every_ms=500", &report);
        check
            .verdict("buffered")
            .finding("bursts")
            .between("ttft_ms", 490.0, 500.0 + 150.0)
            .between("events_per_read_max", 10.0, 60.0)
            .between("reads", 2.0, 8.0);
        // The timeline shades the holds and marks the releases (they come with the report).
        let mut held = 0;
        for _ in 0..20 {
            held = page.testid_count("timeline-held").await;
            if held > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let marks = page.testid_attr("timeline-bursts", "d").await.unwrap_or_default();
        check.that(held >= 1 && marks.matches('M').count() >= 2, || format!("{held} held spans, release marks {marks:?}"));
        outcomes.add(check);

        // Azure OpenAI's default content filter: the same bursts, every chunk carrying the filter's verdicts.
        // The bursts are the filter's: the fix is its streaming mode, not a proxy's buffering.
        let report = run(&page, &url(&format!("{REFERENCE}&mode=bursts&burst_every_ms=500&content_filter=batched"))).await;
        let mut check = Check::new("direct Azure content filter, batched", &report);
        let bursts = finding(&report, "bursts");
        let fix = bursts["fix"].as_str().unwrap_or_default().to_string();
        // Its first chunk says `created: 0`, which is no time (once read as 1970: a cache replay).
        check
            .verdict("buffered")
            .finding("bursts")
            .no_finding("cached_replay")
            .that(report["content_filter"]["mode"] == "batched" && report["content_filter"]["vetted_content_events"] == 50, || {
                format!("content_filter {}", report["content_filter"])
            })
            .that(bursts["evidence"]["content_filter"] == "batched", || format!("{bursts}"))
            .that(fix.contains("Asynchronous Filter") && !fix.contains("proxy_buffering"), || format!("fix {fix:?}"));
        outcomes.add(check);

        // The Asynchronous Filter: the text streams, its verdicts follow on their own.
        let report = run(&page, &url(&format!("{REFERENCE}&content_filter=async"))).await;
        let mut check = Check::new("direct Azure content filter, async", &report);
        check
            .verdict("streaming")
            .no_finding("bursts")
            .no_finding("cached_replay")
            .near("content_events", 50.0, 0.0)
            .that(report["content_filter"]["mode"] == "asynchronous" && report["content_filter"]["annotation_events"] == 1, || {
                format!("content_filter {}", report["content_filter"])
            });
        outcomes.add(check);

        let report = run(&page, &url(&format!("{REFERENCE}&cache=hit"))).await;
        let mut check = Check::new("direct cache=hit", &report);
        check
            .verdict("streaming")
            .finding("cached_replay")
            .near("ttft_ms", 300.0 + streamscope_e2e::request_sent_ms(&report), DIRECT_SLACK_MS);
        outcomes.add(check);

        let report = run(&page, &url(&format!("{REFERENCE}&content_length=1"))).await;
        let mut check = Check::new("direct content_length=1", &report);
        check
            .verdict("streaming")
            .finding("content_length")
            .near("ttft_ms", 300.0 + streamscope_e2e::request_sent_ms(&report), DIRECT_SLACK_MS)
            .near("tpot_ms", 20.0, 3.0);
        outcomes.add(check);

        outcomes.finish();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nginx_configurations_are_diagnosed() {
    with_page_and_nginx(|page: Page, proxies: Proxies| async move {
        let mut outcomes = Outcomes::new();
        let via = |proxy: Proxy, params: &str| proxies.stream_url(proxy, params);
        let direct = |params: &str| page.lab_url(&format!("/v1/chat/completions?{params}"));

        warm_up(&page).await;
        let report = run(&page, &direct(REFERENCE)).await;
        let direct_ttft_ms = report["ttft_ms"].as_f64().unwrap_or(300.0);
        outcomes.add(streaming("direct (baseline)", &report, 300.0, 20.0));

        // (b) buffering off: as good as direct.
        let report = run(&page, &via(Proxy::Unbuffered, REFERENCE)).await;
        let mut check = streaming("(b) nginx buffering off", &report, 300.0, 20.0);
        check.near("ttft_ms", direct_ttft_ms, 15.0);
        outcomes.add(check);

        // (d) gzip with buffering off: compressed, still streaming (nginx flushes gzip per read).
        let gzip_unbuffered = via(Proxy::GzipUnbuffered, REFERENCE);
        let report = run(&page, &gzip_unbuffered).await;
        let mut check = Check::new("(d) nginx gzip + buffering off", &report);
        check
            .verdict("streaming")
            .finding("compressed")
            .near("ttft_ms", direct_ttft_ms, 30.0)
            .near("tpot_ms", 20.0, 3.0);
        compressed_on_the_wire(&mut check);
        readable_gzip_headers(&page, &mut check, &gzip_unbuffered).await;
        outcomes.add(check);

        // (e) buffering on, but the lab says X-Accel-Buffering: no (padded as in (a), which it
        // would otherwise buffer).
        let params = format!("{REFERENCE}&accel=no&pad=200");
        let report = run(&page, &via(Proxy::AccelDefaults, &params)).await;
        let mut check = streaming("(e) nginx defaults + accel=no", &report, 300.0, 20.0);
        check.near("ttft_ms", direct_ttft_ms, 30.0);
        outcomes.add(check);

        // (a) ~21 KiB (pad=200) overflows nginx's 4/8 KiB buffers several times: released in bursts.
        let params = format!("{REFERENCE}&pad=200");
        let report = run(&page, &via(Proxy::Defaults, &params)).await;
        let mut check = Check::new("(a) nginx defaults, 21 KiB stream", &report);
        check
            .verdict("buffered")
            .at_least("ttft_ms", direct_ttft_ms + 100.0)
            .between("events_per_read_max", 4.0, 60.0);
        let (reads, events) = (report["reads"].as_u64(), report["content_events"].as_u64());
        check.that(
            matches!((reads, events), (Some(r), Some(e)) if r * 2 <= e),
            || format!("{reads:?} reads for {events:?} events: not held back"),
        );
        outcomes.add(check);

        // (a) ~2 KiB fits one buffer: everything at the end (the last token is due at 440 ms).
        let params = "tokens=8&cadence_ms=20&first_ms=300";
        let report = run(&page, &via(Proxy::Defaults, params)).await;
        let mut check = Check::new("(a) nginx defaults, 2 KiB stream", &report);
        check
            .verdict("collected")
            .finding("collected")
            .between("ttft_ms", 430.0, 440.0 + 300.0);
        all_at_the_end(&mut check);
        outcomes.add(check);

        // (c) gzip with buffering: compressed and held to the end.
        let gzip_buffered = via(Proxy::GzipBuffered, REFERENCE);
        let report = run(&page, &gzip_buffered).await;
        let mut check = Check::new("(c) nginx gzip + buffering", &report);
        check
            .verdict("collected")
            .finding("compressed")
            .at_least("ttft_ms", REFERENCE_LAST_MS - 10.0);
        all_at_the_end(&mut check);
        compressed_on_the_wire(&mut check);
        readable_gzip_headers(&page, &mut check, &gzip_buffered).await;
        outcomes.add(check);

        // A collect-then-return backend behind a well-configured nginx.
        let params = format!("{REFERENCE}&mode=collect");
        let report = run(&page, &via(Proxy::Unbuffered, &params)).await;
        let mut check = Check::new("lab mode=collect behind (b)", &report);
        check
            .verdict("collected")
            .finding("content_length")
            .at_least("ttft_ms", REFERENCE_LAST_MS + 20.0 - 10.0);
        all_at_the_end(&mut check);
        outcomes.add(check);

        outcomes.finish();
    })
    .await;
}

/// Resource Timing (allowed through nginx by the lab's `Timing-Allow-Origin: *`) shows fewer bytes on
/// the wire than decoded.
fn compressed_on_the_wire(check: &mut Check) {
    let connection = check.report()["connection"].clone();
    let (encoded, decoded) = (
        connection["encoded_body_bytes"].as_f64(),
        connection["decoded_body_bytes"].as_f64(),
    );
    check.that(
        matches!((encoded, decoded), (Some(e), Some(d)) if e > 0.0 && e < d),
        || format!("connection {connection}: encoded not smaller than decoded"),
    );
}

/// The lab's CORS headers pass nginx unchanged, so script can read `Content-Encoding` cross-origin.
async fn readable_gzip_headers(page: &Page, check: &mut Check, url: &str) {
    let names = [
        "content-encoding",
        "access-control-allow-origin",
        "timing-allow-origin",
    ];
    let (status, values) = page.fetch_headers(url, &names).await;
    let expected = [Some("gzip"), Some("*"), Some("*")];
    let seen: Vec<Option<&str>> = values.iter().map(Option::as_deref).collect();
    check.that(status == 200 && seen == expected, || {
        format!(
            "fetched through nginx: status {status}, {names:?} = {seen:?}, expected {expected:?}"
        )
    });
}
