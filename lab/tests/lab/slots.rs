//! `slots=K`: at most K streams of a pool at once, the rest wait in FIFO order with their heads already
//! sent; time to first token climbs in steps of one stream's length, and a client that leaves (while
//! holding a slot or while waiting) frees its place.

use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::client::*;

fn get_request(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n").into_bytes()
}

/// When the first content event arrived and the `server_ms` it carried.
fn first_content(response: &Response) -> (f64, f64) {
    response
        .chunks()
        .into_iter()
        .find_map(|chunk| {
            let json = event_json(&sse_events(&chunk.payload)[0])?;
            content_of(&json)?;
            Some((chunk.at_ms, json["server_ms"].as_f64()?))
        })
        .expect("a content event")
}

/// Opens a stream and reads its head; the socket is left open for the caller to read or drop.
async fn open_stream(lab: std::net::SocketAddr, path: &str) -> (TcpStream, Response) {
    let mut socket = connect(lab).await;
    socket.write_all(&get_request(path)).await.expect("write request");
    let head = read_head(&mut socket, Instant::now()).await;
    (socket, head)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_slots_four_clients_ttft_climbs_in_steps_and_heads_go_out_at_once() {
    let lab = start_lab(None).await;
    // One stream: first token at 100 ms, then 4 more 20 ms apart: about 180 ms per stream.
    let path = "/v1/chat/completions?slots=2&slot_pool=staircase&tokens=5&first_ms=100&cadence_ms=20";
    // The four heads are read in turn, so each client is in line before the next one asks: spawned
    // clients could reach the lab in any order and late on a loaded machine. Every token is stamped
    // on one clock.
    let since = Instant::now();
    let mut clients = Vec::new();
    for _ in 0..4 {
        let (mut socket, head) = open_stream(lab, path).await;
        clients.push(tokio::spawn(async move { read_body(&mut socket, head, since, true).await }));
    }
    let mut responses = Vec::new();
    for client in clients {
        responses.push(client.await.expect("client task"));
    }
    let mut positions: Vec<&str> = responses
        .iter()
        .map(|r| r.header("x-lab-queue-position").expect("X-Lab-Queue-Position"))
        .collect();
    positions.sort();
    assert_eq!(positions, ["0", "0", "1", "2"]);
    for response in &responses {
        assert_eq!(response.status, 200);
        assert!(response.head_at_ms < 60.0, "head at {} ms: not at once", response.head_at_ms);
        let (_, server_ms) = first_content(response);
        assert!(
            (99.5..170.0).contains(&server_ms),
            "first token stamped {server_ms} ms: the clock starts at the slot"
        );
    }
    let mut ttft_ms: Vec<f64> = responses.iter().map(|r| first_content(r).0).collect();
    ttft_ms.sort_by(f64::total_cmp);
    assert!(ttft_ms[1] < 180.0, "the first two start at once: {ttft_ms:?}");
    assert!(ttft_ms[0] >= 99.0, "no token before first_ms: {ttft_ms:?}");
    assert!(
        ttft_ms[2] - ttft_ms[1] >= 120.0 && (260.0..420.0).contains(&ttft_ms[2]),
        "the next two wait one stream (~180 ms): {ttft_ms:?}"
    );
    assert!(ttft_ms[3] - ttft_ms[2] < 60.0, "and start together: {ttft_ms:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_mid_stream_frees_its_slot() {
    let lab = start_lab(None).await;
    // A long stream holds the only slot: 1,000 tokens 10 ms apart would take 10 s.
    let long = "/v1/chat/completions?slots=1&slot_pool=leave-mid&tokens=1000&first_ms=0&cadence_ms=10";
    let (holder, head) = open_stream(lab, long).await;
    assert_eq!(head.header("x-lab-queue-position"), Some("0"));
    // The next client's head says it waits before the holder leaves: on a loaded machine a spawned
    // client could otherwise reach the lab only after the holder had gone, and never wait at all.
    let next_path = "/v1/chat/completions?slots=1&slot_pool=leave-mid&tokens=3&first_ms=50&cadence_ms=10";
    let (mut next, next_head) = open_stream(lab, next_path).await;
    assert_eq!(next_head.header("x-lab-queue-position"), Some("1"));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let left = Instant::now();
    drop(holder);
    let next = read_body(&mut next, next_head, left, true).await;
    let (ttft_ms, _) = first_content(&next);
    // Nothing came while the holder held the slot (a token read then would be stamped about 0 ms);
    // the slot comes free at the holder's next failed write, a write or two (10 ms each) after it
    // left, and the first token 50 ms (first_ms) later: far sooner than the holder's 10 s.
    assert!(
        (49.0..1000.0).contains(&ttft_ms),
        "first token {ttft_ms} ms after the holder left: expected about 50 (first_ms) + a write or two"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_while_waiting_gives_up_its_place() {
    let lab = start_lab(None).await;
    let pool = "slots=1&slot_pool=leave-queue";
    // The holder: 20 tokens 20 ms apart, the last 380 ms after its request.
    let holder_path = format!("/v1/chat/completions?{pool}&tokens=20&first_ms=0&cadence_ms=20");
    let since = Instant::now();
    let (mut holder, holder_head) = open_stream(lab, &holder_path).await;
    assert_eq!(holder_head.header("x-lab-queue-position"), Some("0"));
    let holder = tokio::spawn(async move { read_body(&mut holder, holder_head, since, true).await });
    let path = format!("/v1/chat/completions?{pool}&tokens=2&first_ms=0&cadence_ms=5");
    let (waiter, head) = open_stream(lab, &path).await;
    assert_eq!(head.header("x-lab-queue-position"), Some("1"));
    drop(waiter);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (mut next, next_head) = open_stream(lab, &path).await;
    assert_eq!(
        next_head.header("x-lab-queue-position"),
        Some("1"),
        "the one who left is no longer in line"
    );
    let next = read_body(&mut next, next_head, since, true).await;
    let holder = holder.await.expect("holder task");
    let (ttft_ms, _) = first_content(&next);
    assert!(holder.chunks().len() > 20, "the holder was served whole");
    assert!(
        (370.0..1500.0).contains(&ttft_ms),
        "first token {ttft_ms} ms after the holder asked: expected when the holder ended (~380 ms)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_mode_waits_for_its_slot_and_bad_slots_are_a_400() {
    let lab = start_lab(None).await;
    for (mode, extra) in [
        ("stream", ""),
        ("stream", "&dialect=anthropic"),
        ("stream", "&content_length=1"),
        ("collect", ""),
        ("raw", ""),
        ("bursts", "&burst_every_ms=50"),
    ] {
        let pool = format!("slots=1&slot_pool=modes-{mode}{}", extra.len());
        let timing = "tokens=4&first_ms=60&cadence_ms=10";
        let label = format!("mode={mode}{extra}");
        // The holder streams, so its head says it holds the slot before the second client asks (a
        // collected answer's head would come only at its end); both bodies are stamped on one clock.
        let since = Instant::now();
        let holder_path = format!("/v1/chat/completions?{pool}&{timing}");
        let (mut holder, holder_head) = open_stream(lab, &holder_path).await;
        assert_eq!(holder_head.header("x-lab-queue-position"), Some("0"), "{label}");
        let holder = tokio::spawn(async move { read_body(&mut holder, holder_head, since, true).await });
        let path = format!("/v1/chat/completions?{pool}&mode={mode}{extra}&{timing}");
        let (mut second, second_head) = open_stream(lab, &path).await;
        assert_eq!(second_head.status, 200, "{label}");
        assert_eq!(second_head.header("x-lab-queue-position"), Some("1"), "{label}");
        let second = read_body(&mut second, second_head, since, true).await;
        let holder = holder.await.expect("client task");
        assert!(!holder.reads.is_empty() && !second.reads.is_empty(), "{label}: a body each");
        // Alone, a stream ends at least 90 ms (first_ms 60 + 3 gaps of 10) after its slot; the second
        // one's slot came when the holder ended, so it ends at least 180 ms after the holder asked.
        let end_ms = second.reads.last().map_or(0.0, |r| r.at_ms);
        assert!(end_ms >= 170.0, "{label}: second body ended at {end_ms} ms");
    }
    for bad in ["slots=0", "slots=65", "slots=x", "slot_pool=a", "slots=1&slot_pool=a%2Fb"] {
        let response = get(lab, &format!("/v1/chat/completions?{bad}")).await;
        assert_eq!(response.status, 400, "{bad}");
        assert!(String::from_utf8_lossy(&response.body()).contains("slot"), "{bad}");
    }
}
