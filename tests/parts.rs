//! The page's parts that come after it (src/split.rs, src/ui/parts.rs): the first download is the main
//! module; what is shown once a run has started, the live analysis and the reports come from one chunk
//! fetched once the page has mounted, with the English words they say (`en.txt`); a chunk or file that
//! does not arrive ends in a note in each part's place and a start error that says why nothing is
//! measured. The reader loop's code is a chunk of its own, which the measuring worker loads (and the
//! page only when it measures on its own thread). Needs the built page (`trunk build --release`, which
//! splits it) and chromium.

use std::path::{Path, PathBuf};

use streamscope_e2e::{built_page_dir, private_lab, with_page, Page};

/// The chunk file of `part` (wasm-split-cli names it `split_<chunk>`, src/ui/parts.rs;
/// scripts/split-wasm.sh adds the build's id) in `dist`.
fn chunk_of(dist: &Path, part: &str) -> PathBuf {
    let prefix = format!("split_{part}-");
    let found: Vec<PathBuf> = std::fs::read_dir(dist)
        .unwrap_or_else(|err| panic!("{}: {err}", dist.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with(&prefix) && name.ends_with(".wasm")
        })
        .collect();
    assert_eq!(found.len(), 1, "expected one chunk {prefix}*.wasm in {}, found {found:?}", dist.display());
    found.into_iter().next().unwrap_or_default()
}

/// A copy of the built page without `part`'s chunk, in a fresh folder, served by a lab of its own: its
/// address and the folder (to remove after the test).
fn page_without(part: &str) -> (std::net::SocketAddr, PathBuf) {
    page_without_file(part, |copy| chunk_of(copy, part))
}

