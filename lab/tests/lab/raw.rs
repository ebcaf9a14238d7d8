//! `mode=raw`: token text with no SSE framing, optionally mislabelled as an event stream.

use crate::client::*;
use streamscope_lab::scenarios::passage::text_of;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_mode_sends_plain_text_chunks() {
    let lab = start_lab(None).await;
    let response = get(lab, "/stream?mode=raw&tokens=12&cadence_ms=10&first_ms=20").await;
    assert_eq!(response.status, 200);
    assert_eq!(
        response.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    let chunks = response.chunks();
    assert_eq!(chunks.len(), 12, "one chunk per token");
    assert_eq!(response.body(), text_of(12).into_bytes());
    assert!(!response.body().starts_with(b"data:"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_mode_with_ct_sse_is_mislabelled_as_an_event_stream() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/stream?mode=raw&ct=sse&tokens=3&cadence_ms=5&first_ms=0",
    )
    .await;
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    assert_eq!(response.body(), text_of(3).into_bytes());
}
