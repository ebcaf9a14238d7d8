//! Raw facts of one run, as the net layer recorded them: nothing here is derived.

use serde::{Deserialize, Serialize};

/// How many body bytes a trace keeps in full: 16 MiB. Past it, [`Trace::push_read`] keeps each read's
/// time and length but not its bytes, so a trace (and an export) stays bounded whatever the stream's
/// length. 16 MiB holds every byte of any ordinary answer many times over (100,000 SSE events of ~150
/// bytes is ~15 MB) and is still a size a browser tab and an export file carry easily. The analysis is
/// not capped: the page analyses each read as it arrives, before the trace drops its bytes.
pub const TRACE_BYTES_CAP: usize = 16 * 1024 * 1024;

/// One `reader.read()` that resolved with data.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ReadChunk {
    /// When the read resolved, ms since `fetch()` was called.
    pub at_ms: f64,
    /// The bytes the read delivered (after any content decoding the browser did), unless the trace was
    /// over [`TRACE_BYTES_CAP`]: then empty, and the length is in `elided_bytes`.
    #[serde(with = "bytes_as_base64ish")]
    pub bytes: Vec<u8>,
    /// Bytes the read delivered that the trace did not keep (over [`TRACE_BYTES_CAP`]); 0 normally.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub elided_bytes: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl ReadChunk {
    /// A read that kept all its bytes.
    pub fn new(at_ms: f64, bytes: Vec<u8>) -> ReadChunk {
        ReadChunk { at_ms, bytes, elided_bytes: 0 }
    }

    /// How many bytes the read delivered, kept or not: read lengths are always read through this
    /// (saturating: an imported `elided_bytes` may be anything).
    pub fn len_bytes(&self) -> usize {
        self.bytes.len().saturating_add(self.elided_bytes)
    }
}

/// The running total of bytes kept, so [`Trace::push_read`] does not re-sum every read: a cache, not a
/// fact (never serialised, ignored by `==`), recomputed when `reads` changed behind its back.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeptBytes {
    reads: usize,
    bytes: usize,
}

impl PartialEq for KeptBytes {
    fn eq(&self, _other: &KeptBytes) -> bool {
        true
    }
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
    /// The answer's end marker had arrived and the response was still open [`AFTER_END_LIMIT_MS`] later:
    /// the run stopped reading (the answer is whole; the `left_open` finding says so).
    AfterEnd,
}

impl TimeoutKind {
    /// Every kind.
    pub const ALL: [TimeoutKind; 5] =
        [TimeoutKind::Headers, TimeoutKind::FirstByte, TimeoutKind::Idle, TimeoutKind::Total, TimeoutKind::AfterEnd];

    /// The name it is written as (serde's derive writes it in reports; this writes it in evidence and in
    /// the worker's end message).
    pub fn as_str(self) -> &'static str {
        match self {
            TimeoutKind::Headers => "headers",
            TimeoutKind::FirstByte => "first_byte",
            TimeoutKind::Idle => "idle",
            TimeoutKind::Total => "total",
            TimeoutKind::AfterEnd => "after_end",
        }
    }
}

/// How long a run goes on reading after the answer's end marker arrived before it stops, when the server
/// keeps the response open: long enough for what a server sends right after its end marker (the usage
/// chunk, `[DONE]` after a `finish_reason`: milliseconds later) and for its close, short enough that a
/// response left open does not keep the report waiting for the idle time-out (30 s by default).
pub const AFTER_END_LIMIT_MS: f64 = 2_000.0;

/// Where the reader loop ran: the automation contract's `measured_in`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MeasuredIn {
    /// A dedicated Web Worker: the page's rendering cannot delay a timestamp.
    Worker,
    /// The page's main thread (a browser without workers, or a worker that could not start): a busy
    /// page can delay reads and merge chunks.
    MainThread,
}

read_by_name!(MeasuredIn {
    Worker = "worker",
    MainThread = "main-thread",
});

