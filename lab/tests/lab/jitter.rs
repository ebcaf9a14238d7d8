//! `jitter_ms`: deadlines moved by a deterministic amount either way, never out of order.

use streamscope_lab::scenarios::schedule::deadlines_ms;

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jitter_moves_deadlines_both_ways_within_bounds() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?jitter_ms=8&tokens=40&cadence_ms=20&first_ms=50",
    )
    .await;
    let stamps: Vec<f64> = sse_events(&response.body())
        .iter()
        .filter_map(|e| event_json(e))
        .filter(|j| content_of(j).is_some())
        .map(|j| j["server_ms"].as_f64().unwrap())
        .collect();
    assert_eq!(stamps.len(), 40);
    let scheduled = deadlines_ms(50.0, 20.0, 8, 40);
    for (i, (stamp, due)) in stamps.iter().zip(&scheduled).enumerate() {
        let cadence_due = 50.0 + 20.0 * i as f64;
        assert!(
            *stamp >= *due - 0.5,
            "event {i} at {stamp}, before its deadline {due}"
        );
        assert!(
            *stamp >= cadence_due - 8.5,
            "event {i} at {stamp}: more than 8 ms early"
        );
        assert!(
            *stamp < cadence_due + 8.0 + 150.0,
            "event {i} at {stamp}: far too late"
        );
    }
    assert!(
        stamps.windows(2).all(|w| w[0] <= w[1]),
        "out of order: {stamps:?}"
    );
    let early = stamps
        .iter()
        .enumerate()
        .filter(|(i, s)| **s < 50.0 + 20.0 * *i as f64 - 2.0)
        .count();
    assert!(early >= 5, "only {early} events came early: no jitter?");
}
