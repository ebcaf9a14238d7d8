//! Verdicts of synthesized runs: healthy streams the path classifier must leave `streaming` (direct,
//! jittered, a loaded local model with a browser that falls behind, a cold start, TCP splits, several
//! tokens per event, a short answer), and the ones it must call `buffered` or `collected` (a proxy's
//! 4 KiB buffer, periodic bursts, long server-side holds, a short stream released at the end).
//!
//! A run is built in two steps, like the real thing: the server produces events at its own times (with the
//! lab's `server_ms` when asked), then a delivery model (direct, a browser that is busy between reads,
//! TCP splits, a fixed-size buffer, periodic releases) turns them into the reads the page would record.

use streamscope_core::verdict::BufferedSignal;
use streamscope_core::FindingCode;
use streamscope_core::{Report, Trace, TraceEnd, Verdict};

/// A small deterministic PRNG (xorshift64*), so every case is reproducible.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// One event as the server wrote it: its send time (ms since the request arrived) and its bytes.
#[derive(Clone)]
struct Sent {
    at_ms: f64,
    bytes: Vec<u8>,
}

/// Fetch → request arrival at the server, and server → browser: the clocks' offset.
const LATENCY_MS: f64 = 3.0;

const WORDS: [&str; 8] = [
    " the", " stream", " arrives", " token", " by", " token", " here", ".",
];

fn stamp(server_ms: Option<f64>) -> String {
    server_ms.map_or(String::new(), |s| format!(",\"server_ms\":{s:.3}"))
}

fn lab_chunk(delta: &str, finish: &str, server_ms: Option<f64>, pad: usize) -> Vec<u8> {
    let pad = if pad > 0 {
        format!(",\"pad\":\"{}\"", "p".repeat(pad))
    } else {
        String::new()
    };
    format!(
        "data: {{\"id\":\"chatcmpl-lab-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\
         \"model\":\"streamscope-lab\",\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":{finish}}}]{pad}{}}}\n\n",
        stamp(server_ms)
    )
    .into_bytes()
}

/// What the server produces: a role chunk at 1 ms, `n` content events at `times`, then the finish chunk,
/// the usage chunk (with `tokens_per_event` × n completion tokens) and `[DONE]` together.
struct Stream {
    times_ms: Vec<f64>,
    server_ms: bool,
    tokens_per_event: usize,
    pad: usize,
}

impl Stream {
    fn cadence(first_ms: f64, cadence_ms: f64, n: usize) -> Stream {
        Stream::at((0..n).map(|i| first_ms + cadence_ms * i as f64).collect())
    }

    fn at(times_ms: Vec<f64>) -> Stream {
        Stream {
            times_ms,
            server_ms: true,
            tokens_per_event: 1,
            pad: 0,
        }
    }

    fn without_server_ms(mut self) -> Stream {
        self.server_ms = false;
        self
    }

    fn sent(&self) -> Vec<Sent> {
        let s = |t: f64| self.server_ms.then_some(t);
        let mut out = vec![Sent {
            at_ms: 1.0,
            bytes: lab_chunk(
                "{\"role\":\"assistant\",\"content\":\"\"}",
                "null",
                s(1.0),
                0,
            ),
        }];
        for (i, &t) in self.times_ms.iter().enumerate() {
            let text: String = (0..self.tokens_per_event)
                .map(|k| WORDS[(i + k) % WORDS.len()])
                .collect();
            let delta = format!("{{\"content\":\"{text}\"}}");
            out.push(Sent {
                at_ms: t,
                bytes: lab_chunk(&delta, "null", s(t), self.pad),
            });
        }
        let end = self.times_ms.last().copied().unwrap_or(1.0) + 1.0;
        let mut tail = lab_chunk("{}", "\"stop\"", s(end), 0);
        let n = self.times_ms.len() * self.tokens_per_event;
        tail.extend(
            format!(
                "data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":12,\"completion_tokens\":{n}}}{}}}\n\ndata: [DONE]\n\n",
                stamp(s(end))
            )
            .bytes(),
        );
        out.push(Sent {
            at_ms: end,
            bytes: tail,
        });
        out
    }
}

type Reads = Vec<(f64, Vec<u8>)>;

