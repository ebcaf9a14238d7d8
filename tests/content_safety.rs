//! End-to-end: what a hostile server sends is data (issue 10, "Hostile content"). A stream whose answer
//! is HTML and Markdown meant to run or to track is shown as text everywhere (answer, raw view,
//! Markdown) and runs nothing; the page's Content-Security-Policy allows no inline script and trips on
//! nothing of its own; and during a run the page (and its worker) requests nothing but its own files
//! and the target, read from Chromium's own network log.
//!
//! Needs a built page (`trunk build --release`) and chromium with chromium-driver.

use std::time::Duration;

use serde_json::Value;
use streamscope_e2e::{encode_component, relay, with_page, Page, RelayPolicy, REPORT_LIMIT};

/// HTML and Markdown that would run script, load a tracker or make a link if rendered.
const PAYLOAD: &str = "<img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=2</script>\
    <svg onload=\"window.__pwned=3\"></svg> ![t](http://127.0.0.1:9/track.png) [l](javascript:window.__pwned=4)";

/// Starts recording CSP violations on the open page.
async fn watch_csp(page: &Page) {
    let script = "window.__csp = []; document.addEventListener('securitypolicyviolation', \
                  e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));";
    page.client().execute(script, vec![]).await.expect("watch CSP");
}

async fn eval(page: &Page, script: &str) -> Value {
    page.client().execute(script, vec![]).await.expect("script")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_html_and_markdown_are_shown_as_text_and_run_nothing() {
    with_page(|page: Page| async move {
        let target = page.lab_url(&format!("/v1/chat/completions?first_ms=50&say={}", encode_component(PAYLOAD)));
        page.open(&format!("url={}", encode_component(&target))).await;
        watch_csp(&page).await;
        page.click("run").await;
        let report = page.wait_for_report(REPORT_LIMIT).await;
        assert_eq!(report.json["verdict"], "streaming", "{}", report.text);

        let answer = page.testid_text("answer-text").await.unwrap_or_default();
        assert!(answer.contains("<img src=x onerror=") && answer.contains("<script>"), "shown as text: {answer}");
        page.click("raw-toggle").await;
        // Opening the section renders its rows on a later frame: wait for them, then read.
        let raw = page.wait_for_testid_text("raw-view", Duration::from_secs(5), |text| !text.is_empty()).await;
        assert!(raw.contains("<img src=x"), "raw view shows it as text: {raw}");
        let markdown = page.markdown(Duration::from_secs(5)).await;
        assert!(!markdown.is_empty() && (!markdown.contains("<img") || markdown.contains("\\<img")), "Markdown escapes it: {markdown}");

        assert_eq!(eval(&page, "return typeof window.__pwned;").await, "undefined", "the payload ran");
        let injected = eval(&page, "return document.querySelectorAll('img[src=\"x\"], [onerror], [onload], a[href^=\"javascript\"]').length;").await;
        assert_eq!(injected, 0, "payload elements in the DOM");
        let meta = eval(&page, "return document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content;").await;
        let meta = meta.as_str().unwrap_or_default();
        assert!(meta.contains("script-src 'self' 'wasm-unsafe-eval';") && meta.contains("object-src 'none'") && meta.contains("base-uri 'none'"), "{meta}");
        assert_eq!(eval(&page, "return window.__csp;").await, serde_json::json!([]), "the page tripped its own CSP");

        // The lab serves the page with the same policy as a header (plus frame-ancestors), nosniff and
        // no-referrer.
        let names = ["content-security-policy", "x-content-type-options", "referrer-policy"];
        let (status, values) = page.fetch_headers(&page.lab_url("/"), &names).await;
        assert_eq!(status, 200);
        let csp = values[0].clone().unwrap_or_default();
        assert!(csp.contains(meta.trim_end_matches(" form-action 'none'")) && csp.contains("frame-ancestors 'none'"), "{csp}");
        assert_eq!((values[1].as_deref(), values[2].as_deref()), (Some("nosniff"), Some("no-referrer")));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_requests_nothing_but_the_page_and_the_target() {
    with_page(|page: Page| async move {
        let target_origin = format!("http://{}", relay(RelayPolicy::default()));
        let target = format!("{target_origin}/v1/chat/completions?tokens=20&cadence_ms=10&first_ms=50");
        // What the browser fetched before the page was opened (its own start page) is not the page's.
        let before = page.requested();
        page.open(&format!("url={}", encode_component(&target))).await;
        page.click("run").await;
        let report = page.wait_for_report(REPORT_LIMIT).await;
        assert_eq!(report.json["verdict"], "streaming", "{}", report.text);
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;

        let own_origin = page.lab_url("");
        let requested: Vec<_> = page.requested().into_iter().filter(|r| !before.contains(r)).collect();
        // What the page itself fetches (its files, its worker, its fetch() calls) carries the annotations
        // of the requests for its own files; the document's navigation is left out: top-level navigations
        // are the browser's (WebDriver's, and Chromium's start page racing it).
        let document = format!("{own_origin}/?");
        let navigation: Vec<&str> =
            requested.iter().filter(|r| r.url.starts_with(&document)).map(|r| r.annotation.as_str()).collect();
        let mut annotations: Vec<&str> = requested
            .iter()
            .filter(|r| r.url.starts_with(&own_origin) && !navigation.contains(&r.annotation.as_str()))
            .map(|r| r.annotation.as_str())
            .collect();
        annotations.sort_unstable();
        annotations.dedup();
        assert!(!annotations.is_empty(), "the network log shows the page's own files: {requested:?}");
        assert!(
            requested.iter().any(|r| r.url == target && annotations.contains(&r.annotation.as_str())),
            "the log shows the measured request itself: {requested:?}"
        );
        let elsewhere: Vec<&str> = requested
            .iter()
            .filter(|r| annotations.contains(&r.annotation.as_str()))
            .filter(|r| !r.url.starts_with(&own_origin) && !r.url.starts_with(&target_origin) && !r.url.starts_with("data:"))
            .map(|r| r.url.as_str())
            .collect();
        assert!(elsewhere.is_empty(), "the page requested other origins: {elsewhere:?} (annotations {annotations:?}; all {requested:?})");

        // The control: a request the page makes to a third origin does show up, under the same annotation.
        eval(&page, "fetch('http://127.0.0.1:9/elsewhere').catch(() => 0); return 1;").await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let seen = page.requested().into_iter().any(|r| r.url == "http://127.0.0.1:9/elsewhere" && annotations.contains(&r.annotation.as_str()));
        assert!(seen, "the network log check would not have seen a stray request");
    })
    .await;
}
