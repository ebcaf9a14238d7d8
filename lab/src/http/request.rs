//! Reading and parsing one HTTP/1.x request (head plus a `Content-Length` body) from a socket.
//!
//! Time limits ([`Limits`]): the first byte of a request may take up to the idle limit (then the
//! connection is closed quietly); from that byte on, the whole head must arrive within the head
//! deadline and the body within the body deadline (scaled to its length), or the answer is `408`.
//! The deadlines hold for the whole head and body, not per read: a client dripping one byte a second
//! is cut off all the same.

use tokio::time::Instant;

use crate::http::query::Query;
use crate::http::socket::Socket;
use crate::limits::Limits;

/// Largest request head (request line and headers); a browser's is a few KB.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Largest request body: chat requests with long prompts, with room to spare.
const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Bytes asked of the socket per read.
const READ_BYTES: usize = 16 * 1024;

/// The HTTP version a client spoke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// HTTP/1.0: no chunked encoding, the body ends when the connection closes.
    Http10,
    /// HTTP/1.1.
    Http11,
}

/// A parsed request.
#[derive(Debug, Clone)]
pub struct Request {
    /// Method as sent (`GET`, `POST`, ...).
    pub method: String,
    /// Path part of the target, still percent-encoded.
    pub path: String,
    /// Parsed query string.
    pub query: Query,
    /// Protocol version.
    pub version: Version,
    /// Headers with lower-cased names, in order.
    pub headers: Vec<(String, String)>,
    /// Request body (empty when there was none).
    pub body: Vec<u8>,
    /// When the request had been read completely; all stream deadlines count from here.
    pub received_at: Instant,
}

impl Request {
    /// Returns the value of the first header called `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Says whether the client asked to close the connection after this response.
    pub fn wants_close(&self) -> bool {
        let says_close = self
            .header("connection")
            .is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case("close")));
        self.version == Version::Http10 || says_close
    }
}

/// Why no request could be read.
#[derive(Debug)]
pub enum ReadError {
    /// The peer closed (or went idle) before sending a request; nothing to answer.
    Closed,
    /// The request was malformed; answer with this status and message, then close.
    Bad(u16, &'static str),
}

/// Reads requests off one connection, keeping bytes that arrive after a request for the next one.
pub struct RequestReader {
    buffered: Vec<u8>,
}

impl Default for RequestReader {
    fn default() -> Self {
        Self::new()
    }
}

impl RequestReader {
    /// Creates a reader with an empty buffer.
    pub fn new() -> Self {
        Self {
            buffered: Vec::new(),
        }
    }

    /// Reads the next request within `limits`; answers `100 Continue` itself when the client
    /// expects it.
    pub async fn read(
        &mut self,
        socket: &mut Socket,
        limits: &Limits,
    ) -> Result<Request, ReadError> {
        if self.buffered.is_empty() {
            // Between requests: the idle limit, and a client that goes or stays away is no error.
            let first = read_more(socket, &mut self.buffered);
            match tokio::time::timeout(limits.idle_limit(), first).await {
                Ok(Ok(0)) | Ok(Err(_)) | Err(_) => return Err(ReadError::Closed),
                Ok(Ok(_)) => {}
            }
        }
        let head_deadline = Instant::now() + limits.head_deadline();
        let mut scanned = 0;
        let head_len = loop {
            if let Some(end) = head_end(&self.buffered, scanned) {
                break end;
            }
            scanned = self.buffered.len();
            if self.buffered.len() > MAX_HEAD_BYTES {
                return Err(ReadError::Bad(431, "request head too large"));
            }
            let more = read_more(socket, &mut self.buffered);
            match tokio::time::timeout_at(head_deadline, more).await {
                Err(_) => return Err(ReadError::Bad(408, "request head took too long")),
                Ok(Ok(0)) => return Err(ReadError::Bad(400, "incomplete request head")),
                Ok(Err(_)) => return Err(ReadError::Closed),
                Ok(Ok(_)) => {}
            }
        };
        let head: Vec<u8> = self.buffered.drain(..head_len).collect();
        let mut request = parse_head(&head)?;

        let body_len = content_length(&request)?;
        if body_len > 0
            && request
                .header("expect")
                .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"))
        {
            socket
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .await
                .map_err(|_| ReadError::Closed)?;
        }
        let body_deadline = Instant::now() + limits.body_deadline(body_len);
        while self.buffered.len() < body_len {
            let more = read_more(socket, &mut self.buffered);
            match tokio::time::timeout_at(body_deadline, more).await {
                Err(_) => return Err(ReadError::Bad(408, "request body took too long")),
                Ok(Ok(0)) => {
                    return Err(ReadError::Bad(
                        400,
                        "request body shorter than Content-Length",
                    ))
                }
                Ok(Err(_)) => return Err(ReadError::Closed),
                Ok(Ok(_)) => {}
            }
        }
        request.body = self.buffered.drain(..body_len).collect();
        request.received_at = Instant::now();
        Ok(request)
    }
}

async fn read_more(socket: &mut Socket, buffer: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut chunk = [0u8; READ_BYTES];
    let n = socket.read(&mut chunk).await?;
    buffer.extend_from_slice(&chunk[..n]);
    Ok(n)
}

/// Returns the length of the head including its blank line, accepting bare-LF line ends; the first
/// `scanned` bytes were searched before (less the 3 a line end may straddle), so each byte is looked
/// at a bounded number of times however the head is cut into reads.
fn head_end(buffer: &[u8], scanned: usize) -> Option<usize> {
    let from = scanned.saturating_sub(3);
    let buffer_from = &buffer[from.min(buffer.len())..];
    let crlf = buffer_from
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| p + 4);
    let lf = buffer_from
        .windows(2)
        .position(|w| w == b"\n\n")
        .map(|p| p + 2);
    let end = match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    end.map(|end| from + end)
}

