//! `stamp=0`: no JSON event carries `server_ms`, in any mode or dialect (real providers send none).

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stamp_0_leaves_server_ms_out_everywhere() {
    let lab = start_lab(None).await;
    let fast = "stamp=0&tokens=4&first_ms=10&cadence_ms=5";
    for extra in [
        "",
        "&mode=collect",
        "&mode=bursts&burst_every_ms=20",
        "&content_length=1",
        "&batch=2",
        "&dialect=responses",
        "&dialect=anthropic&reasoning=2",
        "&dialect=ollama-chat",
        "&dialect=gemini",
    ] {
        let response = get(lab, &format!("/v1/chat/completions?{fast}{extra}")).await;
        assert_eq!(response.status, 200, "{extra}");
        let body = String::from_utf8_lossy(&response.body()).into_owned();
        assert!(
            body.contains("quick"),
            "{extra}: content still there: {body}"
        );
        assert!(!body.contains("server_ms"), "{extra}: {body}");
    }
    let response = post_json(
        lab,
        "/v1/chat/completions?stamp=0&tokens=3&first_ms=5",
        r#"{"stream":false}"#,
    )
    .await;
    let json: serde_json::Value = serde_json::from_slice(&response.body()).unwrap();
    assert_eq!(json["object"], "chat.completion");
    assert!(json.get("server_ms").is_none(), "{json}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stamps_stay_on_by_default() {
    let lab = start_lab(None).await;
    let response = get(lab, "/v1/chat/completions?tokens=2&first_ms=5&cadence_ms=5").await;
    let events = sse_events(&response.body());
    let stamped = events
        .iter()
        .filter_map(|e| event_json(e))
        .all(|json| json["server_ms"].is_f64());
    assert!(stamped);
}
