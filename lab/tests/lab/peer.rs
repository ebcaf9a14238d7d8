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
    assert_eq!(traced.body_bytes, socket.body_bytes);
    let kept = |r: &PeerReport| r.body_reads.iter().map(|b| b.bytes.len()).sum::<usize>();
    assert_eq!((kept(&traced), kept(&socket)), (traced.body_bytes, socket.body_bytes));
    for report in [&socket, &traced] {
        let ttft = report.ttft_ms.unwrap();
        assert!((95.0..300.0).contains(&ttft), "ttft {ttft}");
        assert!(report.headers_ms.unwrap() <= report.ttfb_ms.unwrap() && report.ttfb_ms.unwrap() <= ttft);
        assert!(report.content_events_per_read().len() >= 100, "{} reads carried content", report.content_events_per_read().len());
    }
    let stamps = |r: &PeerReport| r.events.iter().map(|e| e.server_ms.is_some()).collect::<Vec<_>>();
    assert_eq!(stamps(&traced), stamps(&socket));
}
