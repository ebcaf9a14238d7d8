//! Deadlines for the whole request, not per byte: a client dripping its head or its body is cut off
//! with `408` (or closed) at the deadline, while the idle limit between kept-alive requests stays.
//! Short limits through `LabConfig::limits` keep these tests to a second or two.

use std::time::Duration;

use streamscope_lab::{LabConfig, Limits};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedReadHalf;
use tokio::time::Instant;

use crate::client::*;

/// Gap between two dripped bytes: well inside every limit, so only a deadline for the whole request
/// can stop the drip.
const DRIP_GAP: Duration = Duration::from_millis(100);

fn config(limits: Limits) -> LabConfig {
    LabConfig {
        limits,
        ..LabConfig::default()
    }
}

/// Reads until the lab closes (EOF or reset); returns what came and when it ended.
async fn read_until_cut(reader: &mut OwnedReadHalf, start: Instant) -> (Vec<u8>, Duration) {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout(READ_LIMIT, reader.read(&mut buffer)).await {
            Err(_) => panic!("the lab never cut the client off"),
            Ok(Ok(0)) | Ok(Err(_)) => return (received, start.elapsed()),
            Ok(Ok(n)) => received.extend_from_slice(&buffer[..n]),
        }
    }
}

/// Opens a connection, writes `prefix` at once, then drips `drip` a byte at a time; returns what the
/// lab answered and when (from the first dripped byte) it cut the connection.
async fn drip_request(
    lab: std::net::SocketAddr,
    prefix: &[u8],
    drip: &[u8],
) -> (Vec<u8>, Duration) {
    let (mut reader, mut writer) = connect(lab).await.into_split();
    writer.write_all(prefix).await.expect("write");
    let drip = drip.to_vec();
    let start = Instant::now();
    let dripper = tokio::spawn(async move {
        for byte in drip {
            if writer.write_all(&[byte]).await.is_err() {
                return;
            }
            tokio::time::sleep(DRIP_GAP).await;
        }
    });
    let cut = read_until_cut(&mut reader, start).await;
    dripper.abort();
    cut
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_dripping_its_head_gets_408_at_the_head_deadline() {
    let limits = Limits {
        head_deadline_ms: 1_000,
        idle_limit_ms: 500,
        ..Limits::default()
    };
    let (lab, handle) = start_lab_with(config(limits)).await;
    // 20 s of dripping at the gap; every gap is shorter than the idle limit.
    let head = format!(
        "GET /healthz HTTP/1.1\r\nHost: lab\r\nX-Slow: {}\r\n\r\n",
        "a".repeat(160)
    );
    let (answer, cut_after) = drip_request(lab, b"", head.as_bytes()).await;
    assert!(
        (Duration::from_millis(900)..Duration::from_secs(5)).contains(&cut_after),
        "cut off after {cut_after:?}, the deadline is 1 s"
    );
    assert!(
        answer.is_empty() || answer.starts_with(b"HTTP/1.1 408 "),
        "{:?}",
        String::from_utf8_lossy(&answer)
    );
    assert!(wait_until(Duration::from_secs(5), || handle.open_connections() == 0).await);
    assert_eq!(
        get(lab, "/healthz").await.status,
        200,
        "the lab keeps serving"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_dripping_its_body_gets_408_at_the_body_deadline() {
    let limits = Limits {
        body_deadline_min_ms: 1_000,
        idle_limit_ms: 500,
        ..Limits::default()
    };
    let (lab, _handle) = start_lab_with(config(limits)).await;
    let body = format!(
        r#"{{"messages":[{{"role":"user","content":"{}"}}]}}"#,
        "a".repeat(200)
    );
    let head = format!(
        "POST /v1/chat/completions HTTP/1.1\r\nHost: lab\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let (answer, cut_after) = drip_request(lab, head.as_bytes(), body.as_bytes()).await;
    assert!(
        (Duration::from_millis(900)..Duration::from_secs(5)).contains(&cut_after),
        "cut off after {cut_after:?}, the deadline is 1 s"
    );
    assert!(
        answer.is_empty() || answer.starts_with(b"HTTP/1.1 408 "),
        "{:?}",
        String::from_utf8_lossy(&answer)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_alive_connection_may_idle_past_the_head_deadline_until_the_idle_limit() {
    let limits = Limits {
        head_deadline_ms: 300,
        idle_limit_ms: 1_500,
        ..Limits::default()
    };
    let (lab, _handle) = start_lab_with(config(limits)).await;
    let mut socket = connect(lab).await;
    for pause_ms in [0, 800] {
        tokio::time::sleep(Duration::from_millis(pause_ms)).await;
        let start = Instant::now();
        socket
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: lab\r\n\r\n")
            .await
            .unwrap();
        let response = read_response(&mut socket, start, false).await;
        assert_eq!(response.status, 200, "after {pause_ms} ms idle");
    }
    let (mut reader, _writer) = socket.into_split();
    let (rest, closed_after) = read_until_cut(&mut reader, Instant::now()).await;
    assert!(rest.is_empty(), "closed quietly");
    assert!(
        (Duration::from_millis(1_200)..Duration::from_secs(6)).contains(&closed_after),
        "closed after {closed_after:?} idle; the idle limit is 1.5 s"
    );
}
