//! `mode=collect` and `"stream": false`: nothing until generation is over, then everything at once.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn collect_sends_everything_with_content_length_after_the_generation_time() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?mode=collect&tokens=10&cadence_ms=20&first_ms=100",
    )
    .await;
    assert_eq!(response.status, 200);
    assert!(!response.is_chunked());
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let length: usize = response
        .header("content-length")
        .expect("Content-Length")
        .parse()
        .unwrap();
    let body = response.body();
    assert_eq!(body.len(), length);
    assert!(
        response.head_at_ms >= 295.0,
        "head came at {} ms, before generation was over",
        response.head_at_ms
    );
    let first_body_ms = response.reads.first().unwrap().at_ms;
    let last_body_ms = response.reads.last().unwrap().at_ms;
    assert!(
        last_body_ms - first_body_ms < 50.0,
        "body should arrive at once"
    );

    let events = sse_events(&body);
    let content = events
        .iter()
        .filter_map(|e| event_json(e))
        .filter(|j| content_of(j).is_some())
        .count();
    assert_eq!(content, 10);
    assert_eq!(events.last().unwrap(), b"data: [DONE]");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_false_returns_one_chat_completion() {
    let lab = start_lab(None).await;
    let body = r#"{"model":"m1","stream":false,"messages":[{"role":"user","content":"hi"}]}"#;
    let response = post_json(
        lab,
        "/v1/chat/completions?tokens=5&cadence_ms=10&first_ms=50",
        body,
    )
    .await;
    assert_eq!(response.status, 200);
    assert!(response.head_at_ms >= 95.0);
    assert_eq!(response.header("content-type"), Some("application/json"));
    let json: serde_json::Value = serde_json::from_slice(&response.body()).unwrap();
    assert_eq!(json["object"], "chat.completion");
    assert_eq!(json["model"], "m1");
    assert_eq!(
        json["choices"][0]["message"]["content"],
        " The quick brown fox jumps"
    );
    assert_eq!(json["usage"]["completion_tokens"], 5);
}
