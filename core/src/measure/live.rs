//! The figures shown while a stream arrives, read off the analysis in constant time each frame (no pass
//! over events or reads): the same definitions as the report's [`super::Metrics`], which replace them
//! when the run ends.

use crate::analysis::Analysis;
use crate::trace::answer_status;

/// Live TTFB, TTFT and counts of a run in progress.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LiveFigures {
    /// First body byte of any kind.
    pub ttfb_ms: Option<f64>,
    /// First content event.
    pub ttft_ms: Option<f64>,
    /// First reasoning event.
    pub reasoning_ttft_ms: Option<f64>,
    /// Reads so far.
    pub reads: usize,
    /// Content events so far.
    pub content_events: usize,
    /// Body bytes so far.
    pub bytes: usize,
}

impl LiveFigures {
    /// The figures of `analysis` as it stands; `answered`: whether the response's status says its body
    /// is an answer ([`crate::trace::answer_status`]), else it has no tokens.
    pub fn of(analysis: &Analysis, answered: bool) -> LiveFigures {
        LiveFigures {
            ttfb_ms: analysis.first_read_ms,
            ttft_ms: analysis.first_content_ms.filter(|_| answered),
            reasoning_ttft_ms: analysis.first_reasoning_ms.filter(|_| answered),
            reads: analysis.reads,
            content_events: if answered { analysis.content_event_count } else { 0 },
            bytes: analysis.bytes,
        }
    }

    /// Why a run that ended with these figures and HTTP `status` has no answer to show, or `None` when
    /// content arrived: what the answer's place says instead of staying blank.
    pub fn no_answer(&self, status: Option<u16>) -> Option<NoAnswer> {
        match status {
            Some(s) if !answer_status(status) && self.reads == 0 => Some(NoAnswer::ErrorStatusEmpty(s)),
            Some(s) if !answer_status(status) => Some(NoAnswer::ErrorStatus(s)),
            _ if self.content_events > 0 => None,
            _ if self.reads == 0 => Some(NoAnswer::NothingArrived),
            _ => Some(NoAnswer::NoContent),
        }
    }
}

/// Why a finished run shows no answer text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoAnswer {
    /// The response came with an error status: its body (in the raw view) is not an answer.
    ErrorStatus(u16),
    /// The response came with an error status and an empty body: nothing to look at in the raw view.
    ErrorStatusEmpty(u16),
    /// A body arrived without any content in it (only reasoning, keep-alives, or what no dialect reads).
    NoContent,
    /// No body byte arrived.
    NothingArrived,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::measure::Metrics;
    use crate::trace::{Trace, TraceEnd};

    /// The live figures end where the report's metrics do.
    #[test]
    fn live_figures_agree_with_the_report_metrics() {
        let chunk = |t: &str| format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{t}\"}}}}]}}\n\n");
        let mut reads = vec![(12.0, ": ping\n\n".to_string())];
        reads.extend((0..5).map(|i| (100.0 + 20.0 * i as f64, chunk("w"))));
        for status in [200, 503] {
            let t = Trace::from_reads(status, "text/event-stream", 5.0, reads.clone(), TraceEnd::Complete { at_ms: 190.0 });
            let a = analyze(&t);
            let (live, m) = (LiveFigures::of(&a, t.answered()), Metrics::derive(&t, &a));
            assert_eq!((live.ttfb_ms, live.ttft_ms, live.reasoning_ttft_ms), (m.ttfb_ms, m.ttft_ms, m.reasoning_ttft_ms));
            assert_eq!((live.reads, live.content_events, live.bytes), (m.reads, m.content_events, m.bytes));
            assert_eq!(live.ttft_ms.is_some(), status == 200, "{status}");
        }
    }

    /// A finished run without answer text says which of the reasons it was.
    #[test]
    fn no_answer_names_the_error_status_an_empty_stream_or_nothing() {
        let content = "data: {\"choices\":[{\"delta\":{\"content\":\"w\"}}]}\n\n".to_string();
        let role = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n".to_string();
        let figures = |status: u16, reads: Vec<(f64, String)>| {
            let t = Trace::from_reads(status, "text/event-stream", 5.0, reads, TraceEnd::Complete { at_ms: 50.0 });
            LiveFigures::of(&analyze(&t), t.answered())
        };
        assert_eq!(figures(200, vec![(10.0, content.clone())]).no_answer(Some(200)), None);
        assert_eq!(figures(200, vec![(10.0, content.clone())]).no_answer(None), None);
        assert_eq!(figures(502, vec![(10.0, content)]).no_answer(Some(502)), Some(NoAnswer::ErrorStatus(502)));
        assert_eq!(figures(429, vec![]).no_answer(Some(429)), Some(NoAnswer::ErrorStatusEmpty(429)));
        assert_eq!(figures(200, vec![(10.0, role)]).no_answer(Some(200)), Some(NoAnswer::NoContent));
        assert_eq!(figures(200, vec![]).no_answer(Some(200)), Some(NoAnswer::NothingArrived));
        assert_eq!(LiveFigures::default().no_answer(None), Some(NoAnswer::NothingArrived));
    }
}
