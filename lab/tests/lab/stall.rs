//! `mode=stall`: a few events, then silence with the connection held open.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stall_mode_stops_sending_but_keeps_the_connection_open() {
    let lab = start_lab(None).await;
    let mut socket = connect(lab).await;
    let start = Instant::now();
    socket
        .write_all(b"GET /v1/chat/completions?mode=stall&stall_after=3&cadence_ms=20&first_ms=50 HTTP/1.1\r\nHost: lab\r\n\r\n")
        .await
        .unwrap();
    let mut received = Vec::new();
    let mut buffer = [0u8; 65536];
    let silent_since = loop {
        match tokio::time::timeout(Duration::from_millis(800), socket.read(&mut buffer)).await {
            Ok(Ok(0)) => panic!("the lab closed a stalled stream"),
            Ok(Ok(n)) => received.extend_from_slice(&buffer[..n]),
            Ok(Err(err)) => panic!("read failed: {err}"),
            Err(_) => break start.elapsed(),
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "stall mode kept sending"
        );
    };
    assert!(silent_since < Duration::from_secs(5));
    let text = String::from_utf8_lossy(&received);
    assert_eq!(
        text.matches("\"content\":\"").count(),
        3,
        "exactly stall_after content events: {text}"
    );
    assert!(text.contains("\"role\":\"assistant\""));
    assert!(
        !text.contains("[DONE]") && !text.contains("\r\n0\r\n\r\n"),
        "the body never ends"
    );
}
