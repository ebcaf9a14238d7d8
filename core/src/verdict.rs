//! The one-word verdict of a run: streaming, buffered, collected or failed, from what was measured
//! (timing, read sizes, server timestamps), never from the URL or a product name.
//!
//! - `failed` when the run did not end complete (time-out, network error, cancel, or still running),
//!   the status is 400 or above, or no content event arrived at all;
//! - `collected` when at least 2 content events arrived, the first of them at or after 90% of the total
//!   time, and they came packed into the final read(s), at least 2 content events per read that carried
//!   content (everything came at once at the end: a genuinely streamed short answer after a long wait
//!   arrives one token per read and stays `streaming`); or when the body was one JSON answer, not a
//!   stream ([`is_one_json_answer`]: a request that did not ask to stream, or an endpoint that cannot);
//! - `buffered` when content was held and released in bursts (see [`crate::measure::delivery`] for deliveries,
//!   bursts, gaps, read sizes and hold times): at least [`BUFFERED_MIN_CONTENT_EVENTS`] (6) content
//!   events and at least [`BUFFERED_MIN_BURSTS`] (2) bursts plus one of the signals bursts, hold_times
//!   or buffer_sized_reads below; or the release_cadence or held_start signal, each of which sets its
//!   own minimums (raw text: see the last signal):
//!   - **bursts** (timing alone, no server timestamps needed): at least [`BURST_SHARE_MIN`] (half) of
//!     the content events arrived in bursts, a burst carries at least [`BURST_MEAN_EVENTS_MIN`] (4) events
//!     on average, and the typical silence before a burst is at least [`BURST_GAP_MIN_MS`] (150 ms);
//!   - **hold_times**: the server's own timestamps show the median hold at least [`HOLD_P50_MIN_MS`]
//!     (100 ms): most events waited on the way (the median, not a high percentile, so that one network
//!     stall holding a tenth of the stream does not count);
//!   - **release_cadence** (timing alone, for a relay that flushes on a timer slower than the tokens,
//!     in bursts too small for the bursts signal; checked only when no other signal fired, so that each
//!     signal list stays what it was; see [`crate::measure::cadence`]): at least [`CADENCE_MIN_RELEASES`] (6) content deliveries, a
//!     median period between them of at least [`BURST_GAP_MIN_MS`] (150 ms), at least
//!     [`CADENCE_REGULAR_SHARE_MIN`] (60%) of the intervals within ±25% of that period, and at least
//!     [`CADENCE_EVENTS_PER_RELEASE_MIN`] (2.5) content events per delivery on average: the reads came
//!     on a clock of their own, each holding the several tokens made meanwhile. Unless the server's
//!     timestamps show it wrote each delivery's events together (their spread inside a delivery under
//!     [`CADENCE_SERVER_SPREAD_SHARE_MAX`] (20%) of the period: an engine's own micro-batching, not the
//!     path). Small bursts do not escape this rule: 3 tokens every 250 ms is a timer, not a hiccup;
//!   - **held_start** (timing alone, for a path that held the start of a short answer and let the rest
//!     through in one or two more deliveries, too few for the bursts signal's typical gap; checked only
//!     when no other signal fired): at least [`BURST_SHARE_MIN`] (half) of the content events arrived in
//!     bursts (one stall at the start, a lost segment sent again, and then a flowing stream is not
//!     enough), the first content delivery is a burst of at least
//!     [`HELD_START_MIN_EVENTS`] (8) content events, at least [`HELD_START_MIN_LATER_EVENTS`] (2) content
//!     events came after it, and at the pace those later events came (their span over their count) the
//!     first delivery's events took at least [`BURST_GAP_MIN_MS`] (150 ms) to make: `(events - 1) x pace`,
//!     the least time its first token can have waited. A fast model whose first read merged a few ms of
//!     tokens has a pace of a ms or less (20 events, 10 ms); an engine writing K events at once every
//!     K tokens' time makes `(K - 1) x pace`, less than its own period, so only a period of 150 ms or
//!     more fires, where the bursts and release-cadence signals fire too;
//!   - **buffer_sized_reads**: at least half of the content arrived in bursts and at least 2 reads were
//!     of a standard buffer size (4/8/16/32/64 KiB) or at least 3 reads cut inside a line share one size,
//!     and those reads are at least [`SIZED_READS_SHARE_MIN`] (a quarter) of the reads that carried
//!     content (a fixed-size buffer flushing: this catches buffering whose gaps are short, e.g. large
//!     events or a fast model; a few such reads among thousands are a fast stream's stalls). Raw text
//!     has no events to count (each read is one), so there at least 3 reads of such a size, at least
//!     half of the content reads, with a median silence of at least [`BURST_GAP_MIN_MS`] between content
//!     deliveries suffice;
//! - `streaming` otherwise.
//!
//! Why these thresholds: a healthy stream must never be called buffered. A browser that falls behind
//! (a busy page, a loaded local model at 5-10 ms per token) merges 2-3 events into one read after a
//! frame or two, 16-50 ms, so bursts of 3 after short gaps are normal; an engine that micro-batches
//! (speculative decoding, multi-step scheduling) writes a few events at once every few tens of ms, and
//! irregularly; TCP splits events but never merges them across seconds; a cold start inflates only the
//! first gap (left out of the typical gap); a server that puts several tokens in one event still sends
//! one event per read (events are counted, not tokens). Only a clock of 150 ms or more, kept for most
//! of the run, with most deliveries holding 3 events, makes the cadence rule fire: no browser hiccup or
//! network jitter is that regular. Without server timestamps an engine that itself batches 3 events
//! every 150 ms or more looks exactly like such a relay; the user sees the same lumps either way, and
//! the finding says both. A buffering proxy, by contrast,
//! releases 4 KiB (about 20 events of a 20 ms stream) every 400 ms: 4 events and 150 ms sit far below
//! that and far above a browser's hiccups. Requiring 2 bursts and 6 events keeps one network stall or a
//! short answer from deciding alone; a short stream released entirely at the end is `collected`.