/// A copy of the built page without the file `which` names in the copy (`name` names the copy's folder),
/// served by a lab of its own: its address and the folder (to remove after the test). Each call has a
/// folder of its own: two tests without the same part run at the same time, and each removes its copy.
fn page_without_file(name: &str, which: impl FnOnce(&Path) -> PathBuf) -> (std::net::SocketAddr, PathBuf) {
    static COPIES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COPIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let copy = std::env::temp_dir().join(format!("streamscope-without-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).expect("a folder for the copy");
    for entry in std::fs::read_dir(built_page_dir()).expect("the built page") {
        let path = entry.expect("an entry").path();
        if path.is_file() {
            std::fs::copy(&path, copy.join(path.file_name().unwrap_or_default())).expect("copy a file");
        }
    }
    let file = which(&copy);
    std::fs::remove_file(&file).unwrap_or_else(|err| panic!("remove {}: {err}", file.display()));
    (private_lab(copy.clone()), copy)
}

/// Runs the short lab stream every test here measures on the page copy served at `lab`.
async fn short_run_at(page: &Page, lab: std::net::SocketAddr) -> streamscope_e2e::Report {
    let query = page.stream_query("tokens=20&cadence_ms=10&first_ms=50", "");
    page.report_at(&format!("http://{lab}/?{query}")).await
}

/// Every part that comes after the page and a single run shows, as `data-part` names it, in the page's
/// order (a campaign of more than one run adds `compare`, `sweep` and `hops`).
const PARTS: &str = "findings form-advice metrics timeline text raw cache prefix share";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_part_that_comes_after_the_page_arrives() {
    chunk_of(&built_page_dir(), "after");
    with_page(|page: Page| async move {
        page.open("").await;
        // One element of each part, there before any run.
        for testid in ["verdict", "prefix-toggle", "raw-toggle", "import-text", "metric-ttft", "timeline", "answer-text"] {
            page.wait_for_testid_count(testid, 1, std::time::Duration::from_secs(10)).await;
        }
        assert_eq!(page.testid_text("verdict").await.as_deref().map(str::trim), Some("idle"));
        assert_eq!(page.testid_count("part-missing").await, 0, "{}", page.body_text().await);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_parts_nothing_is_measured_and_the_page_says_why() {
    let (lab, copy) = page_without("after");
    with_page(move |page: Page| async move {
        let report = short_run_at(&page, lab).await;
        assert_eq!(report.state, "error", "{}", report.text);
        let said = page.wait_for_testid_text("start-error", std::time::Duration::from_secs(10), |t| !t.is_empty()).await;
        assert!(said.contains("did not load (report)") && said.contains("Reload the page"), "{said}");
        // Each part says so in its place, and the form stays usable.
        page.wait_for_testid_count("part-missing", PARTS.split(' ').count(), std::time::Duration::from_secs(10)).await;
        let script = "return [...document.querySelectorAll('[data-testid=part-missing]')].map(e => e.dataset.part).join(' ')";
        let parts = page.client().execute(script, vec![]).await.expect("read data-part");
        assert_eq!(parts.as_str(), Some(PARTS));
        let note = page.testid_text("part-missing").await.unwrap_or_default();
        assert!(note.contains("did not load (findings)"), "{note}");
        let run_disabled = page.client().execute("return document.querySelector('[data-testid=run]').disabled", vec![]).await;
        assert_eq!(run_disabled.expect("read the Run button").as_bool(), Some(false), "Run stays usable (to try again)");
        // No run started: the worker was never asked to read.
        assert_eq!(page.testid_count("raw-count").await, 0);
    })
    .await;
    let _ = std::fs::remove_dir_all(&copy);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_english_words_of_findings_nothing_is_measured_and_the_page_says_why() {
    // The wasm carries only its form's English words; a report says the rest (`en.txt`).
    let (lab, copy) = page_without_file("en-words", |copy| copy.join("en.txt"));
    with_page(move |page: Page| async move {
        let report = short_run_at(&page, lab).await;
        assert_eq!(report.state, "error", "{}", report.text);
        let said = page.wait_for_testid_text("start-error", std::time::Duration::from_secs(10), |t| !t.is_empty()).await;
        assert!(said.contains("did not load") && said.contains("Reload the page"), "{said}");
        // The form still speaks English (its words are built in).
        let run = page.testid_text("run").await.unwrap_or_default();
        assert_eq!(run.trim(), "Run", "{}", page.body_text().await);
    })
    .await;
    let _ = std::fs::remove_dir_all(&copy);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_reader_loops_code_the_run_ends_in_an_error_that_says_so() {
    // The measuring worker cannot load it (it tells the page, which then measures on its own thread)
    // and neither can the page: the run ends at once, with nothing sent, and says why.
    let (lab, copy) = page_without("measure");
    with_page(move |page: Page| async move {
        let report = short_run_at(&page, lab).await;
        assert_eq!(report.state, "error", "{}", report.text);
        assert_eq!(report.json["verdict"], "failed", "{}", report.text);
        assert_eq!(report.json["end"]["kind"], "network_error", "{}", report.text);
        let message = report.json["end"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("measuring code did not load") && message.contains("reload the page"), "{}", report.text);
        assert_eq!(report.json["measured_in"], "main-thread", "the worker said it could not measure: {}", report.text);
        assert_eq!(report.json["reads"], 0, "{}", report.text);
    })
    .await;
    let _ = std::fs::remove_dir_all(&copy);
}

/// The names of the wasm files the page (not its worker) has fetched so far.
async fn wasm_fetched(page: &Page) -> Vec<String> {
    let script = "return performance.getEntriesByType('resource').map(e => e.name.split('/').pop())\
                  .filter(n => n.endsWith('.wasm'))";
    let names = page.client().execute(script, vec![]).await.expect("read the resource timings");
    names.as_array().map(|a| a.iter().filter_map(|n| n.as_str().map(String::from)).collect()).unwrap_or_default()
}

/// Pastes `text` into the import box, applies it, and returns the page's note once it says something.
async fn import_note(page: &Page, text: &str) -> String {
    page.apply_import(text).await;
    page.wait_for_testid_text("handoff-note", std::time::Duration::from_secs(10), |t| !t.is_empty()).await
}

/// Whether the page has fetched the code a run never needs (`on_demand`: an import's reading, the prefix
/// check once opened).
async fn fetched_on_demand(page: &Page) -> bool {
    wasm_fetched(page).await.iter().any(|n| n.starts_with("split_on_demand-"))
}

/// Opens the prefix check, pastes two bodies that differ and presses Compare.
async fn compare_prefixes(page: &Page) {
    page.click("prefix-toggle").await;
    page.paste("prefix-a", r#"{"messages":[{"role":"user","content":"one"}]}"#).await;
    page.paste("prefix-b", r#"{"messages":[{"role":"user","content":"two"}]}"#).await;
    page.client()
        .execute("document.querySelector('[data-testid=prefix-compare]').click()", vec![])
        .await
        .expect("click Compare");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_never_fetches_the_import_code_and_the_first_import_does() {
    chunk_of(&built_page_dir(), "on_demand");
    with_page(|page: Page| async move {
        let report = page.run_report(&page.stream_query("tokens=20&cadence_ms=10&first_ms=50", "")).await;
        assert_eq!(report.state, "done", "{}", report.text);
        let fetched = wasm_fetched(&page).await;
        assert!(fetched.iter().any(|n| n.starts_with("split_after-")), "the parts after the page: {fetched:?}");
        assert!(!fetched_on_demand(&page).await, "a run fetched the import's code: {fetched:?}");
        let note = import_note(&page, "{not json").await;
        assert!(note.starts_with("This is not JSON"), "{note}");
        assert!(fetched_on_demand(&page).await, "the import read without its code? {:?}", wasm_fetched(&page).await);
    })
    .await;
}

/// Drops on the import zone what `fill` (script that fills the `DataTransfer` named `data`) puts in it.
async fn drop_on_import_zone(page: &Page, fill: &str) {
    let script = format!(
        "const zone = document.querySelector('[data-testid=import-drop]'); const data = new DataTransfer(); {fill} \
         zone.dispatchEvent(new DragEvent('drop', {{dataTransfer: data, bubbles: true, cancelable: true}}));"
    );
    page.client().execute(&script, vec![]).await.expect("drop on the import zone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drop_without_a_file_fetches_no_import_code() {
    with_page(|page: Page| async move {
        let report = page.run_report(&page.stream_query("tokens=5&cadence_ms=10&first_ms=20", "")).await;
        assert_eq!(report.state, "done", "{}", report.text);
        // Text dragged onto the drop zone: a drop that holds no file.
        drop_on_import_zone(&page, "data.setData('text/plain', 'not a file');").await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert!(!fetched_on_demand(&page).await, "a drop without a file fetched the import's code: {:?}", wasm_fetched(&page).await);
        assert_eq!(page.testid_text("handoff-note").await.unwrap_or_default(), "", "nothing to import, nothing said");
        // The same drop with a file in it fetches the code and reads the file.
        drop_on_import_zone(&page, "data.items.add(new File(['{not json'], 'x.json'));").await;
        let note = page.wait_for_testid_text("handoff-note", std::time::Duration::from_secs(10), |t| !t.is_empty()).await;
        assert!(note.starts_with("This is not JSON"), "{note}");
        assert!(fetched_on_demand(&page).await, "a file read without the import's code? {:?}", wasm_fetched(&page).await);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_never_fetches_the_prefix_checks_code_and_opening_it_does() {
    with_page(|page: Page| async move {
        let report = page.run_report(&page.stream_query("tokens=20&cadence_ms=10&first_ms=50", "")).await;
        assert_eq!(report.state, "done", "{}", report.text);
        assert!(!fetched_on_demand(&page).await, "a run fetched the prefix check's code: {:?}", wasm_fetched(&page).await);
        compare_prefixes(&page).await;
        let first = page.wait_for_testid_text("prefix-first-diff", std::time::Duration::from_secs(10), |t| !t.is_empty()).await;
        assert!(first.contains("messages[0].content"), "{first}");
        assert!(fetched_on_demand(&page).await, "compared without its code? {:?}", wasm_fetched(&page).await);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_prefix_checks_code_opening_it_says_why() {
    let (lab, copy) = page_without("on_demand");
    with_page(move |page: Page| async move {
        let report = short_run_at(&page, lab).await;
        assert_eq!(report.state, "done", "{}", report.text);
        page.click("prefix-toggle").await;
        let note = page.wait_for_testid_text("part-missing", std::time::Duration::from_secs(10), |t| !t.is_empty()).await;
        assert!(note.contains("did not load (prefix-check)") && note.contains("Reload the page"), "{note}");
        assert_eq!(page.testid_count("prefix-a").await, 0, "no boxes to compare without the code that compares");
        // What was measured is still shown.
        assert_eq!(page.report_element().await.0.as_deref(), Some("done"));
    })
    .await;
    let _ = std::fs::remove_dir_all(&copy);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_import_code_a_run_is_measured_and_an_import_says_why() {
    let (lab, copy) = page_without("on_demand");
    with_page(move |page: Page| async move {
        let report = short_run_at(&page, lab).await;
        assert_eq!(report.state, "done", "{}", report.text);
        assert_eq!(report.json["verdict"], "streaming", "{}", report.text);
        let note = import_note(&page, "{not json").await;
        assert!(note.contains("did not load (import)") && note.contains("Reload the page"), "{note}");
        // What was measured is still shown.
        assert_eq!(page.report_element().await.0.as_deref(), Some("done"));
    })
    .await;
    let _ = std::fs::remove_dir_all(&copy);
}

/// Whether the page has fetched the views of a campaign of more than one run (`campaign`).
async fn fetched_campaign_views(page: &Page) -> bool {
    wasm_fetched(page).await.iter().any(|n| n.starts_with("split_campaign-"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_run_never_fetches_the_campaign_views_and_a_repeat_does() {
    chunk_of(&built_page_dir(), "campaign");
    with_page(|page: Page| async move {
        let report = page.run_report(&page.stream_query("tokens=20&cadence_ms=10&first_ms=50", "")).await;
        assert_eq!(report.state, "done", "{}", report.text);
        assert!(!fetched_campaign_views(&page).await, "a single run fetched them: {:?}", wasm_fetched(&page).await);
        assert_eq!(page.testid_count("compare-table").await, 0);
        let report = page.run_report(&page.stream_query("tokens=20&cadence_ms=10&first_ms=50", "repeat=2")).await;
        assert_eq!(report.state, "done", "{}", report.text);
        assert_eq!(report.json["runs"].as_array().map(Vec::len), Some(2), "{}", report.text);
        assert!(fetched_campaign_views(&page).await, "a repeat without its views? {:?}", wasm_fetched(&page).await);
        page.wait_for_testid_count("compare-table", 1, std::time::Duration::from_secs(10)).await;
        // Each row in its own unit: the decode rate's median, p90 and spread in tok/s, not ms.
        let rate = page.testid_text("compare-rate-a").await.unwrap_or_default();
        assert!(rate.matches("tok/s").count() == 3 && !rate.contains(" ms"), "decode rate: {rate:?}");
        let ttft = page.testid_text("compare-ttft-a").await.unwrap_or_default();
        assert!(ttft.matches(" ms").count() == 3, "TTFT: {ttft:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_campaign_views_a_single_run_is_measured_and_a_campaign_says_why() {
    let (lab, copy) = page_without("campaign");
    with_page(move |page: Page| async move {
        let report = short_run_at(&page, lab).await;
        assert_eq!(report.state, "done", "{}", report.text);
        assert_eq!(report.json["verdict"], "streaming", "{}", report.text);
        let query = page.stream_query("tokens=20&cadence_ms=10&first_ms=50", "repeat=2");
        let report = page.report_at(&format!("http://{lab}/?{query}")).await;
        assert_eq!(report.state, "error", "{}", report.text);
        let said = page.wait_for_testid_text("start-error", std::time::Duration::from_secs(20), |t| !t.is_empty()).await;
        assert!(said.contains("did not load (campaign)") && said.contains("Reload the page"), "{said}");
        // Nothing was measured: no report (the first run's was cleared by the page's reload).
        assert!(report.text.trim().is_empty(), "{}", report.text);
    })
    .await;
    let _ = std::fs::remove_dir_all(&copy);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_campaign_views_an_imported_campaign_says_so_and_a_single_run_after_it_is_written() {
    // `#report-json` marks the two writers' parts missing each on its own: a campaign's part that did not
    // arrive must not hide the text of a single run measured after it, on the same page.
    let (lab, copy) = page_without("campaign");
    with_page(move |page: Page| async move {
        let stream = "tokens=20&cadence_ms=10&first_ms=50";
        let report = page.run_report(&page.stream_query(stream, "repeat=2")).await;
        assert_eq!(report.state, "done", "{}", report.text);
        let export = page.export_text(std::time::Duration::from_secs(10)).await;
        let query = page.stream_query(stream, "").replace("&run=1", "");
        page.open_url(&format!("http://{lab}/?{query}")).await;
        page.apply_import(&export).await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let said = loop {
            let (state, text) = page.report_element().await;
            if state.as_deref() == Some("done") && !text.is_empty() {
                break text;
            }
            assert!(std::time::Instant::now() < deadline, "no text for the imported campaign: {state:?} {text:?}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        };
        assert!(said.contains("did not load (report)") && said.contains("Reload the page"), "{said}");
        page.click("run").await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let json = loop {
            let (state, text) = page.report_element().await;
            let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            if state.as_deref() == Some("done") && json["verdict"].is_string() {
                break json;
            }
            assert!(std::time::Instant::now() < deadline, "no report of the run after the import: {state:?} {text:.300}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        };
        assert_eq!(json["verdict"], "streaming", "{json}");
        assert!(json["runs"].is_null() && json["imported"].is_null(), "a single run measured here: {json}");
    })
    .await;
    let _ = std::fs::remove_dir_all(&copy);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_of_a_repeat_on_a_fresh_page_brings_the_campaign_code_and_shows_its_table() {
    with_page(|page: Page| async move {
        let report = page.run_report(&page.stream_query("tokens=20&cadence_ms=10&first_ms=50", "repeat=2")).await;
        assert_eq!(report.state, "done", "{}", report.text);
        let export = page.export_text(std::time::Duration::from_secs(10)).await;
        assert!(export.contains("\"streamscope_export\""), "export text: {export:.300}");
        // Another reader's page: nothing run, nothing of a campaign fetched, the export pasted in.
        page.open("").await;
        assert!(!fetched_campaign_views(&page).await, "{:?}", wasm_fetched(&page).await);
        page.apply_import(&export).await;
        page.wait_for_testid_count("compare-table", 1, std::time::Duration::from_secs(10)).await;
        let (state, text) = page.report_element().await;
        let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(state.as_deref(), Some("done"), "{text}");
        assert_eq!((json["imported"].as_bool(), json["runs"].as_array().map(Vec::len)), (Some(true), Some(2)), "{text}");
        assert!(fetched_campaign_views(&page).await, "{:?}", wasm_fetched(&page).await);
    })
    .await;
}