/// Every write reaches the page as its own read (writes less than 0.5 ms apart share one).
fn direct(sent: &[Sent]) -> Reads {
    let mut reads: Reads = Vec::new();
    for s in sent {
        let at = s.at_ms + LATENCY_MS;
        match reads.last_mut() {
            Some((t, b)) if at - *t < 0.5 => b.extend_from_slice(&s.bytes),
            _ => reads.push((at, s.bytes.clone())),
        }
    }
    reads
}

/// A page that is busy for `busy()` ms after each read: whatever arrived meanwhile comes in one read.
fn busy_browser(sent: &[Sent], mut busy: impl FnMut() -> f64) -> Reads {
    let mut reads = Vec::new();
    let mut free_at = 0.0_f64;
    let mut i = 0;
    while i < sent.len() {
        let at = free_at.max(sent[i].at_ms + LATENCY_MS);
        let mut bytes = Vec::new();
        while i < sent.len() && sent[i].at_ms + LATENCY_MS <= at {
            bytes.extend_from_slice(&sent[i].bytes);
            i += 1;
        }
        reads.push((at, bytes));
        free_at = at + busy();
    }
    reads
}

/// TCP cuts every write in two; the second part follows after `delay()` ms.
fn tcp_split(sent: &[Sent], mut delay: impl FnMut() -> f64) -> Reads {
    let mut reads = Vec::new();
    for s in sent {
        let at = s.at_ms + LATENCY_MS;
        let (a, b) = s.bytes.split_at(s.bytes.len() / 2);
        reads.push((at, a.to_vec()));
        reads.push((at + delay(), b.to_vec()));
    }
    reads
}

/// A proxy with a fixed buffer: it sends exactly `size` bytes whenever that many are held, the rest when
/// the upstream ends (like nginx with `proxy_buffering on`).
fn fixed_buffer(sent: &[Sent], size: usize) -> Reads {
    let mut reads = Vec::new();
    let mut held: Vec<u8> = Vec::new();
    for s in sent {
        held.extend_from_slice(&s.bytes);
        while held.len() >= size {
            let rest = held.split_off(size);
            reads.push((
                s.at_ms + LATENCY_MS + 0.5,
                std::mem::replace(&mut held, rest),
            ));
        }
    }
    if let Some(last) = sent.last().filter(|_| !held.is_empty()) {
        reads.push((last.at_ms + LATENCY_MS + 0.5, held));
    }
    reads
}

/// Holds everything and releases it in one write at every multiple of `every_ms` (the lab's
/// `mode=bursts`), the rest at the end.
fn periodic(sent: &[Sent], every_ms: f64) -> Reads {
    let mut reads = Vec::new();
    let mut held: Vec<u8> = Vec::new();
    let mut next = every_ms;
    for s in sent {
        while s.at_ms > next {
            if !held.is_empty() {
                reads.push((next + LATENCY_MS, std::mem::take(&mut held)));
            }
            next += every_ms;
        }
        held.extend_from_slice(&s.bytes);
    }
    if let Some(last) = sent.last().filter(|_| !held.is_empty()) {
        reads.push((last.at_ms + LATENCY_MS, held));
    }
    reads
}

fn trace(headers_ms: f64, reads: Reads) -> Trace {
    let end = reads.last().map_or(headers_ms, |r| r.0) + 1.0;
    Trace::from_reads(
        200,
        "text/event-stream",
        headers_ms,
        reads,
        TraceEnd::Complete { at_ms: end },
    )
}

fn report(t: &Trace) -> Report {
    Report::from_trace(t)
}

fn assert_streaming(t: &Trace, case: &str) -> Report {
    let r = report(t);
    assert_eq!(r.verdict, Verdict::Streaming, "{case}: {:#?}", r.delivery);
    assert!(!r.has_finding(FindingCode::Bursts), "{case}");
    r
}

fn assert_buffered(t: &Trace, case: &str) -> Report {
    let r = report(t);
    assert_eq!(r.verdict, Verdict::Buffered, "{case}: {:#?}", r.delivery);
    assert!(r.has_finding(FindingCode::Bursts), "{case}");
    r
}

fn signals(r: &Report) -> Vec<BufferedSignal> {
    let f = r
        .findings
        .iter()
        .find(|f| f.code == FindingCode::Bursts)
        .expect("bursts finding");
    serde_json::from_value(f.evidence["signals"].clone()).expect("signals")
}

