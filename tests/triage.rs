//! End-to-end: failure triage. The built page in headless Chromium, driven only through the automation
//! contract (`?url=…&run=1` or the preset's `?base=…&run=1`, `#report-json`), against lab-made failures:
//! URL mistakes, every HTTP error class, nginx's HTML error page, a refused key, an unknown model, CORS
//! refusals and an address where nothing listens. One browser session; every scenario is checked and the
//! test fails at the end with a table of what each one reported.
//!
//! `cors`, `unreachable`, `missing_v1` and the model list of `model_not_found` rest on the page's
//! follow-up probes (no-cors reachability, `…/models`). `mixed_content` needs an https page and is
//! covered by core's tests only.
//!
//! Needs a built page (`trunk build --release`), chromium and chromium-driver.

use std::time::Duration;

use serde_json::Value;
use streamscope_e2e::{encode_component, finding, with_page, Check, Outcomes, Page, REPORT_LIMIT};

/// A short healthy stream: failures here come from the triage parameters, not from the stream.
const SHORT: &str = "tokens=3&cadence_ms=5&first_ms=20";

/// Runs the page on `query` and returns the report (whatever `data-state` it ended with).
async fn report(page: &Page, query: &str) -> Value {
    let report = page.run_report(query).await;
    if report.json.is_null() {
        panic!("#report-json (data-state={}) is not JSON: {}", report.state, report.text);
    }
    report.json
}

/// Expects `failed` and every code in `codes`.
fn failed_with(name: &str, report: &Value, codes: &[&str]) -> Check {
    let mut check = Check::new(name, report);
    check.verdict("failed");
    for code in codes {
        check.finding(code);
    }
    check
}

/// The evidence of the first finding with `code` (`Null` when there is none).
fn evidence(report: &Value, code: &str) -> Value {
    finding(report, code)["evidence"].clone()
}

/// The exact-request query for a POST of `body` to `target`.
fn post_query(page: &Page, target: &str, body: &str) -> String {
    page.query_for(target, &format!("method=POST&body={}", encode_component(body)))
}

