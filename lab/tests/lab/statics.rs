//! Static files: MIME types, `/` → `index.html`, 404, keep-alive and refusing path traversal.

use std::path::PathBuf;

use tokio::io::AsyncWriteExt;
use tokio::time::Instant;

use crate::client::*;

/// A fresh directory tree `<tmp>/<unique>/{secret.txt, site/…}` removed on drop.
struct Site {
    root: PathBuf,
}

impl Site {
    fn new() -> Self {
        let root = std::env::temp_dir().join(format!(
            "streamscope-lab-test-{}-{:?}",
            std::process::id(),
            Instant::now()
        ));
        let site = root.join("site");
        std::fs::create_dir_all(site.join("sub")).unwrap();
        std::fs::write(root.join("secret.txt"), "do not serve").unwrap();
        std::fs::write(site.join("index.html"), "<!doctype html><p>page</p>").unwrap();
        std::fs::write(site.join("app_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
        std::fs::write(site.join("app.js"), "export {}").unwrap();
        std::fs::write(site.join("style.css"), "p{}").unwrap();
        std::fs::write(site.join("sub/index.html"), "sub").unwrap();
        Self { root }
    }

    fn dir(&self) -> PathBuf {
        self.root.join("site")
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_files_have_mime_types_and_index() {
    let site = Site::new();
    let lab = start_lab(Some(site.dir())).await;
    let cases = [
        ("/", "text/html; charset=utf-8"),
        ("/app_bg.wasm", "application/wasm"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/sub/", "text/html; charset=utf-8"),
        ("/index.html?run=1&url=x", "text/html; charset=utf-8"),
    ];
    for (path, mime) in cases {
        let response = get(lab, path).await;
        assert_eq!(
            (response.status, response.header("content-type")),
            (200, Some(mime)),
            "{path}"
        );
        assert_eq!(response.header("access-control-allow-origin"), Some("*"));
    }
    assert_eq!(get(lab, "/").await.body(), b"<!doctype html><p>page</p>");
    assert_eq!(get(lab, "/missing.js").await.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn path_traversal_is_refused() {
    let site = Site::new();
    let lab = start_lab(Some(site.dir())).await;
    for path in [
        "/../secret.txt",
        "/sub/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
    ] {
        let response = get(lab, path).await;
        assert_ne!(response.status, 200, "{path}");
        assert!(
            find(&response.body(), b"do not serve").is_none(),
            "{path} leaked the file"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_files_keep_the_connection_alive() {
    let site = Site::new();
    let lab = start_lab(Some(site.dir())).await;
    let mut socket = connect(lab).await;
    for path in ["/app.js", "/style.css"] {
        let start = Instant::now();
        socket
            .write_all(format!("GET {path} HTTP/1.1\r\nHost: lab\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let response = read_response(&mut socket, start, false).await;
        assert_eq!(response.status, 200);
        assert_eq!(response.header("connection"), Some("keep-alive"));
    }
}
