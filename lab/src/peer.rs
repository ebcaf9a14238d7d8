//! A raw-socket peer: the same HTTP request the page sends, over a plain blocking `TcpStream` with
//! `TCP_NODELAY`, timing every `recv()` with `Instant` from just before `connect`.
//!
//! It is the yardstick the page is compared with (`streamscope-peer`, `scripts/bench-fidelity.sh`):
//! nothing between the socket and the clock but one `read()` call, so what it sees is what the network
//! delivered. [`Receiver`] de-chunks the body ([`body`]), splits SSE events on blank lines and reads from
//! each `data:` JSON only `choices[0].delta.content` (a content event when non-empty) and the lab's
//! `server_ms` ([`events`]). [`curl`] is a second peer: `curl --trace-time --trace` on the same URL, its
//! `<= Recv` records fed to the same [`Receiver`].
//!
//! Cost: each byte is scanned once for chunk framing and once for event boundaries; every read and
//! every event is kept (a 100,000-event stream is a few MB; with [`PeerRequest::keep_body`] the body
//! bytes too).

mod body;
pub mod curl;
mod events;
mod receiver;

pub use receiver::Receiver;

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// What to send.
#[derive(Debug, Clone)]
pub struct PeerRequest {
    /// `http://host[:port]/path?query` (no TLS).
    pub url: String,
    /// `GET` or `POST` (anything else is sent as given).
    pub method: String,
    /// Request headers besides `Host`, `Connection` and `Content-Length`.
    pub headers: Vec<(String, String)>,
    /// Request body; `Content-Type: application/json` is added when no header names a type.
    pub body: Option<Vec<u8>>,
    /// Longest wait for any one `recv()`.
    pub read_timeout: Duration,
    /// Keep every read's body bytes ([`PeerReport::body_reads`]), to analyse them later.
    pub keep_body: bool,
}

impl PeerRequest {
    /// A `GET` of `url` with a 120 s read time-out.
    pub fn get(url: &str) -> Self {
        Self {
            url: url.to_string(),
            method: "GET".into(),
            headers: Vec::new(),
            body: None,
            read_timeout: Duration::from_secs(120),
            keep_body: false,
        }
    }
}

/// One `recv()` that returned data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PeerRead {
    /// When it returned, ms after `connect` was called.
    pub at_ms: f64,
    /// Bytes it returned (head and chunk framing included).
    pub len_bytes: usize,
    /// SSE events (comments included) it completed.
    pub events: usize,
    /// Content events it completed.
    pub content_events: usize,
}

/// One SSE event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PeerEvent {
    /// When the read completing it returned, ms after `connect` was called.
    pub arrival_ms: f64,
    /// The lab's send time (`server_ms`, ms after it received the request), when the event had one.
    pub server_ms: Option<f64>,
    /// Its `choices[0].delta.content` was a non-empty string.
    pub content: bool,
    /// A comment only (`: keep-alive`).
    pub comment: bool,
}

/// The body bytes (framing removed) one read delivered, when the request asked to keep them.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyRead {
    /// When the read returned, ms after the peer's start.
    pub at_ms: f64,
    /// Its body bytes (at least one).
    pub bytes: Vec<u8>,
}

/// What the peer saw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PeerReport {
    /// HTTP status (0 when no head arrived).
    pub status: u16,
    /// Response headers, names lower-cased, in order.
    pub headers: Vec<(String, String)>,
    /// `connect()` returned.
    pub connect_ms: Option<f64>,
    /// The request's last byte was written.
    pub sent_ms: Option<f64>,
    /// The response head was complete.
    pub headers_ms: Option<f64>,
    /// The first body byte (after de-chunking) arrived.
    pub ttfb_ms: Option<f64>,
    /// The first content event was complete.
    pub ttft_ms: Option<f64>,
    /// The connection closed (or the body ended).
    pub total_ms: Option<f64>,
    /// Body bytes after de-chunking.
    pub body_bytes: usize,
    /// Every read, in order.
    pub reads: Vec<PeerRead>,
    /// Every SSE event, in order.
    pub events: Vec<PeerEvent>,
    /// Every read's body bytes, when [`PeerRequest::keep_body`] (else empty).
    pub body_reads: Vec<BodyRead>,
    /// Bytes after the last blank line when the body ended (an unterminated line).
    pub trailing_bytes: usize,
    /// What went wrong, if anything.
    pub error: Option<String>,
}

impl PeerReport {
    /// How many content events.
    pub fn content_events(&self) -> usize {
        self.events.iter().filter(|e| e.content).count()
    }

    /// Content events per read, over the reads that completed at least one.
    pub fn content_events_per_read(&self) -> Vec<usize> {
        self.reads
            .iter()
            .map(|r| r.content_events)
            .filter(|&n| n > 0)
            .collect()
    }

