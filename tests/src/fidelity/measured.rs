//! What one measurer (the page, the socket peer, curl) saw of one stream, derived the same way for all
//! three: each one's reads become a core [`Trace`] (the page's straight from its export, a peer's from
//! the body bytes of its reads), and the page's own analysis ([`Report::from_analysis`]) gives TTFT,
//! reads, content events per read, bursts and the verdict, so a difference between measurers is a
//! difference in what they received, never in how it was counted.
//!
//! Per-event arrival error: for each content event stamped with the lab's send time (`server_ms`),
//! arrival − `server_ms`, minus the least such delay of the run (core's `hold_times_ms`). The two clocks'
//! offset (the measurer's start against the lab's receipt of the request) is the same for every event of
//! a run, so the minimum removes it: what is left is how much later than the fastest event each one came.

use streamscope_core::measure::delivery::hold_times_ms;
use streamscope_core::stats::{median, Percentiles};
use streamscope_core::trace::{ReadChunk, RequestSummary, Trace, TraceEnd};
use streamscope_core::{analyze, Analysis, Export, Report, Verdict};
use streamscope_lab::peer::PeerReport;

/// One measurer's view of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// First content event, ms from the measurer's start (the page: `fetch()`; the peers: `connect`).
    pub ttft_ms: Option<f64>,
    /// Reads that delivered body bytes.
    pub reads: usize,
    /// Content events.
    pub content_events: usize,
    /// Median content events per read, over the reads that completed at least one.
    pub events_per_read_p50: Option<f64>,
    /// Arrival error of every stamped content event, in event order, offset removed (empty with fewer
    /// than 2 stamped events).
    pub arrival_errors_ms: Vec<f64>,
    /// Content events of each listed burst (a delivery of at least 3; the report lists the first
    /// 2,000), in order.
    pub burst_events: Vec<usize>,
    /// Bursts, every one (listed or not).
    pub burst_count: usize,
    /// The share of the content events that came in bursts (0 to 1), `None` without content.
    pub burst_share: Option<f64>,
    /// When each burst started, ms from the measurer's start.
    pub burst_start_ms: Vec<f64>,
    /// The verdict the page's rules give these reads.
    pub verdict: Verdict,
    /// Sends: the first stamped content event and every one the lab stamped at least [`SENT_APART_MS`]
    /// after the one before. A reader that never merges what was sent apart needs at least this many
    /// reads; a late sender catching up sends its next events together and lowers it (0 without stamps).
    pub sent_apart: usize,
    /// Of those sends after the first, how many arrived in the same read as the event before: the reads
    /// this measurer merged.
    pub merged_apart: usize,
}

/// Two content events stamped at least this far apart left the lab separately (on time at 1 ms per event
/// they are 1 ms apart; a sender catching up after a late wake-up sends within microseconds).
pub const SENT_APART_MS: f64 = 0.5;

/// `(sent_apart, merged_apart)` of [`Measured`].
fn sends(analysis: &Analysis) -> (usize, usize) {
    let stamped: Vec<(f64, usize)> = analysis
        .content_events()
        .filter_map(|e| Some((e.server_ms.filter(|s| s.is_finite())?, e.read_index)))
        .collect();
    if stamped.is_empty() {
        return (0, 0);
    }
    let apart = stamped.windows(2).filter(|w| w[1].0 - w[0].0 >= SENT_APART_MS);
    let (later_sends, merged) = apart.fold((0, 0), |(n, m), w| (n + 1, m + usize::from(w[1].1 == w[0].1)));
    (1 + later_sends, merged)
}

impl Measured {
    /// Derives everything from `trace`.
    pub fn of(trace: &Trace) -> Measured {
        let analysis = analyze(trace);
        let report = Report::from_analysis(trace, &analysis);
        let (sent_apart, merged_apart) = sends(&analysis);
        Measured {
            ttft_ms: report.ttft_ms,
            reads: report.reads,
            content_events: report.content_events,
            events_per_read_p50: report.delivery.content_events_per_read_p50,
            arrival_errors_ms: hold_times_ms(&analysis),
            burst_events: report.delivery.bursts.iter().map(|b| b.events).collect(),
            burst_count: report.delivery.burst_count,
            burst_share: report.delivery.burst_event_share,
            burst_start_ms: report.delivery.bursts.iter().map(|b| b.start_ms).collect(),
            verdict: report.verdict,
            sent_apart,
            merged_apart,
        }
    }

