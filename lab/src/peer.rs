//! A raw-socket peer: the same HTTP request the page sends, over a plain blocking `TcpStream` with
//! `TCP_NODELAY`, timing every `recv()` with `Instant` from just before `connect`.
//!
//! It is the yardstick the page is compared with (`streamscope-peer`, `scripts/bench-fidelity.sh`):
//! nothing between the socket and the clock but one `read()` call, so what it sees is what the network
//! delivered. It de-chunks the body, splits SSE events on blank lines, and reads from each `data:` JSON
//! only `choices[0].delta.content` (a content event when non-empty) and the lab's `server_ms`.
//!
//! Cost: each byte is scanned once for chunk framing and once for event boundaries; every read and
//! every event is kept (a 100,000-event stream is a few MB).

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

/// What the peer saw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PeerReport {
    /// HTTP status (0 when no head arrived).
    pub status: u16,
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
    let mut report = PeerReport::default();
    if let Err(err) = run_into(request, &mut report) {
        report.error = Some(err);
    }
    report
}

fn run_into(request: &PeerRequest, report: &mut PeerReport) -> Result<(), String> {
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
    report.connect_ms = Some(ms(Instant::now()));
    socket.set_nodelay(true).map_err(|e| format!("TCP_NODELAY: {e}"))?;
    socket
        .set_read_timeout(Some(request.read_timeout))
        .map_err(|e| format!("read time-out: {e}"))?;
    socket.write_all(&wire).map_err(|e| format!("send: {e}"))?;
    report.sent_ms = Some(ms(Instant::now()));

    let mut buffer = vec![0u8; 256 * 1024];
    let mut head = Vec::new();
    let mut body: Option<BodyDecoder> = None;
    let mut events = EventSplitter::default();
    let mut payload = Vec::new();
    loop {
        let n = match socket.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                report.total_ms = Some(ms(Instant::now()));
                return Err(format!("recv: {e}"));
            }
        };
        let at_ms = ms(Instant::now());
        let mut read = PeerRead { at_ms, len_bytes: n, events: 0, content_events: 0 };
        let mut bytes = &buffer[..n];
        if body.is_none() {
            head.extend_from_slice(bytes);
            let Some(end) = find(&head, b"\r\n\r\n").map(|i| i + 4) else {
                report.reads.push(read);
                continue;
            };
            report.headers_ms = Some(at_ms);
            let (status, decoder) = parse_head(&head[..end])?;
            report.status = status;
            body = Some(decoder);
            let already = head.len() - end;
            bytes = &buffer[n - already..n];
        }
        let decoder = body.as_mut().expect("head parsed");
        payload.clear();
        decoder.feed(bytes, &mut payload);
        if !payload.is_empty() && report.ttfb_ms.is_none() {
            report.ttfb_ms = Some(at_ms);
        }
        report.body_bytes += payload.len();
        events.feed(&payload, |event| {
            read.events += 1;
            read.content_events += usize::from(event.content);
            if event.content && report.ttft_ms.is_none() {
                report.ttft_ms = Some(at_ms);
            }
            report.events.push(PeerEvent { arrival_ms: at_ms, ..event });
        });
        report.reads.push(read);
        if decoder.done() {
            break;
        }
    }
    report.total_ms = Some(ms(Instant::now()));
    report.trailing_bytes = events.pending();
    if body.is_none() {
        return Err("the connection closed before the response head".into());
    }
    Ok(())
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

fn parse_head(head: &[u8]) -> Result<(u16, BodyDecoder), String> {
    let text = String::from_utf8_lossy(head);
    let mut lines = text.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or("malformed status line")?;
    let mut decoder = BodyDecoder::UntilClose;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        if name.eq_ignore_ascii_case("transfer-encoding") && value.eq_ignore_ascii_case("chunked") {
            decoder = BodyDecoder::Chunked(ChunkState::Size(Vec::new()));
        } else if name.eq_ignore_ascii_case("content-length")
            && !matches!(decoder, BodyDecoder::Chunked(_))
        {
            decoder = BodyDecoder::Length(value.parse().map_err(|_| "bad Content-Length")?);
        }
    }
    Ok((status, decoder))
}

/// Removes the body's framing, read by read.
#[derive(Debug)]
enum BodyDecoder {
    Chunked(ChunkState),
    Length(usize),
    UntilClose,
}

#[derive(Debug)]
enum ChunkState {
    /// Reading a chunk-size line.
    Size(Vec<u8>),
    /// This many data bytes left in the chunk.
    Data(usize),
    /// This many bytes of the CRLF after the data left.
    DataEnd(u8),
    /// The last chunk was seen.
    Done,
}

