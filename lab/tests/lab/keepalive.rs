//! `keepalive_bytes`: a flood of SSE keep-alive comments between the role chunk and the first token.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keepalive_flood_precedes_the_first_token_in_few_kb_writes() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/stream?tokens=10&cadence_ms=5&first_ms=100&keepalive_bytes=1000000",
    )
    .await;
    assert_eq!(response.status, 200);
    let chunks = response.chunks();
    assert!(
        chunks.iter().all(|c| c.payload.len() <= 4096),
        "writes of at most 4 KB"
    );
    let body = response.body();
    let events = sse_events(&body);
    let comments = events.iter().filter(|e| e.as_slice() == b": keep-alive").count();
    assert_eq!(comments, 1_000_000usize.div_ceil(b": keep-alive\n\n".len()), "whole comments, at least N bytes");
    let first_comment = events.iter().position(|e| e.starts_with(b":")).unwrap();
    let last_comment = events.iter().rposition(|e| e.starts_with(b":")).unwrap();
    let first_content = events
        .iter()
        .position(|e| event_json(e).is_some_and(|j| content_of(&j).is_some()))
        .unwrap();
    assert_eq!(first_comment, 1, "right after the role chunk");
    assert!(last_comment < first_content, "all comments before the first token");
    let content = events
        .iter()
        .filter(|e| event_json(e).is_some_and(|j| content_of(&j).is_some()))
        .count();
    assert_eq!(content, 10);
    assert_eq!(events.last().unwrap(), b"data: [DONE]");
}
