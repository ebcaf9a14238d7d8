//! A raw-socket HTTP client for the lab tests: exact bytes, and the time of every read.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use streamscope_lab::relay::{relay, RelayPolicy};
use streamscope_lab::{serve, Lab, LabConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;

/// Longest a test waits for any single read.
pub const READ_LIMIT: Duration = Duration::from_secs(15);

/// Starts a lab on 127.0.0.1:0 and returns its address.
pub async fn start_lab(static_dir: Option<PathBuf>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(serve(
        listener,
        LabConfig {
            static_dir,
            ..LabConfig::default()
        },
    ));
    addr
}

/// Starts a lab with `config` on 127.0.0.1:0; returns its address and a handle to look inside it.
pub async fn start_lab_with(config: LabConfig) -> (SocketAddr, Lab) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("local addr");
    let lab = Lab::new(config);
    tokio::spawn(lab.clone().serve(listener));
    (addr, lab)
}

/// Waits until `condition` holds, checking every 10 ms; false if it did not within `limit`.
pub async fn wait_until(limit: Duration, condition: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while !condition() {
        if start.elapsed() > limit {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

/// One `read()` on the socket: when it returned (ms after the request was written) and what it held.
#[derive(Debug, Clone)]
pub struct Read {
    pub at_ms: f64,
    pub bytes: Vec<u8>,
}

/// A response as it came off the socket.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// When the head was complete, ms after the request was written.
    pub head_at_ms: f64,
    /// Raw body bytes after the head, split the way the socket delivered them.
    pub reads: Vec<Read>,
}

impl Response {
    /// First header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// All raw body bytes.
    pub fn raw_body(&self) -> Vec<u8> {
        self.reads
            .iter()
            .flat_map(|r| r.bytes.iter().copied())
            .collect()
    }

    /// The body with chunked framing removed when the response was chunked.
    pub fn body(&self) -> Vec<u8> {
        if self.is_chunked() {
            self.chunks().into_iter().flat_map(|c| c.payload).collect()
        } else {
            self.raw_body()
        }
    }

    /// Says whether the body uses `Transfer-Encoding: chunked`.
    pub fn is_chunked(&self) -> bool {
        self.header("transfer-encoding")
            .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    }

    /// The HTTP chunks with the time the read completing each one returned; panics on bad framing.
    pub fn chunks(&self) -> Vec<Chunk> {
        let raw = self.raw_body();
        let mut read_ends = Vec::new();
        let mut offset = 0;
        for read in &self.reads {
            offset += read.bytes.len();
            read_ends.push((offset, read.at_ms));
        }
        let mut chunks = Vec::new();
        let mut pos = 0;
        loop {
            let line_end = find(&raw[pos..], b"\r\n")
                .map(|i| pos + i)
                .expect("chunk size line");
            let size_hex = std::str::from_utf8(&raw[pos..line_end]).expect("size line is ASCII");
            let size = usize::from_str_radix(size_hex, 16).expect("hex chunk size");
            let data_start = line_end + 2;
            let end = data_start + size + 2;
            assert!(end <= raw.len(), "truncated chunk at byte {pos}");
            assert_eq!(
                &raw[end - 2..end],
                b"\r\n",
                "chunk data not followed by CRLF"
            );
            if size == 0 {
                assert_eq!(end, raw.len(), "bytes after the last chunk");
                return chunks;
            }
            let read_index = read_ends
                .iter()
                .position(|&(read_end, _)| read_end >= end)
                .expect("chunk in a read");
            let starts_read = pos == 0 || read_ends.iter().any(|&(read_end, _)| read_end == pos);
            chunks.push(Chunk {
                payload: raw[data_start..data_start + size].to_vec(),
                at_ms: read_ends[read_index].1,
                alone_in_read: starts_read && read_ends[read_index].0 == end,
            });
            pos = end;
        }
    }
}

/// One HTTP chunk of a chunked body.
#[derive(Debug, Clone)]
pub struct Chunk {
    pub payload: Vec<u8>,
    /// When the read holding its last byte returned.
    pub at_ms: f64,
    /// True when one read delivered exactly this chunk and nothing else.
    pub alone_in_read: bool,
}

/// Opens a connection with `TCP_NODELAY`.
pub async fn connect(addr: SocketAddr) -> TcpStream {
    let socket = TcpStream::connect(addr).await.expect("connect to lab");
    socket.set_nodelay(true).expect("nodelay");
    socket
}

/// Sends `request` on a new connection and reads the response until the server closes.
pub async fn exchange(addr: SocketAddr, request: &[u8]) -> Response {
    let mut socket = connect(addr).await;
    let start = Instant::now();
    socket.write_all(request).await.expect("write request");
    read_response(&mut socket, start, true).await
}

/// `GET path` with HTTP/1.1 and `Connection: close`.
pub async fn get(addr: SocketAddr, path: &str) -> Response {
    exchange(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
}

/// `POST path` with a JSON body.
pub async fn post_json(addr: SocketAddr, path: &str, body: &str) -> Response {
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: lab\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    exchange(addr, request.as_bytes()).await
}

/// Reads one response; with `to_eof` the body runs until the server closes, otherwise it is
/// `Content-Length` bytes long.
pub async fn read_response(socket: &mut TcpStream, start: Instant, to_eof: bool) -> Response {
    let head = read_head(socket, start).await;
    read_body(socket, head, start, to_eof).await
}

/// Reads a response's head (ms after `start`); body bytes that came along are its first read.
pub async fn read_head(socket: &mut TcpStream, start: Instant) -> Response {
    let mut buffer = Vec::new();
    let head_end = loop {
        if let Some(i) = find(&buffer, b"\r\n\r\n") {
            break i + 4;
        }
        let n = read_some(socket, &mut buffer).await;
        assert!(
            n > 0,
            "connection closed before the response head: {:?}",
            String::from_utf8_lossy(&buffer)
        );
    };
    let head_at_ms = start.elapsed().as_secs_f64() * 1e3;
    let head = String::from_utf8(buffer[..head_end].to_vec()).expect("head is UTF-8");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().expect("status line");
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status code");
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.to_string(), v.trim().to_string()))
        .collect();
    let mut reads = Vec::new();
    if buffer.len() > head_end {
        reads.push(Read {
            at_ms: head_at_ms,
            bytes: buffer[head_end..].to_vec(),
        });
    }
    Response {
        status,
        headers,
        head_at_ms,
        reads,
    }
}

/// Reads the rest of `response`'s body, each read stamped in ms after `start`: until the server closes
/// with `to_eof`, otherwise until it is `Content-Length` bytes long.
pub async fn read_body(socket: &mut TcpStream, mut response: Response, start: Instant, to_eof: bool) -> Response {
    let content_length = response
        .header("content-length")
        .map(|v| v.parse::<usize>().expect("numeric Content-Length"));
    loop {
        let received: usize = response.reads.iter().map(|r| r.bytes.len()).sum();
        if !to_eof && received >= content_length.unwrap_or(0) {
            break;
        }
        let mut bytes = Vec::new();
        if read_some(socket, &mut bytes).await == 0 {
            break;
        }
        response.reads.push(Read {
            at_ms: start.elapsed().as_secs_f64() * 1e3,
            bytes,
        });
    }
    response
}

async fn read_some(socket: &mut TcpStream, buffer: &mut Vec<u8>) -> usize {
    let mut chunk = vec![0u8; 256 * 1024];
    let n = tokio::time::timeout(READ_LIMIT, socket.read(&mut chunk))
        .await
        .expect("the lab went silent")
        .unwrap_or(0);
    buffer.extend_from_slice(&chunk[..n]);
    n
}

/// Position of `needle` in `haystack`.
pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Splits an SSE body into its events (the text before each blank line).
pub fn sse_events(body: &[u8]) -> Vec<Vec<u8>> {
    let mut events = Vec::new();
    let mut rest = body;
    while let Some(i) = find(rest, b"\n\n") {
        events.push(rest[..i].to_vec());
        rest = &rest[i + 2..];
    }
    assert!(rest.is_empty(), "body does not end with a complete event");
    events
}

/// The JSON of an event `data: {…}`, or `None` for anything else (`[DONE]`, broken JSON).
pub fn event_json(event: &[u8]) -> Option<serde_json::Value> {
    serde_json::from_slice(event.strip_prefix(b"data: ")?).ok()
}

/// `delta.content` of a chunk, if non-empty.
pub fn content_of(chunk: &serde_json::Value) -> Option<&str> {
    chunk["choices"][0]["delta"]["content"]
        .as_str()
        .filter(|s| !s.is_empty())
}

/// Median of `values` (sorted copy).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

/// Gaps between consecutive values.
pub fn gaps(times: &[f64]) -> Vec<f64> {
    times.windows(2).map(|w| w[1] - w[0]).collect()
}

/// Every read of one exchange, head included, and how the connection ended.
#[derive(Debug)]
pub struct RawExchange {
    /// Each `read()` that returned bytes, timed from just after the request was written.
    pub reads: Vec<Read>,
    /// `Ok(())` at EOF, or the kind of the error that ended reading (`ConnectionReset` for a RST).
    pub end: Result<(), std::io::ErrorKind>,
}

impl RawExchange {
    /// All bytes received, head and body.
    pub fn bytes(&self) -> Vec<u8> {
        self.reads.iter().flat_map(|r| r.bytes.iter().copied()).collect()
    }

    /// The time of each read.
    pub fn times_ms(&self) -> Vec<f64> {
        self.reads.iter().map(|r| r.at_ms).collect()
    }
}

/// Writes `request` on a new connection and records every read until EOF or an error; errors are
/// kept, not raised, so a test can check that a connection was reset.
pub async fn raw_exchange(addr: SocketAddr, request: &[u8]) -> RawExchange {
    let mut socket = connect(addr).await;
    socket.write_all(request).await.expect("write request");
    let start = Instant::now();
    read_to_end_timed(&mut socket, start).await
}

/// Records every read of `socket` until EOF or an error, timed from `start`.
pub async fn read_to_end_timed(socket: &mut TcpStream, start: Instant) -> RawExchange {
    let mut reads = Vec::new();
    let mut chunk = vec![0u8; 256 * 1024];
    let end = loop {
        match tokio::time::timeout(READ_LIMIT, socket.read(&mut chunk)).await {
            Err(_) => panic!("the server went silent"),
            Ok(Ok(0)) => break Ok(()),
            Ok(Ok(n)) => reads.push(Read {
                at_ms: start.elapsed().as_secs_f64() * 1e3,
                bytes: chunk[..n].to_vec(),
            }),
            Ok(Err(err)) => break Err(err.kind()),
        }
    };
    RawExchange { reads, end }
}

/// Starts a byte relay on 127.0.0.1:0 in front of `upstream` and returns its address.
pub async fn start_relay(upstream: SocketAddr, policy: RelayPolicy) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(relay(listener, upstream, policy));
    addr
}

/// How many times `needle` occurs in `haystack`.
pub fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack.windows(needle.len()).filter(|w| *w == needle).count()
}
