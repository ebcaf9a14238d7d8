//! HTTP/1.0 clients (nginx's default upstream protocol) get a close-delimited body.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http10_request_gets_a_close_delimited_stream() {
    let lab = start_lab(None).await;
    let request = b"GET /v1/chat/completions?tokens=5&cadence_ms=10&first_ms=20 HTTP/1.0\r\nHost: lab\r\n\r\n";
    let response = exchange(lab, request).await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("transfer-encoding"), None);
    assert_eq!(response.header("content-length"), None);
    assert_eq!(response.header("connection"), Some("close"));
    let body = response.raw_body();
    assert!(
        body.starts_with(b"data: {"),
        "no chunk size lines: {:?}",
        String::from_utf8_lossy(&body[..20])
    );
    let events = sse_events(&body);
    assert_eq!(events.len(), 1 + 5 + 3);
    assert_eq!(events.last().unwrap(), b"data: [DONE]");
}
