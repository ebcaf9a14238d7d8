//! End-to-end: three kinds of stream that real proxies make and the verdicts once missed (issue 9), each
//! reproduced on loopback and run through the built page in headless Chromium, with the healthy streams
//! that look nearest to them as traps that must stay `streaming`:
//!
//! 1. a relay that forwards what it holds every 250 ms in front of a model making a token every 80 ms
//!    (the lab's byte relay, [`streamscope_lab::relay`]): `buffered`, by its release cadence;
//!    traps: 4 tokens per event every 80 ms, an engine writing 3 events at once every 60 ms, one writing
//!    3 at once every 180 ms with its own timestamps, a transparent relay;
//! 2. a relay that holds the response headers until the first body byte, in front of a server that
//!    answers at once and makes its first token at 300 ms: `headers_held` (info), still `streaming`;
//! 3. a server that resets the connection after 10 tokens, directly and through nginx: `failed` with
//!    `network_error` and `truncated` (how many token events came, and when);
//! 4. a short answer whose start was held and whose rest came in one more delivery 90 ms later:
//!    `buffered`, by its held start; traps: a fast model's first read, an engine writing 8 events at once.
//!
//! Needs a built page (`trunk build --release`), chromium, chromium-driver and nginx.

use serde_json::Value;
use streamscope_e2e::{finding, relay, with_page, with_page_and_nginx, Check, Outcomes, Page, Proxies, Proxy};
use streamscope_lab::relay::RelayPolicy;

async fn run(page: &Page, target_url: &str) -> Value {
    page.run_page(&page.query_for(target_url, "")).await
}

/// One short unchecked run: the first run of a fresh browser is slower than the ones after it.
async fn warm_up(page: &Page) {
    run(page, &page.lab_url("/v1/chat/completions?tokens=3&cadence_ms=10&first_ms=50")).await;
}

/// The chat-completions URL with `params` behind the relay at `addr`.
fn via(addr: std::net::SocketAddr, params: &str) -> String {
    format!("http://{addr}/v1/chat/completions?{params}")
}

