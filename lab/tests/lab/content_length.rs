//! `content_length=1`: a timed stream with its length declared up front instead of chunked encoding.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_length_stream_declares_its_size_and_still_arrives_over_time() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?content_length=1&tokens=10&cadence_ms=30&first_ms=100",
    )
    .await;
    assert_eq!(response.status, 200);
    assert!(!response.is_chunked());
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let declared: usize = response
        .header("content-length")
        .expect("Content-Length")
        .parse()
        .unwrap();
    let body = response.body();
    assert_eq!(body.len(), declared);
    let events = sse_events(&body);
    assert_eq!(events.len(), 1 + 10 + 3);
    // The stamps are the schedule (the length had to be known), the arrival still follows it.
    let first = event_json(&events[1]).unwrap();
    assert_eq!(first["server_ms"].as_f64(), Some(100.0));
    assert!(
        response.reads.len() >= 5,
        "{} reads: the body came at once",
        response.reads.len()
    );
    let last_ms = response.reads.last().unwrap().at_ms;
    assert!(
        (360.0..700.0).contains(&last_ms),
        "last byte at {last_ms} ms, due at 370"
    );
}
