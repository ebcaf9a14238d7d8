//! How content was delivered: which content events arrived together, which of those deliveries were
//! bursts, how big the reads were, and (with server timestamps) how long each event was held on the way.
//!
//! - A **delivery** is a group of reads that arrived together: a read joins the delivery that started at
//!   most [`JOIN_MS`] (2 ms) before it, so one event split by TCP into two reads stays one delivery, while
//!   a fast model's steady trickle (a token every 1-2 ms) is not chained into one endless delivery.
//!   Only deliveries that completed at least one content event are counted. `gap_before_ms` is the
//!   silence before a delivery: from the end of the previous delivery of any kind (a keep-alive breaks a
//!   held span), or from the response headers for the first one.
//! - A **burst** is a delivery of at least [`BURST_MIN_EVENTS`] (3) content events, or one with at least
//!   one content event that carries at least [`BURST_MIN_EVENTS`] messages' worth of bytes (a buffer
//!   flushed in the middle of large events): its bytes, less one mean message for each non-content message
//!   in it (the finish, usage and `[DONE]` chunks that often share the last read), divided by the mean
//!   wire-message size. For raw text (no message boundaries) the byte rule also needs at least
//!   [`COMMON_SIZE_MIN_BYTES`] bytes, so a long word is not a burst. Either way its reads must have come
//!   together: the silence before it at least [`BURST_GAP_SPAN_RATIO`] (2) times as long as its reads
//!   took (`end_ms − start_ms`); for the first content delivery, whose silence before is the wait for
//!   the first token, the silence after it (none after it counts as long enough); or its reads must
//!   carry at least [`TOGETHER_EVENTS_PER_READ`] (2) content events each on average. Held content comes
//!   out at once after a silence, or, released over a slow link, in reads of many events each, 1 ms
//!   apart (regression: a proxy's 8 KiB flushes read in 1,460-byte pieces over 5 ms were called
//!   `streaming` once only the first 2 ms of each counted); a fast model's reads, one event each every
//!   0.5-1 ms, fill a 2 ms delivery with 3-5 events spaced as evenly as the silence before it, and are no
//!   burst (regression: a 1,000 events/s stream read one event at a time was counted as 1,298 bursts of
//!   3 and its whole timeline shaded as held).
//! - The **typical gap** is the median `gap_before_ms` of the bursts, leaving out a burst that is the first
//!   content delivery (its gap includes the wait for the first token).
//! - **Read sizes**: a read within [`SIZE_TOLERANCE`] (1/64, so ±64 bytes at 4 KiB) of a standard buffer
//!   size ([`BUFFER_SIZES_BYTES`]: 4, 8, 16, 32 or 64 KiB) is buffer-sized; the size shared by most reads
//!   is reported when at least 2 reads have it. The common size is the size shared (within the same
//!   tolerance) by the most reads of at least [`COMMON_SIZE_MIN_BYTES`] that end inside a line, i.e. that
//!   were cut by a size limit rather than at an event boundary (raw text: any such read); reported when
//!   at least [`COMMON_SIZE_MIN_READS`] (3) reads share it. Healthy reads carrying two or three whole events
//!   end at a line end and never count.
//! - **Release cadence** ([`super::cadence`]): how regularly the content deliveries came, from the
//!   same deliveries.
//! - **Hold time** (when content events carry the server's send time `server_ms`): per event,
//!   (at_ms − server_ms) − the least such delay over the content events. The clocks' offset is unknown,
//!   so the least-delayed event is the baseline: a hold is how much longer an event took than the fastest
//!   one. Needs at least 2 timestamped content events.

use serde::{Deserialize, Serialize};

use super::cadence::{Release, ReleaseCadence};
use crate::analysis::Analysis;
use crate::wire::Framing;
use crate::stats::{median, per_read_p50_p99, Percentiles};
use crate::trace::{ReadChunk, Trace};

/// Reads that start within this many ms of a delivery's first read belong to that delivery.
pub const JOIN_MS: f64 = 2.0;

/// Content events (or messages' worth of bytes) that make a delivery a burst.
pub const BURST_MIN_EVENTS: usize = 3;

/// How many times as long as a delivery's reads took the silence before it (after it, for the first
/// content delivery) must be for a burst.
pub const BURST_GAP_SPAN_RATIO: f64 = 2.0;

