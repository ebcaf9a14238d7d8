//! Components fed synthetic traces, in headless Chromium: what the page shows comes from core's report.

use leptos::prelude::*;
use streamscope_core::report::Report;
use streamscope_core::trace::{Trace, TraceEnd};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use super::findings::Findings;
use super::metrics_panel::MetricsPanel;
use super::session::{RunState, Session};

fn chunk(content: &str) -> String {
    format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"{content}\"}},\"finish_reason\":null}}]}}\n\n")
}

/// A 5-token stream: headers at 10 ms, first token at 100 ms, then one every 25 ms.
fn synthetic_trace() -> Trace {
    let mut reads = vec![(12.0, ": keep-alive\n\n".to_string())];
    for (i, word) in ["One", " two", " three", " four", " five"].iter().enumerate() {
        reads.push((100.0 + 25.0 * i as f64, chunk(word)));
    }
    reads.push((201.0, "data: [DONE]\n\n".to_string()));
    Trace::from_reads(200, "text/event-stream", 10.0, reads, TraceEnd::Complete { at_ms: 202.0 })
}

/// Installs the English words the page's wasm does not carry (the page fetches `en.txt`; the test
/// runner's server has no such file beside its page).
fn install_english() {
    let _ = streamscope_core::i18n::install(include_str!("../../assets/en.txt"));
}

fn text_of(root: &web_sys::Element, testid: &str) -> String {
    root.query_selector(&format!("[data-testid=\"{testid}\"]"))
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .unwrap_or_else(|| panic!("no element with data-testid={testid}"))
}

#[wasm_bindgen_test]
fn metrics_and_findings_render_the_report_of_a_synthetic_trace() {
    install_english();
    let report = Report::from_trace(&synthetic_trace());
    let container = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&container).unwrap();
    let handle = leptos::mount::mount_to(container.clone().unchecked_into(), move || {
        let session = Session::new();
        session.report.set(Some(report));
        session.state.set(RunState::Done);
        view! { <Findings session=session /> <MetricsPanel session=session /> }
    });
    assert_eq!(text_of(&container, "verdict"), "streaming");
    assert_eq!(text_of(&container, "metric-ttfb"), "12.0 ms");
    assert_eq!(text_of(&container, "metric-ttft"), "100 ms");
    assert_eq!(text_of(&container, "metric-tpot"), "25.0 ms (N=5, events)");
    assert_eq!(text_of(&container, "metric-content-events"), "5");
    assert_eq!(text_of(&container, "metric-reads"), "7");
    assert!(container.query_selector("[data-testid=\"finding-keepalive_comments\"]").unwrap().is_some());
    drop(handle);
}

#[wasm_bindgen_test]
fn replay_shows_the_text_as_it_stood_at_each_moment() {
    use super::replay::text_at;
    use super::live_view::LiveView;
    // Three content events: "One", " two", " — three" (the dash is 3 bytes in UTF-8).
    let mut live = LiveView::new(1);
    live.content_at_ms = vec![100.0, 125.0, 150.0];
    live.text_len_after = vec![3, 7, 17];
    live.text = "One two — three".to_string();
    assert_eq!(text_at(&live, 99.9), "");
    assert_eq!(text_at(&live, 100.0), "One");
    assert_eq!(text_at(&live, 140.0), "One two");
    assert_eq!(text_at(&live, 10_000.0), "One two — three");
}

/// The live view takes in only what is new each frame, and ends where one pass over the whole trace
/// ends (the report's analysis).
#[wasm_bindgen_test]
fn live_view_built_frame_by_frame_equals_the_view_of_the_whole_trace() {
    use super::live_view::LiveView;
    use streamscope_core::analysis::Analyzer;
    let trace = synthetic_trace();
    let mut analyzer = Analyzer::new(trace.header("content-type"));
    let mut live = LiveView::new(7);
    live.headers_ms = trace.headers_ms;
    live.status = trace.status;
    for read in trace.reads.chunks(2) {
        for r in read {
            analyzer.push(r.at_ms, &r.bytes);
        }
        live.add_reads(read);
        live.add_events(analyzer.analysis());
    }
    analyzer.finish(202.0);
    live.add_events(analyzer.analysis());
    live.elapsed_ms = 202.0;
    assert_eq!(live, LiveView::from_trace(7, &trace));
    assert_eq!(live.text, "One two three four five");
    assert_eq!((live.figures.reads, live.content_at_ms.len(), live.figures.ttfb_ms), (7, 5, Some(12.0)));
}

/// Regression: without serde_json's `float_roundtrip`, the page parsed an exported TPOT of
/// 14.152631578942467 as …469, so an import no longer showed exactly what was exported.
#[wasm_bindgen_test]
fn imported_floats_are_exactly_the_exported_ones() {
    let x: f64 = serde_json::from_str("14.152631578942467").unwrap();
    assert_eq!(x, 14.152631578942467);
    let report = Report::from_trace(&synthetic_trace());
    let text = report.to_json_pretty();
    let back: Report = serde_json::from_str(&text).unwrap();
    assert_eq!(back.to_json_pretty(), text);
}

