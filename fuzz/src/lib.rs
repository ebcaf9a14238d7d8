//! Helpers shared by the fuzz targets: a tiny deterministic generator that turns a few input bytes into
//! split points and times, and [`trace_from`], which builds a whole [`Trace`] (reads with times, status,
//! content type, headers, end, probes) from fuzz bytes.
//!
//! Inputs are laid out so that seeds are easy to write by hand: a short header of selector bytes, then
//! the body as it is (a recorded stream, a JSON document). The fuzzer mutates the body freely; the header
//! picks among plausible values (and, behind a flag, absurd ones: NaN, negative, out-of-order times,
//! `usize::MAX` read lengths).

use streamscope_core::trace::{
    ConnectionTiming, MeasuredIn, ModelsProbe, Probes, ReadChunk, RequestSummary, TimeoutKind,
    Trace, TraceEnd,
};

/// xorshift64*: a deterministic stream of numbers from a seed (the same input always builds the same
/// trace, so every crash reproduces).
pub struct Rng(u64);

impl Rng {
    /// A generator seeded from up to 8 bytes (never the all-zero state).
    pub fn new(seed: &[u8]) -> Rng {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for &b in seed.iter().take(8) {
            s = (s ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
        Rng(s | 1)
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

/// Cuts `body` into chunks of 1 to `max_len` bytes (an empty chunk now and then), in order.
pub fn split<'a>(body: &'a [u8], rng: &mut Rng, max_len: usize) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        if rng.one_in(16) {
            out.push(&rest[..0]);
        }
        let n = 1 + rng.below(max_len.max(1) as u64) as usize;
        let (head, tail) = rest.split_at(n.min(rest.len()));
        out.push(head);
        rest = tail;
    }
    out
}

/// Content-Type values a trace may carry (`None`: no header at all).
const CONTENT_TYPES: [Option<&str>; 9] = [
    Some("text/event-stream"),
    Some("text/event-stream; charset=utf-8"),
    Some("application/x-ndjson"),
    Some("application/json"),
    Some("text/plain; charset=utf-8"),
    Some("text/html"),
    Some(""),
    Some("application/jsonl"),
    None,
];

/// HTTP statuses (`None`: no response).
const STATUSES: [Option<u16>; 14] = [
    Some(200),
    Some(200),
    Some(200),
    Some(200),
    Some(206),
    Some(400),
    Some(401),
    Some(403),
    Some(404),
    Some(422),
    Some(429),
    Some(500),
    Some(502),
    None,
];

/// Request URLs, clean and with every mistake the URL triage knows.
const URLS: [&str; 10] = [
    "http://127.0.0.1:8787/v1/chat/completions",
    "https://api.example.com/v1/chat/completions",
    "http://api.example.com/v1/v1/chat/completions",
    "https://h.example/v1/chat/completions/chat/completions",
    " http://h.example/v1/messages/ ",
    "http://h.example//v1/responses?x=1#f",
    "http://user:pass@[::1]:8080/chat/completions",
    "not a url",
    "",
    "http://h.example/v1beta/v1beta/models/x:streamGenerateContent?alt=sse",
];

/// Response headers the path findings look at.
const HEADERS: [(&str, &str); 12] = [
    ("content-length", "1234"),
    ("content-encoding", "gzip"),
    ("x-cache", "HIT"),
    ("age", "120"),
    ("server", "nginx/1.25"),
    ("x-accel-buffering", "no"),
    ("cache-control", "no-cache"),
    ("retry-after", "7"),
    ("transfer-encoding", "chunked"),
    ("date", "Mon, 01 Dec 2025 10:00:00 GMT"),
    ("via", "1.1 varnish"),
    ("content-length", "not a number"),
];

/// Times no real run has: NaN, infinities, negatives, huge.
const WEIRD_MS: [f64; 7] = [
    f64::NAN,
    -1.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1e308,
    -1e308,
    0.0,
];

/// Read lengths no real read has.
const WEIRD_ELIDED: [usize; 4] = [usize::MAX, usize::MAX / 2, 1 << 40, 0];

/// How many header bytes [`trace_from`] reads before the body.
pub const TRACE_HEADER_BYTES: usize = 8;

/// Flag bits of the header's fourth byte.
pub mod flags {
    /// Some times are NaN, infinite, negative, huge or out of order.
    pub const WEIRD_TIMES: u8 = 1;
    /// Some reads keep only their length (`elided_bytes`), some absurd.
    pub const ELIDED: u8 = 2;
    /// Extra response headers (Content-Length, Content-Encoding, cache headers...).
    pub const HEADERS: u8 = 4;
    /// A request URL with mistakes, from an https page.
    pub const URL: u8 = 8;
    /// Probe results (no-cors reachability, models lists).
    pub const PROBES: u8 = 16;
    /// Reads come in bursts (long silences, then reads within 2 ms).
    pub const BURSTY: u8 = 32;
    /// Resource Timing figures (some absurd).
    pub const CONNECTION: u8 = 64;
    /// Chunks up to 4 KiB instead of up to 64 bytes.
    pub const BIG_READS: u8 = 128;
}

/// Whether a trace built by [`trace_from`] from `data` has only times a real run can have.
pub fn sane_times(data: &[u8]) -> bool {
    data.get(3).is_none_or(|f| f & flags::WEIRD_TIMES == 0)
}

/// Builds a trace from fuzz bytes: header byte 0 picks the Content-Type, 1 the status, 2 how the run
/// ended, 3 the [`flags`], 4..8 seed the generator; the rest is the body, cut into reads.
pub fn trace_from(data: &[u8]) -> Trace {
    let header = |i: usize| data.get(i).copied().unwrap_or(0);
    let (ct, status, end, f) = (header(0), header(1), header(2), header(3));
    let mut rng = Rng::new(data.get(4..TRACE_HEADER_BYTES).unwrap_or(&[]));
    let body = data.get(TRACE_HEADER_BYTES..).unwrap_or(&[]);
    let has = |flag: u8| f & flag != 0;

    let mut trace = Trace::default();
    trace.status = STATUSES[usize::from(status) % STATUSES.len()];
    if let Some(ct) = CONTENT_TYPES[usize::from(ct) % CONTENT_TYPES.len()] {
        trace.headers.push(("content-type".into(), ct.into()));
    }
    if has(flags::HEADERS) {
        for _ in 0..1 + rng.below(4) {
            let (n, v) = HEADERS[rng.below(HEADERS.len() as u64) as usize];
            trace.headers.push((n.into(), v.into()));
        }
    }
    let weird = |rng: &mut Rng, ms: f64| {
        if has(flags::WEIRD_TIMES) && rng.one_in(6) {
            if rng.one_in(2) {
                ms - 100.0
            } else {
                WEIRD_MS[rng.below(WEIRD_MS.len() as u64) as usize]
            }
        } else {
            ms
        }
    };
    let mut t_ms = rng.below(2000) as f64 / 4.0;
    trace.headers_ms = trace.status.map(|_| t_ms);
    if let Some(h) = trace.headers_ms {
        trace.headers_ms = Some(weird(&mut rng, h));
    }

    let max_len = if has(flags::BIG_READS) { 4096 } else { 64 };
    let elide_from = if has(flags::ELIDED) {
        rng.below(16) as usize
    } else {
        usize::MAX
    };
    for (i, chunk) in split(body, &mut rng, max_len).into_iter().enumerate() {
        let gap_ms = if has(flags::BURSTY) {
            if rng.one_in(8) {
                150.0 + rng.below(800) as f64
            } else {
                rng.below(3) as f64
            }
        } else if rng.one_in(10) {
            rng.below(3000) as f64
        } else {
            rng.below(400) as f64 / 10.0
        };
        t_ms += gap_ms;
        let at_ms = weird(&mut rng, t_ms);
        let read = if i >= elide_from {
            let elided = if rng.one_in(4) {
                WEIRD_ELIDED[rng.below(WEIRD_ELIDED.len() as u64) as usize]
            } else {
                chunk.len()
            };
            ReadChunk {
                at_ms,
                bytes: Vec::new(),
                elided_bytes: elided,
            }
        } else {
            ReadChunk::new(at_ms, chunk.to_vec())
        };
        trace.reads.push(read);
    }

    let end_wait_ms = rng.below(100) as f64;
    let end_ms = weird(&mut rng, t_ms + end_wait_ms);
    let timeout = |timeout| TraceEnd::Timeout {
        at_ms: end_ms,
        timeout,
        limit_ms: weird(&mut Rng::new(&[end]), 30_000.0),
    };
    trace.end = match end % 10 {
        0..=3 => Some(TraceEnd::Complete { at_ms: end_ms }),
        4 => Some(TraceEnd::NetworkError {
            at_ms: end_ms,
            message: "TypeError: network error".into(),
            during_body: true,
        }),
        5 => Some(TraceEnd::NetworkError {
            at_ms: end_ms,
            message: "TypeError: Failed to fetch".into(),
            during_body: false,
        }),
        6 => Some(timeout(
            [
                TimeoutKind::Headers,
                TimeoutKind::FirstByte,
                TimeoutKind::Idle,
                TimeoutKind::Total,
            ][usize::from(end / 10) % 4],
        )),
        7 => Some(TraceEnd::Cancelled { at_ms: end_ms }),
        8 => None,
        _ => Some(TraceEnd::Complete { at_ms: end_ms }),
    };

    trace.request = RequestSummary {
        url: URLS[if has(flags::URL) {
            rng.below(URLS.len() as u64) as usize
        } else {
            0
        }]
        .into(),
        method: if rng.one_in(4) {
            "GET".into()
        } else {
            "POST".into()
        },
        body_len_bytes: rng.below(500) as usize,
        header_names: if rng.one_in(2) {
            vec!["authorization".into()]
        } else {
            vec![]
        },
        key_has_whitespace: rng.one_in(8),
        page_protocol: has(flags::URL).then(|| {
            if rng.one_in(2) {
                "https:".into()
            } else {
                "http:".into()
            }
        }),
        // The page's origin: the target's own (same origin), another, or unknown.
        page_origin: match rng.below(3) {
            0 => Some("http://127.0.0.1:8080".into()),
            1 => Some("https://streamscope.example".into()),
            _ => None,
        },
    };
    if has(flags::PROBES) {
        trace.probes = probes(&mut rng, &trace.request.url);
    }
    if has(flags::CONNECTION) {
        let bytes = |rng: &mut Rng| {
            if rng.one_in(4) {
                Some(u64::MAX)
            } else {
                Some(rng.below(100_000))
            }
        };
        trace.connection = Some(ConnectionTiming {
            next_hop_protocol: Some("h2".into()),
            dns_ms: Some(weird(&mut rng, 1.0)),
            connect_ms: Some(weird(&mut rng, 2.0)),
            tls_ms: None,
            encoded_body_bytes: bytes(&mut rng),
            decoded_body_bytes: bytes(&mut rng),
            ..ConnectionTiming::default()
        });
    }
    trace.started_unix_ms = rng.one_in(2).then(|| weird(&mut rng, 1.7e12));
    trace.measured_in =
        [None, Some(MeasuredIn::Worker), Some(MeasuredIn::MainThread)][rng.below(3) as usize];
    trace
}

/// Probe results for a failed run: no-cors reachability and two models lists.
fn probes(rng: &mut Rng, url: &str) -> Probes {
    let base = url
        .trim()
        .trim_end_matches("/chat/completions")
        .trim_end_matches("/v1");
    let ids = |rng: &mut Rng| -> Vec<String> {
        let n = if rng.one_in(8) { 3000 } else { rng.below(5) };
        (0..n)
            .map(|i| {
                if i % 3 == 0 {
                    "lab-20ms".to_string()
                } else {
                    format!("model-{i}")
                }
            })
            .collect()
    };
    let status = |rng: &mut Rng| [Some(200), Some(404), None][rng.below(3) as usize];
    Probes {
        no_cors_reached: [None, Some(true), Some(false)][rng.below(3) as usize],
        models: vec![
            ModelsProbe {
                url: format!("{base}/models"),
                status: status(rng),
                ids: ids(rng),
                ids_total: None,
            },
            ModelsProbe {
                url: format!("{base}/v1/models"),
                status: status(rng),
                ids: ids(rng),
                ids_total: Some(rng.below(10_000) as usize),
            },
        ],
    }
}
