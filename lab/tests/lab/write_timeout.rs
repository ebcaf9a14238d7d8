//! Write time-outs: a client that asks for a long, heavily padded stream and never reads is dropped
//! once a write has waited the write time-out; it does not pin a task, and its place is freed.

use std::time::Duration;

use streamscope_lab::{LabConfig, Limits};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_dropped_after_the_write_timeout() {
    let limits = Limits {
        write_timeout_ms: 1_000,
        ..Limits::default()
    };
    let config = LabConfig {
        limits,
        ..LabConfig::default()
    };
    let (lab, handle) = start_lab_with(config).await;
    // About 500 MB as fast as the socket takes it: far more than any socket buffer holds.
    let mut socket = connect(lab).await;
    socket
        .write_all(b"GET /v1/chat/completions?tokens=500&pad=1048576&first_ms=0&cadence_ms=0 HTTP/1.1\r\nHost: lab\r\n\r\n")
        .await
        .unwrap();
    assert!(wait_until(Duration::from_secs(5), || handle.open_connections() == 1).await);
    let start = Instant::now();
    assert!(
        wait_until(Duration::from_secs(20), || handle.open_connections() == 0).await,
        "the lab still holds the connection of a client that does not read"
    );
    assert!(
        start.elapsed() >= Duration::from_millis(500),
        "dropped too soon: {:?}",
        start.elapsed()
    );

    // What the kernels buffered is still there; then the connection ends (reset or EOF).
    let mut received = 0usize;
    let mut buffer = vec![0u8; 256 * 1024];
    let end = loop {
        match tokio::time::timeout(READ_LIMIT, socket.read(&mut buffer)).await {
            Err(_) => panic!("the connection neither ended nor sent"),
            Ok(Ok(0)) => break "eof",
            Ok(Ok(n)) => received += n,
            Ok(Err(_)) => break "reset",
        }
    };
    assert!(
        received < 200 * 1024 * 1024,
        "{received} bytes came: the body was not cut ({end})"
    );
    assert_eq!(
        get(lab, "/healthz").await.status,
        200,
        "the lab keeps serving"
    );
}
