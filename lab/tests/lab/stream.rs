//! `mode=stream`: the healthy stream, its schedule and its one-event-per-chunk framing.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_delivers_role_content_usage_done_at_the_cadence() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?tokens=50&cadence_ms=20&first_ms=300",
    )
    .await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    assert_eq!(response.header("cache-control"), Some("no-cache"));
    assert_eq!(response.header("connection"), Some("close"));
    assert!(response.is_chunked());
    assert!(
        response.head_at_ms < 150.0,
        "headers should leave at once, took {} ms",
        response.head_at_ms
    );

    let chunks = response.chunks();
    let events: Vec<_> = chunks.iter().map(|c| sse_events(&c.payload)).collect();
    assert!(
        events.iter().all(|e| e.len() == 1),
        "every chunk holds exactly one event"
    );
    let jsons: Vec<_> = chunks
        .iter()
        .map(|c| event_json(&sse_events(&c.payload)[0]))
        .collect();

    let role = jsons[0].as_ref().expect("role chunk is JSON");
    assert_eq!(
        role["choices"][0]["delta"],
        serde_json::json!({"role": "assistant"})
    );
    assert!(
        chunks[0].at_ms < 150.0,
        "role chunk at t≈0, came at {} ms",
        chunks[0].at_ms
    );

    let content: Vec<(f64, &serde_json::Value)> = chunks
        .iter()
        .zip(&jsons)
        .filter_map(|(chunk, json)| {
            json.as_ref()
                .filter(|j| content_of(j).is_some())
                .map(|j| (chunk.at_ms, j))
        })
        .collect();
    assert_eq!(content.len(), 50);
    for (_, json) in &content {
        assert_eq!(json["object"], "chat.completion.chunk");
        assert!(json["id"].as_str().unwrap().starts_with("chatcmpl-lab-"));
        assert_eq!(json["model"], "streamscope-lab");
        assert!(json["created"].is_u64());
        assert!(json["choices"][0]["finish_reason"].is_null());
    }
    let first_ms = content[0].0;
    assert!(
        (290.0..500.0).contains(&first_ms),
        "first token at {first_ms} ms"
    );
    let arrival: Vec<f64> = content.iter().map(|(at, _)| *at).collect();
    let gap_ms = median(&gaps(&arrival));
    assert!((10.0..40.0).contains(&gap_ms), "median gap {gap_ms} ms");

    // The server's own stamps follow absolute deadlines: no drift over 50 tokens.
    let server_ms: Vec<f64> = content
        .iter()
        .map(|(_, j)| j["server_ms"].as_f64().unwrap())
        .collect();
    for (i, ms) in server_ms.iter().enumerate() {
        let due = 300.0 + 20.0 * i as f64;
        assert!(
            *ms >= due - 0.5 && *ms < due + 150.0,
            "token {i} stamped {ms} ms, due {due}"
        );
    }
    assert!(
        server_ms.last().unwrap() - 1280.0 < 60.0,
        "cadence drifted: last at {}",
        server_ms.last().unwrap()
    );

    let tail: Vec<_> = jsons.iter().skip(1 + 50).collect();
    assert_eq!(tail.len(), 3, "finish, usage, [DONE]");
    let finish = tail[0].as_ref().unwrap();
    assert_eq!(finish["choices"][0]["finish_reason"], "stop");
    let usage = &tail[1].as_ref().unwrap()["usage"];
    assert_eq!(usage["completion_tokens"], 50);
    for key in [
        "prompt_tokens",
        "total_tokens",
        "prompt_cache_hit_tokens",
        "prompt_cache_miss_tokens",
    ] {
        assert!(usage[key].is_u64(), "usage.{key}");
    }
    assert!(tail[2].is_none());
    assert_eq!(
        sse_events(&chunks.last().unwrap().payload)[0],
        b"data: [DONE]"
    );
    assert!(jsons.iter().flatten().all(|j| j["server_ms"].is_f64()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_event_arrives_as_its_own_chunk_when_read_promptly() {
    let lab = start_lab(None).await;
    // 40 ms apart so that a busy test machine rarely reads two events at once; a server that
    // coalesced writes would score near zero.
    let response = get(lab, "/stream?tokens=25&cadence_ms=40&first_ms=100").await;
    let chunks = response.chunks();
    let content: Vec<_> = chunks.iter().skip(1).take(25).collect();
    let alone = content.iter().filter(|c| c.alone_in_read).count();
    assert!(
        alone >= 18,
        "only {alone} of 25 content events came in a read of their own"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_includes_multibyte_tokens_and_flags_work() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/stream?tokens=30&cadence_ms=1&first_ms=0&role_first=0&usage=0&pad=100",
    )
    .await;
    let events = sse_events(&response.body());
    assert_eq!(
        events.len(),
        30 + 2,
        "no role, no usage: content, finish, [DONE]"
    );
    let text: String = events
        .iter()
        .filter_map(|e| event_json(e))
        .filter_map(|j| content_of(&j).map(String::from))
        .collect();
    assert!(text.starts_with(" The quick"));
    assert!(
        text.len() > text.chars().count(),
        "some tokens are multi-byte"
    );
    let first = event_json(&events[0]).unwrap();
    assert_eq!(first["pad"].as_str().unwrap().len(), 100);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn split_utf8_sends_a_multibyte_event_as_two_chunks() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/stream?tokens=20&cadence_ms=10&first_ms=0&split_utf8=1",
    )
    .await;
    let chunks = response.chunks();
    let split = chunks
        .iter()
        .filter(|c| std::str::from_utf8(&c.payload).is_err())
        .count();
    assert!(
        split >= 2,
        "expected chunks that end or start inside a code point, got {split}"
    );
    let body = response.body();
    assert!(
        std::str::from_utf8(&body).is_ok(),
        "joined body is valid UTF-8"
    );
    assert_eq!(sse_events(&body).len(), 1 + 20 + 3);
}