/// Content events per read, on average over a delivery, that show its events came together whatever the
/// silence before it: they were merged before they were read.
pub const TOGETHER_EVENTS_PER_READ: usize = 2;

/// Standard buffer sizes a proxy or a compression layer flushes at.
pub const BUFFER_SIZES_BYTES: [usize; 5] = [4096, 8192, 16384, 32768, 65536];

/// How far from a size, as a share of it, a read still counts as that size.
pub const SIZE_TOLERANCE: f64 = 1.0 / 64.0;

/// The smallest read that counts for the common read size (and for a raw-text burst by bytes).
pub const COMMON_SIZE_MIN_BYTES: usize = 1024;

/// Reads that must share a size before it is reported as the common size.
pub const COMMON_SIZE_MIN_READS: usize = 3;

/// Reads that must share a buffer size before it is reported.
pub const BUFFER_SIZE_MIN_READS: usize = 2;

/// Reads that arrived together and the content they completed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Delivery {
    /// When the first read of the delivery resolved.
    pub start_ms: f64,
    /// When the last read of the delivery resolved.
    pub end_ms: f64,
    /// Reads in the delivery.
    pub reads: usize,
    /// Content events the delivery completed.
    pub events: usize,
    /// Body bytes the delivery carried.
    pub bytes: usize,
    /// Silence before the delivery: since the previous read (or the response headers for the first one).
    pub gap_before_ms: f64,
}

/// How the read sizes cluster.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReadSizes {
    /// The standard buffer size most reads match, when at least 2 do.
    pub buffer_len_bytes: Option<usize>,
    /// Reads of (nearly) that buffer size.
    pub buffer_sized_reads: usize,
    /// The size shared by the most reads cut inside a line, when at least 3 share it.
    pub common_len_bytes: Option<usize>,
    /// Reads of (nearly) that common size.
    pub common_reads: usize,
}

/// How many bursts a report lists one by one (start, end, reads, events, bytes, silence before): enough
/// to shade every held span of any ordinary answer, and a bound on the report's size when a long stream
/// arrives in tens of thousands of small bursts. `burst_count` and the other figures count every burst.
pub const MAX_BURSTS_LISTED: usize = 2_000;

/// How the content of a run was delivered (see the module docs for every definition).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeliveryStats {
    /// Deliveries that completed at least one content event.
    pub deliveries: usize,
    /// Median silence before a content delivery, the first one left out.
    pub delivery_gap_p50_ms: Option<f64>,
    /// The bursts, in arrival order: the first [`MAX_BURSTS_LISTED`] (every figure below counts them all).
    pub bursts: Vec<Delivery>,
    /// How many bursts, listed or not.
    pub burst_count: usize,
    /// Mean content events per burst.
    pub events_per_burst_mean: Option<f64>,
    /// Median silence before a burst, a burst that is the first content delivery left out.
    pub typical_gap_ms: Option<f64>,
    /// Share (0 to 1) of the content events that arrived in bursts.
    pub burst_event_share: Option<f64>,
    /// Mean content events per read that carried content.
    pub content_events_per_read_mean: Option<f64>,
    /// Most content events completed by one read.
    pub content_events_per_read_max: usize,
    /// Median content events per read that carried content: 1 when nothing merged token events.
    #[serde(default)]
    pub content_events_per_read_p50: Option<f64>,
    /// 99th percentile of the same.
    #[serde(default)]
    pub content_events_per_read_p99: Option<f64>,
    /// How the read sizes cluster.
    pub read_sizes: ReadSizes,
    /// Hold times of the timestamped content events (p50, p90, p99, max, mean); `None` without server times.
    pub hold_ms: Option<Percentiles>,
    /// Content events that carried a server timestamp.
    pub hold_events: usize,
    /// How regularly the content deliveries came and how many events each held (see [`super::cadence`]).
    #[serde(default)]
    pub release_cadence: ReleaseCadence,
}

/// A group of reads while it is being built.
struct Group {
    start_ms: f64,
    end_ms: f64,
    reads: usize,
    events: usize,
    messages: usize,
    bytes: usize,
    gap_before_ms: f64,
}

impl Group {
    fn delivery(&self) -> Delivery {
        Delivery {
            start_ms: self.start_ms,
            end_ms: self.end_ms,
            reads: self.reads,
            events: self.events,
            bytes: self.bytes,
            gap_before_ms: self.gap_before_ms,
        }
    }
}

