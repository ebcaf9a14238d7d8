//! Forced statuses and bad requests: OpenAI-style error JSON, never a panic.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_429_gives_openai_error_json() {
    let lab = start_lab(None).await;
    let response = get(lab, "/v1/chat/completions?status=429").await;
    assert_eq!(response.status, 429);
    assert_eq!(response.header("content-type"), Some("application/json"));
    assert_eq!(response.header("access-control-allow-origin"), Some("*"));
    let json: serde_json::Value = serde_json::from_slice(&response.body()).unwrap();
    assert!(json["error"]["message"].is_string());
    assert_eq!(json["error"]["type"], "rate_limit_error");
    assert_eq!(json["error"]["code"], "rate_limit_exceeded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_parameters_and_bodies_get_400() {
    let lab = start_lab(None).await;
    for query in ["tokens=lots", "mode=zip", "status=301", "cadence_ms=-5"] {
        let response = get(lab, &format!("/v1/chat/completions?{query}")).await;
        assert_eq!(response.status, 400, "{query}");
        let json: serde_json::Value = serde_json::from_slice(&response.body()).unwrap();
        assert!(json["error"]["message"].as_str().unwrap().len() > 5);
    }
    let response = post_json(lab, "/v1/chat/completions", "{\"model\":").await;
    assert_eq!(response.status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_requests_get_400_and_the_lab_keeps_serving() {
    let lab = start_lab(None).await;
    for raw in [
        &b"NONSENSE\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET / HTTP/1.1\r\nno colon here\r\n\r\n",
        b"POST /stream HTTP/1.1\r\nContent-Length: banana\r\n\r\n",
        b"GET /\xff\xfe HTTP/1.1\r\n\r\n",
    ] {
        let response = exchange(lab, raw).await;
        assert_eq!(response.status, 400, "{:?}", String::from_utf8_lossy(raw));
    }
    assert_eq!(get(lab, "/healthz").await.body(), b"ok\n");
}