// ---- healthy streams: never buffered ----

#[test]
fn direct_20ms_cadence_stream_is_streaming() {
    let r = assert_streaming(
        &trace(5.0, direct(&Stream::cadence(300.0, 20.0, 50).sent())),
        "direct",
    );
    assert_eq!(r.delivery.burst_count, 0);
    assert!(r.delivery.hold_ms.unwrap().max < 1.0);
}

#[test]
fn natural_jitter_with_occasional_pairs_is_streaming() {
    let mut pairs = 0;
    for seed in 0..30 {
        let mut rng = Rng::new(seed);
        let mut t = 300.0;
        let times: Vec<f64> = (0..120)
            .map(|_| {
                let at = t;
                // ±50% around 20 ms; one gap in ten so short that two events share a read.
                t += if rng.unit() < 0.1 {
                    0.2
                } else {
                    20.0 * rng.range(0.5, 1.5)
                };
                at
            })
            .collect();
        let reads = direct(&Stream::at(times).sent());
        pairs += reads.len();
        assert_streaming(&trace(5.0, reads), &format!("jitter seed {seed}"));
    }
    assert!(pairs < 30 * 123, "some events must have shared a read");
}

#[test]
fn loaded_local_model_with_a_browser_that_falls_behind_is_streaming() {
    let mut bursts = 0;
    for seed in 0..30 {
        let mut rng = Rng::new(seed);
        let mut t = 150.0;
        let times: Vec<f64> = (0..400)
            .map(|_| {
                let at = t;
                t += rng.range(5.0, 10.0) * if rng.unit() < 0.05 { 2.5 } else { 1.0 };
                at
            })
            .collect();
        let mut busy_rng = Rng::new(seed + 1000);
        let reads = busy_browser(&Stream::at(times).sent(), || {
            if busy_rng.unit() < 0.15 {
                busy_rng.range(15.0, 25.0)
            } else {
                busy_rng.range(0.0, 8.0)
            }
        });
        let r = assert_streaming(&trace(4.0, reads), &format!("local seed {seed}"));
        bursts += r.delivery.burst_count;
        assert!(r.delivery.hold_ms.unwrap().p90 < 50.0, "seed {seed}");
    }
    assert!(
        bursts > 0,
        "the busy browser must have merged 3 or more events somewhere"
    );
}

#[test]
fn fast_model_merged_by_a_busy_browser_is_streaming() {
    // 600 tokens/s: a read every frame carries ~10 events, a small burst every 16 ms.
    let mut rng = Rng::new(7);
    let reads = busy_browser(&Stream::cadence(200.0, 1.6, 500).sent(), || {
        rng.range(12.0, 18.0)
    });
    let r = assert_streaming(&trace(4.0, reads), "fast model");
    assert!(r.delivery.burst_count > 10, "{:?}", r.delivery.burst_count);
}

#[test]
fn cold_first_request_is_streaming_with_a_slow_first_token() {
    let r = assert_streaming(
        &trace(20.0, direct(&Stream::cadence(2000.0, 20.0, 50).sent())),
        "cold",
    );
    assert_eq!(r.ttft_ms, Some(2003.0));
    let f = r
        .findings
        .iter()
        .find(|f| f.code == FindingCode::SlowFirstToken)
        .unwrap();
    assert_eq!(f.evidence["ttft_ms"], 2003.0);
    assert!(f.detail.contains("2.00 s"), "{}", f.detail);
    assert!(!r.has_finding(FindingCode::HeadersHeld), "headers came at once");
}

#[test]
fn cold_start_whose_server_sends_headers_with_the_first_token_stays_streaming() {
    let mut sent = Stream::cadence(2000.0, 20.0, 50).sent();
    sent[0].at_ms = 1999.0; // the role chunk (and the headers) only with the first token
    let r = assert_streaming(&trace(2001.5, direct(&sent)), "cold, late headers");
    let f = r
        .findings
        .iter()
        .find(|f| f.code == FindingCode::HeadersHeld)
        .expect("headers_held");
    assert_eq!(f.severity, streamscope_core::Severity::Info);
}

