//! Which spans of a run a reader is shown as content held back (the timeline's shading and ▼ marks).

use super::Report;
use crate::verdict::{buffered_signals, is_collected, BufferedSignal};

impl Report {
    /// The spans `(from_ms, to_ms)` where content was held back: the silence before each listed burst,
    /// when the rules say content was held (the run's answer was collected, or a signal of `buffered`
    /// fired, also in a run that then failed); none otherwise.
    ///
    /// A burst alone is not evidence of a hold: a fast model's reads merged for a few ms, a server writing
    /// a few events at once (micro-batching, its timestamps showing it wrote them together), the wait for
    /// the first token. Shading those would say "held back" where the verdict says `streaming`
    /// (regression: a server writing 4 events every 20 ms had its whole chart shaded).
    pub fn held_spans_ms(&self) -> Vec<(f64, f64)> {
        let signals = buffered_signals(&self.metrics, &self.delivery, self.framing);
        let collected = is_collected(&self.metrics);
        if !collected && signals.is_empty() {
            return Vec::new();
        }
        // A held start says only the first delivery waited: the later ones are the stream's own rhythm.
        let only_the_start = !collected && signals == [BufferedSignal::HeldStart];
        let bursts = &self.delivery.bursts;
        let listed = if only_the_start { &bursts[..bursts.len().min(1)] } else { &bursts[..] };
        listed.iter().map(|b| (b.start_ms - b.gap_before_ms, b.start_ms)).collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::report::Report;
    use crate::trace::{TimeoutKind, Trace, TraceEnd};
    use crate::verdict::Verdict;

    fn content(text: &str) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}\n\n")
    }

    fn report(reads: Vec<(f64, String)>, end: Option<TraceEnd>) -> Report {
        let at_ms = reads.last().map_or(0.0, |r| r.0) + 1.0;
        let end = end.unwrap_or(TraceEnd::Complete { at_ms });
        Report::from_trace(&Trace::from_reads(200, "text/event-stream", 50.0, reads, end))
    }

    /// `count` reads of `size` events, `every_ms` apart from 500 ms.
    fn writes(count: usize, size: usize, every_ms: f64) -> Vec<(f64, String)> {
        (0..count).map(|i| (500.0 + every_ms * i as f64, content("t").repeat(size))).collect()
    }

    #[test]
    fn a_buffered_run_shows_the_silence_before_every_burst_the_first_included() {
        let r = report(writes(5, 20, 400.0), None);
        assert_eq!(r.verdict, Verdict::Buffered);
        let spans = r.held_spans_ms();
        assert_eq!(spans.len(), 5);
        assert_eq!(spans[0], (50.0, 500.0), "held from the response headers");
        assert_eq!(spans[1], (500.0, 900.0));
    }

    #[test]
    fn a_held_start_shades_the_wait_before_the_first_delivery_only() {
        let mut reads = writes(1, 21, 0.0);
        reads.extend(writes(1, 4, 0.0).into_iter().map(|(t, b)| (t + 40.0, b)));
        reads.extend(writes(1, 5, 0.0).into_iter().map(|(t, b)| (t + 90.0, b)));
        let r = report(reads, None);
        assert_eq!(r.verdict, Verdict::Buffered);
        assert_eq!(r.delivery.bursts.len(), 3);
        assert_eq!(r.held_spans_ms(), vec![(50.0, 500.0)]);
    }

    #[test]
    fn a_collected_answer_is_held_from_the_headers() {
        let r = report(vec![(2_000.0, content("t").repeat(40))], None);
        assert_eq!(r.verdict, Verdict::Collected);
        assert_eq!(r.held_spans_ms(), vec![(50.0, 2_000.0)]);
    }

    #[test]
    fn a_streaming_run_with_bursts_shows_no_hold() {
        // A server writing 4 events at once every 20 ms (every delivery a burst), and one writing 3 every
        // 120 ms: both streaming, nothing shaded.
        for (size, every_ms) in [(4, 20.0), (3, 120.0)] {
            let r = report(writes(100, size, every_ms), None);
            assert_eq!(r.verdict, Verdict::Streaming, "{size} every {every_ms} ms");
            assert!(r.delivery.burst_count >= 99, "{size} every {every_ms} ms: {}", r.delivery.burst_count);
            assert_eq!(r.held_spans_ms(), vec![], "{size} every {every_ms} ms");
        }
    }

    #[test]
    fn a_buffered_run_that_then_timed_out_still_shows_its_holds() {
        let reads = writes(5, 20, 400.0);
        let end = TraceEnd::Timeout { at_ms: 2_500.0, timeout: TimeoutKind::Idle, limit_ms: 600.0 };
        let r = report(reads, Some(end));
        assert_eq!(r.verdict, Verdict::Failed);
        assert_eq!(r.held_spans_ms().len(), 5);
    }
}
