//! `X-Content-Type-Options: nosniff` on every response; on static files also the page's
//! Content-Security-Policy and `Referrer-Policy: no-referrer`.

use streamscope_lab::PAGE_CSP;
use tokio::time::Instant;

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_gets_its_csp_nosniff_and_no_referrer() {
    let dir = std::env::temp_dir().join(format!(
        "streamscope-lab-headers-{}-{:?}",
        std::process::id(),
        Instant::now()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><p>page</p>").unwrap();
    let lab = start_lab(Some(dir.clone())).await;
    for path in ["/", "/index.html", "/missing.js"] {
        let response = get(lab, path).await;
        assert_eq!(
            response.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(
            response.header("content-security-policy"),
            Some(PAGE_CSP),
            "{path}"
        );
        assert_eq!(
            response.header("referrer-policy"),
            Some("no-referrer"),
            "{path}"
        );
    }
    assert_eq!(get(lab, "/").await.body(), b"<!doctype html><p>page</p>");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        PAGE_CSP.contains("frame-ancestors 'none'")
            && PAGE_CSP.contains("connect-src * data: blob:")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_api_response_says_nosniff() {
    let lab = start_lab(None).await;
    for path in [
        "/v1/chat/completions?tokens=2&first_ms=0&cadence_ms=1",
        "/v1/chat/completions?mode=collect&tokens=2&first_ms=0&cadence_ms=1",
        "/v1/chat/completions?mode=zip",
        "/v1/chat/completions?status=503",
        "/v1/models",
        "/healthz",
        "/",
    ] {
        let response = get(lab, path).await;
        assert_eq!(
            response.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
    }
    let preflight = exchange(
        lab,
        b"OPTIONS /v1/chat/completions HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(preflight.header("x-content-type-options"), Some("nosniff"));
}
