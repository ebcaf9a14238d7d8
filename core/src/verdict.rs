//! The one-word verdict of a run: streaming, buffered, collected or failed, from what was measured
//! (timing, read sizes, server timestamps), never from the URL or a product name.
//!
//! - `failed` when the run did not end complete (time-out, network error, cancel, or still running),
//!   the status is 400 or above, or no content event arrived at all;
//! - `collected` when at least 2 content events arrived, the first of them at or after 90% of the total
//!   time, and they came packed into the final read(s), at least 2 content events per read that carried
//!   content (everything came at once at the end: a genuinely streamed short answer after a long wait
//!   arrives one token per read and stays `streaming`);
//! - `buffered` when content was held and released in bursts (see [`crate::measure::delivery`] for deliveries,
//!   bursts, gaps, read sizes and hold times): at least [`BUFFERED_MIN_CONTENT_EVENTS`] (6) content
//!   events and at least [`BUFFERED_MIN_BURSTS`] (2) bursts, plus one of these signals (raw text: see
//!   the last one):
//!   - **bursts** (timing alone, no server timestamps needed): at least [`BURST_SHARE_MIN`] (half) of
//!     the content events arrived in bursts, a burst carries at least [`BURST_MEAN_EVENTS_MIN`] (4) events
//!     on average, and the typical silence before a burst is at least [`BURST_GAP_MIN_MS`] (150 ms);
//!   - **hold_times**: the server's own timestamps show the median hold at least [`HOLD_P50_MIN_MS`]
//!     (100 ms): most events waited on the way (the median, not a high percentile, so that one network
//!     stall holding a tenth of the stream does not count);
//!   - **buffer_sized_reads**: at least half of the content arrived in bursts and at least 2 reads were
//!     of a standard buffer size (4/8/16/32/64 KiB) or at least 3 reads cut inside a line share one size
//!     (a fixed-size buffer flushing: this catches buffering whose gaps are short, e.g. large events or a
//!     fast model). Raw text has no events to count (each read is one), so there at least 3 reads of
//!     such a size, at least half of the content reads, with a median silence of at least
//!     [`BURST_GAP_MIN_MS`] between content deliveries suffice;
//! - `streaming` otherwise.
//!
//! Why these thresholds: a healthy stream must never be called buffered. A browser that falls behind
//! (a busy page, a loaded local model at 5-10 ms per token) merges 2-3 events into one read after a
//! frame or two, 16-50 ms, so bursts of 3 after short gaps are normal; TCP splits events but never merges
//! them across seconds; a cold start inflates only the first gap (left out of the typical gap); a server
//! that puts several tokens in one event still sends one event per read. A buffering proxy, by contrast,
//! releases 4 KiB (about 20 events of a 20 ms stream) every 400 ms: 4 events and 150 ms sit far below
//! that and far above a browser's hiccups. Requiring 2 bursts and 6 events keeps one network stall or a
//! short answer from deciding alone; a short stream released entirely at the end is `collected`.

use serde::{Deserialize, Serialize};

use crate::analysis::Analysis;
use crate::measure::DeliveryStats;
use crate::wire::Framing;
use crate::measure::Metrics;
use crate::trace::{Trace, TraceEnd};

/// The verdict of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Content arrived as it was produced.
    Streaming,
    /// Something held content and released it in bursts.
    Buffered,
    /// The whole answer arrived at once at the end.
    Collected,
    /// No usable stream: HTTP error, network failure, time-out, cancel, or no content.
    Failed,
}

impl Verdict {
    /// The lower-case name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Streaming => "streaming",
            Verdict::Buffered => "buffered",
            Verdict::Collected => "collected",
            Verdict::Failed => "failed",
        }
    }
}

/// Which measured pattern showed that content was held and released in bursts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BufferedSignal {
    /// Most content came in large bursts after long silences.
    Bursts,
    /// The server's timestamps show events held for long.
    HoldTimes,
    /// Reads of a buffer size (or one shared size, cut inside events) carried the bursts.
    BufferSizedReads,
}

impl BufferedSignal {
    /// The snake_case name used in finding evidence.
    pub fn as_str(self) -> &'static str {
        match self {
            BufferedSignal::Bursts => "bursts",
            BufferedSignal::HoldTimes => "hold_times",
            BufferedSignal::BufferSizedReads => "buffer_sized_reads",
        }
    }
}

