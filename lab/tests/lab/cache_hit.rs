//! `cache=hit`: what a response replayed from a cache looks like (`Age`, `X-Cache`, old `created`).

use std::time::{SystemTime, UNIX_EPOCH};

use crate::client::*;

fn created_s(response: &Response) -> u64 {
    let events = sse_events(&response.body());
    event_json(&events[0]).unwrap()["created"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cache_hit_adds_age_and_x_cache_and_dates_chunks_an_hour_back() {
    let lab = start_lab(None).await;
    let now_s = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let hit = get(
        lab,
        "/v1/chat/completions?cache=hit&tokens=3&cadence_ms=1&first_ms=0",
    )
    .await;
    assert_eq!(hit.header("age"), Some("300"));
    assert_eq!(hit.header("x-cache"), Some("HIT"));
    let age_s = now_s as i64 - created_s(&hit) as i64;
    assert!((3595..3605).contains(&age_s), "created {age_s} s ago");

    let fresh = get(lab, "/v1/chat/completions?tokens=3&cadence_ms=1&first_ms=0").await;
    assert_eq!((fresh.header("age"), fresh.header("x-cache")), (None, None));
    assert!(created_s(&fresh).abs_diff(now_s) < 5);

    let collected = get(
        lab,
        "/v1/chat/completions?mode=collect&cache=hit&tokens=3&first_ms=0",
    )
    .await;
    assert_eq!(collected.header("x-cache"), Some("HIT"));
}
