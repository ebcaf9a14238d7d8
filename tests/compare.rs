//! End-to-end: comparisons, repeats and hand-off. Through the automation contract (`vs=`, `vs_model=`,
//! `repeat=`) and the page's own buttons: the same request against two targets, the B − A differences,
//! export → import showing the same numbers, and a permalink without secrets.

use serde_json::Value;
use streamscope_e2e::{encode_component, with_page, with_page_and_nginx, Page, Proxies, Proxy, REPORT_LIMIT};

fn f(v: &Value, path: &[&str]) -> f64 {
    let mut cur = v;
    for key in path {
        cur = &cur[*key];
    }
    cur.as_f64().unwrap_or_else(|| panic!("{} is not a number in {v:#}", path.join(".")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_lab_models_report_their_tpot_difference() {
    with_page(|page: Page| async move {
        let base = page.lab_url("/v1");
        let query = format!(
            "base={}&model=lab-10ms&vs_model=lab-40ms&prompt=hi&max_tokens=30&repeat=2&run=1",
            encode_component(&base)
        );
        let report = page.run_page(&query).await;
        assert_eq!(report["subject"], "model", "{report:#}");
        assert_eq!(report["a"]["runs"].as_array().map(Vec::len), Some(2), "{report:#}");
        assert_eq!(report["b"]["runs"].as_array().map(Vec::len), Some(2), "{report:#}");
        for side in ["a", "b"] {
            assert_eq!(report[side]["verdict"], "streaming", "{report:#}");
            assert_eq!(report[side]["content_events"], 30, "max_tokens caps the lab: {report:#}");
        }
        let (a_tpot, b_tpot) = (f(&report, &["a", "tpot_ms"]), f(&report, &["b", "tpot_ms"]));
        assert!((a_tpot - 10.0).abs() <= 3.0 && (b_tpot - 40.0).abs() <= 3.0, "TPOT a {a_tpot} b {b_tpot}");
        let delta = f(&report, &["delta_ms", "tpot"]);
        assert!((delta - 30.0).abs() <= 3.0, "delta_ms.tpot {delta} not within 3 ms of 30");
        let summary = page.testid_text("compare-summary").await.unwrap_or_default();
        assert!(summary.contains("lab-40ms") && summary.contains("longer"), "{summary}");
        assert_eq!(page.testid_text("compare-verdicts-b").await.as_deref(), Some("streaming ×2"));
        // The verdict and the metrics under the table are the last run's, and both say so.
        let which = page.testid_text("which-run").await;
        assert_eq!(which.as_deref(), Some("Run 4 of 4 (side B)"));
        assert_eq!(page.testid_text("metrics-which-run").await, which);
        assert_eq!(page.testid_count("runs-disagree").await, 0, "every run ended streaming");
        let shown = page.testid_text("compare-tpot-delta").await.unwrap_or_default();
        assert!(shown.starts_with('+'), "B − A TPOT cell: {shown}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn direct_vs_nginx_buffering_is_slower_and_buffered() {
    with_page_and_nginx(|page: Page, proxies: Proxies| async move {
        // ~21 KiB overflows nginx's default buffers several times (see paths.rs).
        let params = "tokens=50&cadence_ms=20&first_ms=300&pad=200";
        let direct = page.lab_url(&format!("/v1/chat/completions?{params}"));
        let proxied = proxies.stream_url(Proxy::Defaults, params);
        let query = page.query_for(&direct, &format!("vs={}", encode_component(&proxied)));
        let report = page.run_page(&query).await;
        assert_eq!(report["subject"], "path", "{report:#}");
        assert_eq!(report["a"]["verdict"], "streaming", "{report:#}");
        assert_eq!(report["b"]["verdict"], "buffered", "{report:#}");
        let delta = f(&report, &["delta_ms", "ttft"]);
        assert!(delta > 100.0, "through nginx the first token should come visibly later: delta_ms.ttft {delta}");
        assert!(f(&report, &["b", "ttft_ms"]) > f(&report, &["a", "ttft_ms"]));
        let summary = report["summary"].as_str().unwrap_or_default();
        assert!(summary.contains("later") && summary.contains("bursts"), "{summary}");
        // The verdict card shows the last run (B's); that A's ended otherwise is said under it.
        assert_eq!(page.testid_text("verdict").await.as_deref(), Some("buffered"));
        assert_eq!(
            page.testid_text("runs-disagree").await.as_deref(),
            Some("Not every run ended alike: side A streaming ×1; side B buffered ×1.")
        );
        // The sides are named by their URLs, in the summary and the table's head: long ones wrap, the page
        // never scrolls sideways (it did, hiding the B − A column off the right edge).
        // Nor on a phone: wide tables and the timelines scroll inside their cards.
        for phone in [false, true] {
            if phone {
                page.client().set_window_size(400, 900).await.expect("a phone-sized window");
                tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            }
            let widths = "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];";
            let widths = page.client().execute(widths, vec![]).await.expect("the page's widths");
            let (scroll, client) = (widths[0].as_f64().unwrap_or(f64::NAN), widths[1].as_f64().unwrap_or(0.0));
            assert!(scroll <= client, "the page is {scroll} px wide in a {client} px window");
        }
    })
    .await;
}

/// Sets a textarea's value as typing would (WebDriver typing of a large JSON is slow).
async fn shown_numbers(page: &Page) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for id in ["verdict", "metric-ttfb", "metric-ttft", "metric-tpot", "metric-itl", "metric-total", "metric-reads", "answer-text"] {
        out.push(page.testid_text(id).await);
    }
    out.push(page.testid_attr("timeline-reads", "d").await);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_then_import_shows_the_same_numbers_and_permalink_has_no_secret() {
    const KEY: &str = "sk-handoff-secret-5678";
    const HEADER_VALUE: &str = "header-secret-9999";
    with_page(|page: Page| async move {
        let target = page.lab_url("/v1/chat/completions?tokens=20&cadence_ms=15&first_ms=150");
        page.open(&format!("url={}", encode_component(&target))).await;
        page.click("more-options").await;
        page.type_into("input-api-key", KEY).await;
        page.type_into("input-headers", &format!("X-Team-Token: {HEADER_VALUE}")).await;
        page.click("run").await;
        let original = page.wait_for_report(REPORT_LIMIT).await;
        assert_eq!(original.state, "done", "{}", original.text);
        let before = shown_numbers(&page).await;
        assert!(before.iter().all(Option::is_some), "{before:?}");

        let permalink = page.testid_attr("permalink", "href").await.expect("a permalink");
        for secret in [KEY, HEADER_VALUE] {
            assert!(!permalink.contains(secret), "secret in the permalink: {permalink}");
        }
        let export = page.export_text(std::time::Duration::from_secs(2)).await;
        assert!(export.contains("\"streamscope_export\": 1"), "export text: {}", &export[..export.len().min(300)]);
        for secret in [KEY, HEADER_VALUE] {
            assert!(!export.contains(secret), "secret in the export");
        }

        // Another person's page: nothing run, the export pasted in.
        page.open("").await;
        page.paste("import-text", &export).await;
        page.click("import-apply").await;
        let imported = page.wait_for_report(REPORT_LIMIT).await;
        // Recomputed from the traces, it is the same report, marked as an import.
        let mut json = imported.json.clone();
        let marks = json.as_object_mut().map(|o| (o.remove("imported"), o.remove("imported_from")));
        assert_eq!(marks, Some((Some(Value::Bool(true)), Some(Value::from("traces")))), "{}", imported.text);
        assert_eq!(json, original.json, "the report JSON is the same as the measured one");
        assert_eq!(shown_numbers(&page).await, before, "the page shows the same numbers and timeline");
        assert!(page.testid_text("imported-banner").await.is_some());

        // Bad input is a message, not a blank page.
        page.paste("import-text", "{not json").await;
        page.click("import-apply").await;
        let note = page.wait_for_testid_text("handoff-note", std::time::Duration::from_secs(10), |n| n.starts_with("This is not JSON")).await;
        assert!(note.starts_with("This is not JSON"), "{note}");

        // The permalink reruns the same request, without the key.
        page.client().goto(&permalink).await.expect("open the permalink");
        let rerun = page.wait_for_report(REPORT_LIMIT).await;
        assert_eq!(rerun.json["verdict"], "streaming", "{}", rerun.text);
        assert_eq!(rerun.json["request"]["url"], original.json["request"]["url"]);
        assert_eq!(rerun.json["request"]["header_names"], serde_json::json!([]), "no secret travelled");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_once_sends_a_and_b_together() {
    with_page(|page: Page| async move {
        let a = page.lab_url("/v1/chat/completions?tokens=20&cadence_ms=20&first_ms=300");
        let b = page.lab_url("/v1/chat/completions?tokens=20&cadence_ms=20&first_ms=300&jitter_ms=2");
        let query = page.query_for(&a, &format!("vs={}&repeat=2&at_once=1", encode_component(&b)));
        let report = page.run_page(&query).await;
        let starts = |side: &str| -> Vec<f64> {
            report[side]["runs"]
                .as_array()
                .unwrap_or_else(|| panic!("no runs for {side}: {report:#}"))
                .iter()
                .map(|r| r["started_unix_ms"].as_f64().expect("started_unix_ms"))
                .collect()
        };
        let (a_starts, b_starts) = (starts("a"), starts("b"));
        assert_eq!((a_starts.len(), b_starts.len()), (2, 2));
        for round in 0..2 {
            let apart = (a_starts[round] - b_starts[round]).abs();
            assert!(apart < 100.0, "round {round}: A and B started {apart} ms apart");
        }
        // The second round starts after the first one ended (~700 ms of streaming), not before.
        assert!(a_starts[1] - a_starts[0] >= 600.0, "rounds overlapped: {a_starts:?}");
        assert_eq!(report["a"]["verdict"], "streaming", "{report:#}");
        assert_eq!(report["b"]["verdict"], "streaming", "{report:#}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_mid_campaign_leaves_the_comparison_to_the_runs_that_ended() {
    with_page(|page: Page| async move {
        // A takes ~1.3 s a run, B ~0.5 s: cancelled during A's second run, after A and B each ran once.
        let a = page.lab_url("/v1/chat/completions?tokens=50&cadence_ms=20&first_ms=300");
        let b = page.lab_url("/v1/chat/completions?tokens=10&cadence_ms=20&first_ms=300");
        page.open(&page.query_for(&a, &format!("vs={}&repeat=3", encode_component(&b)))).await;
        let limit = std::time::Duration::from_secs(60);
        page.wait_for_testid_text("which-run", limit, |w| w == "Run 2 of 6 (side B)").await;
        tokio::time::sleep(std::time::Duration::from_millis(600)).await;
        page.click("cancel").await;
        let report = page.wait_for_report(REPORT_LIMIT).await;
        let json = &report.json;
        assert_eq!(report.state, "done", "the runs that ended compare: {}", report.text);
        let runs_a = json["a"]["runs"].as_array().map_or(&[][..], Vec::as_slice);
        let ends: Vec<&str> = runs_a.iter().filter_map(|r| r["end"]["kind"].as_str()).collect();
        assert_eq!(ends, ["complete", "cancelled"], "{}", report.text);
        // The cancelled run is reported, but neither makes side A failed nor counts in its figures.
        assert_eq!(json["a"]["verdict"], "streaming", "{}", report.text);
        assert_eq!(json["a"]["content_events"], 50, "{}", report.text);
        assert!(f(json, &["a", "total_ms"]) >= 1200.0, "{}", report.text);
        assert!(f(json, &["delta_ms", "total"]) < -500.0, "B is shorter: {}", report.text);
        assert_eq!(page.testid_text("compare-verdicts-a").await.as_deref(), Some("failed ×1, streaming ×1"));
        assert_eq!(
            page.testid_text("runs-disagree").await.as_deref(),
            Some("Not every run ended alike: side A failed ×1, streaming ×1; side B streaming ×1.")
        );
    })
    .await;
}
