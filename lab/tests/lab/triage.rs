//! Failure scenarios for triage: error shapes, Retry-After, nginx HTML pages, keys, models, CORS off,
//! and the routes a base URL without /v1 runs into.

use serde_json::Value;

use crate::client::*;

/// `POST path` with extra header lines, a JSON body and `Connection: close`.
async fn post(lab: std::net::SocketAddr, path: &str, headers: &str, body: &str) -> Response {
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: lab\r\nContent-Type: application/json\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    exchange(lab, request.as_bytes()).await
}

fn json(response: &Response) -> Value {
    serde_json::from_slice(&response.body()).unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", String::from_utf8_lossy(&response.body())))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_style_gives_each_api_shape() {
    let lab = start_lab(None).await;
    let r = get(lab, "/v1/chat/completions?status=404&error_style=anthropic").await;
    assert_eq!(r.status, 404);
    let j = json(&r);
    assert_eq!((j["type"].as_str(), j["error"]["type"].as_str()), (Some("error"), Some("not_found_error")));
    assert!(j["error"]["message"].as_str().unwrap().contains("forced status 404"));

    let j = json(&get(lab, "/v1/chat/completions?status=401&error_style=deepseek").await);
    assert_eq!(j["error"]["type"], "authentication_error");
    assert_eq!(j["error"]["code"], "invalid_request_error");

    let j = json(&get(lab, "/v1/chat/completions?status=413&error_style=openai").await);
    assert_eq!(j["error"]["code"], "request_too_large");
    assert_eq!(get(lab, "/v1/chat/completions?error_style=cohere").await.status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_on_429() {
    let lab = start_lab(None).await;
    let r = get(lab, "/v1/chat/completions?status=429&retry_after=7").await;
    assert_eq!((r.status, r.header("retry-after")), (429, Some("7")));
    let r = get(lab, "/v1/chat/completions?status=429").await;
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(get(lab, "/v1/chat/completions?status=500&retry_after=7").await.header("retry-after"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn html_error_is_an_nginx_page() {
    let lab = start_lab(None).await;
    let r = get(lab, "/v1/chat/completions?html_error=502").await;
    assert_eq!(r.status, 502);
    assert_eq!(r.header("content-type"), Some("text/html"));
    assert!(r.header("server").unwrap().starts_with("nginx/"));
    let body = String::from_utf8(r.body()).unwrap();
    assert!(body.contains("<title>502 Bad Gateway</title>") && body.contains("<center>nginx/"), "{body}");
    assert_eq!(r.header("access-control-allow-origin"), Some("*"), "still readable by the page");
    assert_eq!(get(lab, "/v1/chat/completions?html_error=504").await.status, 504);
    assert_eq!(get(lab, "/v1/chat/completions?html_error=302").await.status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn model_check_refuses_models_the_list_lacks() {
    let lab = start_lab(None).await;
    let path = "/v1/chat/completions?model_check=1&tokens=2&first_ms=0&cadence_ms=1";
    let r = post(lab, path, "", r#"{"model":"gpt-x","stream":true}"#).await;
    assert_eq!(r.status, 404);
    let j = json(&r);
    assert_eq!(j["error"]["message"], "The model `gpt-x` does not exist or you do not have access to it.");
    assert_eq!(j["error"]["code"], "model_not_found");

    let r = post(lab, &format!("{path}&error_style=deepseek"), "", r#"{"model":"gpt-x"}"#).await;
    assert_eq!((r.status, json(&r)["error"]["message"].as_str()), (400, Some("Model Not Exist")));
    let r = post(lab, &format!("{path}&error_style=anthropic"), "", r#"{"model":"claude-x"}"#).await;
    assert_eq!((r.status, json(&r)["error"]["type"].as_str()), (404, Some("not_found_error")));

    let listed: Vec<String> = json(&get(lab, "/v1/models").await)["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect();
    for id in &listed {
        let r = post(lab, path, "", &format!(r#"{{"model":"{id}"}}"#)).await;
        assert_eq!(r.status, 200, "{id}");
        assert!(find(&r.body(), b"[DONE]").is_some());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn require_key_wants_the_lab_key_exactly() {
    let lab = start_lab(None).await;
    let path = "/v1/chat/completions?require_key=1&tokens=2&first_ms=0&cadence_ms=1";
    for headers in ["", "Authorization: Bearer sk-wrong\r\n", "Authorization: Bearer  sk-lab\r\n"] {
        let r = post(lab, path, headers, "{}").await;
        assert_eq!(r.status, 401, "{headers:?}");
        assert!(json(&r)["error"]["message"].as_str().unwrap().contains("API key"));
        assert!(r.header("www-authenticate").is_some());
    }
    let r = post(lab, path, "Authorization: Bearer sk-lab\r\n", "{}").await;
    assert_eq!(r.status, 200);
    let r = post(lab, &format!("{path}&error_style=anthropic"), "", "{}").await;
    assert_eq!((r.status, json(&r)["error"]["type"].as_str()), (401, Some("authentication_error")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cors_off_drops_every_cors_header_also_on_the_preflight() {
    let lab = start_lab(None).await;
    let r = get(lab, "/v1/chat/completions?cors=0&tokens=2&first_ms=0&cadence_ms=1").await;
    assert_eq!(r.status, 200);
    assert!(find(&r.body(), b"[DONE]").is_some(), "it still streams");
    let preflight = b"OPTIONS /v1/chat/completions?cors=0 HTTP/1.1\r\nHost: lab\r\nOrigin: http://127.0.0.1:1\r\n\
Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: authorization, content-type\r\nConnection: close\r\n\r\n";
    let p = exchange(lab, preflight).await;
    for response in [&r, &p] {
        let cors: Vec<&(String, String)> =
            response.headers.iter().filter(|(n, _)| n.starts_with("access-control-") || n == "timing-allow-origin").collect();
        assert!(cors.is_empty(), "{cors:?}");
    }
    let r = get(lab, "/v1/chat/completions?cors=0&status=500").await;
    assert_eq!((r.status, r.header("access-control-allow-origin")), (500, None));
    // Other requests on the same server keep their CORS headers.
    assert_eq!(get(lab, "/v1/models").await.header("access-control-allow-origin"), Some("*"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_v1_there_is_no_api() {
    let lab = start_lab(None).await;
    assert_eq!(get(lab, "/v1/models").await.status, 200);
    for path in ["/models", "/chat/completions"] {
        let r = get(lab, path).await;
        assert_eq!(r.status, 404, "GET {path}");
        let r = post(lab, path, "", "{}").await;
        assert_eq!(r.status, 404, "POST {path}");
        assert_eq!(json(&r)["error"]["message"], format!("Invalid URL (POST {path})"));
    }
    let r = post(lab, "/v1/v1/chat/completions", "", "{}").await;
    assert_eq!(r.status, 404, "a doubled /v1 is an unknown path, not a 405");
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
}
