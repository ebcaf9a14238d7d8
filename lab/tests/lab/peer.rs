//! The raw-socket peer (`streamscope_lab::peer`) against the lab: what it counts matches what was sent.

use streamscope_lab::peer::{curl, run, PeerReport, PeerRequest};

use crate::client::*;

async fn peer(request: PeerRequest) -> PeerReport {
    tokio::task::spawn_blocking(move || run(&request)).await.expect("peer thread")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn peer_times_a_stream_and_reads_server_ms() {
    let lab = start_lab(None).await;
    let url = format!("http://{lab}/v1/chat/completions?tokens=200&cadence_ms=2&first_ms=100");
    let report = peer(PeerRequest::get(&url)).await;
    assert_eq!((report.status, report.error.as_deref()), (200, None));
    assert_eq!(report.content_events(), 200);
    assert_eq!(report.events.len(), 1 + 200 + 3, "role, content, finish, usage, [DONE]");
    let ttft = report.ttft_ms.unwrap();
    assert!((95.0..300.0).contains(&ttft), "ttft {ttft}");
    assert!(report.headers_ms.unwrap() <= report.ttfb_ms.unwrap());
    assert!(report.ttfb_ms.unwrap() <= ttft);
    let content: Vec<_> = report.events.iter().filter(|e| e.content).collect();
    assert!(content.iter().all(|e| e.server_ms.is_some()));
    // The server's clock starts when it has read the request, after connect: arrival follows the stamp.
    assert!(content.iter().all(|e| e.arrival_ms + 0.5 >= e.server_ms.unwrap()));
    let per_read = report.content_events_per_read();
    assert_eq!(per_read.iter().sum::<usize>(), 200);
    assert!(per_read.len() >= 100, "only {} reads carried content", per_read.len());
    assert_eq!(report.trailing_bytes, 0);
    let json = report.to_json(true);
    assert_eq!(json["content_events"], 200);
    assert_eq!(json["event_list"].as_array().unwrap().len(), 204);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn peer_posts_a_body_counts_comments_and_sees_an_unterminated_line() {
    let lab = start_lab(None).await;
    let mut request = PeerRequest::get(&format!(
        "http://{lab}/v1/chat/completions?first_ms=0&cadence_ms=1&keepalive_bytes=140000&long_line_bytes=300000"
    ));
    request.method = "POST".into();
    request.body = Some(br#"{"model":"lab-1ms","max_tokens":7,"messages":[{"role":"user","content":"hi"}]}"#.to_vec());
    let report = peer(request).await;
    assert_eq!((report.status, report.error.as_deref()), (200, None));
    assert_eq!(report.content_events(), 7, "max_tokens caps the stream");
    assert_eq!(report.events.iter().filter(|e| e.comment).count(), 10_000);
    assert_eq!(report.trailing_bytes, 300_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn curl_sees_the_same_stream_as_the_socket_peer() {
    let lab = start_lab(None).await;
    let url = format!("http://{lab}/v1/chat/completions?tokens=200&cadence_ms=2&first_ms=100");
    let request = PeerRequest { keep_body: true, ..PeerRequest::get(&url) };
    let socket = peer(request).await;
    let traced = tokio::task::spawn_blocking(move || curl::run(&url, true)).await.expect("curl thread");
    assert_eq!((traced.status, traced.error.as_deref()), (200, None));
    assert_eq!(traced.content_events(), 200);
    assert_eq!(traced.events.len(), socket.events.len());
    let kept = |r: &PeerReport| r.body_reads.iter().map(|b| b.bytes.len()).sum::<usize>();
    assert_eq!((kept(&traced), kept(&socket)), (traced.body_bytes, socket.body_bytes));
    // Two requests, so two ids, two creation times and two sets of send stamps (9.998 against 10.002): the
    // rest of the body is byte for byte the same.
    let body = |r: &PeerReport| unstamped(&r.body_reads.iter().flat_map(|b| b.bytes.iter().copied()).collect::<Vec<u8>>());
    assert!(body(&traced) == body(&socket), "curl and the socket peer received different bodies");
    for report in [&socket, &traced] {
        let ttft = report.ttft_ms.unwrap();
        assert!((95.0..300.0).contains(&ttft), "ttft {ttft}");
        assert!(report.headers_ms.unwrap() <= report.ttfb_ms.unwrap() && report.ttfb_ms.unwrap() <= ttft);
        assert!(report.content_events_per_read().len() >= 100, "{} reads carried content", report.content_events_per_read().len());
    }
    let stamps = |r: &PeerReport| r.events.iter().map(|e| e.server_ms.is_some()).collect::<Vec<_>>();
    assert_eq!(stamps(&traced), stamps(&socket));
}

/// `body` with the value of every `"server_ms"`, `"created"` and `"id"` taken out: what differs between
/// two requests for the same lab stream.
fn unstamped(body: &[u8]) -> Vec<u8> {
    const KEYS: [&[u8]; 3] = [b"\"server_ms\":", b"\"created\":", b"\"id\":"];
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    while at < body.len() {
        let Some(key) = KEYS.iter().find(|k| body[at..].starts_with(k)) else {
            out.push(body[at]);
            at += 1;
            continue;
        };
        out.extend_from_slice(key);
        at += key.len();
        at += scalar_len(&body[at..]);
    }
    out
}

/// The length of the JSON number or string (without escapes) at the start of `rest`.
fn scalar_len(rest: &[u8]) -> usize {
    match rest.first() {
        Some(b'"') => rest[1..].iter().position(|&b| b == b'"').map_or(rest.len(), |end| end + 2),
        _ => rest.iter().take_while(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-')).count(),
    }
}

#[test]
fn unstamped_takes_out_the_values_that_differ_between_requests_only() {
    let a = br#"data: {"id":"lab-9","x":1,"server_ms":9.998}\n\ndata: {"server_ms":100.250,"created":17,"y":"server_ms"}\n\n"#;
    let b = br#"data: {"id":"lab-10","x":1,"server_ms":10.002}\n\ndata: {"server_ms":99.1,"created":18,"y":"server_ms"}\n\n"#;
    assert_eq!(unstamped(a), unstamped(b));
    let expected = br#"data: {"id":,"x":1,"server_ms":}\n\ndata: {"server_ms":,"created":,"y":"server_ms"}\n\n"#;
    assert_eq!(unstamped(a), expected.to_vec());
    assert_ne!(unstamped(a), unstamped(br#"data: {"id":"lab-9","x":2,"server_ms":9.998}\n\n"#));
}
