//! The one-word verdict of a run: streaming, buffered, collected or failed.
//!
//! This is the first, simple classifier (the full one with `buffered` comes later; the function keeps
//! its shape so it can grow):
//! - `failed` when the run did not end complete (time-out, network error, cancel, or still running),
//!   the status is 400 or above, or no content event arrived at all;
//! - `collected` when at least 2 content events arrived, the first of them at or after 90% of the total
//!   time, and they came packed into the final read(s), at least 2 content events per read that carried
//!   content (everything came at once at the end: a genuinely streamed short answer after a long wait
//!   arrives one token per read and stays `streaming`);
//! - `streaming` otherwise. `buffered` is reserved and not emitted yet.

use serde::{Deserialize, Serialize};

use crate::analyzer::Analysis;
use crate::metrics::Metrics;
use crate::trace::{Trace, TraceEnd};

/// The verdict of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Content arrived as it was produced.
    Streaming,
    /// Something held content and released it in bursts (reserved: not emitted yet).
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

/// The share of the total time before which the first content must not arrive for `collected`.
pub const COLLECTED_FIRST_CONTENT_SHARE: f64 = 0.9;

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

/// Classifies a run from what was measured (never from the URL or a product name).
pub fn classify(trace: &Trace, _analysis: &Analysis, metrics: &Metrics) -> Verdict {
    if is_failed(trace, metrics) {
        Verdict::Failed
    } else if is_collected(metrics) {
        Verdict::Collected
    } else {
        Verdict::Streaming
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyzer::analyze;
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
    }
}