/// A healthy stream that must stay `streaming` with all its content and no buffering finding.
fn healthy(name: &str, report: &Value, content_events: u64) -> Check {
    let mut check = Check::new(name, report);
    check.verdict("streaming").no_finding("bursts").no_finding("collected");
    check.that(report["content_events"] == content_events, || {
        format!("content_events {}, expected {content_events}", report["content_events"])
    });
    check
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_flushing_every_250ms_is_buffered_and_its_look_alikes_stream() {
    with_page(|page: Page| async move {
        warm_up(&page).await;
        let mut outcomes = Outcomes::new();
        let timer = relay(RelayPolicy { flush_every_ms: Some(250), hold_headers: false });
        let lab = |params: &str| page.lab_url(&format!("/v1/chat/completions?{params}"));

        // No server timestamps (what real providers send): the cadence alone must say it.
        let report = run(&page, &via(timer, "tokens=30&cadence_ms=80&first_ms=300&stamp=0")).await;
        let mut check = Check::new("relay flushing every 250 ms, 80 ms tokens, no timestamps", &report);
        check.verdict("buffered").finding("bursts");
        let bursts = finding(&report, "bursts");
        let signals = bursts["evidence"]["signals"].as_array().cloned().unwrap_or_default();
        check.that(signals.iter().any(|s| s == "release_cadence"), || format!("signals {signals:?}"));
        let period = bursts["evidence"]["release_period_ms"].as_f64();
        check.that(period.is_some_and(|p| (200.0..=300.0).contains(&p)), || format!("release period {period:?}"));
        check.that(report["content_events"] == 30, || "not 30 content events".into());
        outcomes.add(check);

        // With the lab's timestamps the hold itself shows too; the verdict is the same.
        let report = run(&page, &via(timer, "tokens=30&cadence_ms=80&first_ms=300")).await;
        outcomes.add(Check::new("relay flushing every 250 ms, with timestamps", &report).verdict("buffered").clone());

        // Traps: the healthy streams nearest to a timer relay.
        let report = run(&page, &lab("tokens=120&tokens_per_event=4&cadence_ms=80&first_ms=300&stamp=0")).await;
        outcomes.add(healthy("4 tokens per event every 80 ms", &report, 30));
        let report = run(&page, &lab("tokens=60&batch=3&cadence_ms=20&first_ms=300&stamp=0")).await;
        let mut check = healthy("engine writing 3 events at once every 60 ms", &report, 60);
        check.no_finding("text_in_steps");
        // Every delivery is a burst, and none is drawn as held: the verdict says the content streamed.
        check.that(report["delivery"]["burst_count"].as_u64().is_some_and(|n| n >= 15), || {
            format!("{} bursts", report["delivery"]["burst_count"])
        });
        let held = page.testid_count("timeline-held").await;
        let marks = page.testid_attr("timeline-bursts", "d").await.unwrap_or_default();
        check.that(held == 0 && marks.is_empty(), || format!("{held} held spans drawn, release marks {marks:?}"));
        outcomes.add(check);
        let report = run(&page, &lab("tokens=36&batch=3&cadence_ms=60&first_ms=300")).await;
        let mut check = healthy("engine writing 3 events at once every 180 ms, stamped", &report, 36);
        // The reader sees the steps, and the stamps say the engine made them.
        check.finding("text_in_steps");
        let steps = finding(&report, "text_in_steps");
        let detail = steps["detail"].as_str().unwrap_or_default().to_owned();
        check.that(detail.contains("wrote each step's events together"), || detail.clone());
        outcomes.add(check);
        // A relay flushing every 100 ms: too quick a clock for `buffered`, slow enough to see.
        let quick = relay(RelayPolicy { flush_every_ms: Some(100), hold_headers: false });
        let report = run(&page, &via(quick, "tokens=60&cadence_ms=20&first_ms=300&stamp=0")).await;
        let mut check = healthy("relay flushing every 100 ms, 20 ms tokens, no timestamps", &report, 60);
        check.finding("text_in_steps");
        let period = finding(&report, "text_in_steps")["evidence"]["period_p50_ms"].as_f64();
        check.that(period.is_some_and(|p| (80.0..=120.0).contains(&p)), || format!("step period {period:?}"));
        outcomes.add(check);
        let transparent = relay(RelayPolicy::default());
        let report = run(&page, &via(transparent, "tokens=50&cadence_ms=20&first_ms=300&stamp=0")).await;
        outcomes.add(healthy("transparent relay, 20 ms tokens", &report, 50));

        outcomes.finish();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_answer_held_at_its_start_is_buffered_and_its_look_alikes_stream() {
    with_page(|page: Page| async move {
        warm_up(&page).await;
        let mut outcomes = Outcomes::new();
        let lab = |params: &str| page.lab_url(&format!("/v1/chat/completions?{params}"));

        // Tokens every 10 ms from 300 ms, held and let through at 500 ms and at the end (590 ms): two
        // bursts, 21 and 9 events, whose one gap is cut short by the end of the answer.
        let report = run(&page, &lab("tokens=30&cadence_ms=10&first_ms=300&mode=bursts&stamp=0")).await;
        let mut check = Check::new("short answer, start held until 500 ms, no timestamps", &report);
        check.verdict("buffered").finding("bursts");
        let evidence = &finding(&report, "bursts")["evidence"];
        let signals = evidence["signals"].as_array().cloned().unwrap_or_default();
        check.that(signals.iter().any(|s| s == "held_start"), || format!("signals {signals:?}"));
        let held = evidence["held_start_ms"].as_f64();
        check.that(held.is_some_and(|h| (150.0..=260.0).contains(&h)), || format!("held_start_ms {held:?}"));
        check.that(report["content_events"] == 30, || "not 30 content events".into());
        // Only the wait before the first delivery is drawn as held.
        let spans = page.testid_count("timeline-held").await;
        check.that(spans == 1, || format!("{spans} held spans drawn"));
        outcomes.add(check);

        // Traps: a fast model whose first read may merge a few ms of tokens, and an engine that writes
        // 8 events at once every 80 ms.
        let report = run(&page, &lab("tokens=400&cadence_ms=0.5&first_ms=300&stamp=0")).await;
        outcomes.add(healthy("fast model, a token every 0.5 ms", &report, 400));
        let report = run(&page, &lab("tokens=40&batch=8&cadence_ms=10&first_ms=300&stamp=0")).await;
        outcomes.add(healthy("engine writing 8 events at once every 80 ms", &report, 40));

        outcomes.finish();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_held_until_the_first_token_are_info_on_a_streaming_run() {
    with_page(|page: Page| async move {
        warm_up(&page).await;
        let mut outcomes = Outcomes::new();
        let params = "tokens=20&cadence_ms=20&first_ms=300&role_first=0";
        let holding = relay(RelayPolicy { flush_every_ms: None, hold_headers: true });

        let report = run(&page, &via(holding, params)).await;
        let mut check = healthy("relay holding the headers, first token at 300 ms", &report, 20);
        check.finding("headers_held");
        let held = finding(&report, "headers_held");
        check.that(held["severity"] == "info", || format!("severity {}", held["severity"]));
        let headers_ms = report["headers_ms"].as_f64();
        check.that(headers_ms.is_some_and(|h| h >= 250.0), || format!("headers_ms {headers_ms:?}"));
        let fix = held["fix"].as_str().unwrap_or("");
        check.that(fix.contains("text/event-stream"), || format!("fix {fix:?}"));
        outcomes.add(check);

        // Control: the same server directly sends its headers at once.
        let report = run(&page, &page.lab_url(&format!("/v1/chat/completions?{params}"))).await;
        let mut check = healthy("direct, headers at once, first token at 300 ms", &report, 20);
        check.no_finding("headers_held");
        outcomes.add(check);

        outcomes.finish();
    })
    .await;
}

/// A run cut by a reset after 10 of 50 tokens: failed, `network_error` and `truncated` with the count.
fn cut_after_ten(name: &str, report: &Value) -> Check {
    let mut check = Check::new(name, report);
    check.verdict("failed").finding("network_error").finding("truncated");
    let truncated = &finding(report, "truncated")["evidence"];
    check.that(truncated["content_events"] == 10, || format!("truncated evidence {truncated}"));
    let (last, at) = (truncated["last_content_ms"].as_f64(), truncated["at_ms"].as_f64());
    // The 10th token is due at 300 + 9 × 20 = 480 ms; the reset follows it.
    check.that(last.is_some_and(|l| l >= 450.0) && at.zip(last).is_some_and(|(a, l)| a >= l), || {
        format!("last token at {last:?}, break at {at:?}")
    });
    check
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_after_ten_tokens_is_truncated_directly_and_through_nginx() {
    with_page_and_nginx(|page: Page, proxies: Proxies| async move {
        warm_up(&page).await;
        let mut outcomes = Outcomes::new();
        let path = "/v1/chat/completions?tokens=50&cadence_ms=20&first_ms=300&reset_after=10";

        let report = run(&page, &page.lab_url(path)).await;
        let mut check = cut_after_ten("direct reset after 10 tokens", &report);
        // The timeline marks where the stream broke (after the last read), and says how.
        let stop = page.wait_for_testid_text("timeline-mark-stop", std::time::Duration::from_secs(5), |t| !t.is_empty()).await;
        check.that(stop == "network error", || format!("stop mark {stop:?}"));
        outcomes.add(check);
        let report = run(&page, &proxies.url(Proxy::Unbuffered, path)).await;
        outcomes.add(cut_after_ten("nginx buffering off, reset after 10 tokens", &report));

        outcomes.finish();
    })
    .await;
}