#[test]
fn tcp_splitting_every_event_in_two_reads_is_streaming() {
    let sent = Stream::cadence(300.0, 20.0, 60).sent();
    let r = assert_streaming(&trace(5.0, tcp_split(&sent, || 0.2)), "split at once");
    assert_eq!(r.reads, 2 * sent.len());
    let mut rng = Rng::new(3);
    assert_streaming(
        &trace(5.0, tcp_split(&sent, || rng.range(0.1, 8.0))),
        "split, late halves",
    );
}

#[test]
fn several_tokens_per_event_is_streaming() {
    let mut s = Stream::cadence(300.0, 60.0, 40);
    s.tokens_per_event = 3;
    let r = assert_streaming(&trace(5.0, direct(&s.sent())), "3 tokens per event");
    assert_eq!(r.tpot_n, Some(120));
}

#[test]
fn short_three_token_answer_is_streaming() {
    assert_streaming(
        &trace(5.0, direct(&Stream::cadence(250.0, 20.0, 3).sent())),
        "3 tokens",
    );
    let mut rng = Rng::new(1);
    let merged = busy_browser(&Stream::cadence(250.0, 4.0, 3).sent(), || {
        rng.range(5.0, 6.0)
    });
    assert_streaming(&trace(5.0, merged), "3 tokens, two merged");
}

#[test]
fn one_network_stall_releasing_a_burst_is_not_buffered() {
    // A retransmission holds 15 events for 300 ms once; the rest flows.
    let sent = Stream::cadence(300.0, 20.0, 80).sent();
    let mut reads = direct(&sent);
    let (stalled, rest): (Reads, Reads) =
        reads.drain(..).partition(|r| r.0 > 700.0 && r.0 <= 1000.0);
    let mut merged: Vec<u8> = Vec::new();
    stalled.into_iter().for_each(|r| merged.extend(r.1));
    let mut reads: Reads = rest;
    reads.push((1000.5, merged));
    reads.sort_by(|a, b| a.0.total_cmp(&b.0));
    let r = assert_streaming(&trace(5.0, reads.clone()), "one stall");
    assert_eq!(r.delivery.burst_count, 1);
    assert!(
        r.delivery.hold_ms.unwrap().max > 250.0,
        "the stall held events"
    );

    // Plus a page hiccup elsewhere that merges 3 events: two bursts now, still one stall.
    let i = reads.iter().position(|r| r.0 > 1500.0).unwrap();
    let merged: Vec<u8> = reads.drain(i..i + 3).flat_map(|r| r.1).collect();
    reads.insert(i, (1545.0, merged));
    let r = assert_streaming(&trace(5.0, reads), "one stall and one merge");
    assert_eq!(r.delivery.burst_count, 2);
}

// ---- buffered ----

#[test]
fn nginx_4k_buffer_on_a_20ms_stream_is_buffered_without_server_timestamps() {
    let sent = Stream::cadence(300.0, 20.0, 150).without_server_ms().sent();
    let r = assert_buffered(&trace(5.0, fixed_buffer(&sent, 4096)), "nginx 4k");
    let d = &r.delivery;
    assert!(d.hold_ms.is_none());
    assert!(d.burst_count >= 5, "{}", d.burst_count);
    assert!(
        (15.0..=25.0).contains(&d.events_per_burst_mean.unwrap()),
        "{:?}",
        d.events_per_burst_mean
    );
    let gap = d.typical_gap_ms.unwrap();
    assert!((300.0..=500.0).contains(&gap), "{gap}");
    assert_eq!(d.read_sizes.buffer_len_bytes, Some(4096));
    assert!(r.events_per_read_max >= 18);
    let s = signals(&r);
    assert!(
        s.contains(&BufferedSignal::Bursts) && s.contains(&BufferedSignal::BufferSizedReads),
        "{s:?}"
    );
    let f = r.findings.iter().find(|f| f.code == FindingCode::Bursts).unwrap();
    assert!(f.fix.as_deref().unwrap().contains("proxy_buffering off;"));
    assert!(f.detail.contains("4096 bytes"), "{}", f.detail);
}

#[test]
fn nginx_4k_buffer_with_server_timestamps_shows_hold_times() {
    let sent = Stream::cadence(300.0, 20.0, 150).sent();
    let r = assert_buffered(
        &trace(5.0, fixed_buffer(&sent, 4096)),
        "nginx 4k, server_ms",
    );
    let h = r.delivery.hold_ms.unwrap();
    assert!(h.p90 > 250.0 && h.max > 350.0, "{h:?}");
    assert!(signals(&r).contains(&BufferedSignal::HoldTimes));
}