    /// The report as JSON; with `detail` every read and event is listed.
    pub fn to_json(&self, detail: bool) -> Value {
        let per_read = self.content_events_per_read();
        let mut out = json!({
            "status": self.status,
            "connect_ms": self.connect_ms,
            "sent_ms": self.sent_ms,
            "headers_ms": self.headers_ms,
            "ttfb_ms": self.ttfb_ms,
            "ttft_ms": self.ttft_ms,
            "total_ms": self.total_ms,
            "body_bytes": self.body_bytes,
            "reads": self.reads.len(),
            "events": self.events.len(),
            "content_events": self.content_events(),
            "comments": self.events.iter().filter(|e| e.comment).count(),
            "content_events_per_read": {
                "p50": percentile(&per_read, 0.5),
                "p99": percentile(&per_read, 0.99),
                "max": per_read.iter().max(),
            },
            "trailing_bytes": self.trailing_bytes,
            "error": self.error,
        });
        if detail {
            out["read_list"] = self
                .reads
                .iter()
                .map(|r| json!({"at_ms": round3(r.at_ms), "len_bytes": r.len_bytes, "events": r.events, "content_events": r.content_events}))
                .collect();
            out["event_list"] = self
                .events
                .iter()
                .map(|e| json!({"arrival_ms": round3(e.arrival_ms), "server_ms": e.server_ms, "content": e.content}))
                .collect();
        }
        out
    }
}

/// The value at quantile `q` (nearest rank) of `values`, `None` when empty.
pub fn percentile(values: &[usize], q: f64) -> Option<usize> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let rank = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

fn round3(ms: f64) -> f64 {
    (ms * 1e3).round() / 1e3
}

/// Sends `request` and records the response until the server closes (or the body ends).
pub fn run(request: &PeerRequest) -> PeerReport {
    run_socket(request).unwrap_or_else(|err| PeerReport { error: Some(err), ..PeerReport::default() })
}

fn run_socket(request: &PeerRequest) -> Result<PeerReport, String> {
    let target = Target::parse(&request.url)?;
    let addr = (target.host.as_str(), target.port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {}: {e}", target.host))?
        .next()
        .ok_or_else(|| format!("no address for {}", target.host))?;
    let wire = request_bytes(request, &target);

    let t0 = Instant::now();
    let ms = |t: Instant| t.duration_since(t0).as_secs_f64() * 1e3;
    let mut socket = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
    let connect_ms = ms(Instant::now());
    socket.set_nodelay(true).map_err(|e| format!("TCP_NODELAY: {e}"))?;
    socket
        .set_read_timeout(Some(request.read_timeout))
        .map_err(|e| format!("read time-out: {e}"))?;
    socket.write_all(&wire).map_err(|e| format!("send: {e}"))?;
    let sent_ms = ms(Instant::now());

    let mut buffer = vec![0u8; 256 * 1024];
    let mut receiver = Receiver::new(request.keep_body);
    let error = loop {
        let n = match socket.read(&mut buffer) {
            Ok(0) => break None,
            Ok(n) => n,
            Err(e) => break Some(format!("recv: {e}")),
        };
        match receiver.recv(ms(Instant::now()), &buffer[..n]) {
            Ok(false) => {}
            Ok(true) => break None,
            Err(e) => break Some(e),
        }
    };
    let mut report = receiver.finish(ms(Instant::now()), error);
    report.connect_ms = Some(connect_ms);
    report.sent_ms = Some(sent_ms);
    Ok(report)
}

/// Host, port and origin-form target of an `http://` URL.
struct Target {
    host: String,
    port: u16,
    path: String,
}

impl Target {
    fn parse(url: &str) -> Result<Self, String> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("only http:// URLs, not {url:?}"))?;
        let (authority, path) = match rest.find(['/', '?']) {
            Some(i) if rest.as_bytes()[i] == b'/' => (&rest[..i], rest[i..].to_string()),
            Some(i) => (&rest[..i], format!("/{}", &rest[i..])),
            None => (rest, "/".to_string()),
        };
        let (host, port) = match authority.rsplit_once(':') {
            Some((host, port)) if !host.ends_with(']') || host.starts_with('[') => (
                host.trim_matches(['[', ']']).to_string(),
                port.parse().map_err(|_| format!("bad port in {url:?}"))?,
            ),
            _ => (authority.trim_matches(['[', ']']).to_string(), 80),
        };
        Ok(Self { host, port, path })
    }
}

fn request_bytes(request: &PeerRequest, target: &Target) -> Vec<u8> {
    let mut out = format!(
        "{} {} HTTP/1.1\r\nHost: {}:{}\r\nConnection: close\r\n",
        request.method, target.path, target.host, target.port
    );
    let has = |name: &str| request.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
    if !has("accept") {
        out.push_str("Accept: */*\r\n");
    }
    for (name, value) in &request.headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = &request.body {
        if !has("content-type") {
            out.push_str("Content-Type: application/json\r\n");
        }
        out.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    out.push_str("\r\n");
    let mut bytes = out.into_bytes();
    if let Some(body) = &request.body {
        bytes.extend_from_slice(body);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_percentiles() {
        let t = Target::parse("http://127.0.0.1:8787/v1/chat/completions?tokens=3").unwrap();
        assert_eq!((t.host.as_str(), t.port, t.path.as_str()), ("127.0.0.1", 8787, "/v1/chat/completions?tokens=3"));
        let t = Target::parse("http://lab?x=1").unwrap();
        assert_eq!((t.port, t.path.as_str()), (80, "/?x=1"));
        assert!(Target::parse("https://x/").is_err());
        assert_eq!(percentile(&[1, 1, 1, 9], 0.5), Some(1));
        assert_eq!(percentile(&[1, 1, 1, 9], 0.99), Some(9));
        assert_eq!(percentile(&[], 0.5), None);
    }
}
