//! Static files from the configured directory, with MIME types and no way out of it; every answer
//! carries the page's security headers ([`crate::http::security`]).

use std::path::{Path, PathBuf};

use crate::http::query::percent_decode;
use crate::http::response::Fixed;
use crate::http::security::with_page_headers;

/// Shown at `/` when the lab runs without `--static`.
const NO_STATIC_PAGE: &str = "<!doctype html><meta charset=utf-8><title>streamscope lab</title>\
<h1>streamscope lab</h1><p>No <code>--static</code> directory; API routes only:</p><ul>\
<li><a href=\"/v1/chat/completions?tokens=20\">/v1/chat/completions</a> (alias /stream)</li>\
<li><a href=\"/v1/models\">/v1/models</a></li><li><a href=\"/healthz\">/healthz</a></li></ul>\n";

/// Answers a GET/HEAD for `raw_path` (still percent-encoded) from `dir`, with the page's CSP and
/// referrer policy.
pub(crate) async fn file(dir: Option<&Path>, raw_path: &str) -> Fixed {
    with_page_headers(answer(dir, raw_path).await)
}

async fn answer(dir: Option<&Path>, raw_path: &str) -> Fixed {
    let Some(relative) = safe_relative_path(raw_path) else {
        return Fixed::text(400, "bad path");
    };
    let Some(dir) = dir else {
        return match raw_path {
            "/" | "/index.html" => Fixed::new(200, "text/html; charset=utf-8", NO_STATIC_PAGE),
            _ => Fixed::text(404, "not found"),
        };
    };
    let mut path = dir.join(relative);
    if tokio::fs::metadata(&path)
        .await
        .is_ok_and(|meta| meta.is_dir())
    {
        path.push("index.html");
    }
    match tokio::fs::read(&path).await {
        Ok(bytes) => {
            Fixed::new(200, mime_type(&path), bytes).with_header("Cache-Control", "no-cache")
        }
        Err(_) => Fixed::text(404, "not found"),
    }
}

/// Turns a request path into a relative file path, or `None` when it tries to leave the directory.
fn safe_relative_path(raw_path: &str) -> Option<PathBuf> {
    let decoded = String::from_utf8(percent_decode(raw_path, false)).ok()?;
    let mut relative = PathBuf::new();
    for segment in decoded.split('/').filter(|s| !s.is_empty() && *s != ".") {
        if segment == ".." || segment.contains(['\\', '\0']) || segment.contains(':') {
            return None;
        }
        relative.push(segment);
    }
    Some(relative)
}

/// The `Content-Type` for a file, by extension.
fn mime_type(path: &Path) -> &'static str {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traversal_is_refused_in_every_spelling() {
        for path in [
            "/../etc/passwd",
            "/a/../../b",
            "/%2e%2e/x",
            "/%2E%2E%2fx",
            "/a\\..\\b",
            "/c:/x",
        ] {
            assert_eq!(safe_relative_path(path), None, "{path}");
        }
        assert_eq!(
            safe_relative_path("/a/./b%20c.js"),
            Some(PathBuf::from("a/b c.js"))
        );
        assert_eq!(safe_relative_path("/"), Some(PathBuf::new()));
    }

    #[test]
    fn wasm_and_friends_have_their_types() {
        assert_eq!(mime_type(Path::new("x_bg.wasm")), "application/wasm");
        assert_eq!(
            mime_type(Path::new("x.js")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(mime_type(Path::new("x")), "application/octet-stream");
    }
}