/// Opens the exact-request form for `target`, types `key` as the API key, runs, and returns the report.
async fn run_with_key(page: &Page, target: &str, key: &str) -> Value {
    page.open(&format!("url={}", encode_component(target))).await;
    page.click("more-options").await;
    page.type_into("input-api-key", key).await;
    page.click("run").await;
    let report = page.wait_for_report(REPORT_LIMIT).await;
    report.json
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_failure_is_named() {
    with_page(|page: Page| async move {
        let mut outcomes = Outcomes::new();
        let lab = |path_and_query: &str| page.lab_url(path_and_query);
        let chat = |params: &str| lab(&format!("/v1/chat/completions?{params}"));

        // --- URL mistakes -------------------------------------------------------------------------
        let r = report(&page, &page.query_for(&lab("/v1/v1/chat/completions"), "")).await;
        outcomes.add(failed_with("url /v1/v1/", &r, &["doubled_v1", "http_error"]));

        let preset = |base: &str| format!("base={}&model=streamscope-lab&max_tokens=3&run=1", encode_component(base));
        let r = report(&page, &preset(&lab("/v1/v1"))).await;
        outcomes.add(failed_with("preset base …/v1/v1", &r, &["doubled_v1", "http_error"]));

        let r = report(&page, &preset(&lab("/v1/chat/completions"))).await;
        let mut check = failed_with("preset base …/chat/completions", &r, &["path_suffix"]);
        let suggested = evidence(&r, "path_suffix")["suggested_base"].clone();
        check.that(suggested == lab("/v1").as_str(), || format!("suggested_base {suggested}"));
        outcomes.add(check);

        let r = report(&page, &preset(&lab(""))).await;
        let mut check = failed_with("preset base without /v1", &r, &["missing_v1", "http_error"]);
        let suggested = evidence(&r, "missing_v1")["suggested_base"].clone();
        check.that(suggested == lab("/v1").as_str(), || format!("suggested_base {suggested}"));
        outcomes.add(check);

        let r = report(&page, &page.query_for(&lab("/v1/chat/completions/"), "")).await;
        outcomes.add(failed_with("url with a trailing slash", &r, &["trailing_slash", "http_error"]));

        // --- HTTP errors ----------------------------------------------------------------------------
        for status in [400, 404, 408, 413, 422, 500, 502, 503, 504] {
            let r = report(&page, &page.query_for(&chat(&format!("status={status}")), "")).await;
            let mut check = failed_with(&format!("status={status}"), &r, &["http_error"]);
            check.that(r["status"] == status, || format!("status {}", r["status"]));
            outcomes.add(check);
        }
        for style in ["anthropic", "deepseek"] {
            let r = report(&page, &page.query_for(&chat(&format!("status=500&error_style={style}")), "")).await;
            let mut check = failed_with(&format!("status=500 error_style={style}"), &r, &["http_error"]);
            let message = evidence(&r, "http_error")["message"].clone();
            check.that(message.as_str().is_some_and(|m| m.contains("forced status 500")), || format!("message {message}"));
            outcomes.add(check);
        }

        let r = report(&page, &page.query_for(&chat("status=429&retry_after=7"), "")).await;
        let mut check = failed_with("status=429 retry_after=7", &r, &["rate_limited"]);
        let retry = evidence(&r, "rate_limited")["retry_after"].clone();
        check.that(retry == "7", || format!("retry_after {retry}"));
        outcomes.add(check);

        let r = report(&page, &page.query_for(&chat("html_error=502"), "")).await;
        let mut check = failed_with("html_error=502 (nginx page)", &r, &["proxy_error_page"]);
        let server = evidence(&r, "proxy_error_page")["server"].clone();
        check.that(server == "nginx", || format!("server {server}")).no_finding("http_error");
        // The page is the error, not tokens: no TTFT (it read as a 3 ms one) and no answer shown.
        check.that(r["ttft_ms"].is_null() && r["content_events"] == 0, || format!("ttft_ms {} content_events {}", r["ttft_ms"], r["content_events"]));
        let answer = page.testid_text("answer-text").await.unwrap_or_default();
        check.that(answer.trim().is_empty(), || format!("the error page shown as the answer: {answer}"));
        // ...and the answer's place says why it is empty rather than staying blank.
        let none = page.wait_for_testid_text("answer-none", Duration::from_secs(5), |t| t.contains("HTTP 502")).await;
        check.that(none.contains("Raw stream"), || format!("answer-none: {none:?}"));
        outcomes.add(check);

        // The status alone, with an empty body: nothing in the raw view to point to.
        let r = report(&page, &page.query_for(&chat("status=502&error_body=0"), "")).await;
        let mut check = failed_with("status=502 error_body=0", &r, &["http_error"]);
        check.that(r["reads"] == 0 && r["bytes"] == 0, || format!("reads {} bytes {}", r["reads"], r["bytes"]));
        let none = page.wait_for_testid_text("answer-none", Duration::from_secs(5), |t| t.contains("HTTP 502")).await;
        check.that(none.contains("empty body") && !none.contains("Raw stream"), || format!("answer-none: {none:?}"));
        outcomes.add(check);

        // --- keys -----------------------------------------------------------------------------------
        let r = report(&page, &page.query_for(&chat(&format!("require_key=1&{SHORT}")), "")).await;
        let mut check = failed_with("require_key=1, no key", &r, &["auth"]);
        check.that(evidence(&r, "auth")["key_sent"] == false, || "key_sent is not false".into());
        outcomes.add(check);

        let r = run_with_key(&page, &chat(&format!("require_key=1&{SHORT}")), " sk-lab").await;
        let mut check = failed_with("require_key=1, key with a leading space", &r, &["auth"]);
        check.that(evidence(&r, "auth")["key_has_whitespace"] == true, || "key_has_whitespace is not true".into());
        outcomes.add(check);

        let r = run_with_key(&page, &chat(&format!("require_key=1&{SHORT}")), "sk-lab").await;
        let mut check = Check::new("require_key=1, the right key", &r);
        check.verdict("streaming").no_finding("auth");
        outcomes.add(check);

        // --- models ---------------------------------------------------------------------------------
        for style in ["openai", "deepseek", "anthropic"] {
            let target = chat(&format!("model_check=1&error_style={style}&{SHORT}"));
            let r = report(&page, &post_query(&page, &target, r#"{"model":"lab-20ms","stream":true}"#)).await;
            let mut check = failed_with(&format!("model_check=1 {style}"), &r, &["model_not_found"]);
            let alternatives = evidence(&r, "model_not_found")["alternatives"].clone();
            check.that(
                alternatives.as_array().is_some_and(|ids| ids.iter().any(|id| id == "streamscope-lab")),
                || format!("alternatives {alternatives} (from the …/models probe)"),
            );
            outcomes.add(check);
        }

        // --- network --------------------------------------------------------------------------------
        // The page comes from 127.0.0.1: the same lab as `localhost` is another origin, so CORS applies.
        let cross_origin = chat(&format!("cors=0&{SHORT}")).replacen("127.0.0.1", "localhost", 1);
        let r = report(&page, &page.query_for(&cross_origin, "")).await;
        outcomes.add(failed_with("cors=0 cross-origin, simple GET", &r, &["cors"]));

        let r = report(&page, &post_query(&page, &cross_origin, r#"{"stream":true}"#)).await;
        let mut check = failed_with("cors=0 cross-origin, POST with a preflight", &r, &["cors"]);
        check.that(evidence(&r, "cors")["needs_preflight"] == true, || "needs_preflight is not true".into());
        outcomes.add(check);

        let closed_port = {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            listener.local_addr().expect("address").port()
        };
        let target = format!("http://127.0.0.1:{closed_port}/v1/chat/completions");
        let r = report(&page, &page.query_for(&target, "")).await;
        let mut check = failed_with("nothing listening", &r, &["unreachable"]);
        check.no_finding("cors");
        outcomes.add(check);

        outcomes.finish();
    })
    .await;
}