#[test]
fn periodic_bursts_every_500ms_are_buffered() {
    let sent = Stream::cadence(300.0, 20.0, 100).without_server_ms().sent();
    let r = assert_buffered(&trace(5.0, periodic(&sent, 500.0)), "bursts 500 ms");
    let gap = r.delivery.typical_gap_ms.unwrap();
    assert!((490.0..=510.0).contains(&gap), "{gap}");
    assert_eq!(signals(&r), vec![BufferedSignal::Bursts]);
}

#[test]
fn server_hold_times_of_hundreds_of_ms_are_buffered_even_with_small_quick_bursts() {
    // Produced every 20 ms, released 3 at a time every 100 ms: the queue grows to hundreds of ms, while
    // the bursts alone (3 events, 100 ms apart) would pass for a browser that fell behind.
    let sent = Stream::cadence(300.0, 20.0, 45).sent();
    let mut reads: Reads = vec![(sent[0].at_ms + LATENCY_MS, sent[0].bytes.clone())];
    let content = &sent[1..sent.len() - 1];
    let mut t = 400.0_f64;
    for group in content.chunks(3) {
        t = t.max(group.last().unwrap().at_ms + LATENCY_MS);
        reads.push((t, group.iter().flat_map(|s| s.bytes.clone()).collect()));
        t += 100.0;
    }
    reads.push((t, sent.last().unwrap().bytes.clone()));
    let r = assert_buffered(&trace(5.0, reads), "held by the server");
    assert!(r.delivery.hold_ms.unwrap().p50 >= 100.0);
    assert_eq!(signals(&r), vec![BufferedSignal::HoldTimes]);
}

#[test]
fn large_events_through_a_4k_buffer_are_buffered_by_their_read_sizes() {
    // 1 KiB events every 10 ms: the buffer fills every 4 events, 40 ms apart: too quick for the timing
    // signal, but every read is exactly 4096 bytes, cut inside an event.
    let mut s = Stream::cadence(300.0, 10.0, 120).without_server_ms();
    s.pad = 850;
    let r = assert_buffered(&trace(5.0, fixed_buffer(&s.sent(), 4096)), "large events");
    assert_eq!(signals(&r), vec![BufferedSignal::BufferSizedReads]);
}

#[test]
fn raw_text_through_a_4k_buffer_is_buffered() {
    let sent: Vec<Sent> = (0..500)
        .map(|i| Sent {
            at_ms: 300.0 + 20.0 * i as f64,
            bytes: format!("{:<39}|", i).into_bytes(),
        })
        .collect();
    let t = Trace::from_reads(
        200,
        "text/plain",
        5.0,
        fixed_buffer(&sent, 4096),
        TraceEnd::Complete { at_ms: 10_400.0 },
    );
    let r = report(&t);
    assert_eq!(r.verdict, Verdict::Buffered, "{:#?}", r.delivery);
    assert_eq!(signals(&r), vec![BufferedSignal::BufferSizedReads]);
    let healthy = Trace::from_reads(
        200,
        "text/plain",
        5.0,
        direct(&sent),
        TraceEnd::Complete { at_ms: 10_400.0 },
    );
    assert_eq!(report(&healthy).verdict, Verdict::Streaming);
}

// ---- collected ----

#[test]
fn short_stream_under_the_buffer_size_is_collected_not_buffered() {
    let sent = Stream::cadence(300.0, 20.0, 10).sent();
    let r = report(&trace(5.0, fixed_buffer(&sent, 4096)));
    assert_eq!(r.verdict, Verdict::Collected, "{:#?}", r.delivery);
    assert!(r.has_finding(FindingCode::Collected) && !r.has_finding(FindingCode::Bursts));
}

#[test]
fn periodic_release_longer_than_the_stream_is_collected() {
    let sent = Stream::cadence(300.0, 20.0, 40).without_server_ms().sent();
    let r = report(&trace(5.0, periodic(&sent, 10_000.0)));
    assert_eq!(r.verdict, Verdict::Collected);
}
