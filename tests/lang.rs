//! End-to-end: the page speaks the reader's language (issue 14). A browser whose language is Chinese
//! gets the verdict, findings, fixes and Markdown in Chinese and a `#report-json` that differs from the
//! English one only in its words and `lang`; switching the language on the page keeps the run and says
//! it again in English, and the permalink then carries `lang=en`; a link's `lang=zh-CN` wins over an
//! English browser.
//!
//! Needs a built page (`trunk build --release`) and chromium with chromium-driver.

use std::time::Duration;

use serde_json::Value;
use streamscope_e2e::{finding, with_page_in_locale, Page};

/// The lab's reference stream, short.
const STREAM: &str = "tokens=20&cadence_ms=20&first_ms=100";
/// How long a re-render after a switch may take.
const SWITCH_LIMIT: Duration = Duration::from_secs(10);

/// Whether `s` holds a CJK ideograph.
fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// The report without the fields whose words follow the language.
fn without_words(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "title" | "detail" | "fix" | "summary" | "unavailable" | "lang"))
                .map(|(k, v)| (k.clone(), without_words(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_words).collect()),
        other => other.clone(),
    }
}

/// Chooses `tag` in the language switcher as a user does.
async fn switch_to(page: &Page, tag: &str) {
    let script = "const s = document.querySelector('[data-testid=\"lang-switch\"]'); s.value = arguments[0]; \
                  s.dispatchEvent(new Event('change', {bubbles: true}));";
    page.client().execute(script, vec![Value::from(tag)]).await.expect("switch the language");
}

async fn report_json(page: &Page) -> Value {
    let (_, text) = page.report_element().await;
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("#report-json is not JSON ({e}): {text}"))
}

async fn html_lang(page: &Page) -> String {
    let lang = page.client().execute("return document.documentElement.lang;", vec![]).await.expect("html lang");
    lang.as_str().unwrap_or_default().to_string()
}

