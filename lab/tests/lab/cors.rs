//! CORS: the preflight answer and the headers every response carries.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_preflight_allows_methods_and_echoes_requested_headers() {
    let lab = start_lab(None).await;
    let request = b"OPTIONS /v1/chat/completions HTTP/1.1\r\nHost: lab\r\nOrigin: http://127.0.0.1:1\r\n\
Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: authorization, content-type\r\nConnection: close\r\n\r\n";
    let response = exchange(lab, request).await;
    assert_eq!(response.status, 204);
    assert_eq!(response.header("access-control-allow-origin"), Some("*"));
    assert_eq!(
        response.header("access-control-allow-methods"),
        Some("GET, POST, OPTIONS")
    );
    let allow_headers = response.header("access-control-allow-headers").unwrap();
    assert!(
        allow_headers.contains('*') && allow_headers.contains("authorization"),
        "{allow_headers}"
    );
    assert_eq!(response.header("access-control-max-age"), Some("600"));
    assert!(response.raw_body().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_carries_the_cors_and_timing_headers() {
    let lab = start_lab(None).await;
    for path in [
        "/v1/chat/completions?tokens=1&first_ms=0",
        "/v1/models",
        "/healthz",
        "/nope",
        "/stream?status=500",
    ] {
        let response = get(lab, path).await;
        assert_eq!(
            response.header("access-control-allow-origin"),
            Some("*"),
            "{path}"
        );
        assert_eq!(
            response.header("access-control-expose-headers"),
            Some("*"),
            "{path}"
        );
        assert_eq!(response.header("timing-allow-origin"), Some("*"), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tao_0_leaves_out_timing_allow_origin_only() {
    let lab = start_lab(None).await;
    let response = get(lab, "/v1/chat/completions?tokens=1&first_ms=0&tao=0").await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("timing-allow-origin"), None);
    assert_eq!(response.header("access-control-allow-origin"), Some("*"));
}
