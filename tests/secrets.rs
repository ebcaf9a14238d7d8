//! End-to-end: a real key typed into the page never lands anywhere it shows or saves (issue 10,
//! "Secrets"), against lab scenarios that try to leak it:
//!
//! - a debug proxy echoing the request's credential headers back in the stream, 5 bytes per event, so
//!   each key is split across reads (`echo_headers=1`);
//! - a 401 whose error message quotes the key (`echo_key=1`);
//! - a key in the URL itself (`key=`, as Gemini's API takes it), also echoed back;
//! - side B of a comparison, or a hop of a ladder, on another origin (the lab's transparent relay) gets
//!   no key unless the user ticks that it may.
//!
//! For each, no 8-byte piece of a secret may appear in `#report-json`, the JSON export, the Markdown,
//! the permalink, the raw view, the answer, the page's text, its address, or storage.
//!
//! Needs a built page (`trunk build --release`) and chromium with chromium-driver.

use serde_json::Value;
use streamscope_e2e::{relay, with_page, Page, RelayPolicy, REPORT_LIMIT};

const KEY: &str = "sk-e2e-echo-SECRET-0123456789";
const HEADER_KEY: &str = "xk-hdr-PRIVATE-abcdefgh";
const URL_KEY: &str = "AIzaE2ESECRETurlkey99";

/// Everything the page shows or would save, as one text.
async fn everything(page: &Page) -> String {
    let mut out = String::new();
    let (_, report) = page.report_element().await;
    out.push_str(&report);
    out.push_str(&page.export_text(std::time::Duration::from_secs(3)).await);
    assert!(out.contains("streamscope_export"), "the export was not built");
    let markdown = page.markdown(std::time::Duration::from_secs(3)).await;
    assert!(!markdown.is_empty(), "the Markdown was not built");
    out.push_str(&markdown);
    out.push_str(&page.testid_attr("permalink", "href").await.unwrap_or_default());
    if page.testid_count("raw-toggle").await > 0 {
        page.click("raw-toggle").await;
        // The rows render on a later frame: read the page once they are there.
        let reads: usize = page.testid_text("raw-count").await.and_then(|n| n.parse().ok()).unwrap_or(0);
        if reads > 0 {
            page.wait_for_testid_text("raw-view", std::time::Duration::from_secs(5), |text| !text.is_empty()).await;
        }
    }
    // The form's own fields hold what the user typed there; everything else is what the page made.
    let script = "return [document.body.innerText, location.href, JSON.stringify(localStorage), \
                  JSON.stringify(sessionStorage), document.cookie].join('\\n');";
    let shown = page.client().execute(script, vec![]).await.expect("page text");
    out.push_str(shown.as_str().unwrap_or_default());
    out
}

/// Panics naming the first 8-byte piece of `secret` found in `text`.
fn assert_no_piece_of(secret: &str, text: &str, what: &str) {
    for piece in secret.as_bytes().windows(8) {
        let piece = std::str::from_utf8(piece).expect("ASCII secret");
        assert!(!text.contains(piece), "{what}: {piece:?} of the secret is shown or saved");
    }
}

async fn open_exact(page: &Page, target: &str) {
    page.open("").await;
    page.click("mode-exact").await;
    page.client()
        .execute(
            "const e = document.querySelector('[data-testid=\"input-url\"]'); e.value = ''; \
             e.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![],
        )
        .await
        .expect("clear the URL");
    page.type_into("input-url", target).await;
    page.click("more-options").await;
}