/// Words of the page's own: the Run button, the TTFT and events-per-read labels of the metrics grid, the
/// form's field labels and the timeline's heading.
async fn page_labels(page: &Page) -> Vec<String> {
    let script = "const label = id => document.querySelector(`[data-testid=\"${id}\"]`)\
                      .closest('.metric').querySelector('.metric-label').textContent; \
                  const form = [...document.querySelectorAll('.form label > span')]\
                      .map(s => s.textContent).filter(t => t.trim()).slice(0, 4); \
                  return [document.querySelector('[data-testid=\"run\"]').textContent, label('metric-ttft'), \
                          label('metric-events-per-read'), ...form];";
    let labels = page.client().execute(script, vec![]).await.expect("read the page's labels");
    let labels: Vec<String> = serde_json::from_value(labels).expect("a list of labels");
    assert!(labels.len() >= 5, "the Run button, two metrics and some form labels: {labels:?}");
    labels
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_browser_reads_chinese_and_a_switch_keeps_the_run() {
    with_page_in_locale("zh-CN", |page: Page| async move {
        let zh = page.run_page(&page.stream_query(STREAM, "")).await;
        assert_eq!(zh["verdict"], "streaming", "{zh}");
        assert_eq!(zh["lang"], "zh-CN", "the report says its language");
        assert_eq!(page.testid_prop("lang-switch", "value").await.as_deref(), Some("zh-CN"));
        assert_eq!(html_lang(&page).await, "zh-CN");

        let sentence = page.testid_text("verdict-sentence").await.unwrap_or_default();
        assert!(has_chinese(&sentence), "verdict sentence in Chinese: {sentence}");
        let framing = page.testid_text("finding-framing").await.unwrap_or_default();
        assert!(has_chinese(&framing), "finding in Chinese: {framing}");
        let detail = zh["findings"].as_array().and_then(|f| f.first()).map(|f| f["detail"].to_string()).unwrap_or_default();
        assert!(has_chinese(&detail), "#report-json's words in Chinese: {detail}");
        let markdown_zh = page.markdown_where(SWITCH_LIMIT, has_chinese).await;
        assert!(has_chinese(&markdown_zh), "Markdown in Chinese: {markdown_zh}");
        let ttft_zh = page.testid_text("metric-ttft").await;
        let labels_zh = page_labels(&page).await;
        assert_eq!(labels_zh[0], "运行", "the Run button in Chinese: {labels_zh:?}");
        assert!(labels_zh[1..].iter().all(|l| has_chinese(l)), "the form's and metrics' labels in Chinese: {labels_zh:?}");

        switch_to(&page, "en").await;
        let en_text = page
            .wait_for_testid_text("report-json", SWITCH_LIMIT, |t| t.contains("\"lang\": \"en\""))
            .await;
        let en: Value = serde_json::from_str(&en_text).expect("JSON");
        assert_eq!(without_words(&en), without_words(&zh), "the same run, codes and numbers in both languages");
        assert_eq!(report_json(&page).await["verdict"], "streaming");
        assert_eq!(page.testid_attr("report-json", "data-state").await.as_deref(), Some("done"), "the run stays");
        assert_eq!(html_lang(&page).await, "en");

        let sentence = page.testid_text("verdict-sentence").await.unwrap_or_default();
        assert!(sentence.starts_with("Streaming") && !has_chinese(&sentence), "English verdict: {sentence}");
        let framing = page.testid_text("finding-framing").await.unwrap_or_default();
        assert!(framing.contains("was read as SSE") && !has_chinese(&framing), "English finding: {framing}");
        let markdown_en = page.markdown_where(SWITCH_LIMIT, |t| !t.is_empty() && !has_chinese(t)).await;
        assert!(!markdown_en.is_empty() && !has_chinese(&markdown_en), "Markdown in English: {markdown_en}");
        assert_eq!(page.testid_text("metric-ttft").await, ttft_zh, "numbers and units read the same");
        let labels_en = page_labels(&page).await;
        assert_eq!(labels_en[..3], ["Run", "TTFT", "Events per read"], "labels said again in English: {labels_en:?}");
        assert!(labels_en.iter().all(|l| !has_chinese(l)), "{labels_en:?}");
        let permalink = page.testid_attr("permalink", "href").await.unwrap_or_default();
        assert!(permalink.contains("lang=en"), "the chosen language rides in the link: {permalink}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_s_language_wins_over_an_english_browser() {
    with_page_in_locale("en-US", |page: Page| async move {
        page.open("").await;
        let idle = page.testid_text("verdict-sentence").await.unwrap_or_default();
        assert!(!has_chinese(&idle), "an English browser reads English: {idle}");

        let zh = page.run_page(&page.stream_query(STREAM, "lang=zh-CN")).await;
        assert_eq!(zh["lang"], "zh-CN");
        assert_eq!(page.testid_prop("lang-switch", "value").await.as_deref(), Some("zh-CN"));
        let sentence = page.testid_text("verdict-sentence").await.unwrap_or_default();
        assert!(has_chinese(&sentence), "lang=zh-CN wins: {sentence}");
        let permalink = page.testid_attr("permalink", "href").await.unwrap_or_default();
        assert!(permalink.contains("lang=zh-CN"), "{permalink}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_browser_reads_a_finding_s_fix_in_chinese() {
    with_page_in_locale("zh-CN", |page: Page| async move {
        // A collect-then-return backend: the whole answer at the end, a finding with a fix.
        let zh = page.run_page(&page.stream_query(&format!("{STREAM}&mode=collect"), "")).await;
        assert_eq!(zh["verdict"], "collected", "{zh:#}");
        let collected = finding(&zh, "collected");
        assert!(!collected.is_null(), "a collected finding: {zh:#}");
        for field in ["title", "detail", "fix"] {
            let words = collected[field].as_str().unwrap_or_default();
            assert!(has_chinese(words), "#report-json's {field} in Chinese: {words:?}");
        }
        let shown = page.testid_text("finding-collected").await.unwrap_or_default();
        let fix = collected["fix"].as_str().unwrap_or_default();
        assert!(shown.contains("处理办法") && shown.contains(fix), "the page shows the Chinese fix: {shown}");
        let markdown = page.markdown_where(SWITCH_LIMIT, has_chinese).await;
        // Markdown escapes its punctuation (`proxy\_buffering`): compare the fix's words before the first colon.
        let lead = fix.split('：').next().unwrap_or_default();
        assert!(markdown.contains(&format!("处理办法：{lead}")), "the Markdown carries the same fix: {markdown}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_english_page_switched_to_chinese_fetches_its_words_and_keeps_the_run() {
    with_page_in_locale("en-US", |page: Page| async move {
        let en = page.run_page(&page.stream_query(STREAM, "")).await;
        assert_eq!(en["lang"], "en");
        // The wasm carries English only: the Chinese words arrive from zh-CN.txt beside the page.
        switch_to(&page, "zh-CN").await;
        let zh_text = page
            .wait_for_testid_text("report-json", SWITCH_LIMIT, |t| t.contains("\"lang\": \"zh-CN\""))
            .await;
        let zh: Value = serde_json::from_str(&zh_text).expect("JSON");
        assert_eq!(without_words(&zh), without_words(&en), "the same run in both languages");
        let sentence = page.testid_text("verdict-sentence").await.unwrap_or_default();
        assert!(has_chinese(&sentence), "verdict sentence in Chinese: {sentence}");
        assert_eq!(page.testid_count("lang-error").await, 0, "the words loaded");
        // The network log is written as it goes; give it a moment for the last entries.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let asked: Vec<String> = page.requested().into_iter().map(|r| r.url).filter(|u| u.ends_with("/zh-CN.txt")).collect();
        assert_eq!(asked.len(), 1, "zh-CN.txt asked for once: {asked:?}");
    })
    .await;
}
