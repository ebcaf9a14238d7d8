//! Raw facts of one run, as the net layer recorded them: nothing here is derived.

use serde::{Deserialize, Serialize};

/// One `reader.read()` that resolved with data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadChunk {
    /// When the read resolved, ms since `fetch()` was called.
    pub at_ms: f64,
    /// The bytes the read delivered (after any content decoding the browser did).
    #[serde(with = "bytes_as_base64ish")]
    pub bytes: Vec<u8>,
}

/// Which time-out ended a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutKind {
    /// No response headers within the limit.
    Headers,
    /// Headers arrived but no body byte within the limit.
    FirstByte,
    /// No data for the idle limit after the first byte.
    Idle,
    /// The whole run took longer than the total limit.
    Total,
}

/// Where the reader loop ran: the automation contract's `measured_in`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MeasuredIn {
    /// A dedicated Web Worker: the page's rendering cannot delay a timestamp.
    Worker,
    /// The page's main thread (a browser without workers, or a worker that could not start): a busy
    /// page can delay reads and merge chunks.
    MainThread,
}

/// How the run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TraceEnd {
    /// The body ended normally (`done` from the reader).
    Complete { at_ms: f64 },
    /// `fetch()` rejected or a read failed (network, CORS, reset).
    NetworkError { at_ms: f64, message: String, during_body: bool },
    /// A time-out fired and the run was aborted.
    Timeout { at_ms: f64, timeout: TimeoutKind, limit_ms: f64 },
    /// The user (or the page closing) cancelled the run.
    Cancelled { at_ms: f64 },
}

impl TraceEnd {
    /// When the run ended, ms since `fetch()`.
    pub fn at_ms(&self) -> f64 {
        match self {
            TraceEnd::Complete { at_ms }
            | TraceEnd::NetworkError { at_ms, .. }
            | TraceEnd::Timeout { at_ms, .. }
            | TraceEnd::Cancelled { at_ms } => *at_ms,
        }
    }
}

/// What was asked, without any secret (header values are never stored).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestSummary {
    /// The exact request URL.
    pub url: String,
    /// HTTP method.
    pub method: String,
    /// Request body length in bytes (the body itself may hold a prompt; it is kept by the UI, not here).
    pub body_len_bytes: usize,
    /// Names (never values) of the extra request headers.
    pub header_names: Vec<String>,
    /// Whether the API key typed in the form had leading/trailing whitespace or a line break (the key
    /// itself is never stored).
    #[serde(default)]
    pub key_has_whitespace: bool,
    /// The page's own origin scheme (`https:` / `http:`), to tell a mixed-content block.
    #[serde(default)]
    pub page_protocol: Option<String>,
}

/// Follow-up requests the page made after a failure, to tell its causes apart.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Probes {
    /// After a network error: did a `mode: "no-cors"` request to the same URL reach a server? `Some(true)`
    /// means the server answers but refuses CORS; `Some(false)` means nothing answered.
    pub no_cors_reached: Option<bool>,
    /// `GET …/models` probes (for a 404 or an unknown model): each URL tried and what it answered.
    pub models: Vec<ModelsProbe>,
}

/// One `GET …/models` probe.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelsProbe {
    /// The URL probed.
    pub url: String,
    /// HTTP status, `None` when the request failed.
    pub status: Option<u16>,
    /// Model ids listed in an OpenAI-style `{"data": [{"id": …}]}` answer.
    pub ids: Vec<String>,
}

/// Resource Timing figures for the request, when the server allowed them (`Timing-Allow-Origin`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConnectionTiming {
    /// `nextHopProtocol`, e.g. `http/1.1`, `h2`.
    pub next_hop_protocol: Option<String>,
    /// DNS lookup time.
    pub dns_ms: Option<f64>,
    /// TCP connect time (includes TLS when secure).
    pub connect_ms: Option<f64>,
    /// TLS handshake time, when secure.
    pub tls_ms: Option<f64>,
    /// Bytes on the wire (after content encoding), 0 when not allowed.
    pub encoded_body_bytes: Option<u64>,
    /// Bytes after decoding.
    pub decoded_body_bytes: Option<u64>,
}

/// Everything the browser saw during one run, with times in ms since `fetch()` was called (`t0`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// What was requested.
    pub request: RequestSummary,
    /// When `fetch()` resolved (response headers arrived), if it did.
    pub headers_ms: Option<f64>,
    /// HTTP status, if headers arrived.
    pub status: Option<u16>,
    /// Response headers the page could read, names lower-cased, in arrival order.
    pub headers: Vec<(String, String)>,
    /// Every read that delivered data, in order.
    pub reads: Vec<ReadChunk>,
    /// How the run ended; `None` while it is still running.
    pub end: Option<TraceEnd>,
    /// Resource Timing, when available.
    pub connection: Option<ConnectionTiming>,
    /// Follow-up requests made after a failure (no-cors reachability, models lists), when any.
    #[serde(default)]
    pub probes: Probes,
    /// Wall-clock time (unix ms, `Date.now()`) when the run started: only to compare with the server's own
    /// timestamps (a cache replay), never for timing.
    #[serde(default)]
    pub started_unix_ms: Option<f64>,
    /// Where the reader loop ran, when the net layer says.
    #[serde(default)]
    pub measured_in: Option<MeasuredIn>,
}

impl Trace {
    /// The value of a response header (name matched case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// A finished trace from `(at_ms, bytes)` reads, with one status and Content-Type: how tests, fixtures
    /// and hand-built examples describe a run.
    pub fn from_reads<B: Into<Vec<u8>>>(
        status: u16,
        content_type: &str,
        headers_ms: f64,
        reads: impl IntoIterator<Item = (f64, B)>,
        end: TraceEnd,
    ) -> Trace {
        Trace {
            headers_ms: Some(headers_ms),
            status: Some(status),
            headers: vec![("content-type".into(), content_type.into())],
            reads: reads.into_iter().map(|(at_ms, b)| ReadChunk { at_ms, bytes: b.into() }).collect(),
            end: Some(end),
            ..Trace::default()
        }
    }

    /// Total body bytes received.
    pub fn body_bytes(&self) -> usize {
        self.reads.iter().map(|r| r.bytes.len()).sum()
    }
}

/// Reads serialise their bytes as a lossless string: printable ASCII as is, everything else `\xNN`
/// escaped (with `\\` for a backslash), so an exported trace stays readable and exact.
mod bytes_as_base64ish {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        let mut out = String::with_capacity(bytes.len());
        for &b in bytes {
            match b {
                b'\\' => out.push_str("\\\\"),
                b'\n' => out.push_str("\\n"),
                0x20..=0x7e => out.push(b as char),
                _ => out.push_str(&format!("\\x{b:02x}")),
            }
        }
        s.serialize_str(&out)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = String::deserialize(d)?;
        let src = s.as_bytes();
        let mut out = Vec::with_capacity(src.len());
        let mut i = 0;
        while i < src.len() {
            if src[i] == b'\\' && i + 1 < src.len() {
                match src[i + 1] {
                    b'\\' => { out.push(b'\\'); i += 2; }
                    b'n' => { out.push(b'\n'); i += 2; }
                    b'x' if i + 3 < src.len() => {
                        let hex = std::str::from_utf8(&src[i + 2..i + 4]).map_err(serde::de::Error::custom)?;
                        out.push(u8::from_str_radix(hex, 16).map_err(serde::de::Error::custom)?);
                        i += 4;
                    }
                    _ => return Err(serde::de::Error::custom("bad escape in read bytes")),
                }
            } else {
                out.push(src[i]);
                i += 1;
            }
        }
        Ok(out)
    }
}