    /// The share of the sends after the first that this measurer merged into the read before (0 to 1),
    /// `None` with fewer than 2 sends.
    pub fn merged_share(&self) -> Option<f64> {
        (self.sent_apart >= 2).then(|| self.merged_apart as f64 / (self.sent_apart - 1) as f64)
    }

    /// The arrival errors' summary (p50, p99, …), `None` without any.
    pub fn arrival(&self) -> Option<Percentiles> {
        Percentiles::of(&self.arrival_errors_ms)
    }
}

/// The trace of the first run in a page export (the text of `export-text`).
pub fn page_trace(export_text: &str) -> Result<Trace, String> {
    let export: Export = serde_json::from_str(export_text).map_err(|e| format!("not an export: {e}"))?;
    export.runs.into_iter().next().map(|run| run.trace).ok_or_else(|| "the export holds no run".into())
}

/// A peer's report as the trace the page would have recorded: its body reads (framing removed, at the
/// peer's times), status and headers; it needs the body bytes ([`streamscope_lab::peer::PeerRequest::keep_body`]).
pub fn peer_trace(report: &PeerReport, url: &str) -> Trace {
    let end_ms = report.total_ms.unwrap_or(0.0);
    let end = match &report.error {
        None => TraceEnd::Complete { at_ms: end_ms },
        Some(message) => TraceEnd::NetworkError {
            at_ms: end_ms,
            message: message.clone(),
            during_body: report.headers_ms.is_some(),
        },
    };
    Trace {
        request: RequestSummary { url: url.into(), method: "GET".into(), ..RequestSummary::default() },
        headers_ms: report.headers_ms,
        status: (report.status != 0).then_some(report.status),
        headers: report.headers.clone(),
        reads: report.body_reads.iter().map(|r| ReadChunk::new(r.at_ms, r.bytes.clone())).collect(),
        end: Some(end),
        ..Trace::default()
    }
}

/// Summary of several runs of one measurer on one stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pooled {
    /// Arrival errors of every run's events together (each run's offset removed on its own).
    pub arrival: Option<Percentiles>,
    /// Median over the runs of their median events per read.
    pub events_per_read_p50: Option<f64>,
    /// Median over the runs of their reads.
    pub reads: Option<f64>,
    /// Median over the runs of [`Measured::merged_share`].
    pub merged_share: Option<f64>,
    /// Median over the runs of their bursts.
    pub bursts: Option<f64>,
    /// Median over the runs of [`Measured::burst_share`].
    pub burst_share: Option<f64>,
    /// Each verdict with how many runs had it, in first-seen order.
    pub verdicts: Vec<(Verdict, usize)>,
}

impl Pooled {
    /// Pools `runs`.
    pub fn of(runs: &[&Measured]) -> Pooled {
        let errors: Vec<f64> = runs.iter().flat_map(|m| m.arrival_errors_ms.iter().copied()).collect();
        let per_read: Vec<f64> = runs.iter().filter_map(|m| m.events_per_read_p50).collect();
        let reads: Vec<f64> = runs.iter().map(|m| m.reads as f64).collect();
        let merged: Vec<f64> = runs.iter().filter_map(|m| m.merged_share()).collect();
        let bursts: Vec<f64> = runs.iter().map(|m| m.burst_count as f64).collect();
        let burst_shares: Vec<f64> = runs.iter().filter_map(|m| m.burst_share).collect();
        let mut verdicts: Vec<(Verdict, usize)> = Vec::new();
        for m in runs {
            match verdicts.iter_mut().find(|(v, _)| *v == m.verdict) {
                Some((_, n)) => *n += 1,
                None => verdicts.push((m.verdict, 1)),
            }
        }
        Pooled {
            arrival: Percentiles::of(&errors),
            events_per_read_p50: median(&per_read),
            reads: median(&reads),
            merged_share: median(&merged),
            bursts: median(&bursts),
            burst_share: median(&burst_shares),
            verdicts,
        }
    }
}

