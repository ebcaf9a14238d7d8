//! End-to-end: imports are honest (issue 10, "Honest imports"). An export is recomputed from its traces,
//! so a verdict made up in the file never becomes the banner; an import is marked at the verdict and in
//! `#report-json` (`imported: true`, `imported_from`); the measurement it replaced is one click away; an
//! export without runs is refused; a report-only import cancels a running campaign, clears the old
//! timeline and offers none of its suggestions as one-click fixes; a file chosen is read as a paste is. The
//! same card's share side: a
//! download and a copy say what they did, with their code fetched by the click (never by a run).
//!
//! Needs a built page (`trunk build --release`) and chromium with chromium-driver.

use serde_json::Value;
use streamscope_e2e::{encode_component, with_page, Page};

/// Pastes `text` into the import box, applies it, and waits until the page's note about it changes
/// (each import in these tests says something different from the one before).
async fn import_text(page: &Page, text: &str) {
    let before = page.testid_text("handoff-note").await.unwrap_or_default();
    page.apply_import(text).await;
    for _ in 0..50 {
        if page.testid_text("handoff-note").await.is_some_and(|n| !n.is_empty() && n != before) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the page said nothing new about the import (note still {before:?})");
}

async fn export_text(page: &Page) -> String {
    let text = page.export_text(std::time::Duration::from_secs(3)).await;
    assert!(!text.is_empty(), "the export text was not built");
    text
}

/// Reads the timeline draws (`timeline-reads`' `data-count`; 0 when there is no timeline).
async fn drawn_reads(page: &Page) -> u64 {
    page.testid_attr("timeline-reads", "data-count").await.and_then(|c| c.parse().ok()).unwrap_or(0)
}

async fn report_json(page: &Page) -> Value {
    let (_, text) = page.report_element().await;
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_is_recomputed_from_its_traces_and_the_measurement_stays_one_click_away() {
    with_page(|page: Page| async move {
        let target = page.lab_url("/v1/chat/completions?tokens=20&cadence_ms=15&first_ms=100");
        let measured = page.run_report(&page.query_for(&target, "")).await;
        assert_eq!(measured.json["verdict"], "streaming", "{}", measured.text);

        // The same export with a made-up verdict and no findings written into its report.
        let mut forged: Value = serde_json::from_str(&export_text(&page).await).expect("export JSON");
        forged["report"]["verdict"] = "collected".into();
        forged["report"]["findings"] = serde_json::json!([]);
        import_text(&page, &forged.to_string()).await;
        let shown = report_json(&page).await;
        assert_eq!((shown["imported"].as_bool(), shown["imported_from"].as_str()), (Some(true), Some("traces")), "{shown}");
        assert_eq!(shown["verdict"], "streaming", "recomputed, not taken from the file: {shown}");
        assert_eq!(page.testid_text("verdict").await.as_deref(), Some("streaming"));
        let marker = page.testid_text("verdict-imported").await.unwrap_or_default();
        assert!(marker.contains("Imported") && marker.contains("recomputed"), "{marker}");

        // Back to the measurement in one click: exactly what was shown before.
        page.click("import-back").await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let (_, text) = page.report_element().await;
        assert_eq!(text, measured.text, "the measurement is back as it was");
        assert!(page.testid_text("verdict-imported").await.is_none());

        // An export without runs has nothing to recompute from: refused, the measurement stays.
        forged["runs"] = serde_json::json!([]);
        import_text(&page, &forged.to_string()).await;
        let note = page.testid_text("handoff-note").await.unwrap_or_default();
        assert!(note.contains("no runs"), "{note}");
        let (_, text) = page.report_element().await;
        assert_eq!(text, measured.text, "a refused import changes nothing");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_only_import_cancels_a_run_clears_the_timeline_and_offers_no_fixes() {
    with_page(|page: Page| async move {
        // A failed run whose report suggests a base URL (missing /v1): the one-click fix is offered here.
        let base = page.lab_url("");
        let failed = page
            .run_report(&format!("base={}&model=streamscope-lab&max_tokens=3&run=1", encode_component(&base)))
            .await;
        assert!(failed.text.contains("missing_v1"), "{}", failed.text);
        assert!(page.testid_text("use-suggested-base").await.is_some(), "measured here: the fix is offered");

        // A long run in progress, then the bare report pasted in.
        let long = page.lab_url("/v1/chat/completions?tokens=300&cadence_ms=20&first_ms=100");
        page.open(&format!("url={}", encode_component(&long))).await;
        page.click("run").await;
        tokio::time::sleep(std::time::Duration::from_millis(800)).await;
        assert!(drawn_reads(&page).await > 0, "the run draws its timeline");
        import_text(&page, &failed.text).await;

        let shown = report_json(&page).await;
        let note = page.testid_text("handoff-note").await.unwrap_or_default();
        assert_eq!((shown["imported"].as_bool(), shown["imported_from"].as_str()), (Some(true), Some("report")), "{shown} note {note:?}");
        let marker = page.testid_text("verdict-imported").await.unwrap_or_default();
        assert!(marker.contains("as written in the file"), "{marker}");
        assert!(page.testid_text("use-suggested-base").await.is_none(), "an import's suggestion is not a one-click fix");
        assert_eq!(drawn_reads(&page).await, 0, "the old timeline is cleared");
        // The campaign was cancelled: nothing replaces the import when the stream would have ended.
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        let later = report_json(&page).await;
        assert_eq!(later["imported_from"], "report", "the run went on and replaced the import: {later}");
        let state = page.testid_attr("report-json", "data-state").await;
        assert_ne!(state.as_deref(), Some("running"));
        page.click("import-back").await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        // The cut-short run is back as it stood: its timeline, no import marker.
        assert!(drawn_reads(&page).await > 0, "the cancelled run's timeline is back");
        assert!(page.testid_text("verdict-imported").await.is_none());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_and_a_copy_say_what_they_did_with_code_fetched_by_the_click() {
    with_page(|page: Page| async move {
        let target = page.lab_url("/v1/chat/completions?tokens=5&cadence_ms=10&first_ms=20");
        let run = page.run_report(&page.query_for(&target, "")).await;
        assert_eq!(run.json["verdict"], "streaming", "{}", run.text);
        let limit = std::time::Duration::from_secs(10);

        page.click("export-json").await;
        let note = page.wait_for_testid_text("handoff-note", limit, |n| !n.is_empty()).await;
        assert!(note.starts_with("Downloaded streamscope-report.json"), "after Download JSON: {note:?}");

        page.click("copy-markdown").await;
        let note = page.wait_for_testid_text("handoff-note", limit, |n| n.starts_with("Markdown") || n.starts_with("The browser refused")).await;
        assert_eq!(note, "Markdown summary copied.", "after Copy Markdown");

        // A browser that refuses the copy (it rejects the promise, as one does without a recent click):
        // the note says so and the summary to copy by hand is shown.
        let refuse = "navigator.clipboard.writeText = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));";
        page.client().execute(refuse, vec![]).await.expect("clipboard replaced");
        page.click("copy-markdown").await;
        let note = page.wait_for_testid_text("handoff-note", limit, |n| n.starts_with("The browser refused")).await;
        assert!(note.starts_with("The browser refused the clipboard"), "after a refused copy: {note:?}");
        let open = page.client().execute("return document.querySelector('[data-testid=\"markdown-toggle\"]').parentElement.open;", vec![]).await;
        assert_eq!(open.ok(), Some(Value::Bool(true)), "the Markdown is shown after a refused copy");
        let shown = page.markdown_where(limit, |m| m.contains("streaming")).await;
        assert!(shown.contains("streaming"), "the Markdown shown after a refused copy: {shown:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_chosen_is_imported_as_a_paste_is_and_one_that_is_no_export_is_refused() {
    with_page(|page: Page| async move {
        let target = page.lab_url("/v1/chat/completions?tokens=6&cadence_ms=10&first_ms=20");
        let measured = page.run_report(&page.query_for(&target, "")).await;
        assert_eq!(measured.json["verdict"], "streaming", "{}", measured.text);
        let limit = std::time::Duration::from_secs(10);
        let dir = std::env::temp_dir().join(format!("streamscope-imports-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder for the files");

        let export = dir.join("export.json");
        std::fs::write(&export, export_text(&page).await).expect("the export written");
        page.choose_file("import-file", &export).await;
        let note = page.wait_for_testid_text("handoff-note", limit, |n| n.starts_with("Imported")).await;
        assert!(note.contains("recomputed from its recorded traces"), "{note}");
        let shown = report_json(&page).await;
        assert_eq!((shown["imported"].as_bool(), shown["imported_from"].as_str()), (Some(true), Some("traces")), "{shown}");
        assert_eq!(shown["verdict"], "streaming", "{shown}");

        // A file that is no export: the note says why, and what is shown stays.
        let not_json = dir.join("notes.txt");
        std::fs::write(&not_json, "these are my notes, not an export").expect("the text file written");
        page.choose_file("import-file", &not_json).await;
        let refused = page.wait_for_testid_text("handoff-note", limit, |n| !n.starts_with("Imported")).await;
        assert!(refused.starts_with("This is not JSON"), "the page's note on a file that is no export: {refused:?}");
        assert_eq!(report_json(&page).await, shown, "a refused file changes nothing");
        let _ = std::fs::remove_dir_all(&dir);
    })
    .await;
}