use serde::Serialize;

use crate::analysis::Analysis;
use crate::measure::delivery::{ReadSizes, BUFFER_SIZE_MIN_READS, COMMON_SIZE_MIN_READS};
use crate::measure::{DeliveryStats, ReleaseCadence};
use crate::wire::Framing;
use crate::measure::Metrics;
use crate::trace::{Trace, TraceEnd};

/// The verdict of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// Every verdict, best first.
    pub const ALL: [Verdict; 4] = [Verdict::Streaming, Verdict::Buffered, Verdict::Collected, Verdict::Failed];

    /// The verdict whose report name ([`Verdict::as_str`]) is `code`.
    pub fn from_code(code: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == code)
    }

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

serde_by_name!(Verdict => as_str);
deserialize_by_name!(BufferedSignal => as_str);

/// Which measured pattern showed that content was held and released in bursts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BufferedSignal {
    /// Most content came in large bursts after long silences.
    Bursts,
    /// The server's timestamps show events held for long.
    HoldTimes,
    /// Reads of a buffer size (or one shared size, cut inside events) carried the bursts.
    BufferSizedReads,
    /// Deliveries came on a regular clock much slower than the tokens, several events each.
    ReleaseCadence,
    /// The first delivery carried a backlog: more of the answer than the rest of the stream's pace makes
    /// in the time a hiccup lasts.
    HeldStart,
}

impl BufferedSignal {
    /// Every signal.
    pub const ALL: [BufferedSignal; 5] = [
        BufferedSignal::Bursts,
        BufferedSignal::HoldTimes,
        BufferedSignal::BufferSizedReads,
        BufferedSignal::ReleaseCadence,
        BufferedSignal::HeldStart,
    ];