#[wasm_bindgen_test]
async fn a_language_whose_words_cannot_be_loaded_is_said_beside_the_switcher_in_english() {
    use super::lang::{provide_lang, say, LangSwitch};
    use crate::net::race::race_with_deadline;
    use streamscope_core::i18n::keys::UiKey;
    use streamscope_core::i18n::Lang;

    install_english();
    let container = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&container).unwrap();
    // The test runner's server has no zh-CN.txt beside its page: the fetch gets an error status.
    let handle = leptos::mount::mount_to(container.clone().unchecked_into(), move || {
        provide_lang(RwSignal::new(Some(Lang::ZhCn)));
        view! { <LangSwitch /> <p data-testid="tagline">{move || say(UiKey::Tagline)}</p> }
    });
    let mut error = None;
    for _ in 0..100 {
        error = container.query_selector("[data-testid=\"lang-error\"]").ok().flatten().and_then(|e| e.text_content());
        if error.is_some() {
            break;
        }
        let _ = race_with_deadline(js_sys::Promise::new(&mut |_, _| {}), Some(50.0)).await;
    }
    let error = error.expect("a lang-error within 5 s");
    assert!(error.contains("could not be loaded (zh-CN.txt: HTTP 404)"), "{error}");
    assert!(text_of(&container, "tagline").starts_with("Measure an LLM stream"), "the page speaks English");
    drop(handle);
}

/// Waits a few frames' worth of time (effects and `toggle` events run after the code that causes them).
async fn settle() {
    let _ = crate::net::race::race_with_deadline(js_sys::Promise::new(&mut |_, _| {}), Some(30.0)).await;
}

/// The raw view's rows: the newest window while following the stream, appended (a row already drawn
/// stays the same element), a page of older rows on demand, a new run's rows drawn again, none closed.
#[wasm_bindgen_test]
async fn the_raw_view_appends_new_rows_and_draws_a_page_or_a_new_run_again() {
    use super::live_view::RawRow;
    use super::raw_view::RawView;
    install_english();
    let row = |index: usize, at_ms: f64| RawRow { index, at_ms, len_bytes: 10, preview: "data: x\n\n".into(), hidden_bytes: 0 };
    let rows = |n: usize, first_at_ms: f64| (0..n).map(|i| row(i, first_at_ms + i as f64)).collect::<Vec<_>>();
    let container = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&container).unwrap();
    let session = Session::new();
    let handle = leptos::mount::mount_to(container.clone().unchecked_into(), move || view! { <RawView session=session /> });
    let drawn = || {
        let list = container.query_selector("[data-testid=\"raw-view\"]").unwrap().unwrap();
        let mut at = Vec::new();
        let mut row = list.first_element_child();
        while let Some(r) = row {
            assert_eq!(r.get_attribute("data-testid").as_deref(), Some("raw-row"));
            at.push(r.query_selector(".raw-at").unwrap().unwrap().text_content().unwrap().replace(' ', ""));
            row = r.next_element_sibling();
        }
        at
    };
    let click = |testid: &str| {
        let el: web_sys::HtmlElement = container.query_selector(&format!("[data-testid=\"{testid}\"]")).unwrap().unwrap().unchecked_into();
        el.click();
    };
    let details: web_sys::HtmlDetailsElement = container.query_selector("details").unwrap().unwrap().unchecked_into();

    session.raw_rows.set(rows(250, 1000.0));
    settle().await;
    assert!(drawn().is_empty(), "rows drawn while the view is closed");
    details.set_open(true);
    settle().await;
    let shown = drawn();
    assert_eq!((shown.len(), shown[0].as_str(), shown[199].as_str()), (200, "+1050.0ms", "+1249.0ms"));
    assert_eq!(text_of(&container, "raw-window"), "51–250");

    // Ten more reads: ten rows appended, the ten oldest dropped, the rows already there kept.
    let kept = container.query_selector("[data-testid=\"raw-row\"]:last-child").unwrap().unwrap();
    kept.set_attribute("data-look", "1").unwrap();
    session.raw_rows.update(|r| r.extend((250..260).map(|i| row(i, 1000.0 + i as f64))));
    settle().await;
    let shown = drawn();
    assert_eq!((shown.len(), shown[0].as_str(), shown[199].as_str()), (200, "+1060.0ms", "+1259.0ms"));
    assert!(kept.is_connected(), "a row already drawn was drawn again");

    // A page back, then the first page: drawn again from where they start.
    click("raw-older");
    settle().await;
    assert_eq!(drawn()[0], "+1000.0ms");
    assert_eq!(text_of(&container, "raw-window"), "1–200");
    // Held still while the stream goes on.
    session.raw_rows.update(|r| r.push(row(260, 1260.0)));
    settle().await;
    assert_eq!((drawn().len(), drawn()[0].as_str()), (200, "+1000.0ms"));
    click("raw-latest");
    settle().await;
    assert_eq!((drawn().len(), drawn()[199].as_str()), (200, "+1260.0ms"));

    // A new run's rows (an import sets them all at once) are drawn again, not appended to the old ones.
    let mut next = rows(230, 5.0);
    next[229].hidden_bytes = 3000;
    session.raw_rows.set(next);
    settle().await;
    let shown = drawn();
    assert_eq!((shown.len(), shown[0].as_str(), shown[199].as_str()), (200, "+35.0ms", "+234.0ms"));
    let newest = container.query_selector("[data-testid=\"raw-row\"]:last-child .raw-bytes").unwrap().unwrap();
    assert_eq!(newest.text_content().unwrap(), "data: x\n\n … 2.9 KiB more not shown");

    details.set_open(false);
    settle().await;
    assert!(drawn().is_empty(), "rows left in the DOM once the view is closed");
    drop(handle);
}
