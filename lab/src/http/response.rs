//! Response heads (with the CORS headers and `X-Content-Type-Options: nosniff`, which every response
//! carries) and complete fixed-length responses.

use crate::http::security::NOSNIFF;
use crate::http::socket::Socket;

/// Returns the reason phrase for `status`.
pub fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

tokio::task_local! {
    /// Whether the responses written in this task carry the CORS headers (`cors=0` turns them off).
    pub static CORS: bool;
    /// Whether they carry `Timing-Allow-Origin: *` (`tao=0` leaves it out: a cross-origin page then gets
    /// no connection timing).
    pub static TAO: bool;
}

/// Builds a response head: status line, the CORS headers (unless [`CORS`] is off for this task),
/// `X-Content-Type-Options: nosniff`, then `headers`, then the blank line.
pub fn head(status: u16, headers: &[(&str, String)]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    if CORS.try_with(|on| *on).unwrap_or(true) {
        out.push_str("Access-Control-Allow-Origin: *\r\n");
        out.push_str("Access-Control-Expose-Headers: *\r\n");
        if TAO.try_with(|on| *on).unwrap_or(true) {
            out.push_str("Timing-Allow-Origin: *\r\n");
        }
    }
    out.push_str(NOSNIFF.0);
    out.push_str(": ");
    out.push_str(NOSNIFF.1);
    out.push_str("\r\n");
    for (name, value) in headers {
        out.push_str(name);
        out.push_str(": ");
        out.push_str(value);
        out.push_str("\r\n");
    }
    out.push_str("\r\n");
    out.into_bytes()
}

/// A complete response whose body length is known up front.
#[derive(Debug, Clone)]
pub struct Fixed {
    /// HTTP status.
    pub status: u16,
    /// Headers besides the CORS ones, `Content-Length` and `Connection`.
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Fixed {
    /// Creates a response with a `Content-Type` and a body.
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Self {
            status,
            headers: vec![("Content-Type", content_type.to_string())],
            body: body.into(),
        }
    }

    /// Creates a plain-text response.
    pub fn text(status: u16, body: &str) -> Self {
        Self::new(status, "text/plain; charset=utf-8", format!("{body}\n"))
    }

    /// Creates a JSON response.
    pub fn json(status: u16, value: &serde_json::Value) -> Self {
        Self::new(status, "application/json", value.to_string())
    }

    /// Adds a header.
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// Writes head and body in one `write_all`; with `head_only` (a HEAD request) the body is left out.
    pub async fn write(
        &self,
        socket: &mut Socket,
        keep_alive: bool,
        head_only: bool,
    ) -> std::io::Result<()> {
        socket.write_all(&self.to_bytes(keep_alive, head_only)).await
    }

    /// The response as it goes on the wire (head, then the body unless `head_only`).
    pub fn to_bytes(&self, keep_alive: bool, head_only: bool) -> Vec<u8> {
        let mut headers = self.headers.clone();
        if self.status != 204 {
            headers.push(("Content-Length", self.body.len().to_string()));
        }
        headers.push((
            "Connection",
            if keep_alive { "keep-alive" } else { "close" }.to_string(),
        ));
        let mut out = head(self.status, &headers);
        if !head_only && self.status != 204 {
            out.extend_from_slice(&self.body);
        }
        out
    }
}

/// Builds an OpenAI-style error body `{"error":{"message","type","code"}}` for `status`.
pub fn openai_error(status: u16, message: &str) -> serde_json::Value {
    let (kind, code) = match status {
        400 => ("invalid_request_error", "bad_request"),
        401 => ("invalid_request_error", "invalid_api_key"),
        403 => ("permission_error", "forbidden"),
        404 => ("invalid_request_error", "not_found"),
        408 | 504 => ("timeout_error", "timeout"),
        413 => ("invalid_request_error", "request_too_large"),
        422 => ("invalid_request_error", "unprocessable"),
        429 => ("rate_limit_error", "rate_limit_exceeded"),
        503 => ("server_error", "overloaded"),
        _ if status >= 500 => ("server_error", "server_error"),
        _ => ("invalid_request_error", "error"),
    };
    serde_json::json!({ "error": { "message": message, "type": kind, "param": null, "code": code } })
}