/// The share of the total time before which the first content must not arrive for `collected`.
pub const COLLECTED_FIRST_CONTENT_SHARE: f64 = 0.9;

/// Content events below which a run is never called buffered.
pub const BUFFERED_MIN_CONTENT_EVENTS: usize = 6;

/// Bursts below which a run is never called buffered.
pub const BUFFERED_MIN_BURSTS: usize = 2;

/// The share of content events that must arrive in bursts (bursts and buffer-size signals).
pub const BURST_SHARE_MIN: f64 = 0.5;

/// The mean content events per burst the bursts signal needs.
pub const BURST_MEAN_EVENTS_MIN: f64 = 4.0;

/// The typical silence before a burst the bursts signal needs, in ms.
pub const BURST_GAP_MIN_MS: f64 = 150.0;

/// The median hold time the hold-times signal needs, in ms.
pub const HOLD_P50_MIN_MS: f64 = 100.0;

/// Whether the run failed: not ended complete, HTTP status 400 or above, or no content at all.
pub fn is_failed(trace: &Trace, metrics: &Metrics) -> bool {
    !matches!(trace.end, Some(TraceEnd::Complete { .. }))
        || trace.status.is_some_and(|s| s >= 400)
        || metrics.content_events == 0
}

/// Whether all content arrived at once at the very end (see the module docs for the exact rule).
pub fn is_collected(metrics: &Metrics) -> bool {
    let (Some(first_ms), Some(total_ms)) = (metrics.ttft_ms, metrics.total_ms) else {
        return false;
    };
    metrics.content_events >= 2
        && first_ms >= COLLECTED_FIRST_CONTENT_SHARE * total_ms
        && metrics.content_events >= 2 * metrics.content_reads
}

/// The signals (see the module docs) that show content was held and released in bursts; empty when
/// nothing does.
pub fn buffered_signals(
    metrics: &Metrics,
    delivery: &DeliveryStats,
    framing: Option<Framing>,
) -> Vec<BufferedSignal> {
    let mut out = Vec::new();
    let sizes = &delivery.read_sizes;
    if framing == Some(Framing::Raw) {
        let sized = sizes.buffer_sized_reads.max(sizes.common_reads);
        let slow = delivery
            .delivery_gap_p50_ms
            .is_some_and(|g| g >= BURST_GAP_MIN_MS);
        if sized >= 3 && 2 * sized >= metrics.content_reads && slow {
            out.push(BufferedSignal::BufferSizedReads);
        }
    }
    if metrics.content_events < BUFFERED_MIN_CONTENT_EVENTS
        || delivery.burst_count < BUFFERED_MIN_BURSTS
    {
        return out;
    }
    let share = delivery.burst_event_share.unwrap_or(0.0);
    let mean = delivery.events_per_burst_mean.unwrap_or(0.0);
    let gap = delivery.typical_gap_ms.unwrap_or(0.0);
    if share >= BURST_SHARE_MIN && mean >= BURST_MEAN_EVENTS_MIN && gap >= BURST_GAP_MIN_MS {
        out.push(BufferedSignal::Bursts);
    }
    if delivery.hold_ms.is_some_and(|h| h.p50 >= HOLD_P50_MIN_MS) {
        out.push(BufferedSignal::HoldTimes);
    }
    let sized = sizes.buffer_sized_reads >= 2 || sizes.common_reads >= 3;
    if sized && share >= BURST_SHARE_MIN && !out.contains(&BufferedSignal::BufferSizedReads) {
        out.push(BufferedSignal::BufferSizedReads);
    }
    out
}

/// Classifies a run from what was measured (never from the URL or a product name).
pub fn classify(trace: &Trace, analysis: &Analysis, metrics: &Metrics) -> Verdict {
    classify_with(
        trace,
        analysis,
        metrics,
        &DeliveryStats::derive(trace, analysis),
    )
}