/// How the run ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// Read as written (`{"kind": "timeout", "at_ms": ..., ...}`) through a flat record of every variant's
/// fields: serde's derive for an internally tagged enum buffers the whole object first, and that reader
/// cost the page's wasm 11 KB.
impl<'de> Deserialize<'de> for TraceEnd {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TraceEnd, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Kind {
            Complete,
            NetworkError,
            Timeout,
            Cancelled,
        }
        #[derive(Deserialize)]
        struct Wire {
            kind: Kind,
            at_ms: f64,
            message: Option<String>,
            during_body: Option<bool>,
            timeout: Option<TimeoutKind>,
            limit_ms: Option<f64>,
        }
        let w = Wire::deserialize(d)?;
        let need = |name: &'static str| <D::Error as serde::de::Error>::missing_field(name);
        let at_ms = w.at_ms;
        Ok(match w.kind {
            Kind::Complete => TraceEnd::Complete { at_ms },
            Kind::Cancelled => TraceEnd::Cancelled { at_ms },
            Kind::NetworkError => TraceEnd::NetworkError {
                at_ms,
                message: w.message.ok_or_else(|| need("message"))?,
                during_body: w.during_body.ok_or_else(|| need("during_body"))?,
            },
            Kind::Timeout => TraceEnd::Timeout {
                at_ms,
                timeout: w.timeout.ok_or_else(|| need("timeout"))?,
                limit_ms: w.limit_ms.ok_or_else(|| need("limit_ms"))?,
            },
        })
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
    /// The page's own origin (`https://host:port`, as `location.origin` says it), to tell a cross-origin
    /// request, and so whether it needed a CORS preflight; absent in reports written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_origin: Option<String>,
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
    /// Model ids listed in an OpenAI-style `{"data": [{"id": …}]}` answer: the first
    /// 1000 (`dialect::models_list::MODEL_IDS_KEPT`).
    pub ids: Vec<String>,
    /// How many ids the answer listed in all, when that is more than `ids` kept (`None`: `ids` is the
    /// whole list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids_total: Option<usize>,
}

impl ModelsProbe {
    /// How many ids the answer listed, kept or not.
    pub fn ids_listed(&self) -> usize {
        self.ids_total.unwrap_or(0).max(self.ids.len())
    }
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
    /// Whether the server allowed the detailed figures (`Timing-Allow-Origin`, or the same origin);
    /// `None` in traces recorded before this was said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing_allowed: Option<bool>,
    /// `requestStart` after the fetch started: the request went out on a connection (includes any wait
    /// in the browser's queue and a new connection's set-up). Needs `Timing-Allow-Origin`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_sent_ms: Option<f64>,
    /// `responseStart` after the fetch started: the first byte of the response. Needs
    /// `Timing-Allow-Origin`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_start_ms: Option<f64>,
    /// Whether the request reused an open connection (no DNS lookup and no connect); needs
    /// `Timing-Allow-Origin`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused: Option<bool>,
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
    /// Bytes kept in `reads` so far (see [`KeptBytes`]).
    #[serde(skip)]
    pub kept_bytes_cache: KeptBytes,
}

