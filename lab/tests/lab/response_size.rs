//! The response size cap and bodies written in pieces: a request for 1.6 TB is refused at once (and
//! the lab keeps serving); long padding, collected bodies and long non-streaming answers arrive whole
//! and exactly as long as declared in every mode.

use streamscope_lab::scenarios::passage::text_of;

use crate::client::*;

/// Every `data: {…}` event's JSON; panics on an event that is not JSON (only `[DONE]` may be other).
fn json_events(body: &[u8]) -> Vec<serde_json::Value> {
    sse_events(body)
        .iter()
        .filter(|e| e.as_slice() != b"data: [DONE]")
        .map(|e| {
            event_json(e).unwrap_or_else(|| panic!("not JSON: {:.200}", String::from_utf8_lossy(e)))
        })
        .collect()
}

/// Length of the longest run of `x` in `line`.
fn longest_run_of_x(line: &[u8]) -> usize {
    line.split(|&b| b != b'x')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0)
}

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_padding_arrives_whole_in_every_mode() {
    let lab = start_lab(None).await;
    // Long enough to be kept as a run (not bytes); 66,000 joins two 64 KiB runs. Small enough to parse
    // quickly in a debug build.
    for (extra, pad_bytes) in [
        ("", 66_000),
        ("&mode=collect", 66_000),
        ("&content_length=1", 5_000),
        ("&mode=bursts&burst_every_ms=3", 5_000),
        ("&batch=2", 5_000),
        ("&split_events=1", 5_000),
        ("&split_utf8=1&tokens=20", 5_000),
        ("&mode=malformed&cadence_ms=1", 5_000),
    ] {
        let path =
            format!("/v1/chat/completions?tokens=3&pad={pad_bytes}&first_ms=0&cadence_ms=2{extra}");
        let response = get(lab, &path).await;
        assert_eq!(response.status, 200, "{extra}");
        let body = response.body();
        if let Some(declared) = response.header("content-length") {
            assert_eq!(declared.parse::<usize>().unwrap(), body.len(), "{extra}");
        }
        if extra.contains("malformed") {
            let padded = body
                .split(|&b| b == b'\n')
                .filter(|line| longest_run_of_x(line) >= pad_bytes)
                .count();
            assert!(padded >= 10, "{extra}: {padded} padded lines");
            continue;
        }
        let events = json_events(&body);
        assert!(events.len() >= 3 + 3, "{extra}: {} events", events.len());
        for json in &events {
            assert_eq!(
                json["pad"].as_str().map(str::len),
                Some(pad_bytes),
                "{extra}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_collect_and_a_long_non_streaming_answer_come_whole() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?mode=collect&tokens=3000&pad=100&first_ms=0&cadence_ms=0",
    )
    .await;
    let declared: usize = response.header("content-length").unwrap().parse().unwrap();
    let body = response.body();
    assert!(
        declared > 500_000 && body.len() == declared,
        "{declared} vs {}",
        body.len()
    );
    let events = json_events(&body);
    let content = events.iter().filter(|j| content_of(j).is_some()).count();
    assert_eq!(content, 3_000);
    let stamps: Vec<f64> = events
        .iter()
        .filter_map(|j| j["server_ms"].as_f64())
        .collect();
    assert!(
        stamps.windows(2).all(|w| w[0] == w[1]),
        "one stamp for the collected body"
    );

    let response = post_json(
        lab,
        "/v1/chat/completions?tokens=12000&first_ms=0&cadence_ms=0",
        r#"{"stream":false}"#,
    )
    .await;
    let declared: usize = response.header("content-length").unwrap().parse().unwrap();
    let body = response.body();
    assert_eq!(body.len(), declared);
    let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(declared > 64 * 1024, "several writes: {declared} bytes");
    assert_eq!(json["choices"][0]["message"]["content"], text_of(12_000));
    assert_eq!(json["usage"]["completion_tokens"], 12_000);
}
