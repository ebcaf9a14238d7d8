//! The byte relay: a timer flush, held headers, and a transparent relay that changes nothing (bytes
//! both ways, and the way upstream ended).

use std::net::SocketAddr;
use std::time::Duration;

use streamscope_lab::relay::RelayPolicy;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::client::*;

const TIMER: RelayPolicy = RelayPolicy {
    flush_every_ms: Some(250),
    hold_headers: false,
};
const HOLD_HEADERS: RelayPolicy = RelayPolicy {
    flush_every_ms: None,
    hold_headers: true,
};
const TRANSPARENT: RelayPolicy = RelayPolicy {
    flush_every_ms: None,
    hold_headers: false,
};

fn get_request(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n").into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timer_relay_delivers_the_stream_in_reads_one_period_apart() {
    let lab = start_lab(None).await;
    let relay = start_relay(lab, TIMER).await;
    let path = "/v1/chat/completions?tokens=12&cadence_ms=80&first_ms=100";
    let exchange = raw_exchange(relay, &get_request(path)).await;
    assert_eq!(exchange.end, Ok(()));
    let bytes = exchange.bytes();
    assert!(bytes.starts_with(b"HTTP/1.1 200 OK\r\n"));
    assert!(
        bytes.ends_with(b"0\r\n\r\n"),
        "the chunked body ends properly"
    );
    assert_eq!(count(&bytes, b"\"content\":\""), 12);

    let times_ms = exchange.times_ms();
    let total_ms = times_ms.last().copied().unwrap_or_default();
    // Flushes at 250, 500, 750, then the rest at upstream's end (~980 ms).
    assert!(
        times_ms.len() as f64 <= total_ms / 250.0 + 2.0,
        "{} reads in {total_ms:.0} ms: {times_ms:?}",
        times_ms.len()
    );
    assert!(
        times_ms[0] >= 200.0,
        "even the head waits for the first flush: {times_ms:?}"
    );
    let gaps_ms = gaps(&times_ms);
    let long_gaps = gaps_ms.iter().filter(|&&gap| gap >= 200.0).count();
    assert!(long_gaps + 1 >= gaps_ms.len(), "gaps {gaps_ms:?}");
    for read in &exchange.reads {
        assert!(
            count(&read.bytes, b"data: ") >= 2,
            "every flush holds several events: {:?}",
            String::from_utf8_lossy(&read.bytes)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hold_headers_sends_the_head_only_with_the_first_event_then_passes_reads_through() {
    let lab = start_lab(None).await;
    let relay = start_relay(lab, HOLD_HEADERS).await;
    let path = "/v1/chat/completions?role_first=0&first_ms=300&tokens=5&cadence_ms=60";
    let exchange = raw_exchange(relay, &get_request(path)).await;
    assert_eq!(exchange.end, Ok(()));
    let first = &exchange.reads[0];
    assert!(first.at_ms >= 250.0, "the head came at {} ms", first.at_ms);
    let head_end = find(&first.bytes, b"\r\n\r\n").expect("the head is in the first read");
    assert!(
        count(&first.bytes[head_end..], b"\"content\":\"") == 1,
        "the first event came with the head: {:?}",
        String::from_utf8_lossy(&first.bytes)
    );
    // After the head, reads pass through at once: the other four events keep their cadence.
    let content_times_ms: Vec<f64> = exchange
        .reads
        .iter()
        .filter(|read| count(&read.bytes, b"\"content\":\"") > 0)
        .map(|read| read.at_ms)
        .collect();
    assert!(content_times_ms.len() >= 4, "{content_times_ms:?}");
    let span_ms = content_times_ms.last().copied().unwrap_or_default() - first.at_ms;
    assert!(
        (180.0..600.0).contains(&span_ms),
        "content spread over {span_ms} ms"
    );
    assert_eq!(count(&exchange.bytes(), b"\"content\":\""), 5);
}

/// A one-connection upstream that reads a request of `request_len` bytes, then sends `writes` (each
/// after its pause) and ends with a close, or with a reset when `reset`; returns the request it read.
async fn scripted_upstream(
    request_len: usize,
    writes: Vec<(u64, Vec<u8>)>,
    reset: bool,
) -> (SocketAddr, JoinHandle<Vec<u8>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("local addr");
    let task = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        socket.set_nodelay(true).expect("nodelay");
        let mut request = vec![0u8; request_len];
        socket.read_exact(&mut request).await.expect("read request");
        for (pause_ms, bytes) in writes {
            tokio::time::sleep(Duration::from_millis(pause_ms)).await;
            socket.write_all(&bytes).await.expect("write");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        if reset {
            socket.set_zero_linger().expect("linger");
            drop(socket);
        } else {
            socket.shutdown().await.expect("shutdown");
            // Wait for the relay to close its side so the close is not turned into a reset.
            let mut rest = Vec::new();
            let _ = socket.read_to_end(&mut rest).await;
        }
        request
    });
    (addr, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transparent_relay_passes_the_bytes_unchanged_both_ways() {
    let request = b"POST /v1/chat/completions HTTP/1.1\r\nHost: lab\r\nContent-Length: 11\r\n\r\n{\"a\":\"b\xc3\xa9\"}".to_vec();
    let writes: Vec<(u64, Vec<u8>)> = vec![
        (
            0,
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
        ),
        (40, b"6\r\ndata: \r\n".to_vec()),
        (40, b"3\r\nx\n\n\r\n".to_vec()),
        (40, b"0\r\n\r\n".to_vec()),
    ];
    let expected: Vec<u8> = writes.iter().flat_map(|(_, bytes)| bytes.clone()).collect();
    let (upstream, seen) = scripted_upstream(request.len(), writes, false).await;
    let relay = start_relay(upstream, TRANSPARENT).await;
    let exchange = raw_exchange(relay, &request).await;
    assert_eq!(exchange.end, Ok(()));
    assert_eq!(exchange.bytes(), expected, "the response, byte for byte");
    assert_eq!(
        seen.await.expect("upstream"),
        request,
        "the request, byte for byte"
    );
    assert!(
        exchange.reads.len() >= 3,
        "writes 40 ms apart stay apart: {:?}",
        exchange.times_ms()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transparent_relay_keeps_a_lab_stream_one_event_per_read() {
    let lab = start_lab(None).await;
    let relay = start_relay(lab, TRANSPARENT).await;
    let path = "/v1/chat/completions?tokens=10&cadence_ms=40&first_ms=50";
    let exchange = raw_exchange(relay, &get_request(path)).await;
    assert_eq!(exchange.end, Ok(()));
    let bytes = exchange.bytes();
    assert!(bytes.ends_with(b"data: [DONE]\n\n\r\n0\r\n\r\n"));
    let content_reads = exchange
        .reads
        .iter()
        .filter(|read| count(&read.bytes, b"\"content\":\"") == 1)
        .count();
    assert!(
        content_reads >= 8,
        "{content_reads} of 10 content events alone in a read"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_reset_reaches_the_client_as_a_reset_after_what_was_held() {
    for policy in [TRANSPARENT, TIMER] {
        let request = get_request("/");
        let writes = vec![(
            0,
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab\n\r\n".to_vec(),
        )];
        let (upstream, _seen) = scripted_upstream(request.len(), writes, true).await;
        let relay = start_relay(upstream, policy).await;
        let exchange = raw_exchange(relay, &request).await;
        assert_eq!(
            exchange.bytes(),
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab\n\r\n",
            "{policy}"
        );
        assert_eq!(
            exchange.end,
            Err(std::io::ErrorKind::ConnectionReset),
            "{policy}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_closes_its_side_still_gets_the_whole_response() {
    let lab = start_lab(None).await;
    let relay = start_relay(lab, HOLD_HEADERS).await;
    let mut socket = connect(relay).await;
    let path = "/v1/chat/completions?tokens=5&cadence_ms=10&first_ms=20";
    socket
        .write_all(&get_request(path))
        .await
        .expect("write request");
    socket.shutdown().await.expect("shut down the write side");
    let exchange = read_to_end_timed(&mut socket, tokio::time::Instant::now()).await;
    assert_eq!(exchange.end, Ok(()));
    assert_eq!(count(&exchange.bytes(), b"\"content\":\""), 5);
    assert!(exchange.bytes().ends_with(b"0\r\n\r\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_upstream_ends_the_client_connection_not_the_relay() {
    let closed = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let nowhere = closed.local_addr().expect("local addr");
    drop(closed);
    let relay = start_relay(nowhere, TRANSPARENT).await;
    for _ in 0..2 {
        // The reset can come so fast that even connect() reports it.
        let Ok(mut socket) = tokio::net::TcpStream::connect(relay).await else {
            continue;
        };
        let _ = socket.write_all(&get_request("/")).await;
        let exchange = read_to_end_timed(&mut socket, tokio::time::Instant::now()).await;
        assert!(exchange.reads.is_empty(), "{exchange:?}");
    }
}
