//! End-to-end: the hop ladder (issue 11). The same request to the lab directly, through nginx with
//! buffering off and through nginx with its default buffering, interleaved and repeated: the page names
//! the third hop as the first where the stream changes, and says so in a sentence; the export carries
//! every run with its hop, and its import recomputes the same ladder.

use serde_json::Value;
use streamscope_e2e::{encode_component, with_page_and_nginx, Page, Proxies, Proxy};

/// ~21 KiB over 1.3 s: nginx's default buffers fill several times and release it in bursts.
const STREAM: &str = "tokens=50&cadence_ms=20&first_ms=300&pad=200";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_hop_ladder_names_the_buffering_hop() {
    with_page_and_nginx(|page: Page, proxies: Proxies| async move {
        let hops = [
            page.lab_url(&format!("/v1/chat/completions?{STREAM}")),
            proxies.stream_url(Proxy::Unbuffered, STREAM),
            proxies.stream_url(Proxy::Defaults, STREAM),
        ];
        let query = format!(
            "url={}&hops={}&hop_labels={}&repeat=2&run=1",
            encode_component(&hops[0]),
            encode_component(&hops.join(",")),
            encode_component("model server,gateway,CDN"),
        );
        let report = page.run_page(&query).await;
        let ladder = report["hops"].as_array().unwrap_or_else(|| panic!("no hops: {report:#}"));
        assert_eq!(ladder.len(), 3, "{report:#}");
        for (i, hop) in ladder.iter().enumerate() {
            assert_eq!(hop["url"], hops[i].as_str(), "{report:#}");
            assert_eq!(hop["runs"], 2, "two rounds: {report:#}");
        }
        assert_eq!(ladder[0]["label"], "model server");
        assert_eq!((&ladder[0]["verdict"], &ladder[1]["verdict"]), (&Value::from("streaming"), &Value::from("streaming")), "{report:#}");
        assert_eq!(ladder[2]["verdict"], "buffered", "{report:#}");
        assert_eq!(report["first_bad_hop"], 2, "{report:#}");
        let summary = report["summary"].as_str().unwrap_or_default();
        assert!(summary.starts_with("Buffering starts between gateway and CDN"), "{summary}");
        // Events per read: one per read while streaming, many once nginx holds them.
        let per_read = |i: usize| ladder[i]["events_per_read_mean"].as_f64().unwrap_or(f64::NAN);
        assert!(per_read(0) < 1.5 && per_read(2) > 2.0, "events per read {} / {}", per_read(0), per_read(2));
        assert_eq!(report["verdict"], "buffered", "the last hop's verdict: {report:#}");

        // The page shows the same, and the sentence.
        assert_eq!(page.testid_text("hops-first-bad").await.as_deref(), Some("3"));
        assert_eq!(page.testid_text("hop-verdict-2").await.as_deref(), Some("buffered"));
        assert_eq!(page.testid_text("hops-summary").await.as_deref(), Some(summary));
        assert_eq!(page.testid_count("hop-row").await, 3);
        assert_eq!(page.testid_attr("hop-row", "data-first-bad").await.as_deref(), Some("false"));

        // Export → import: the ladder is recomputed from the traces, each run still on its hop.
        let exported = page.export_text(std::time::Duration::from_secs(3)).await;
        let export: Value = serde_json::from_str(&exported).unwrap_or_else(|e| panic!("export JSON: {e}"));
        let groups: Vec<u64> = export["runs"].as_array().unwrap().iter().map(|r| r["group"].as_u64().unwrap_or(0)).collect();
        assert_eq!(groups, [0, 1, 2, 0, 1, 2], "interleaved and repeated");
        page.apply_import(&exported).await;
        let mut imported = Value::Null;
        for _ in 0..50 {
            let (_, text) = page.report_element().await;
            imported = serde_json::from_str(&text).unwrap_or(Value::Null);
            if imported["imported"] == true {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(imported["imported"], true, "{imported:#}");
        assert_eq!(imported["first_bad_hop"], 2, "{imported:#}");
        assert_eq!(imported["hops"][2]["label"], "CDN");
    })
    .await;
}
