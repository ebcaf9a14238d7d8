//! End-to-end: the prefix check (issue 11). Two request bodies pasted into the panel, compared on a click:
//! where their prompt-cache prefixes part, and what breaks the cache (a timestamp in the system prompt,
//! tools in another order), while a new last user message is the calm, cache-friendly case. Pasted markup
//! is shown as text.

use std::time::Duration;

use serde_json::{json, Value};
use streamscope_e2e::{with_page, Page};

/// How long the result may take to appear after the click.
const RESULT_LIMIT: Duration = Duration::from_secs(5);

/// Clicks the element with this `data-testid` from script (it need not be scrolled into view), once it is
/// there: the panel's inside comes with code fetched when it is first opened.
async fn script_click(page: &Page, testid: &str) {
    page.wait_for_testid_count(testid, 1, Duration::from_secs(10)).await;
    let script = "document.querySelector(`[data-testid=\"${arguments[0]}\"]`).click();";
    page.client().execute(script, vec![Value::from(testid)]).await.expect("script click");
}

/// Pastes the two bodies, presses Compare and waits until the result shown is a new one.
async fn compare(page: &Page, a: &str, b: &str) {
    let before = page.testid_text("prefix-first-diff").await;
    page.paste("prefix-a", a).await;
    page.paste("prefix-b", b).await;
    script_click(page, "prefix-compare").await;
    let deadline = tokio::time::Instant::now() + RESULT_LIMIT;
    loop {
        let now = page.testid_text("prefix-first-diff").await;
        if now.is_some() && now != before {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "no new prefix result after {RESULT_LIMIT:?}: {now:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every warning row as `(data-code, data-kind, marked text)`.
async fn warnings(page: &Page) -> Vec<(String, String, String)> {
    let script = "return Array.from(document.querySelectorAll('[data-testid=\"prefix-warning\"]')).map(e => [\
                    e.getAttribute('data-code'), e.getAttribute('data-kind'), \
                    (e.querySelector('[data-testid=\"prefix-warning-text\"]') || {}).textContent || '']);";
    let rows = page.client().execute(script, vec![]).await.expect("warning rows");
    rows.as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    let s = |i: usize| r[i].as_str().unwrap_or_default().to_string();
                    (s(0), s(1), s(2))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The marked (differing) text of an excerpt.
async fn marked(page: &Page, testid: &str) -> String {
    let script = "const e = document.querySelector(`[data-testid=\"${arguments[0]}\"] mark`); return e ? e.textContent : null;";
    let v = page.client().execute(script, vec![Value::from(testid)]).await.expect("excerpt mark");
    v.as_str().unwrap_or_default().to_string()
}

fn chat(system: &str, user: &str) -> String {
    json!({
        "model": "deepseek-chat",
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        "stream": true,
    })
    .to_string()
}

fn with_tools(names: &[&str]) -> String {
    let tools: Vec<Value> = names
        .iter()
        .map(|n| json!({"type": "function", "function": {"name": n, "description": format!("Calls {n}."),
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}))
        .collect();
    json!({"model": "gpt-4o-mini", "tools": tools, "messages": [{"role": "user", "content": "Weather in Oslo?"}]}).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_prefix_check_names_what_breaks_the_prompt_cache() {
    with_page(|page: Page| async move {
        page.open("").await;
        page.click("prefix-toggle").await;

        // The form's request (the preset's built body) fills box A in one click.
        script_click(&page, "prefix-from-form").await;
        let from_form = page.testid_prop("prefix-a", "value").await.unwrap_or_default();
        assert!(from_form.contains("\"messages\"") && from_form.contains("streamscope-lab"), "box A: {from_form}");

        // A timestamp in the system prompt: the prefixes part inside messages[0].content, and it is named.
        let a = chat("You are a helpful assistant. Current time: 2026-12-01T10:22:33Z", "What is prompt caching?");
        let b = chat("You are a helpful assistant. Current time: 2026-12-01T11:47:05Z", "What is prompt caching?");
        compare(&page, &a, &b).await;
        let first = page.testid_text("prefix-first-diff").await.unwrap_or_default();
        assert!(first.starts_with("first difference at byte ") && first.contains("in messages[0].content"), "{first}");
        assert!(!first.contains("last message"), "{first}");
        assert_eq!((marked(&page, "prefix-excerpt-a").await, marked(&page, "prefix-excerpt-b").await), ("0:22:33".into(), "1:47:05".into()));
        let shared = page.testid_text("prefix-shared").await.unwrap_or_default();
        assert!(shared.contains("of the shorter prefix"), "{shared}");
        let rows = warnings(&page).await;
        assert!(
            rows.iter().any(|(code, kind, text)| code == "unstable_prefix" && kind == "timestamp" && text == "2026-12-01T10:22:33Z"),
            "{rows:?}"
        );
        let finding = page.testid_text("prefix-finding").await.unwrap_or_default();
        assert!(finding.contains("unstable_prefix") && finding.contains("end of the prompt"), "{finding}");

        // The same tools in another order.
        compare(&page, &with_tools(&["get_weather", "get_time", "search"]), &with_tools(&["search", "get_weather", "get_time"])).await;
        let rows = warnings(&page).await;
        assert!(
            rows.iter().any(|(code, kind, text)| code == "unstable_prefix" && kind == "tool_order" && text == "get_weather, get_time, search"),
            "{rows:?}"
        );
        let first = page.testid_text("prefix-first-diff").await.unwrap_or_default();
        assert!(first.contains("in tools[0].function"), "{first}");

        // The same system prompt, another last user message (pasted markup included): the usual new turn,
        // no warning, and the markup is text.
        let system = "You are the support assistant of ACME. Answer in two sentences, cite the manual.";
        compare(&page, &chat(system, "<img src=x onerror=alert(1)> How do I reset it?"), &chat(system, "<b>Where</b> is my invoice?")).await;
        assert_eq!(warnings(&page).await, Vec::new());
        assert!(page.testid_text("prefix-no-warning").await.is_some(), "the calm case says so");
        assert_eq!(page.testid_count("prefix-finding").await, 0);
        let first = page.testid_text("prefix-first-diff").await.unwrap_or_default();
        assert!(first.contains("in messages[1].content") && first.contains("the last message"), "{first}");
        let excerpt = page.testid_text("prefix-excerpt-a").await.unwrap_or_default();
        assert!(excerpt.contains("<img src=x onerror=alert(1)>"), "{excerpt}");
        let elements = page
            .client()
            .execute("return document.querySelectorAll('[data-testid=\"prefix-result\"] img, [data-testid=\"prefix-result\"] b').length;", vec![])
            .await
            .expect("count elements");
        assert_eq!(elements, json!(0), "pasted markup became elements");
    })
    .await;
}
