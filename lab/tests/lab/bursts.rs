//! `mode=bursts`: events held and released in one write per burst, by time or by size.

use crate::client::*;

/// Events per chunk and the chunk's arrival time.
fn bursts_of(response: &Response) -> Vec<(usize, f64, Vec<u8>)> {
    response
        .chunks()
        .into_iter()
        .map(|c| (sse_events(&c.payload).len(), c.at_ms, c.payload))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn burst_every_ms_releases_everything_held_on_the_period() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?mode=bursts&burst_every_ms=200&tokens=20&cadence_ms=20&first_ms=100",
    )
    .await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    assert!(response.head_at_ms < 150.0, "the head leaves at once");
    let bursts = bursts_of(&response);
    // Role + tokens due at 100..=200, then 220..=400, then 420..=480 with finish, usage, [DONE].
    let counts: Vec<usize> = bursts.iter().map(|b| b.0).collect();
    assert_eq!(counts, [1 + 6, 10, 4 + 3], "events per write");
    let at_ms: Vec<f64> = bursts.iter().map(|b| b.1).collect();
    for (at, due) in at_ms.iter().zip([200.0, 400.0, 480.0]) {
        assert!(
            *at >= due - 5.0 && *at < due + 150.0,
            "burst due at {due} came at {at}"
        );
    }
    // Each event is stamped when it was generated, before its burst left.
    let first_burst = sse_events(&bursts[0].2);
    let stamp = event_json(&first_burst[1]).unwrap()["server_ms"]
        .as_f64()
        .unwrap();
    assert!(
        (99.5..160.0).contains(&stamp),
        "first token stamped {stamp}"
    );
    let body = response.body();
    assert_eq!(sse_events(&body).last().unwrap(), b"data: [DONE]");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn burst_bytes_releases_when_enough_is_held() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?mode=bursts&burst_bytes=2000&tokens=30&pad=200&cadence_ms=5&first_ms=0&role_first=0",
    )
    .await;
    let bursts = bursts_of(&response);
    assert!(bursts.len() >= 4, "{} bursts", bursts.len());
    let event_len_bytes = sse_events(&bursts[0].2)[0].len() + 2;
    for (events, _, payload) in &bursts[..bursts.len() - 1] {
        assert!(
            payload.len() >= 2000 && payload.len() < 2000 + event_len_bytes,
            "a burst of {} bytes ({events} events)",
            payload.len()
        );
    }
    let content = sse_events(&response.body())
        .iter()
        .filter_map(|e| event_json(e))
        .filter(|j| content_of(j).is_some())
        .count();
    assert_eq!(content, 30);
}
