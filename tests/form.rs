//! End-to-end: the form's own triage. URL mistakes show under the request line before anything is sent,
//! and after a failure the page offers the fix in one click (the base URL with /v1, a model that exists),
//! after which the same run streams.

use std::time::Duration;

use streamscope_e2e::{encode_component, with_page, Page, REPORT_LIMIT};

async fn run_and_wait(page: &Page) -> serde_json::Value {
    page.click("run").await;
    // Let the click's run replace the previous report before waiting for the next one.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    page.wait_for_report(REPORT_LIMIT).await.json
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn url_mistakes_show_before_sending_and_failures_offer_their_fix() {
    with_page(|page: Page| async move {
        // A preset base that already ends in /chat/completions: named before anything is sent.
        let base = page.lab_url("/v1/chat/completions");
        page.open(&format!("base={}&model=streamscope-lab", encode_component(&base))).await;
        // The checks are a part that comes after the page, with the English words they say (`form-advice`).
        let check = page.wait_for_testid_text("url-check-path_suffix", Duration::from_secs(15), |t| !t.is_empty()).await;
        assert!(check.contains("/chat/completions"), "the check says what is wrong: {check:?}");
        let (state, _) = page.report_element().await;
        assert_eq!(state.as_deref(), Some("idle"), "nothing was sent");

        // A URL typed without http://: named with the scheme to add, before anything is sent (run, it
        // would fail as a fetch of an unknown scheme).
        page.open("url=localhost%3A8080%2Fv1%2Fchat%2Fcompletions").await;
        let check = page.wait_for_testid_text("url-check-url_scheme", Duration::from_secs(15), |t| !t.is_empty()).await;
        assert!(check.contains("http://localhost:8080/v1/chat/completions"), "the check gives the URL with its scheme: {check:?}");

        // A base without /v1: the run fails with missing_v1, one click fixes the base, the rerun streams.
        let base = page.lab_url("");
        page.open(&format!("base={}&model=streamscope-lab&max_tokens=5&run=1", encode_component(&base))).await;
        let report = page.wait_for_report(REPORT_LIMIT).await.json;
        assert_eq!(report["verdict"], "failed", "{report:#}");
        let codes: Vec<&str> = report["findings"].as_array().unwrap().iter().filter_map(|f| f["code"].as_str()).collect();
        assert!(codes.contains(&"missing_v1"), "{codes:?}");
        page.click("use-suggested-base").await;
        let report = run_and_wait(&page).await;
        assert_eq!(report["verdict"], "streaming", "{report:#}");
        assert!(report["request"]["url"].as_str().unwrap_or_default().ends_with("/v1/chat/completions"));

        // An unknown model in an exact request: the models the server lists are offered; picking one
        // rewrites the body's model and the rerun streams.
        let target = page.lab_url("/v1/chat/completions?model_check=1&tokens=5&cadence_ms=10&first_ms=50");
        let body = r#"{"model":"lab-20ms","stream":true}"#;
        page.open(&format!("url={}&method=POST&body={}&run=1", encode_component(&target), encode_component(body))).await;
        let report = page.wait_for_report(REPORT_LIMIT).await.json;
        assert_eq!(report["verdict"], "failed", "{report:#}");
        page.click("pick-model-lab-10ms").await;
        let shown_body = page.testid_prop("input-body", "value").await.unwrap_or_default();
        assert!(shown_body.contains("\"lab-10ms\""), "body after picking: {shown_body}");
        let report = run_and_wait(&page).await;
        assert_eq!(report["verdict"], "streaming", "{report:#}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_with_no_query_measures_the_reference_stream_in_one_click() {
    with_page(|page: Page| async move {
        page.open("").await;
        let line = page.testid_text("request-line").await.unwrap_or_default();
        assert!(line.starts_with("POST ") && line.ends_with("/v1/chat/completions"), "request line: {line}");
        let report = run_and_wait(&page).await;
        assert_eq!(report["verdict"], "streaming", "{report:#}");
        assert_eq!(report["dialect"], "openai-chat", "{report:#}");
        assert_eq!(report["content_events"], 50, "{report:#}");
        let ttft_ms = report["ttft_ms"].as_f64().unwrap_or(0.0);
        assert!((300.0..400.0).contains(&ttft_ms), "ttft_ms {ttft_ms} for the reference's 300 ms");
        assert!(page.testid_text("answer-text").await.unwrap_or_default().contains("quick brown fox"));
    })
    .await;
}