/// Classifies a run whose delivery was already worked out (the same as [`classify`]).
pub fn classify_with(
    trace: &Trace,
    analysis: &Analysis,
    metrics: &Metrics,
    delivery: &DeliveryStats,
) -> Verdict {
    if is_failed(trace, metrics) {
        Verdict::Failed
    } else if is_collected(metrics) {
        Verdict::Collected
    } else if !buffered_signals(metrics, delivery, analysis.framing).is_empty() {
        Verdict::Buffered
    } else {
        Verdict::Streaming
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::trace::TimeoutKind;

    fn content(text: &str) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}\n\n")
    }

    fn trace(status: u16, reads: Vec<(f64, String)>, end: TraceEnd) -> Trace {
        Trace::from_reads(status, "text/event-stream", 50.0, reads, end)
    }

    fn verdict(t: &Trace) -> Verdict {
        let a = analyze(t);
        classify(t, &a, &Metrics::derive(t, &a))
    }

    fn steady() -> Vec<(f64, String)> {
        (0..20)
            .map(|i| (300.0 + 20.0 * i as f64, content("t")))
            .collect()
    }

    fn complete(at_ms: f64) -> TraceEnd {
        TraceEnd::Complete { at_ms }
    }

    #[test]
    fn steady_stream_is_streaming() {
        assert_eq!(
            verdict(&trace(200, steady(), complete(700.0))),
            Verdict::Streaming
        );
    }

    #[test]
    fn everything_in_one_read_at_the_end_is_collected() {
        let all: String = (0..20).map(|_| content("t")).collect::<String>() + "data: [DONE]\n\n";
        assert_eq!(
            verdict(&trace(200, vec![(2500.0, all)], complete(2501.0))),
            Verdict::Collected
        );
    }

    #[test]
    fn collected_even_after_an_early_keepalive_and_role_chunk() {
        let role = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n".to_string();
        let all: String = (0..20).map(|_| content("t")).collect();
        let (a, b) = all.split_at(all.len() / 2);
        let reads = vec![
            (60.0, ": ping\n\n".into()),
            (70.0, role),
            (3000.0, a.into()),
            (3001.0, b.into()),
        ];
        assert_eq!(
            verdict(&trace(200, reads, complete(3002.0))),
            Verdict::Collected
        );
    }

    #[test]
    fn short_answer_streamed_after_long_wait_is_not_collected() {
        let reads: Vec<(f64, String)> = (0..5)
            .map(|i| (2800.0 + 20.0 * i as f64, content("t")))
            .collect();
        assert_eq!(
            verdict(&trace(200, reads, complete(2900.0))),
            Verdict::Streaming
        );
    }

    #[test]
    fn single_content_event_is_not_collected() {
        assert_eq!(
            verdict(&trace(
                200,
                vec![(2000.0, content("all"))],
                complete(2001.0)
            )),
            Verdict::Streaming
        );
    }

    #[test]
    fn http_500_is_failed() {
        let body = "{\"error\":{\"message\":\"boom\"}}".to_string();
        assert_eq!(
            verdict(&trace(500, vec![(80.0, body)], complete(81.0))),
            Verdict::Failed
        );
    }

    #[test]
    fn http_error_is_failed_even_with_text_body() {
        assert_eq!(
            verdict(&trace(
                404,
                vec![(80.0, "Not Found".into())],
                complete(81.0)
            )),
            Verdict::Failed
        );
    }

    #[test]
    fn every_unclean_end_is_failed() {
        let ends = [
            TraceEnd::NetworkError {
                at_ms: 800.0,
                message: "reset".into(),
                during_body: true,
            },
            TraceEnd::Timeout {
                at_ms: 800.0,
                timeout: TimeoutKind::Headers,
                limit_ms: 800.0,
            },
            TraceEnd::Timeout {
                at_ms: 800.0,
                timeout: TimeoutKind::FirstByte,
                limit_ms: 800.0,
            },
            TraceEnd::Timeout {
                at_ms: 800.0,
                timeout: TimeoutKind::Idle,
                limit_ms: 100.0,
            },
            TraceEnd::Timeout {
                at_ms: 800.0,
                timeout: TimeoutKind::Total,
                limit_ms: 800.0,
            },
            TraceEnd::Cancelled { at_ms: 800.0 },
        ];
        for end in ends {
            assert_eq!(
                verdict(&trace(200, steady(), end.clone())),
                Verdict::Failed,
                "{end:?}"
            );
        }
    }

    #[test]
    fn unfinished_run_is_failed() {
        let mut t = trace(200, steady(), complete(700.0));
        t.end = None;
        assert_eq!(verdict(&t), Verdict::Failed);
    }

    #[test]
    fn no_content_is_failed() {
        let reads = vec![(
            100.0,
            "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\ndata: [DONE]\n\n".into(),
        )];
        assert_eq!(
            verdict(&trace(200, reads, complete(101.0))),
            Verdict::Failed
        );
        assert_eq!(
            verdict(&trace(200, vec![], complete(101.0))),
            Verdict::Failed
        );
    }

    #[test]
    fn verdict_serde_names() {
        assert_eq!(
            serde_json::to_string(&Verdict::Collected).unwrap(),
            "\"collected\""
        );
        assert_eq!(Verdict::Buffered.as_str(), "buffered");
        assert_eq!(
            serde_json::to_value(BufferedSignal::HoldTimes).unwrap(),
            BufferedSignal::HoldTimes.as_str()
        );
    }

    /// `bursts` reads of `size` content events, the first at 500 ms, then every `every_ms`.
    fn bursts(count: usize, size: usize, every_ms: f64) -> Vec<(f64, String)> {
        let burst: String = (0..size).map(|_| content("t")).collect();
        (0..count)
            .map(|i| (500.0 + every_ms * i as f64, burst.clone()))
            .collect()
    }

    fn ended(reads: Vec<(f64, String)>) -> Trace {
        let end = reads.last().map_or(0.0, |r| r.0) + 1.0;
        trace(200, reads, complete(end))
    }

    #[test]
    fn bursts_of_twenty_every_400ms_are_buffered() {
        assert_eq!(verdict(&ended(bursts(5, 20, 400.0))), Verdict::Buffered);
    }

    #[test]
    fn burst_gap_threshold_separates_a_hiccup_from_a_buffer() {
        assert_eq!(verdict(&ended(bursts(6, 5, 140.0))), Verdict::Streaming);
        assert_eq!(verdict(&ended(bursts(6, 5, 160.0))), Verdict::Buffered);
    }

    #[test]
    fn bursts_of_three_are_what_a_busy_page_makes_not_a_buffer() {
        assert_eq!(verdict(&ended(bursts(10, 3, 300.0))), Verdict::Streaming);
    }

    #[test]
    fn one_burst_is_not_enough_for_buffered() {
        let mut reads: Vec<(f64, String)> = (0..20)
            .map(|i| (300.0 + 20.0 * i as f64, content("t")))
            .collect();
        reads.extend(bursts(1, 20, 0.0).into_iter().map(|(t, b)| (t + 700.0, b)));
        reads.extend((0..20).map(|i| (1300.0 + 20.0 * i as f64, content("t"))));
        assert_eq!(verdict(&ended(reads)), Verdict::Streaming);
    }

    #[test]
    fn bursts_where_half_the_content_trickles_are_not_buffered() {
        // Two big bursts, but more than half of the content streamed one event per read.
        let mut reads = bursts(2, 10, 400.0);
        reads.extend((0..30).map(|i| (1000.0 + 20.0 * i as f64, content("t"))));
        assert_eq!(verdict(&ended(reads)), Verdict::Streaming);
    }

    #[test]
    fn everything_at_the_end_stays_collected_not_buffered() {
        let reads = bursts(2, 20, 1.0)
            .into_iter()
            .map(|(t, b)| (t + 3000.0, b))
            .collect();
        assert_eq!(verdict(&ended(reads)), Verdict::Collected);
    }

    #[test]
    fn failed_run_with_bursts_is_failed() {
        let mut t = ended(bursts(5, 20, 400.0));
        t.end = Some(TraceEnd::Cancelled { at_ms: 3000.0 });
        assert_eq!(verdict(&t), Verdict::Failed);
    }

    #[test]
    fn buffered_signals_name_the_rule_that_fired() {
        let t = ended(bursts(5, 20, 400.0));
        let a = analyze(&t);
        let m = Metrics::derive(&t, &a);
        let d = DeliveryStats::derive(&t, &a);
        assert_eq!(
            buffered_signals(&m, &d, a.framing),
            vec![BufferedSignal::Bursts]
        );
        let t = ended(bursts(3, 1, 400.0));
        let a = analyze(&t);
        let m = Metrics::derive(&t, &a);
        assert!(buffered_signals(&m, &DeliveryStats::derive(&t, &a), a.framing).is_empty());
    }
}
