//! The response size cap: a request for 1.6 TB is refused at once, and the lab keeps serving.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terabyte_collect_is_refused_at_once_and_the_lab_keeps_serving() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?mode=collect&tokens=100000&pad=16777216",
    )
    .await;
    assert_eq!(response.status, 400);
    assert!(
        response.head_at_ms < 2_000.0,
        "refused at once, not after generating: {} ms",
        response.head_at_ms
    );
    let error: serde_json::Value = serde_json::from_slice(&response.body()).unwrap();
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("tokens=100000 × pad=16777216") && message.contains("1073741824"),
        "{message}"
    );
    for path in [
        "/v1/chat/completions?tokens=100000&pad=16777216",
        "/v1/chat/completions?mode=bursts&tokens=100&pad=16777216",
    ] {
        assert_eq!(get(lab, path).await.status, 400, "{path}");
    }
    assert_eq!(get(lab, "/healthz").await.status, 200);
    let stream = get(lab, "/v1/chat/completions?tokens=3&first_ms=0&cadence_ms=1").await;
    assert_eq!(stream.status, 200);
    assert_eq!(sse_events(&stream.body()).last().unwrap(), b"data: [DONE]");
}