impl BodyDecoder {
    fn feed(&mut self, mut input: &[u8], out: &mut Vec<u8>) {
        match self {
            BodyDecoder::UntilClose => out.extend_from_slice(input),
            BodyDecoder::Length(left) => {
                let take = input.len().min(*left);
                out.extend_from_slice(&input[..take]);
                *left -= take;
            }
            BodyDecoder::Chunked(state) => {
                while !input.is_empty() {
                    match state {
                        ChunkState::Size(line) => match input.iter().position(|&b| b == b'\n') {
                            Some(i) => {
                                line.extend_from_slice(&input[..i]);
                                input = &input[i + 1..];
                                let text = String::from_utf8_lossy(line);
                                let hex = text.trim().split(';').next().unwrap_or("").trim();
                                let size = usize::from_str_radix(hex, 16).unwrap_or(0);
                                *state = if size == 0 { ChunkState::Done } else { ChunkState::Data(size) };
                            }
                            None => {
                                line.extend_from_slice(input);
                                input = &[];
                            }
                        },
                        ChunkState::Data(left) => {
                            let take = input.len().min(*left);
                            out.extend_from_slice(&input[..take]);
                            input = &input[take..];
                            *left -= take;
                            if *left == 0 {
                                *state = ChunkState::DataEnd(2);
                            }
                        }
                        ChunkState::DataEnd(left) => {
                            input = &input[1..];
                            *left -= 1;
                            if *left == 0 {
                                *state = ChunkState::Size(Vec::new());
                            }
                        }
                        ChunkState::Done => input = &[],
                    }
                }
            }
        }
    }

    fn done(&self) -> bool {
        matches!(self, BodyDecoder::Chunked(ChunkState::Done) | BodyDecoder::Length(0))
    }
}

/// Splits SSE events on blank lines (`\n\n` or `\r\n\r\n`), scanning each byte once.
#[derive(Debug, Default)]
struct EventSplitter {
    buffer: Vec<u8>,
    scanned: usize,
}

impl EventSplitter {
    fn feed(&mut self, bytes: &[u8], mut emit: impl FnMut(PeerEvent)) {
        self.buffer.extend_from_slice(bytes);
        let mut start = 0;
        let mut i = self.scanned;
        while let Some(offset) = self.buffer[i..].iter().position(|&b| b == b'\n') {
            let nl = i + offset;
            let end = match &self.buffer[nl + 1..] {
                [b'\n', ..] => nl + 2,
                [b'\r', b'\n', ..] => nl + 3,
                // Too few bytes yet to tell whether a blank line follows: look again next time.
                [] | [b'\r'] => {
                    i = nl;
                    break;
                }
                _ => {
                    i = nl + 1;
                    continue;
                }
            };
            emit(parse_event(&self.buffer[start..nl]));
            start = end;
            i = end;
        }
        if !self.buffer[i..].contains(&b'\n') {
            i = self.buffer.len();
        }
        self.buffer.drain(..start);
        self.scanned = i - start;
    }

    fn pending(&self) -> usize {
        self.buffer.len()
    }
}

fn parse_event(event: &[u8]) -> PeerEvent {
    let text = String::from_utf8_lossy(event);
    let mut data = String::new();
    let mut comment = true;
    for line in text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)) {
        if line.starts_with(':') {
            continue;
        }
        comment = false;
        if let Some(value) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(value.strip_prefix(' ').unwrap_or(value));
        }
    }
    let json: Value = serde_json::from_str(&data).unwrap_or(Value::Null);
    let content = json
        .pointer("/choices/0/delta/content")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty());
    PeerEvent {
        arrival_ms: 0.0,
        server_ms: json.get("server_ms").and_then(Value::as_f64),
        content,
        comment,
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(pieces: &[&[u8]]) -> (Vec<PeerEvent>, usize) {
        let mut splitter = EventSplitter::default();
        let mut out = Vec::new();
        for piece in pieces {
            splitter.feed(piece, |e| out.push(e));
        }
        (out, splitter.pending())
    }

    #[test]
    fn events_split_on_blank_lines_across_reads_lf_and_crlf() {
        let whole: &[u8] = b": keep-alive\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"server_ms\":1.5}\r\n\r\ndata: [DONE]\n\npartial";
        for cut in 0..whole.len() {
            let (events, pending) = split(&[&whole[..cut], &whole[cut..]]);
            assert_eq!(events.len(), 3, "cut at {cut}");
            assert!(events[0].comment && !events[0].content);
            assert!(events[1].content && events[1].server_ms == Some(1.5));
            assert!(!events[2].content && !events[2].comment);
            assert_eq!(pending, b"partial".len());
        }
    }

    #[test]
    fn chunked_bodies_decode_at_every_cut() {
        let wire: &[u8] = b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n";
        for cut in 0..wire.len() {
            let mut decoder = BodyDecoder::Chunked(ChunkState::Size(Vec::new()));
            let mut out = Vec::new();
            decoder.feed(&wire[..cut], &mut out);
            decoder.feed(&wire[cut..], &mut out);
            assert_eq!(out, b"hello world", "cut at {cut}");
            assert!(decoder.done());
        }
    }

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
