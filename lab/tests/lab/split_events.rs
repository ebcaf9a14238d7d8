//! `split_events=1`: every event leaves in two writes about 2 ms apart, cut in the middle.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_event_is_two_chunks_that_join_into_it() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?split_events=1&tokens=5&cadence_ms=30&first_ms=50",
    )
    .await;
    let chunks = response.chunks();
    let events = sse_events(&response.body());
    assert_eq!(events.len(), 1 + 5 + 3);
    assert_eq!(chunks.len(), 2 * events.len(), "two writes per event");
    for (pair, event) in chunks.chunks(2).zip(&events) {
        assert!(
            !pair[0].payload.ends_with(b"\n\n"),
            "first half is not a whole event"
        );
        let joined = [pair[0].payload.clone(), pair[1].payload.clone()].concat();
        assert_eq!(joined, [event.as_slice(), b"\n\n"].concat());
        let half = pair[0].payload.len() as i64 - pair[1].payload.len() as i64;
        assert!(half.abs() <= 1, "cut in the middle");
    }
}