/// Whether `len` is within [`SIZE_TOLERANCE`] of `size`.
fn near(len: usize, size: usize) -> bool {
    (len as f64 - size as f64).abs() <= size as f64 * SIZE_TOLERANCE
}

/// Hold time of every content event that carries `server_ms`, in event order (empty with fewer than 2).
pub fn hold_times_ms(analysis: &Analysis) -> Vec<f64> {
    let delays: Vec<f64> = analysis
        .content_events()
        .filter_map(|e| e.server_ms.map(|s| e.at_ms - s))
        .filter(|d| d.is_finite())
        .collect();
    if delays.len() < 2 {
        return Vec::new();
    }
    let base = delays.iter().copied().fold(f64::INFINITY, f64::min);
    delays.iter().map(|d| d - base).collect()
}

/// How the reads' sizes cluster at a buffer size and at a common size, over the reads of
/// `content_span` (the reads from the first content event's to the last one's; all reads when `None`).
///
/// Only the content span counts: a flood of keep-alive comments before the first token (or a long tail
/// after the last) reaches the browser in reads as big as its buffers whatever the path does, and says
/// nothing about whether content was held (regression: a healthy stream after a 4 MB keep-alive flood
/// was called buffered from three 64 KiB flood reads).
pub fn read_sizes(trace: &Trace, framing: Option<Framing>, content_span: Option<(usize, usize)>) -> ReadSizes {
    let (first, last) = content_span.unwrap_or((0, usize::MAX));
    let in_span = |&(i, _): &(usize, &ReadChunk)| (first..=last).contains(&i);
    let lens: Vec<usize> = trace.reads.iter().enumerate().filter(in_span).map(|(_, r)| r.len_bytes()).collect();
    let mut out = ReadSizes::default();
    for size in BUFFER_SIZES_BYTES {
        let n = lens.iter().filter(|&&l| near(l, size)).count();
        if n >= BUFFER_SIZE_MIN_READS && n > out.buffer_sized_reads {
            out.buffer_len_bytes = Some(size);
            out.buffer_sized_reads = n;
        }
    }
    let raw = framing == Some(Framing::Raw);
    // As f64 (exact for any read length), sorted by the sort the statistics use: no sort of its own.
    let mut cut: Vec<f64> = trace
        .reads
        .iter()
        .enumerate()
        .filter(in_span)
        .map(|(_, r)| r)
        .filter(|r| r.len_bytes() >= COMMON_SIZE_MIN_BYTES)
        // A read kept only as its length (over the trace cap) has no last byte to look at: it counts
        // for raw text only.
        .filter(|r| raw || (r.elided_bytes == 0 && !matches!(r.bytes.last(), Some(b'\n' | b'\r'))))
        .map(|r| r.len_bytes() as f64)
        .collect();
    crate::sort::sort_f64(&mut cut);
    for &size in &cut {
        let lo = cut.partition_point(|&l| l < size * (1.0 - SIZE_TOLERANCE));
        let hi = cut.partition_point(|&l| l <= size * (1.0 + SIZE_TOLERANCE));
        let n = hi - lo;
        if n >= COMMON_SIZE_MIN_READS && n > out.common_reads {
            out.common_len_bytes = Some(size as usize);
            out.common_reads = n;
        }
    }
    out
}

/// The read indices of the first and the last content event, when there is content.
fn content_span(analysis: &Analysis) -> Option<(usize, usize)> {
    let first = analysis.content_events().next()?.read_index;
    let last = analysis.content_events().last()?.read_index;
    Some((first, last))
}