async fn run(page: &Page) -> Value {
    page.click("run").await;
    let report = page.wait_for_report(REPORT_LIMIT).await;
    report.json
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echoed_keys_are_scrubbed_from_everything_shown_or_saved() {
    with_page(|page: Page| async move {
        // A debug proxy echoing the credential headers, 5 bytes per event.
        open_exact(&page, &page.lab_url("/v1/chat/completions?first_ms=50&cadence_ms=10&echo_headers=1")).await;
        page.type_into("input-api-key", KEY).await;
        page.type_into("input-headers", &format!("X-Api-Key: {HEADER_KEY}")).await;
        let report = run(&page).await;
        assert_eq!(report["verdict"], "streaming", "{report}");
        let answer = page.testid_text("answer-text").await.unwrap_or_default();
        assert!(answer.contains("You sent:") && answer.contains("**********"), "the echo arrived, masked: {answer}");
        let all = everything(&page).await;
        assert_no_piece_of(KEY, &all, "typed key echoed in the stream");
        assert_no_piece_of(HEADER_KEY, &all, "credential header echoed in the stream");

        // A 401 quoting the key it got.
        open_exact(&page, &page.lab_url("/v1/chat/completions?echo_key=1")).await;
        page.type_into("input-api-key", KEY).await;
        let report = run(&page).await;
        assert_eq!(report["status"], 401, "{report}");
        let all = everything(&page).await;
        assert!(all.contains("Incorrect API key provided"), "the error message is still shown");
        assert_no_piece_of(KEY, &all, "key quoted by a 401");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_in_the_url_is_sent_but_shown_and_saved_as_redacted() {
    with_page(|page: Page| async move {
        let target = page.lab_url(&format!("/v1/chat/completions?first_ms=50&cadence_ms=10&echo_headers=1&key={URL_KEY}"));
        open_exact(&page, &target).await;
        assert!(page.testid_text("url-credential-warning").await.is_some(), "the form warns that the URL carries a credential");
        let line = page.testid_text("request-line").await.unwrap_or_default();
        assert!(line.contains("key=REDACTED"), "request line: {line}");
        let report = run(&page).await;
        assert_eq!(report["verdict"], "streaming", "{report}");
        let url = report["request"]["url"].as_str().unwrap_or_default();
        assert!(url.ends_with("key=REDACTED"), "report request.url: {url}");
        // The target did get it: it echoed the query back (masked on arrival).
        let answer = page.testid_text("answer-text").await.unwrap_or_default();
        // At most the key's first 3 bytes may pass before a split key is recognised (secrets/scrub.rs).
        assert!(answer.contains("key=") && !answer.contains(&URL_KEY[..4]) && answer.contains("*****"), "{answer}");
        let all = everything(&page).await;
        assert_no_piece_of(URL_KEY, &all, "key in the URL");
        let permalink = page.testid_attr("permalink", "href").await.unwrap_or_default();
        assert!(permalink.contains("key%3DREDACTED"), "permalink: {permalink}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn side_b_on_another_origin_gets_the_key_only_when_ticked() {
    with_page(|page: Page| async move {
        let params = "/v1/chat/completions?tokens=5&cadence_ms=10&first_ms=50&require_key=1";
        let b = format!("http://{}{params}", relay(RelayPolicy::default()));
        for share in [false, true] {
            open_exact(&page, &page.lab_url(params)).await;
            page.type_into("input-vs", &b).await;
            page.type_into("input-api-key", "sk-lab").await;
            assert!(page.testid_text("share-key-note").await.is_some(), "B on another origin is pointed out");
            if share {
                page.click("share-key-b").await;
            }
            let report = run(&page).await;
            assert_eq!(report["a"]["verdict"], "streaming", "A always gets the key: {report}");
            let b_run = &report["b"]["runs"][0];
            let names = b_run["request"]["header_names"].as_array().cloned().unwrap_or_default();
            if share {
                assert_eq!(report["b"]["verdict"], "streaming", "ticked: B gets the key: {report}");
                assert!(names.iter().any(|n| n == "Authorization"), "{names:?}");
            } else {
                assert_eq!(report["b"]["verdict"], "failed", "not ticked: B gets no key: {report}");
                assert!(!names.iter().any(|n| n == "Authorization"), "B was sent {names:?}");
                assert_eq!(b_run["status"], 401, "{b_run}");
            }
        }
        // Same origin for both: nothing to tick, both get the key.
        open_exact(&page, &page.lab_url(params)).await;
        page.type_into("input-vs", &page.lab_url(&format!("{params}&first_ms=60"))).await;
        assert!(page.testid_text("share-key-note").await.is_none(), "no consent needed on the same origin");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hop_on_another_origin_gets_the_key_only_when_ticked() {
    with_page(|page: Page| async move {
        let params = "/v1/chat/completions?tokens=5&cadence_ms=10&first_ms=50&require_key=1";
        let elsewhere = format!("http://{}{params}", relay(RelayPolicy::default()));
        for share in [false, true] {
            open_exact(&page, &page.lab_url(params)).await;
            page.click("more-campaign").await;
            page.paste("input-hops", &format!("{}\n{elsewhere}", page.lab_url(params))).await;
            page.type_into("input-api-key", "sk-lab").await;
            assert!(page.testid_text("share-key-note").await.is_some(), "a hop on another origin is pointed out");
            if share {
                page.click("share-key-b").await;
            }
            let report = run(&page).await;
            assert_eq!(report["hops"][0]["verdict"], "streaming", "the main origin gets the key: {report}");
            let expected = if share { "streaming" } else { "failed" };
            assert_eq!(report["hops"][1]["verdict"], expected, "share {share}: {report}");
            if !share {
                assert!(report["hops"][1]["findings"].as_array().unwrap().iter().any(|c| c == "auth"), "{report}");
            }
        }
    })
    .await;
}
