//! Bounded memory, measured: a 64 MB `mode=collect` body is served without the lab ever holding it.
//!
//! Its own test binary (one test, one process), so the peak resident size read from
//! `/proc/self/status` (`VmHWM`) is this test's alone: the lab and a client that counts the bytes it
//! reads and keeps none of them. Before the fix the lab built the body, then a copy with the head, so
//! the peak grew by two to three times the body.

use std::time::Duration;

use streamscope_lab::{serve, LabConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Longest wait for any single read.
const READ_LIMIT: Duration = Duration::from_secs(30);
/// Most the peak resident size may grow while the body is served: a quarter of the body. The lab
/// holds one write (~64 KiB) and the client one read buffer; the rest is runtime and allocator slack.
const MAX_PEAK_GROWTH_KB: u64 = 16 * 1024;

/// A `kB` value of `/proc/self/status` (`VmHWM`: peak resident size; `VmRSS`: resident size now).
fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_64_mb_collect_is_served_without_holding_the_body() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(serve(listener, LabConfig::default()));
    // Warm up the runtime, the lab and the allocator with a small collect first.
    let (_, small) = collect(addr, 10).await;
    assert!(small > 0);
    let peak_before_kb = status_kb("VmHWM");

    let (declared, received) = collect(addr, 1000).await;
    assert!(declared > 64_000_000, "a {declared}-byte body");
    assert_eq!(received, declared, "the whole body came");
    let growth_kb = status_kb("VmHWM").saturating_sub(peak_before_kb);
    assert!(
        growth_kb < MAX_PEAK_GROWTH_KB,
        "the peak resident size grew by {growth_kb} kB while a {declared}-byte body was served"
    );
}

/// Asks for a collected body of `tokens` events with 64 KiB of padding each; returns the declared
/// `Content-Length` and the body bytes counted (and dropped) as they were read.
async fn collect(addr: std::net::SocketAddr, tokens: usize) -> (usize, usize) {
    let mut socket = TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "GET /v1/chat/completions?mode=collect&tokens={tokens}&pad=65536&first_ms=0&cadence_ms=0 \
         HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n"
    );
    socket.write_all(request.as_bytes()).await.expect("write");
    let mut buffer = vec![0u8; 64 * 1024];
    let mut head = Vec::new();
    let mut received = 0usize;
    let mut tail = Vec::new();
    loop {
        let n = tokio::time::timeout(READ_LIMIT, socket.read(&mut buffer))
            .await
            .expect("the lab went silent")
            .expect("read");
        if n == 0 {
            break;
        }
        let mut bytes = &buffer[..n];
        if received == 0 && !head.ends_with(b"\r\n\r\n") {
            let end = head.len();
            head.extend_from_slice(bytes);
            let Some(at) = head.windows(4).position(|w| w == b"\r\n\r\n") else {
                continue;
            };
            bytes = &bytes[at + 4 - end..];
            head.truncate(at + 4);
        }
        received += bytes.len();
        tail.extend_from_slice(bytes);
        let keep = tail.len().saturating_sub(64);
        tail.drain(..keep);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    assert!(head.starts_with("HTTP/1.1 200 "), "{head}");
    let declared = head
        .lines()
        .find_map(|line| line.strip_prefix("Content-Length: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("Content-Length");
    assert!(
        tail.ends_with(b"data: [DONE]\n\n"),
        "the body ends with [DONE]"
    );
    (declared, received)
}
