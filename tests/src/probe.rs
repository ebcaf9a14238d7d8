//! Plain-HTTP probes of the servers the harness starts: is it up yet, what does it answer.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The whole answer (head and body) to a plain-HTTP/1.1 `GET path` on `127.0.0.1:port` (`None`: no
/// answer within 2 s).
pub(crate) async fn plain_get(port: u16, path: &str) -> Option<Vec<u8>> {
    get_with(port, path, "").await
}

/// Like [`plain_get`], with `extra_headers` (whole `Name: value\r\n` lines) in the request.
async fn get_with(port: u16, path: &str, extra_headers: &str) -> Option<Vec<u8>> {
    let probe = async {
        let mut socket = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .ok()?;
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra_headers}Connection: close\r\n\r\n");
        socket.write_all(request.as_bytes()).await.ok()?;
        let mut answer = Vec::new();
        socket.read_to_end(&mut answer).await.ok()?;
        Some(answer)
    };
    tokio::time::timeout(Duration::from_secs(2), probe)
        .await
        .ok()
        .flatten()
}

/// Whether the server on `port` is nginx's TLS server: the harness has no TLS client, but nginx
/// answers plain HTTP on a TLS port with its own `400` saying so (the e2e tests then go through TLS).
pub(crate) async fn speaks_tls(port: u16) -> bool {
    plain_get(port, "/healthz").await.is_some_and(|answer| {
        let text = String::from_utf8_lossy(&answer);
        text.starts_with("HTTP/1.1 400") && text.contains("HTTPS port")
    })
}

/// Whether a plain `GET path` on `port` answers `200`.
pub(crate) async fn answers_200(port: u16, path: &str) -> bool {
    plain_get(port, path).await.is_some_and(|answer| answer.starts_with(b"HTTP/1.1 200"))
}

/// The head (status line and headers) of a plain `GET path` on `port` (empty: no answer).
pub(crate) async fn head(port: u16, path: &str) -> String {
    let answer = plain_get(port, path).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&answer);
    text.split("\r\n\r\n").next().unwrap_or_default().to_string()
}

/// The head and the body of a plain `GET path` on `port` with `Accept-Encoding: accept_encoding` (none
/// when empty): the body as the server encoded it (`Content-Encoding` left as it is), only unframed
/// when it came `Transfer-Encoding: chunked`; an empty head when it did not answer.
pub(crate) async fn get_encoded(port: u16, path: &str, accept_encoding: &str) -> (String, Vec<u8>) {
    let header = if accept_encoding.is_empty() { String::new() } else { format!("Accept-Encoding: {accept_encoding}\r\n") };
    let answer = get_with(port, path, &header).await.unwrap_or_default();
    let Some(end) = answer.windows(4).position(|w| w == b"\r\n\r\n") else {
        return (String::from_utf8_lossy(&answer).into_owned(), Vec::new());
    };
    let head = String::from_utf8_lossy(&answer[..end]).into_owned();
    let body = &answer[end + 4..];
    let chunked = head.lines().any(|line| {
        line.split_once(':').is_some_and(|(name, value)| {
            name.trim().eq_ignore_ascii_case("transfer-encoding") && value.trim().eq_ignore_ascii_case("chunked")
        })
    });
    let body = if chunked { dechunked(body) } else { body.to_vec() };
    (head, body)
}

/// The data of a `Transfer-Encoding: chunked` body (what stands after a malformed size line is dropped).
fn dechunked(mut body: &[u8]) -> Vec<u8> {
    let mut data = Vec::new();
    while let Some(line_end) = body.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&body[..line_end]);
        let size_hex = size_text.split(';').next().unwrap_or_default().trim();
        let Ok(size) = usize::from_str_radix(size_hex, 16) else { break };
        let start = line_end + 2;
        if size == 0 || body.len() < start + size {
            break;
        }
        data.extend_from_slice(&body[start..start + size]);
        body = body.get(start + size + 2..).unwrap_or_default();
    }
    data
}