/// `a − b` for every run where both measured a TTFT.
pub fn ttft_differences_ms(a: &[&Measured], b: &[&Measured]) -> Vec<f64> {
    a.iter().zip(b).filter_map(|(a, b)| Some(a.ttft_ms? - b.ttft_ms?)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamscope_lab::peer::BodyRead;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    fn event(text: &str, server_ms: f64) -> String {
        format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"{text}\"}}}}],\"server_ms\":{server_ms}}}\n\n")
    }

    /// A peer report of 6 content events sent 20 ms apart from 100 ms, read at their send time +
    /// `offset_ms` + a delay of their own; the sixth, sent at 179 ms, shares the fifth's read at 180.
    fn report(offset_ms: f64) -> PeerReport {
        let delays = [0.25, 0.0, 0.5, 3.0, 0.0];
        let mut body_reads: Vec<BodyRead> = (0..5)
            .map(|i| {
                let server_ms = 100.0 + 20.0 * i as f64;
                BodyRead { at_ms: server_ms + offset_ms + delays[i], bytes: event("w", server_ms).into_bytes() }
            })
            .collect();
        body_reads[4].bytes.extend_from_slice(format!("{}data: [DONE]\n\n", event("x", 179.0)).as_bytes());
        PeerReport {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            headers_ms: Some(offset_ms + 1.0),
            total_ms: Some(offset_ms + 200.0),
            body_reads,
            ..PeerReport::default()
        }
    }

    #[test]
    fn arrival_errors_remove_the_clock_offset_and_keep_each_events_delay() {
        let near = Measured::of(&peer_trace(&report(7.0), "http://lab/"));
        let far = Measured::of(&peer_trace(&report(-5000.0), "http://lab/"));
        assert_eq!(near.arrival_errors_ms, vec![0.25, 0.0, 0.5, 3.0, 0.0, 1.0]);
        assert_eq!(near.arrival_errors_ms, far.arrival_errors_ms, "the offset does not matter");
        // numpy.percentile([0, 0, 0.25, 0.5, 1, 3], [50, 99]) == [0.375, 2.9]
        let p = near.arrival().unwrap();
        assert!(close(p.p50, 0.375) && close(p.p99, 2.9), "{p:?}");
        assert_eq!((near.ttft_ms, near.reads, near.content_events), (Some(107.25), 5, 6));
        assert_eq!(near.events_per_read_p50, Some(1.0));
        // Sent at 100, 120, 140, 160, 180 and 179: the last left with the fifth, so five sends, none merged.
        assert_eq!((near.sent_apart, near.merged_apart), (5, 0));
    }

    #[test]
    fn sends_count_what_left_apart_and_the_reads_that_merged_them() {
        let mut merged = report(7.0);
        // The read of the event sent at 140 also carries the one sent at 160 (sent apart, read together),
        // and the event sent at 180 is followed by one sent 0.2 ms later in the same read (sent together).
        let fourth = merged.body_reads.remove(3);
        merged.body_reads[2].bytes.extend_from_slice(&fourth.bytes);
        merged.body_reads[3].bytes = format!("{}{}data: [DONE]\n\n", event("w", 180.0), event("x", 180.2)).into_bytes();
        let m = Measured::of(&peer_trace(&merged, "http://lab/"));
        assert_eq!((m.reads, m.content_events), (4, 6));
        assert_eq!((m.sent_apart, m.merged_apart), (5, 1));
        assert_eq!(m.merged_share(), Some(0.25));
        let unstamped = PeerReport {
            body_reads: vec![BodyRead { at_ms: 5.0, bytes: b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"w\"}}]}\n\n".to_vec() }],
            ..report(0.0)
        };
        assert_eq!(Measured::of(&peer_trace(&unstamped, "http://lab/")).sent_apart, 0);
    }

    #[test]
    fn pooling_keeps_every_event_and_counts_verdicts() {
        let a = Measured::of(&peer_trace(&report(7.0), "http://lab/"));
        let mut b = a.clone();
        b.arrival_errors_ms = vec![1.0, 2.0];
        b.verdict = Verdict::Buffered;
        b.events_per_read_p50 = Some(3.0);
        b.ttft_ms = Some(100.0);
        let pooled = Pooled::of(&[&a, &a, &b]);
        // 14 errors: 0 ×4, 0.25 ×2, 0.5 ×2, 1 ×3, 2, 3 ×2.
        assert_eq!(pooled.arrival.unwrap().max, 3.0);
        assert!(close(pooled.arrival.unwrap().p50, 0.5), "{pooled:?}");
        assert_eq!(pooled.events_per_read_p50, Some(1.0));
        assert_eq!(pooled.merged_share, Some(0.0));
        assert_eq!(pooled.verdicts, vec![(a.verdict, 2), (Verdict::Buffered, 1)]);
        let diffs = ttft_differences_ms(&[&a, &b], &[&b, &a]);
        assert!(close(diffs[0], 7.25) && close(diffs[1], -7.25), "{diffs:?}");
    }
}
