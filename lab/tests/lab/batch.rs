//! `batch=K`: content events leave K at a time in one write, at the deadline of each group's last.

use crate::client::*;

/// Content events in each HTTP chunk that holds any, with the chunk's arrival and its payload.
fn content_writes(response: &Response) -> Vec<(usize, f64, Vec<u8>)> {
    response
        .chunks()
        .into_iter()
        .map(|chunk| {
            (
                count(&chunk.payload, b"\"content\":\""),
                chunk.at_ms,
                chunk.payload,
            )
        })
        .filter(|(events, _, _)| *events > 0)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_events_leave_k_per_write_at_the_last_deadline_of_each_group() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?tokens=10&batch=4&cadence_ms=50&first_ms=50&role_first=0",
    )
    .await;
    assert_eq!(response.status, 200);
    let writes = content_writes(&response);
    let sizes: Vec<usize> = writes.iter().map(|w| w.0).collect();
    assert_eq!(sizes, [4, 4, 2], "the last group may be shorter");
    // Groups end with events due at 200, 400 and 500 ms.
    for ((_, at_ms, payload), due_ms) in writes.iter().zip([200.0, 400.0, 500.0]) {
        assert!(
            (due_ms - 5.0..due_ms + 200.0).contains(at_ms),
            "a group due at {due_ms} came at {at_ms}"
        );
        let stamps: Vec<f64> = sse_events(payload)
            .iter()
            .filter_map(|e| event_json(e))
            .filter_map(|json| json["server_ms"].as_f64())
            .collect();
        let spread_ms = stamps.iter().fold(0.0f64, |m, s| m.max(s - stamps[0]));
        assert!(spread_ms < 2.0, "one write, one stamp time: {stamps:?}");
        assert!(
            stamps[0] >= due_ms - 0.5,
            "stamped at the write: {stamps:?}"
        );
    }
    let gaps_ms = gaps(&writes.iter().map(|w| w.1).collect::<Vec<_>>());
    assert!(gaps_ms[0] >= 120.0, "groups are apart: {gaps_ms:?}");
    let body = String::from_utf8_lossy(&response.body()).into_owned();
    assert!(body.ends_with("data: [DONE]\n\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_works_with_tokens_per_event_and_in_other_dialects() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?tokens=10&tokens_per_event=2&batch=3&cadence_ms=10&first_ms=20",
    )
    .await;
    let sizes: Vec<usize> = content_writes(&response).iter().map(|w| w.0).collect();
    assert_eq!(sizes, [3, 2]);

    let response = get(
        lab,
        "/v1/chat/completions?dialect=ollama-chat&tokens=6&batch=3&cadence_ms=10&first_ms=20",
    )
    .await;
    assert_eq!(response.status, 200);
    let lines_per_write: Vec<usize> = response
        .chunks()
        .iter()
        .map(|chunk| count(&chunk.payload, b"\n"))
        .collect();
    assert!(
        lines_per_write.windows(2).any(|w| w == [3, 3]),
        "two writes of three messages: {lines_per_write:?}"
    );
}