fn parse_head(head: &[u8]) -> Result<Request, ReadError> {
    let text =
        std::str::from_utf8(head).map_err(|_| ReadError::Bad(400, "request head is not UTF-8"))?;
    let mut lines = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line));
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split(' ').filter(|p| !p.is_empty());
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(ReadError::Bad(400, "malformed request line"));
    };
    if !method.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ReadError::Bad(400, "malformed method"));
    }
    let version = match version {
        "HTTP/1.1" => Version::Http11,
        "HTTP/1.0" => Version::Http10,
        _ => return Err(ReadError::Bad(400, "unsupported HTTP version")),
    };

    let mut headers = Vec::new();
    for line in lines.take_while(|line| !line.is_empty()) {
        let (name, value) = line
            .split_once(':')
            .ok_or(ReadError::Bad(400, "malformed header line"))?;
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(ReadError::Bad(400, "malformed header name"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }

    let (path, query) = split_target(target)?;
    Ok(Request {
        method: method.to_string(),
        path: path.to_string(),
        query: Query::parse(query),
        version,
        headers,
        body: Vec::new(),
        received_at: Instant::now(),
    })
}

/// Splits an origin-form (`/p?q`), absolute-form (`http://h/p?q`) or `*` target into path and query.
fn split_target(target: &str) -> Result<(&str, &str), ReadError> {
    let origin_form = if target == "*" {
        "/"
    } else if let Some(rest) = target
        .strip_prefix("http://")
        .or_else(|| target.strip_prefix("https://"))
    {
        rest.find('/').map_or("/", |slash| &rest[slash..])
    } else if target.starts_with('/') {
        target
    } else {
        return Err(ReadError::Bad(400, "malformed request target"));
    };
    let without_fragment = origin_form.split('#').next().unwrap_or_default();
    Ok(without_fragment
        .split_once('?')
        .unwrap_or((without_fragment, "")))
}

fn content_length(request: &Request) -> Result<usize, ReadError> {
    if request.header("transfer-encoding").is_some() {
        return Err(ReadError::Bad(
            400,
            "chunked request bodies are not supported; send Content-Length",
        ));
    }
    let Some(value) = request.header("content-length") else {
        return Ok(0);
    };
    let length: usize = value
        .parse()
        .map_err(|_| ReadError::Bad(400, "invalid Content-Length"))?;
    if length > MAX_BODY_BYTES {
        return Err(ReadError::Bad(413, "request body too large"));
    }
    Ok(length)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(raw: &str) -> Result<Request, ReadError> {
        parse_head(raw.as_bytes())
    }

    #[test]
    fn parses_origin_and_absolute_form() {
        let request =
            parse("GET /v1/chat/completions?tokens=3 HTTP/1.1\r\nHost: x\r\nX-A: b\r\n\r\n")
                .unwrap();
        assert_eq!(request.path, "/v1/chat/completions");
        assert_eq!(request.query.get("tokens"), Some("3"));
        assert_eq!(request.header("x-a"), Some("b"));
        let request = parse("GET http://lab:1/stream?mode=raw HTTP/1.0\n\n").unwrap();
        assert_eq!(
            (request.path.as_str(), request.version),
            ("/stream", Version::Http10)
        );
        assert!(request.wants_close());
    }

    #[test]
    fn head_end_is_found_however_the_head_was_scanned_before() {
        for raw in [&b"GET / HTTP/1.1\r\nA: b\r\n\r\nbody"[..], b"GET / HTTP/1.0\n\nrest"] {
            let whole = head_end(raw, 0).expect("a head end");
            for scanned in 0..whole {
                assert_eq!(head_end(raw, scanned), Some(whole), "scanned {scanned}");
            }
        }
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n", 5), None);
        assert_eq!(head_end(b"", 9), None);
    }

    #[test]
    fn rejects_garbage_without_panicking() {
        for raw in [
            "\r\n\r\n",
            "GET\r\n\r\n",
            "GET / HTTP/2\r\n\r\n",
            "GET / HTTP/1.1\r\nbad\r\n\r\n",
            "G:T / HTTP/1.1\r\n\r\n",
            "GET x HTTP/1.1\r\n\r\n",
        ] {
            assert!(matches!(parse(raw), Err(ReadError::Bad(400, _))), "{raw:?}");
        }
    }
}