/// Whether a body sent with `status` is an answer: a status below 400, or none known. A body sent with an
/// error status (400 and up: a proxy's HTML error page, a plain-text message) is the error, never tokens:
/// no TTFT, no content events, no delivery of content, live or in the report ([`crate::measure`]); and
/// the run failed ([`crate::verdict::is_failed`]). The one definition of an error status for both.
pub fn answer_status(status: Option<u16>) -> bool {
    status.is_none_or(|s| s < 400)
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
            reads: reads.into_iter().map(|(at_ms, b)| ReadChunk::new(at_ms, b.into())).collect(),
            end: Some(end),
            ..Trace::default()
        }
    }

    /// Whether the body is an answer at all ([`answer_status`]).
    pub fn answered(&self) -> bool {
        answer_status(self.status)
    }

    /// Total body bytes received (kept or not), saturating at `usize::MAX`.
    pub fn body_bytes(&self) -> usize {
        self.reads.iter().fold(0, |sum, r| sum.saturating_add(r.len_bytes()))
    }

    /// Body bytes the trace kept (at most [`TRACE_BYTES_CAP`] when reads were appended with
    /// [`Trace::push_read`]).
    pub fn kept_bytes(&self) -> usize {
        self.reads.iter().map(|r| r.bytes.len()).sum()
    }

    /// Whether some reads were kept only as their time and length.
    pub fn is_capped(&self) -> bool {
        self.reads.iter().any(|r| r.elided_bytes > 0)
    }

    /// Appends one read: THE way the net layer records reads. The read's bytes are kept while the trace
    /// holds at most [`TRACE_BYTES_CAP`] bytes; the first read that would pass the cap, and every read
    /// after it, keeps only its time and length (`elided_bytes`). Amortised O(1) per read.
    pub fn push_read(&mut self, at_ms: f64, bytes: Vec<u8>) {
        let cache = &mut self.kept_bytes_cache;
        if cache.reads != self.reads.len() {
            *cache = KeptBytes {
                reads: self.reads.len(),
                bytes: self.reads.iter().map(|r| r.bytes.len()).sum(),
            };
        }
        let capped = self.reads.last().is_some_and(|r| r.elided_bytes > 0);
        let read = if capped || cache.bytes + bytes.len() > TRACE_BYTES_CAP {
            ReadChunk { at_ms, bytes: Vec::new(), elided_bytes: bytes.len() }
        } else {
            cache.bytes += bytes.len();
            ReadChunk::new(at_ms, bytes)
        };
        cache.reads += 1;
        self.reads.push(read);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_outs_are_written_and_read_by_their_names() {
        let names = ["headers", "first_byte", "idle", "total", "after_end"];
        assert_eq!(TimeoutKind::ALL.len(), names.len());
        for (kind, name) in TimeoutKind::ALL.into_iter().zip(names) {
            let end = TraceEnd::Timeout { at_ms: 2.0, timeout: kind, limit_ms: 1.0 };
            let json = serde_json::to_string(&end).unwrap();
            assert!(json.contains(&format!("\"timeout\":\"{name}\"")), "{json}");
            assert_eq!(kind.as_str(), name);
            assert_eq!(serde_json::from_str::<TraceEnd>(&json).unwrap(), end);
        }
        assert!(serde_json::from_str::<TimeoutKind>("\"stalled\"").is_err());
    }

    /// Regression (issue 8): every read's bytes were kept, so a long stream's trace grew without bound.
    #[test]
    fn push_read_keeps_bytes_up_to_the_cap_then_only_lengths() {
        let mut t = Trace::default();
        let mib = vec![b'x'; 1024 * 1024];
        for i in 0..20 {
            t.push_read(i as f64, mib.clone());
        }
        t.push_read(20.0, b"tail".to_vec());
        assert_eq!(t.kept_bytes(), TRACE_BYTES_CAP);
        assert_eq!(t.body_bytes(), 20 * 1024 * 1024 + 4);
        assert!(t.is_capped());
        assert_eq!(t.reads[16].bytes.len(), 0);
        assert_eq!(t.reads[16].len_bytes(), 1024 * 1024);
        assert_eq!((t.reads[20].elided_bytes, t.reads[20].at_ms), (4, 20.0), "sticky once capped");
    }

    #[test]
    fn capped_reads_round_trip_and_uncapped_reads_serialise_as_before() {
        let mut t = Trace::default();
        t.push_read(1.0, b"data: a\n\n".to_vec());
        let json = serde_json::to_value(&t).unwrap();
        assert!(json["reads"][0].get("elided_bytes").is_none());
        t.reads.push(ReadChunk { at_ms: 2.0, bytes: Vec::new(), elided_bytes: 99 });
        let back: Trace = serde_json::from_value(serde_json::to_value(&t).unwrap()).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.body_bytes(), 9 + 99);
    }

    #[test]
    fn push_read_after_direct_pushes_recounts_once() {
        let mut t = Trace::from_reads(200, "text/plain", 1.0, vec![(2.0, vec![b'a'; 10])], TraceEnd::Complete { at_ms: 3.0 });
        t.push_read(4.0, vec![b'b'; 5]);
        assert_eq!((t.kept_bytes(), t.body_bytes()), (15, 15));
    }

    /// Regression: an imported read of `elided_bytes: usize::MAX` overflowed `len_bytes` and the sums
    /// of read lengths (a panic in a debug build).
    #[test]
    fn len_bytes_of_an_absurd_elided_read_saturates() {
        let mut t = Trace::default();
        t.reads.push(ReadChunk { at_ms: 1.0, bytes: b"x".to_vec(), elided_bytes: usize::MAX });
        t.reads.push(ReadChunk { at_ms: 2.0, bytes: Vec::new(), elided_bytes: usize::MAX });
        assert_eq!(t.reads[0].len_bytes(), usize::MAX);
        assert_eq!(t.body_bytes(), usize::MAX);
    }
}

#[cfg(test)]
mod read_back {
    use super::*;

    #[test]
    fn every_end_reads_back_as_written_and_a_variant_missing_a_field_is_refused() {
        let ends = [
            TraceEnd::Complete { at_ms: 1.5 },
            TraceEnd::NetworkError { at_ms: 2.0, message: "reset".into(), during_body: true },
            TraceEnd::Timeout { at_ms: 3.0, timeout: TimeoutKind::Idle, limit_ms: 600.0 },
            TraceEnd::Cancelled { at_ms: 4.0 },
        ];
        for end in ends {
            let text = serde_json::to_string(&end).unwrap();
            assert_eq!(serde_json::from_str::<TraceEnd>(&text).unwrap(), end, "{text}");
        }
        for bad in [r#"{"kind":"timeout","at_ms":1}"#, r#"{"kind":"network_error","at_ms":1,"message":"x"}"#, r#"{"kind":"other","at_ms":1}"#, r#"{"at_ms":1}"#] {
            assert!(serde_json::from_str::<TraceEnd>(bad).is_err(), "{bad}");
        }
    }
}