    /// The snake_case name used in finding evidence.
    pub fn as_str(self) -> &'static str {
        match self {
            BufferedSignal::Bursts => "bursts",
            BufferedSignal::HoldTimes => "hold_times",
            BufferedSignal::BufferSizedReads => "buffer_sized_reads",
            BufferedSignal::ReleaseCadence => "release_cadence",
            BufferedSignal::HeldStart => "held_start",
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

/// The share of the reads that carried content which reads of one size must make up for the
/// buffer-size signal. A handful among thousands is what stalls of a fast stream produce (at 2,000
/// events/s a 20 ms stall is a 4 KiB read, and a few reads over 1 KiB share a size within 1/64 by
/// chance); a buffer that releases the content is most of the reads.
pub const SIZED_READS_SHARE_MIN: f64 = 0.25;

/// Content deliveries the release-cadence signal needs.
pub const CADENCE_MIN_RELEASES: usize = 6;

/// Share of the intervals between deliveries that must sit within ±25% of their median period.
pub const CADENCE_REGULAR_SHARE_MIN: f64 = 0.6;

/// Mean content events per delivery the release-cadence signal needs.
pub const CADENCE_EVENTS_PER_RELEASE_MIN: f64 = 2.5;

/// Server-timestamp spread inside a delivery, as a share of the period, below which the server itself
/// wrote the delivery's events together (the release-cadence signal then stays silent).
pub const CADENCE_SERVER_SPREAD_SHARE_MAX: f64 = 0.2;

/// The median period of a steady release clock: at least [`CADENCE_MIN_RELEASES`] releases,
/// [`CADENCE_REGULAR_SHARE_MIN`] of the intervals within ±25% of the period, at least
/// [`CADENCE_EVENTS_PER_RELEASE_MIN`] content events a release, and a period of at least `min_period_ms`;
/// `None` otherwise. The release-cadence signal asks for [`BURST_GAP_MIN_MS`]; the `text_in_steps`
/// finding for less ([`crate::findings::path`]).
pub fn steady_release_period_ms(c: &ReleaseCadence, min_period_ms: f64) -> Option<f64> {
    let period = c.period_p50_ms?;
    (c.releases >= CADENCE_MIN_RELEASES
        && period >= min_period_ms
        && c.regular_share.unwrap_or(0.0) >= CADENCE_REGULAR_SHARE_MIN
        && c.events_per_release_mean.unwrap_or(0.0) >= CADENCE_EVENTS_PER_RELEASE_MIN)
        .then_some(period)
}

/// Whether the server's timestamps show it wrote each release's events together (their median spread
/// under [`CADENCE_SERVER_SPREAD_SHARE_MAX`] of `period_ms`: an engine's own batching); `None` when the
/// stream carried no timestamps.
pub fn server_wrote_releases_together(c: &ReleaseCadence, period_ms: f64) -> Option<bool> {
    c.server_spread_p50_ms.map(|s| s < CADENCE_SERVER_SPREAD_SHARE_MAX * period_ms)
}

/// Whether content came on a regular release clock much slower than the tokens (see the module docs).
pub fn released_on_a_timer(metrics: &Metrics, delivery: &DeliveryStats) -> bool {
    let c = &delivery.release_cadence;
    metrics.content_events >= BUFFERED_MIN_CONTENT_EVENTS
        && steady_release_period_ms(c, BURST_GAP_MIN_MS)
            .is_some_and(|period| server_wrote_releases_together(c, period) != Some(true))
}

/// Content events the first delivery must carry for the held-start signal: more than an engine's
/// speculative or multi-token step writes at once.
pub const HELD_START_MIN_EVENTS: usize = 8;

/// Content events after the first delivery that the held-start signal needs to tell the stream's pace.
pub const HELD_START_MIN_LATER_EVENTS: usize = 2;

/// A start of the answer held back (the held-start signal, see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeldStart {
    /// When the first content delivery came.
    pub at_ms: f64,
    /// Content events it carried.
    pub events: usize,
    /// The pace of the content after it: their span divided by their count, ms per event.
    pub pace_ms: f64,
    /// The least time its first event waited at that pace: `(events - 1) x pace_ms`.
    pub held_ms: f64,
}

/// The held start of a run whose first content delivery carried a backlog (see the module docs), or
/// `None`.
pub fn held_start(metrics: &Metrics, delivery: &DeliveryStats) -> Option<HeldStart> {
    let first = delivery.bursts.first()?;
    let (ttft, last) = (metrics.ttft_ms?, metrics.last_content_ms?);
    // The first burst must be the first content delivery: the one that brought the first token.
    let first_delivery = first.start_ms <= ttft && ttft <= first.end_ms;
    let later = metrics.content_events.saturating_sub(first.events);
    if !first_delivery
        || metrics.content_events < BUFFERED_MIN_CONTENT_EVENTS
        || delivery.burst_event_share.unwrap_or(0.0) < BURST_SHARE_MIN
        || first.events < HELD_START_MIN_EVENTS
        || later < HELD_START_MIN_LATER_EVENTS
        || last <= first.end_ms
    {
        return None;
    }
    let pace_ms = (last - first.end_ms) / later as f64;
    let held_ms = (first.events - 1) as f64 * pace_ms;
    (held_ms >= BURST_GAP_MIN_MS).then_some(HeldStart { at_ms: first.start_ms, events: first.events, pace_ms, held_ms })
}

/// Whether the run failed: not ended complete, HTTP status 400 or above, or no content at all.
pub fn is_failed(trace: &Trace, analysis: &Analysis, metrics: &Metrics) -> bool {
    let ended = matches!(trace.end, Some(TraceEnd::Complete { .. })) || left_open(trace, analysis);
    !ended || !trace.answered() || metrics.content_events == 0
}

/// Whether the answer ended (the dialect's end marker arrived) but the response stayed open until the
/// run stopped reading: [`AFTER_END_LIMIT_MS`](crate::trace::AFTER_END_LIMIT_MS) after the end marker, or
/// at the idle time-out. A whole answer, not a failed one (the `left_open` finding says why the run took
/// a time-out to end).
pub fn left_open(trace: &Trace, analysis: &Analysis) -> bool {
    use crate::trace::TimeoutKind;
    matches!(trace.end, Some(TraceEnd::Timeout { timeout: TimeoutKind::Idle | TimeoutKind::AfterEnd, .. }))
        && crate::dialect::stop_reason::end_marker(analysis.dialect).is_some()
        && analysis.ended_properly()
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

/// Whether the body was one JSON answer, not a stream: a JSON body (or JSON lines) of one message in all,
/// that message the only content event (OpenAI's `chat.completion`, Ollama's `"stream": false`, TGI's
/// `/generate`, Anthropic's `message`, Gemini's `generateContent`). Whatever its timing, the whole
/// answer came at once. Not a streamed JSON array of one element: Gemini's `streamGenerateContent`
/// sends a short answer in one chunk, and it did ask for a stream.
pub fn is_one_json_answer(analysis: &Analysis, metrics: &Metrics) -> bool {
    analysis.framing == Some(Framing::Ndjson) && analysis.messages == 1 && metrics.content_events == 1
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
    if metrics.content_events >= BUFFERED_MIN_CONTENT_EVENTS && delivery.burst_count >= BUFFERED_MIN_BURSTS {
        let share = delivery.burst_event_share.unwrap_or(0.0);
        let mean = delivery.events_per_burst_mean.unwrap_or(0.0);
        let gap = delivery.typical_gap_ms.unwrap_or(0.0);
        if share >= BURST_SHARE_MIN && mean >= BURST_MEAN_EVENTS_MIN && gap >= BURST_GAP_MIN_MS {
            out.push(BufferedSignal::Bursts);
        }
        if delivery.hold_ms.is_some_and(|h| h.p50 >= HOLD_P50_MIN_MS) {
            out.push(BufferedSignal::HoldTimes);
        }
        let sized = sized_reads_carry_the_content(metrics, sizes);
        if sized && share >= BURST_SHARE_MIN && !out.contains(&BufferedSignal::BufferSizedReads) {
            out.push(BufferedSignal::BufferSizedReads);
        }
    }
    if out.is_empty() && released_on_a_timer(metrics, delivery) {
        out.push(BufferedSignal::ReleaseCadence);
    }
    if out.is_empty() && held_start(metrics, delivery).is_some() {
        out.push(BufferedSignal::HeldStart);
    }
    out
}

/// Whether reads of one size (a buffer size, or a shared size that cuts lines) are enough of the reads
/// that carried content to say a fixed-size buffer released it: at least 2 of a buffer size or 3 of a
/// shared size, and at least [`SIZED_READS_SHARE_MIN`] of the content reads.
pub fn sized_reads_carry_the_content(metrics: &Metrics, sizes: &ReadSizes) -> bool {
    let buffer = if sizes.buffer_sized_reads >= BUFFER_SIZE_MIN_READS { sizes.buffer_sized_reads } else { 0 };
    let common = if sizes.common_reads >= COMMON_SIZE_MIN_READS { sizes.common_reads } else { 0 };
    let sized = buffer.max(common);
    sized > 0 && sized as f64 >= SIZED_READS_SHARE_MIN * metrics.content_reads as f64
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
    if is_failed(trace, analysis, metrics) {
        Verdict::Failed
    } else if is_collected(metrics) || is_one_json_answer(analysis, metrics) {
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
    fn an_answer_left_open_after_its_end_marker_is_whole_not_failed() {
        let idle = TraceEnd::Timeout { at_ms: 2_000.0, timeout: TimeoutKind::Idle, limit_ms: 1_000.0 };
        let mut reads = steady();
        reads.push((700.0, "data: [DONE]\n\n".into()));
        let t = trace(200, reads, idle.clone());
        assert!(left_open(&t, &analyze(&t)));
        assert_eq!(verdict(&t), Verdict::Streaming);
        // Without its end marker it stalled: failed. A total time-out is no idle one.
        assert_eq!(verdict(&trace(200, steady(), idle)), Verdict::Failed);
        let mut reads = steady();
        reads.push((700.0, "data: [DONE]\n\n".into()));
        let total = trace(200, reads, TraceEnd::Timeout { at_ms: 2_000.0, timeout: TimeoutKind::Total, limit_ms: 2_000.0 });
        assert_eq!(verdict(&total), Verdict::Failed);
        // Stopped AFTER_END_LIMIT_MS after its end marker: whole too.
        let mut reads = steady();
        reads.push((700.0, "data: [DONE]\n\n".into()));
        let after_end = TraceEnd::Timeout { at_ms: 2_700.0, timeout: TimeoutKind::AfterEnd, limit_ms: crate::trace::AFTER_END_LIMIT_MS };
        let t = trace(200, reads, after_end);
        assert!(left_open(&t, &analyze(&t)) && analyze(&t).answer_ended());
        assert_eq!(verdict(&t), Verdict::Streaming);
    }

    #[test]
    fn the_answer_ends_at_its_end_marker_not_at_a_stop_reason_a_marker_follows() {
        let ended = |reads: Vec<(f64, String)>| analyze(&trace(200, reads, complete(2_000.0))).answer_ended();
        let mut reads = steady();
        reads.push((700.0, "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n".into()));
        assert!(!ended(reads.clone()), "OpenAI chat: [DONE] (and the usage chunk) still to come");
        reads.push((701.0, "data: [DONE]\n\n".into()));
        assert!(ended(reads));
        let gemini = |reason: &str| format!("data: {{\"candidates\":[{{\"content\":{{\"parts\":[{{\"text\":\"hi\"}}]}}{reason}}}]}}\n\n");
        assert!(!ended(vec![(300.0, gemini(""))]));
        assert!(ended(vec![(300.0, gemini("")), (320.0, gemini(",\"finishReason\":\"STOP\""))]), "Gemini has no marker: its finishReason");
        assert!(!ended(vec![(300.0, "data: plain text\n\n".into())]), "no marker in SSE text");
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
        for v in Verdict::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
            assert_eq!(serde_json::from_value::<Verdict>(serde_json::to_value(v).unwrap()).unwrap(), v);
        }
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

    fn signals(t: &Trace) -> Vec<BufferedSignal> {
        let a = analyze(t);
        let m = Metrics::derive(t, &a);
        buffered_signals(&m, &DeliveryStats::derive(t, &a), a.framing)
    }

    fn stamped(text: &str, server_ms: f64) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}],\"server_ms\":{server_ms}}}\n\n")
    }

    /// Tokens made every `cadence_ms` from 300 ms, held by a relay and forwarded at every multiple of
    /// `flush_ms` (plus a small deterministic network jitter), stamped with their making time when
    /// `stamps`.
    fn timer_relay(tokens: usize, cadence_ms: f64, flush_ms: f64, stamps: bool) -> Vec<(f64, String)> {
        let made: Vec<f64> = (0..tokens).map(|i| 300.0 + cadence_ms * i as f64).collect();
        let mut reads = Vec::new();
        let mut next = 0;
        let mut k = 1.0;
        while next < made.len() {
            let at = flush_ms * k;
            let mut body = String::new();
            while next < made.len() && made[next] < at {
                body += &if stamps { stamped("t", made[next] - 300.0) } else { content("t") };
                next += 1;
            }
            if !body.is_empty() {
                reads.push((at + (k % 3.0) - 1.0, body));
            }
            k += 1.0;
        }
        reads
    }

    /// Regression (issue 9): an edge relay flushing every 250 ms in front of a model making a token
    /// every 80 ms gave ~3 events per read, under the bursts rule's 4, and was called streaming.
    #[test]
    fn timer_relay_flushing_every_250ms_in_front_of_an_80ms_model_is_buffered() {
        let t = ended(timer_relay(40, 80.0, 250.0, false));
        assert_eq!(verdict(&t), Verdict::Buffered);
        assert_eq!(signals(&t), vec![BufferedSignal::ReleaseCadence]);
        let d = DeliveryStats::derive(&t, &analyze(&t));
        let c = &d.release_cadence;
        assert!((c.period_p50_ms.unwrap() - 250.0).abs() <= 3.0, "{c:?}");
        assert!(c.events_per_release_mean.unwrap() > 3.0 && c.regular_share == Some(1.0), "{c:?}");
        // With the server's making times in the events, the hold itself shows (and the cadence, checked
        // only when nothing else fired, is not listed).
        let t = ended(timer_relay(40, 80.0, 250.0, true));
        assert_eq!(verdict(&t), Verdict::Buffered);
        assert_eq!(signals(&t), vec![BufferedSignal::HoldTimes]);
    }

    #[test]
    fn timer_relay_releasing_two_or_three_tokens_is_buffered_too() {
        // 100 ms tokens, 250 ms flushes: deliveries of 2 and 3 alternate.
        let t = ended(timer_relay(30, 100.0, 250.0, false));
        assert_eq!(signals(&t), vec![BufferedSignal::ReleaseCadence]);
        // A 150 ms timer over 50 ms tokens is still a timer.
        assert_eq!(verdict(&ended(timer_relay(40, 50.0, 150.0, false))), Verdict::Buffered);
    }

    /// The stream `made` (one event text per entry, the time it arrives whole when read one by one), read
    /// as one read per event except at the `cut_at` events: there the reads take the following events'
    /// bytes up to `cut_bytes` each (cutting inside a line), arriving when the last byte was made.
    fn read_with_cuts(made: &[(f64, String)], cut_at: &[(usize, usize)]) -> Vec<(f64, String)> {
        let mut reads = Vec::new();
        let (mut i, mut carry) = (0, String::new());
        while i < made.len() {
            if let Some(&(_, cut_bytes)) = cut_at.iter().find(|(at, _)| *at == i) {
                let mut body = std::mem::take(&mut carry);
                while body.len() < cut_bytes && i < made.len() {
                    body.push_str(&made[i].1);
                    i += 1;
                }
                carry = body.split_off(cut_bytes.min(body.len()));
                reads.push((made[i - 1].0, body));
            } else {
                reads.push((made[i].0, std::mem::take(&mut carry) + &made[i].1));
                i += 1;
            }
        }
        reads
    }

    #[test]
    fn a_fast_streams_stalls_are_not_a_buffer_even_when_a_few_reads_share_a_size() {
        // 2,000 events a second, 4 in every 2 ms delivery, and a browser that
        // stalls reads 4 KiB at once a few times and three reads of 1,500 bytes cut inside lines
        // (measured: a bare fetch loop in a worker was called buffered this way, 2026-12-02).
        let made: Vec<(f64, String)> = (0..4000).map(|i| (100.0 + 0.5 * i as f64, content("tok"))).collect();
        let cuts = [(500, 4096), (900, 1500), (1500, 4096), (2000, 1500), (2500, 4096), (3100, 1500), (3500, 4096)];
        let t = ended(read_with_cuts(&made, &cuts));
        let a = analyze(&t);
        let d = DeliveryStats::derive(&t, &a);
        assert!(d.read_sizes.buffer_sized_reads >= 2 && d.read_sizes.common_reads >= 3, "{:?}", d.read_sizes);
        // A 2 ms delivery of 4 evenly spaced events is no burst: the stalls are the only ones.
        assert_eq!(d.burst_count, cuts.len(), "{d:?}");
        assert!(d.burst_event_share.unwrap() < 0.15, "{:?}", d.burst_event_share);
        assert_eq!(signals(&t), vec![]);
        assert_eq!(verdict(&t), Verdict::Streaming);
    }

    #[test]
    fn a_fast_model_behind_a_4_kib_buffer_is_buffered_by_its_read_sizes() {
        // 400-byte events every 5 ms through a buffer flushing at 4 KiB: a read of 4,096 bytes about
        // every 50 ms, too short a gap for the bursts signal; the read sizes say it.
        let pad = "x".repeat(340);
        let made: Vec<(f64, String)> = (0..200).map(|i| (300.0 + 5.0 * i as f64, content(&pad))).collect();
        let stream: String = made.iter().map(|(_, e)| e.as_str()).collect();
        let mut reads = Vec::new();
        let (mut sent, mut end_of_event, mut i) = (0, 0, 0);
        while sent < stream.len() {
            let flush_to = (sent + 4096).min(stream.len());
            while end_of_event < flush_to {
                end_of_event += made[i].1.len();
                i += 1;
            }
            reads.push((made[i - 1].0, stream[sent..flush_to].to_string()));
            sent = flush_to;
        }
        let t = ended(reads);
        assert!(DeliveryStats::derive(&t, &analyze(&t)).typical_gap_ms.unwrap() < BURST_GAP_MIN_MS);
        assert_eq!(signals(&t), vec![BufferedSignal::BufferSizedReads]);
        assert_eq!(verdict(&t), Verdict::Buffered);
    }

    #[test]
    fn a_proxys_flushes_read_in_pieces_over_a_slow_link_are_buffered() {
        // 200 events of ~200 bytes made every 20 ms; a proxy flushes every 8 KiB; each flush reaches the
        // browser in 1,460-byte reads 1 ms apart (5 ms a flush). Its second 2 ms delivery follows the first
        // after 1 ms: it counts as a burst by its reads of ~7 events each, not by a silence before it.
        let pad = "x".repeat(150);
        let made: Vec<(f64, String)> = (0..200).map(|i| (320.0 + 20.0 * i as f64, content(&pad))).collect();
        let stream: String = made.iter().map(|(_, e)| e.as_str()).collect();
        let (mut reads, mut sent) = (Vec::new(), 0);
        while sent < stream.len() {
            let flush_to = (sent + 8192).min(stream.len());
            let made_by = made[flush_to.div_ceil(made[0].1.len()) - 1].0;
            for (k, piece) in stream.as_bytes()[sent..flush_to].chunks(1460).enumerate() {
                reads.push((made_by + k as f64, String::from_utf8(piece.to_vec()).unwrap()));
            }
            sent = flush_to;
        }
        let t = ended(reads);
        let d = DeliveryStats::derive(&t, &analyze(&t));
        assert!(d.burst_event_share.unwrap() > 0.9, "{d:?}");
        assert_eq!(signals(&t), vec![BufferedSignal::BufferSizedReads]);
        assert_eq!(verdict(&t), Verdict::Buffered);
    }

    #[test]
    fn bursts_of_three_after_frame_length_gaps_are_a_busy_page_not_a_buffer() {
        // A token every 8 ms, read by a page that comes back every 16-50 ms: 2-6 events per read.
        let made: Vec<f64> = (0..120).map(|i| 300.0 + 8.0 * i as f64).collect();
        let frames = [16.0, 33.0, 50.0, 17.0, 24.0];
        let (mut reads, mut at, mut next, mut i) = (Vec::new(), 300.0, 0, 0);
        while next < made.len() {
            at += frames[i % frames.len()];
            i += 1;
            let mut body = String::new();
            while next < made.len() && made[next] <= at {
                body += &content("t");
                next += 1;
            }
            if !body.is_empty() {
                reads.push((at, body));
            }
        }
        assert_eq!(verdict(&ended(reads)), Verdict::Streaming);
        assert_eq!(verdict(&ended(bursts(10, 3, 40.0))), Verdict::Streaming);
    }

    #[test]
    fn four_tokens_per_event_every_80ms_is_streaming() {
        let reads = (0..30).map(|i| (300.0 + 80.0 * i as f64, content("a b c d"))).collect();
        let t = ended(reads);
        assert_eq!(verdict(&t), Verdict::Streaming);
        assert!(signals(&t).is_empty());
    }

    #[test]
    fn micro_batching_engines_are_streaming() {
        // Multi-step scheduling: 3 events in one write every 60 ms.
        assert_eq!(verdict(&ended(bursts(20, 3, 60.0))), Verdict::Streaming);
        // Speculative decoding: 1 to 4 accepted tokens per step, steps of 35 to 70 ms.
        let (counts, steps) = ([1, 4, 2, 3, 1, 4, 2, 2], [35.0, 70.0, 50.0, 45.0, 60.0]);
        let mut at = 300.0;
        let reads = (0..40)
            .map(|i| {
                at += steps[i % steps.len()];
                (at, content("t").repeat(counts[i % counts.len()]))
            })
            .collect();
        assert_eq!(verdict(&ended(reads)), Verdict::Streaming);
    }

    #[test]
    fn an_engine_batching_3_events_every_180ms_is_told_apart_by_its_own_timestamps() {
        // Stamped at the write, as a server that sends the batch itself stamps them: spread 0.
        let reads = (0..12)
            .map(|i| {
                let at = 300.0 + 180.0 * i as f64;
                (at + 1.0, stamped("t", at).repeat(3))
            })
            .collect();
        let t = ended(reads);
        assert_eq!(verdict(&t), Verdict::Streaming);
        let c = DeliveryStats::derive(&t, &analyze(&t)).release_cadence;
        assert_eq!(c.server_spread_p50_ms, Some(0.0));
        // Without timestamps nothing on the wire tells it from a relay on a 180 ms timer (module docs).
        assert_eq!(verdict(&ended(bursts(12, 3, 180.0))), Verdict::Buffered);
    }

    #[test]
    fn a_few_network_stalls_in_a_slow_stream_are_not_a_timer() {
        // 80 ms tokens; three retransmission stalls of ~300 ms each release 4 events at once.
        let mut reads = Vec::new();
        let mut i = 0;
        while i < 40 {
            let at = 300.0 + 80.0 * i as f64;
            if [10, 20, 30].contains(&i) {
                reads.push((at + 240.0, content("t").repeat(4)));
                i += 4;
            } else {
                reads.push((at, content("t")));
                i += 1;
            }
        }
        assert_eq!(verdict(&ended(reads)), Verdict::Streaming);
        // One token every 250 ms on the dot is a slow model, not a timer: one event per delivery.
        assert_eq!(verdict(&ended(bursts(20, 1, 250.0))), Verdict::Streaming);
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

    /// A short answer's start held 500 ms, the rest let through 90 ms later: two bursts, the only gap
    /// between them cut short by the end of the answer (regression: a compare called it `streaming`
    /// with a TTFT 200 ms later than the direct path's).
    #[test]
    fn a_short_answer_held_at_its_start_is_buffered() {
        let t = ended(vec![(500.0, content("t").repeat(21)), (590.0, content("t").repeat(9))]);
        assert_eq!(verdict(&t), Verdict::Buffered);
        assert_eq!(signals(&t), vec![BufferedSignal::HeldStart]);
        let a = analyze(&t);
        let held = held_start(&Metrics::derive(&t, &a), &DeliveryStats::derive(&t, &a)).expect("held start");
        assert_eq!((held.events, held.at_ms), (21, 500.0));
        assert!((held.pace_ms - 10.0).abs() < 1e-9 && (held.held_ms - 200.0).abs() < 1e-9, "{held:?}");
    }

    #[test]
    fn a_start_held_once_and_then_streamed_is_one_stall_not_a_held_start() {
        // 20 events at once, then most of the answer a token per read every 20 ms: a segment lost at the
        // start and sent again after the retransmission time-out looks the same.
        let mut reads = vec![(500.0, content("t").repeat(20))];
        reads.extend((1..=30).map(|i| (500.0 + 20.0 * i as f64, content("t"))));
        assert_eq!(verdict(&ended(reads)), Verdict::Streaming);
    }

    #[test]
    fn a_first_read_that_merged_a_fast_model_or_one_engine_step_is_no_held_start() {
        // 20 events merged in the first read of a model making one every 0.5 ms: 9.5 ms of output.
        let mut reads = vec![(300.0, content("t").repeat(20))];
        reads.extend((1..=200).map(|i| (300.0 + 0.5 * i as f64, content("t"))));
        assert_eq!(verdict(&ended(reads)), Verdict::Streaming);
        // An engine writing 8 events at once every 80 ms (10 ms a token): its first write is 70 ms of output.
        let reads: Vec<(f64, String)> = (0..5).map(|i| (300.0 + 80.0 * i as f64, content("t").repeat(8))).collect();
        assert_eq!(verdict(&ended(reads)), Verdict::Streaming);
        // 7 events at once, then a slow stream: fewer than an engine step may hold.
        let mut reads = vec![(500.0, content("t").repeat(7))];
        reads.extend((1..=20).map(|i| (500.0 + 50.0 * i as f64, content("t"))));
        assert_eq!(verdict(&ended(reads)), Verdict::Streaming);
        // A first token alone, then a burst: the first delivery is no burst.
        let reads = vec![(300.0, content("t")), (400.0, content("t").repeat(20)), (450.0, content("t").repeat(5))];
        assert!(!signals(&ended(reads)).contains(&BufferedSignal::HeldStart));
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