impl DeliveryStats {
    /// Works out how the content of a trace was delivered, from the trace and its analysis.
    pub fn derive(trace: &Trace, analysis: &Analysis) -> DeliveryStats {
        let n_reads = trace.reads.len();
        let mut content_per_read = vec![0usize; n_reads];
        // The body of an error status delivers no content (`Trace::answered`).
        let answered = trace.answered();
        for e in analysis.content_events().filter(|_| answered) {
            if let Some(n) = content_per_read.get_mut(e.read_index) {
                *n += 1;
            }
        }
        let messages_of = |i: usize| analysis.messages_per_read.get(i).copied().unwrap_or(0);

        let mut groups: Vec<Group> = Vec::new();
        let mut group_of_read = Vec::with_capacity(n_reads);
        for (i, read) in trace.reads.iter().enumerate() {
            group_of_read.push(match groups.last() {
                Some(g) if read.at_ms - g.start_ms <= JOIN_MS => groups.len() - 1,
                _ => groups.len(),
            });
            match groups.last_mut() {
                Some(g) if read.at_ms - g.start_ms <= JOIN_MS => {
                    g.end_ms = read.at_ms;
                    g.reads += 1;
                    g.events += content_per_read[i];
                    g.messages += messages_of(i);
                    g.bytes = g.bytes.saturating_add(read.len_bytes());
                }
                last => {
                    let since = last.map_or(trace.headers_ms.unwrap_or(0.0), |g| g.end_ms);
                    groups.push(Group {
                        start_ms: read.at_ms,
                        end_ms: read.at_ms,
                        reads: 1,
                        events: content_per_read[i],
                        messages: messages_of(i),
                        bytes: read.len_bytes(),
                        gap_before_ms: (read.at_ms - since).max(0.0),
                    });
                }
            }
        }

        let raw = analysis.framing == Some(Framing::Raw);
        // The mean message size over the content span only: a keep-alive flood before the first token
        // (14-byte comments by the hundred thousand) would otherwise make every single token event look
        // like several messages' worth, a burst.
        let span = content_span(analysis).unwrap_or((0, n_reads.saturating_sub(1)));
        let span_reads = || trace.reads.iter().enumerate().skip(span.0).take(span.1.saturating_sub(span.0) + 1);
        let span_bytes = span_reads().fold(0usize, |sum, (_, r)| sum.saturating_add(r.len_bytes()));
        let span_messages: usize = span_reads().map(|(i, _)| messages_of(i)).sum();
        let mean_message_bytes = (span_messages > 0).then(|| span_bytes as f64 / span_messages as f64);
        let first_content = groups.iter().position(|g| g.events > 0);
        // The silence that says whether a delivery's reads came together: the one before it, or for the
        // first content delivery (whose silence before is the wait for the first token) the one after it.
        let silence_ms = |i: usize| match (Some(i) == first_content, groups.get(i + 1)) {
            (true, Some(next)) => next.start_ms - groups[i].end_ms,
            (true, None) => f64::INFINITY,
            (false, _) => groups[i].gap_before_ms,
        };
        let is_burst = |i: usize, g: &Group| {
            let merged = g.events >= TOGETHER_EVENTS_PER_READ * g.reads;
            if !merged && silence_ms(i) < BURST_GAP_SPAN_RATIO * (g.end_ms - g.start_ms) {
                return false;
            }
            if g.events >= BURST_MIN_EVENTS {
                return true;
            }
            let Some(mean) = mean_message_bytes.filter(|&m| m > 0.0 && g.events >= 1) else {
                return false;
            };
            let others = g.messages.saturating_sub(g.events) as f64;
            let worth = g.bytes as f64 / mean - others;
            worth >= BURST_MIN_EVENTS as f64 && (!raw || g.bytes >= COMMON_SIZE_MIN_BYTES)
        };

        let content: Vec<&Group> = groups.iter().filter(|g| g.events > 0).collect();
        let bursts: Vec<(usize, &Group)> = groups.iter().enumerate().filter(|&(i, g)| g.events > 0 && is_burst(i, g)).collect();
        let total_events: usize = content.iter().map(|g| g.events).sum();
        let burst_events: usize = bursts.iter().map(|(_, g)| g.events).sum();
        let burst_gaps: Vec<f64> =
            bursts.iter().filter(|&&(i, _)| Some(i) != first_content).map(|(_, g)| g.gap_before_ms).collect();
        let delivery_gaps: Vec<f64> = content.iter().skip(1).map(|g| g.gap_before_ms).collect();
        let content_reads = content_per_read.iter().filter(|&&n| n > 0).count();
        let (content_events_per_read_p50, content_events_per_read_p99) = per_read_p50_p99(&content_per_read);
        let holds = hold_times_ms(analysis);
        let release_cadence = ReleaseCadence::of(&releases(&groups, &group_of_read, analysis));

        DeliveryStats {
            deliveries: content.len(),
            delivery_gap_p50_ms: median(&delivery_gaps),
            bursts: bursts.iter().take(MAX_BURSTS_LISTED).map(|(_, g)| g.delivery()).collect(),
            burst_count: bursts.len(),
            events_per_burst_mean: (!bursts.is_empty())
                .then(|| burst_events as f64 / bursts.len() as f64),
            typical_gap_ms: median(&burst_gaps),
            burst_event_share: (total_events > 0)
                .then(|| burst_events as f64 / total_events as f64),
            content_events_per_read_mean: (content_reads > 0)
                .then(|| total_events as f64 / content_reads as f64),
            content_events_per_read_max: content_per_read.iter().copied().max().unwrap_or(0),
            content_events_per_read_p50,
            content_events_per_read_p99,
            read_sizes: read_sizes(trace, analysis.framing, content_span(analysis)),
            hold_ms: Percentiles::of(&holds),
            hold_events: holds.len(),
            release_cadence,
        }
    }
}

