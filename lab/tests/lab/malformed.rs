//! `mode=malformed`: broken JSON, invalid UTF-8 and a 1 MiB line among good chunks.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_mode_mixes_good_and_broken_events() {
    let lab = start_lab(None).await;
    let response = get(
        lab,
        "/v1/chat/completions?mode=malformed&cadence_ms=5&first_ms=10",
    )
    .await;
    assert_eq!(response.status, 200);
    let body = response.body();
    assert!(
        std::str::from_utf8(&body).is_err(),
        "body holds invalid UTF-8"
    );
    let lines: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    assert!(
        lines
            .iter()
            .any(|l| l.len() == 1_048_576 && l.starts_with(b"data: {")),
        "a 1 MiB data line"
    );
    assert!(
        lines.contains(&&b"data: {\"choices\":[{\"delta\":{\"content\":\"x\""[..]),
        "a line cut short"
    );

    let events = sse_events(&body);
    let invalid_at = events
        .iter()
        .position(|e| find(e, &[0xff, 0xfe]).is_some())
        .expect("0xff 0xfe event");
    assert!(
        event_json(&events[invalid_at]).is_none(),
        "invalid bytes inside a JSON string"
    );
    let lossy = String::from_utf8_lossy(&events[invalid_at]);
    let repaired: serde_json::Value =
        serde_json::from_str(lossy.strip_prefix("data: ").unwrap()).unwrap();
    assert!(content_of(&repaired).unwrap().contains('\u{fffd}'));
    let good_after = events[invalid_at + 1..]
        .iter()
        .filter_map(|e| event_json(e))
        .filter(|j| content_of(j).is_some())
        .count();
    assert!(good_after >= 4, "valid content follows the invalid bytes");
    let good = events
        .iter()
        .filter_map(|e| event_json(e))
        .filter(|j| content_of(j).is_some())
        .count();
    assert_eq!(good, 10, "nine ordinary chunks and the long one");
    let finish = events
        .iter()
        .filter_map(|e| event_json(e))
        .any(|j| j["choices"][0]["finish_reason"] == "stop");
    assert!(finish);
    assert_eq!(events.last().unwrap(), b"data: [DONE]");
}
