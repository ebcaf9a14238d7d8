//! The connection cap: past `max_connections` a client gets `503` with `Retry-After: 1` and a closed
//! connection at once (never accepted and held); a place that comes free is served again.

use std::time::Duration;

use streamscope_lab::{LabConfig, Limits};

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_cap_a_client_gets_503_and_a_freed_place_is_served() {
    let limits = Limits {
        max_connections: 2,
        ..Limits::default()
    };
    let config = LabConfig {
        limits,
        ..LabConfig::default()
    };
    let (lab, handle) = start_lab_with(config).await;
    // Two clients that connect and say nothing hold both places.
    let first = connect(lab).await;
    let second = connect(lab).await;
    assert!(wait_until(Duration::from_secs(5), || handle.open_connections() == 2).await);

    for _ in 0..3 {
        let refused = get(lab, "/healthz").await;
        assert_eq!(refused.status, 503);
        assert_eq!(refused.header("retry-after"), Some("1"));
        assert_eq!(refused.header("connection"), Some("close"));
        let text = String::from_utf8_lossy(&refused.body()).into_owned();
        assert!(text.contains("too many connections"), "{text}");
        assert!(
            refused.reads.last().map_or(refused.head_at_ms, |r| r.at_ms) < 5_000.0,
            "answered and closed at once, not held"
        );
        assert_eq!(
            handle.open_connections(),
            2,
            "the refused client was never counted"
        );
    }

    drop(first);
    assert!(wait_until(Duration::from_secs(5), || handle.open_connections() == 1).await);
    assert_eq!(get(lab, "/healthz").await.status, 200);
    drop(second);
    assert!(wait_until(Duration::from_secs(5), || handle.open_connections() == 0).await);
}