/// The content deliveries as releases, with the span of their content events' server timestamps.
fn releases(groups: &[Group], group_of_read: &[usize], analysis: &Analysis) -> Vec<Release> {
    let mut out: Vec<Release> = groups
        .iter()
        .map(|g| Release { start_ms: g.start_ms, events: g.events, server_span_ms: None, stamped_events: 0 })
        .collect();
    for e in analysis.content_events() {
        let (Some(&g), Some(s)) = (group_of_read.get(e.read_index), e.server_ms.filter(|s| s.is_finite())) else {
            continue;
        };
        let r = &mut out[g];
        r.stamped_events += 1;
        r.server_span_ms = Some(r.server_span_ms.map_or((s, s), |(lo, hi)| (lo.min(s), hi.max(s))));
    }
    out.retain(|r| r.events > 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::trace::{ReadChunk, TraceEnd};

    fn content(text: &str) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}\n\n")
    }

    fn timed(text: &str, server_ms: f64) -> String {
        format!(
            "data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}],\"server_ms\":{server_ms}}}\n\n"
        )
    }

    fn stats(reads: Vec<(f64, String)>) -> DeliveryStats {
        let end = reads.last().map_or(0.0, |r| r.0) + 1.0;
        let t = Trace::from_reads(
            200,
            "text/event-stream",
            10.0,
            reads,
            TraceEnd::Complete { at_ms: end },
        );
        DeliveryStats::derive(&t, &analyze(&t))
    }

    #[test]
    fn one_event_per_read_is_no_burst() {
        let d = stats(
            (0..10)
                .map(|i| (100.0 + 20.0 * i as f64, content("t")))
                .collect(),
        );
        assert_eq!(
            (d.deliveries, d.burst_count, d.burst_event_share),
            (10, 0, Some(0.0))
        );
        assert_eq!(d.delivery_gap_p50_ms, Some(20.0));
        assert_eq!(d.content_events_per_read_mean, Some(1.0));
        assert!(d.bursts.is_empty() && d.typical_gap_ms.is_none() && d.hold_ms.is_none());
    }

    /// Regression guard (a gap noted in issue 10): a long stream of small bursts listed every one of
    /// them in the report.
    #[test]
    fn a_report_lists_at_most_2000_bursts_and_counts_them_all() {
        let three = content("a") + &content("b") + &content("c");
        let d = stats((0..2_500).map(|i| (100.0 + 200.0 * i as f64, three.clone())).collect());
        assert_eq!((d.burst_count, d.bursts.len()), (2_500, MAX_BURSTS_LISTED));
        assert_eq!(d.events_per_burst_mean, Some(3.0));
    }

    #[test]
    fn three_events_in_one_read_after_a_gap_are_a_burst() {
        let three = content("a") + &content("b") + &content("c");
        let d = stats(vec![
            (100.0, content("x")),
            (400.0, three.clone()),
            (700.0, three),
        ]);
        assert_eq!(d.burst_count, 2);
        assert_eq!(d.bursts[0].events, 3);
        assert_eq!(d.bursts[0].gap_before_ms, 300.0);
        assert_eq!(d.bursts[0].bytes, content("a").len() * 3);
        assert_eq!(d.typical_gap_ms, Some(300.0));
        assert_eq!(d.events_per_burst_mean, Some(3.0));
        assert!((d.burst_event_share.unwrap() - 6.0 / 7.0).abs() < 1e-9);
        assert_eq!(d.content_events_per_read_max, 3);
    }

    #[test]
    fn reads_within_join_window_are_one_delivery() {
        let two = content("a") + &content("b");
        let d = stats(vec![
            (100.0, two),
            (101.5, content("c")),
            (300.0, content("d")),
        ]);
        assert_eq!(d.deliveries, 2);
        assert_eq!(d.burst_count, 1);
        assert_eq!(
            (d.bursts[0].reads, d.bursts[0].events, d.bursts[0].end_ms),
            (2, 3, 101.5)
        );
        assert_eq!(d.bursts[0].gap_before_ms, 90.0, "from the headers at 10 ms");
        assert_eq!(
            d.typical_gap_ms, None,
            "the first delivery's gap is the wait for the first token"
        );
    }

    #[test]
    fn fast_trickle_is_not_chained_into_one_delivery() {
        // A token every 1.5 ms: each read is within 2 ms of the previous one, but deliveries must not chain.
        let d = stats(
            (0..40)
                .map(|i| (100.0 + 1.5 * i as f64, content("t")))
                .collect(),
        );
        assert!(d.deliveries >= 20, "{}", d.deliveries);
    }

    /// Regression guard: the release page read a 1,000 events/s lab stream one event at a time and core
    /// counted 1,298 bursts of about 3 events (every 2 ms delivery), shading the whole timeline as held.
    #[test]
    fn a_fast_stream_read_one_event_at_a_time_has_no_bursts() {
        for (per_event_ms, events) in [(1.0, 3_000), (0.5, 4_000), (0.7, 3_000), (0.9, 2_000)] {
            let d = stats((0..events).map(|i| (100.0 + per_event_ms * i as f64, content("t"))).collect());
            assert!(d.deliveries * 3 <= events as usize + 3, "{per_event_ms} ms: {} deliveries", d.deliveries);
            assert_eq!((d.burst_count, d.burst_event_share), (0, Some(0.0)), "{per_event_ms} ms per event");
            assert!(d.bursts.is_empty() && d.typical_gap_ms.is_none());
        }
    }

    #[test]
    fn a_held_release_split_into_reads_is_still_one_burst() {
        // Ten events held 200 ms, then read in three reads over 1.5 ms: a burst, as when they come in one.
        let four = content("a").repeat(4);
        let d = stats(vec![
            (100.0, content("x")),
            (300.0, four.clone()),
            (300.7, four),
            (301.5, content("b") + &content("c")),
            (500.0, content("y")),
        ]);
        assert_eq!((d.burst_count, d.bursts[0].reads, d.bursts[0].events), (1, 3, 10));
        assert_eq!(d.typical_gap_ms, Some(200.0));
    }

    #[test]
    fn a_delivery_spread_over_more_than_half_the_silence_before_it_is_no_burst() {
        // Three reads of one event over 2 ms after 3.9 ms of silence: paced, not held (3.9 < 2 x 2).
        // The same three after 4 ms of silence came together.
        for (silence_ms, bursts) in [(3.9, 0), (4.0, 1)] {
            let start = 100.0 + silence_ms;
            let d = stats(vec![
                (100.0, content("x")),
                (start, content("a")),
                (start + 1.0, content("b")),
                (start + 2.0, content("c")),
                (start + 300.0, content("y")),
            ]);
            assert_eq!(d.burst_count, bursts, "after {silence_ms} ms");
        }
    }

    #[test]
    fn final_token_sharing_a_read_with_finish_usage_done_is_no_burst() {
        let tail = content("z")
            + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
            + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}\n\n"
            + "data: [DONE]\n\n";
        let d = stats(vec![
            (100.0, content("x")),
            (120.0, content("y")),
            (140.0, tail),
        ]);
        assert_eq!(d.burst_count, 0);
    }

    #[test]
    fn hold_times_use_the_least_delayed_event_as_baseline() {
        // Produced at 0, 20, 40 (server clock); the first two held until 95 and the third arrives at 95.
        let d = stats(vec![
            (
                95.0,
                timed("a", 0.0) + &timed("b", 20.0) + &timed("c", 40.0),
            ),
            (120.0, timed("d", 65.0)),
        ]);
        let h = d.hold_ms.unwrap();
        assert_eq!((h.max, h.p50), (40.0, 10.0));
        assert_eq!(d.hold_events, 4);
    }

    #[test]
    fn buffer_sized_and_common_read_sizes() {
        let mut t = Trace::from_reads(
            200,
            "text/event-stream",
            1.0,
            Vec::<(f64, Vec<u8>)>::new(),
            TraceEnd::Complete { at_ms: 9.0 },
        );
        for (i, len) in [4096usize, 4096, 4100, 700, 2000].iter().enumerate() {
            let mut bytes = vec![b'x'; *len];
            bytes[0] = b'd';
            t.reads.push(ReadChunk {
                at_ms: i as f64 * 100.0,
                bytes,
                elided_bytes: 0,
            });
        }
        let s = read_sizes(&t, Some(Framing::Sse), None);
        assert_eq!((s.buffer_len_bytes, s.buffer_sized_reads), (Some(4096), 3));
        assert_eq!((s.common_len_bytes, s.common_reads), (Some(4096), 3));
    }

    /// Regression: three 64 KiB reads of a keep-alive flood before the first token made a healthy stream
    /// `buffered` (the browser fills its buffer with a flood whatever the path does).
    #[test]
    fn keepalive_flood_in_buffer_sized_reads_before_the_first_token_is_not_buffering() {
        let comment = ": keep-alive\n\n";
        let flood = comment.repeat(65536 / comment.len() + 1);
        let mut reads: Vec<(f64, String)> = (0..3).map(|i| (5.0 + i as f64, flood[..65536].to_string())).collect();
        // The 65536-byte cuts end inside a comment: the rest of it opens the first content read.
        let tail = &flood[65536 % comment.len()..][..comment.len() - 65536 % comment.len()];
        reads.push((300.0, format!("{}{}", &comment[comment.len() - tail.len()..], content("a"))));
        reads.extend((1..50).map(|i| (300.0 + 20.0 * i as f64, content("t"))));
        let t = Trace::from_reads(200, "text/event-stream", 4.0, reads.clone(), TraceEnd::Complete { at_ms: 1300.0 });
        let analysis = analyze(&t);
        let d = DeliveryStats::derive(&t, &analysis);
        assert_eq!((d.read_sizes.buffer_len_bytes, d.read_sizes.buffer_sized_reads), (None, 0), "{:?}", d.read_sizes);
        assert_eq!(d.burst_count, 0, "one token per read is no burst, however small the comments before it were");
        let m = crate::measure::Metrics::derive(&t, &analysis);
        assert_eq!(crate::verdict::classify_with(&t, &analysis, &m, &d), crate::verdict::Verdict::Streaming);
        // The same reads counted over the whole trace do cluster at 64 KiB: the span is what changed.
        assert_eq!(read_sizes(&t, Some(Framing::Sse), None).buffer_sized_reads, 3);
    }

    #[test]
    fn coalesced_whole_events_do_not_form_a_common_size() {
        let three: String = (0..3).map(|_| content(&"p".repeat(400))).collect();
        let t = Trace::from_reads(
            200,
            "text/event-stream",
            1.0,
            (0..6).map(|i| (i as f64 * 30.0, three.clone())),
            TraceEnd::Complete { at_ms: 200.0 },
        );
        let s = read_sizes(&t, Some(Framing::Sse), None);
        assert_eq!(
            (s.common_len_bytes, s.common_reads),
            (None, 0),
            "reads end at an event boundary"
        );
    }

    #[test]
    fn delivery_stats_json_field_names() {
        let v = serde_json::to_value(stats(vec![(100.0, content("a"))])).unwrap();
        for key in [
            "deliveries",
            "delivery_gap_p50_ms",
            "bursts",
            "burst_count",
            "events_per_burst_mean",
            "typical_gap_ms",
            "burst_event_share",
            "content_events_per_read_mean",
            "content_events_per_read_max",
            "content_events_per_read_p50",
            "content_events_per_read_p99",
            "read_sizes",
            "hold_ms",
            "hold_events",
        ] {
            assert!(v.as_object().unwrap().contains_key(key), "missing {key}");
        }
        for key in [
            "buffer_len_bytes",
            "buffer_sized_reads",
            "common_len_bytes",
            "common_reads",
        ] {
            assert!(
                v["read_sizes"].as_object().unwrap().contains_key(key),
                "missing {key}"
            );
        }
        let b = serde_json::to_value(Delivery {
            start_ms: 1.0,
            end_ms: 2.0,
            reads: 1,
            events: 3,
            bytes: 9,
            gap_before_ms: 4.0,
        })
        .unwrap();
        assert_eq!(
            b,
            serde_json::json!({"start_ms": 1.0, "end_ms": 2.0, "reads": 1, "events": 3, "bytes": 9, "gap_before_ms": 4.0})
        );
    }
}
