//! `long_line_bytes`: after the content events, one `data:` line that never ends, then the body closes.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_line_follows_the_tokens_and_never_ends() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/stream?tokens=5&cadence_ms=10&first_ms=50&long_line_bytes=1048576",
    )
    .await;
    assert_eq!(response.status, 200);
    // The chunked body still ends properly (`chunks()` checks the terminating chunk).
    let chunks = response.chunks();
    assert!(chunks.iter().all(|c| c.payload.len() <= 64 * 1024));
    let body = response.body();
    let start = find(&body, b"\n\ndata: {").map(|i| i + 2);
    let mut line_start = 0;
    let mut content = 0;
    let mut rest: &[u8] = &body;
    while let Some(end) = find(rest, b"\n\n") {
        let event = &rest[..end];
        if event_json(event).is_some_and(|j| content_of(&j).is_some()) {
            content += 1;
        }
        line_start += end + 2;
        rest = &rest[end + 2..];
    }
    assert!(start.is_some());
    assert_eq!(content, 5, "the five tokens come first");
    let line = &body[line_start..];
    assert_eq!(line.len(), 1_048_576);
    assert!(line.starts_with(b"data: {\"id\":\"chatcmpl-lab-"));
    assert!(!line.contains(&b'\n') && !line.contains(&b'\r'), "the line never ends");
    assert!(!body.windows(6).any(|w| w == b"[DONE]"), "no [DONE] after it");
}
