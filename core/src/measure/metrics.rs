//! Timing and size metrics derived from a [`Trace`] and its [`Analysis`], per DESIGN.md.
//!
//! All times are ms since `fetch()` was called. TTFB is the first body byte of any kind (the first read);
//! TTFT is the first non-empty content event; TPOT = (t_last_content - t_first_content) / (N - 1) with
//! N = `usage.completion_tokens` less `reasoning_tokens` (when the server reports them: the content span
//! holds no reasoning) when the server sent it (and it is above zero), else the number of
//! content events (vLLM/AIPerf convention, first token excluded). When the stream carried reasoning and
//! the server's count holds it without saying how much (Anthropic's `output_tokens`, Ollama's
//! `eval_count`), N is every output token, so the span runs from the first output token of either kind to
//! the last: dividing the answer's span by a count that includes the reasoning made TPOT a third too
//! short for 50 reasoning and 100 answer tokens. ITL is every gap between consecutive content events;
//! total is the last byte (the last read).

use serde::{Deserialize, Serialize};

use super::cache::CacheStats;
use crate::analysis::Analysis;
use crate::dialect::{EventKind, Usage};
use crate::stats::{per_read_p50_p99, Percentiles};
use crate::trace::Trace;

/// Where the token count N used for TPOT came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenCountSource {
    /// `usage.completion_tokens` (less `reasoning_tokens` when reported) as sent by the server.
    Usage,
    /// `usage.completion_tokens` holding the reasoning tokens of a stream that carried reasoning (the
    /// server did not say how many): TPOT's span runs from the first reasoning or answer token to the last.
    UsageWithReasoning,
    /// The number of content events (each counted as one token).
    Events,
}

read_by_name!(TokenCountSource {
    Usage = "usage",
    UsageWithReasoning = "usage_with_reasoning",
    Events = "events",
});

/// Everything measured about one run (`Default`: all counts 0, every time `None`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// When the response headers arrived.
    pub headers_ms: Option<f64>,
    /// Time to first byte: the first read, whatever it carried.
    pub ttfb_ms: Option<f64>,
    /// Time to first token: the first non-empty content event.
    pub ttft_ms: Option<f64>,
    /// Time to the first reasoning token.
    pub reasoning_ttft_ms: Option<f64>,
    /// Time of the last content event.
    pub last_content_ms: Option<f64>,
    /// Time per output token after the first: (t_last_content - t_first_content) / (N - 1), over every
    /// output token when N holds the reasoning ([`TokenCountSource::UsageWithReasoning`]); `None` when N < 2.
    pub tpot_ms: Option<f64>,
    /// The token count N used for TPOT and token rates (`None` when zero).
    pub tpot_n: Option<u64>,
    /// Where N came from.
    pub tpot_n_source: Option<TokenCountSource>,
    /// Gaps between consecutive content events.
    pub itl_ms: Option<Percentiles>,
    /// Time of the last byte (the last read); `None` without any read.
    pub total_ms: Option<f64>,
    /// How many reads delivered data.
    pub reads: usize,
    /// Wire messages (SSE events and comments, JSON lines, raw text chunks).
    pub events: usize,
    /// Events carrying content.
    pub content_events: usize,
    /// Reads that carried at least one content event (0 when read from a report written before it was
    /// reported: without the default such a report, or an export holding one, could not be imported).
    #[serde(default)]
    pub content_reads: usize,
    /// Mean wire messages per read.
    pub events_per_read_mean: Option<f64>,
    /// Most wire messages completed by one read.
    pub events_per_read_max: usize,
    /// Median wire messages per read, over the reads that completed at least one (a read holding only
    /// part of an event is left out): 1 when nothing merges events.
    #[serde(default)]
    pub events_per_read_p50: Option<f64>,
    /// 99th percentile of the same.
    #[serde(default)]
    pub events_per_read_p99: Option<f64>,
    /// Body bytes received.
    pub bytes: usize,
    /// Characters of answer text.
    pub content_chars: usize,
    /// Output speed after the first token: (N - 1) / (t_last_content - t_first_content) * 1000.
    pub output_tokens_per_s: Option<f64>,
    /// End-to-end speed: N / total * 1000.
    pub e2e_tokens_per_s: Option<f64>,
    /// Prompt-cache figures, when the server reported them.
    pub cache: Option<CacheStats>,
}

impl Metrics {
    /// Derives the metrics of a run from its trace and the analysis of that trace.
    pub fn derive(trace: &Trace, analysis: &Analysis) -> Metrics {
        // Read as tokens, a 502 page answered in 3 ms gave the fastest TTFT of a repeat, and of a sweep
        // level where the proxy gave up.
        let answered = trace.answered();
        let content_events = || analysis.content_events().filter(move |_| answered);
        let content: Vec<f64> = content_events().map(|e| e.at_ms).collect();
        let t_first = content.first().copied();
        let t_last = content.last().copied();
        let mut reasoning = analysis.events.iter().filter(|e| answered && matches!(e.kind, EventKind::Reasoning(_)));
        let reasoning_ttft_ms = reasoning.next().map(|e| e.at_ms);
        let reasoning_last_ms = reasoning.next_back().map(|e| e.at_ms).or(reasoning_ttft_ms);

        let usage = analysis.usage.as_ref();
        let usage_n = usage.and_then(Usage::answer_tokens).filter(|&n| n > 0 && answered);
        let reasoning_counted_in = reasoning_ttft_ms.is_some() && usage.is_some_and(|u| u.reasoning_tokens.is_none());
        let (n, source) = match usage_n {
            Some(n) if reasoning_counted_in => (n, Some(TokenCountSource::UsageWithReasoning)),
            Some(n) => (n, Some(TokenCountSource::Usage)),
            None if !content.is_empty() => (content.len() as u64, Some(TokenCountSource::Events)),
            None => (0, None),
        };
        let span_ms = match (t_first.zip(t_last), reasoning_ttft_ms.zip(reasoning_last_ms)) {
            (Some((a, b)), Some((ra, rb))) if source == Some(TokenCountSource::UsageWithReasoning) => {
                Some(b.max(rb) - a.min(ra))
            }
            (content_span, _) => content_span.map(|(a, b)| b - a),
        };
        let tpot_ms = span_ms.filter(|_| n >= 2).map(|s| s / (n - 1) as f64);
        let output_tokens_per_s = span_ms
            .filter(|&s| n >= 2 && s > 0.0)
            .map(|s| (n - 1) as f64 / s * 1000.0);

        let gaps: Vec<f64> = content.windows(2).map(|w| w[1] - w[0]).collect();
        let total_ms = trace.reads.last().map(|r| r.at_ms);
        let e2e_tokens_per_s = total_ms
            .filter(|&t| t > 0.0 && n > 0)
            .map(|t| n as f64 / t * 1000.0);

        let per_read = &analysis.messages_per_read;
        let (events_per_read_p50, events_per_read_p99) = per_read_p50_p99(per_read);
        let mut content_reads: Vec<usize> = content_events().map(|e| e.read_index).collect();
        content_reads.dedup();

        Metrics {
            headers_ms: trace.headers_ms,
            ttfb_ms: trace.reads.first().map(|r| r.at_ms),
            ttft_ms: t_first,
            reasoning_ttft_ms,
            last_content_ms: t_last,
            tpot_ms,
            tpot_n: (n > 0).then_some(n),
            tpot_n_source: source,
            itl_ms: Percentiles::of(&gaps),
            total_ms,
            reads: trace.reads.len(),
            events: analysis.messages,
            content_events: content.len(),
            content_reads: content_reads.len(),
            events_per_read_mean: (!per_read.is_empty())
                .then(|| per_read.iter().sum::<usize>() as f64 / per_read.len() as f64),
            events_per_read_max: per_read.iter().copied().max().unwrap_or(0),
            events_per_read_p50,
            events_per_read_p99,
            bytes: trace.body_bytes(),
            content_chars: if answered { analysis.content_chars.max(analysis.text.chars().count()) } else { 0 },
            output_tokens_per_s,
            e2e_tokens_per_s,
            cache: analysis
                .usage
                .as_ref()
                .and_then(|u| CacheStats::from_usage_in(u, analysis.dialect)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::dialect::Dialect;
    use crate::measure::cache::CacheSource;
    use crate::measure::delivery::DeliveryStats;
    use crate::trace::TraceEnd;

    fn sse_trace(reads: Vec<(f64, String)>) -> Trace {
        let end = reads.last().map_or(0.0, |r| r.0) + 1.0;
        Trace::from_reads(200, "text/event-stream", 100.0, reads, TraceEnd::Complete { at_ms: end })
    }

    fn content(text: &str) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}\n\n")
    }

    fn metrics(trace: &Trace) -> Metrics {
        Metrics::derive(trace, &analyze(trace))
    }

    /// 50 content events, the first at 300 ms, 20 ms apart, one per read.
    fn fifty_events() -> Vec<(f64, String)> {
        (0..50)
            .map(|i| (300.0 + 20.0 * i as f64, content("tok")))
            .collect()
    }

    #[test]
    fn steady_stream_ttft_tpot_itl() {
        let m = metrics(&sse_trace(fifty_events()));
        assert_eq!(m.headers_ms, Some(100.0));
        assert_eq!(m.ttfb_ms, Some(300.0));
        assert_eq!(m.ttft_ms, Some(300.0));
        assert_eq!(m.tpot_ms, Some(20.0));
        assert_eq!(m.tpot_n, Some(50));
        assert_eq!(m.tpot_n_source, Some(TokenCountSource::Events));
        let itl = m.itl_ms.unwrap();
        assert_eq!(
            (itl.p50, itl.p90, itl.p99, itl.max, itl.mean),
            (20.0, 20.0, 20.0, 20.0, 20.0)
        );
        assert_eq!(m.total_ms, Some(1280.0));
        assert_eq!(
            (m.reads, m.events, m.content_events, m.content_reads),
            (50, 50, 50, 50)
        );
        assert_eq!(
            (m.events_per_read_mean, m.events_per_read_max),
            (Some(1.0), 1)
        );
        assert_eq!(m.content_chars, 150);
        assert!((m.output_tokens_per_s.unwrap() - 50.0).abs() < 1e-9);
        assert!((m.e2e_tokens_per_s.unwrap() - 50.0 / 1.28).abs() < 1e-9);
        assert_eq!(m.bytes, sse_trace(fifty_events()).body_bytes());
    }

    #[test]
    fn usage_completion_tokens_changes_n_and_source() {
        let mut reads = fifty_events();
        reads.push((
            1300.0,
            "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":99}}\n\n"
                .into(),
        ));
        let m = metrics(&sse_trace(reads));
        assert_eq!(m.tpot_n, Some(99));
        assert_eq!(m.tpot_n_source, Some(TokenCountSource::Usage));
        assert_eq!(m.tpot_ms, Some(980.0 / 98.0));
        assert_eq!(m.total_ms, Some(1300.0));
        assert_eq!(m.ttft_ms, Some(300.0));
    }

    #[test]
    fn ttfb_counts_keepalive_and_role_chunk_but_ttft_does_not() {
        let m = metrics(&sse_trace(vec![
            (50.0, ": keep-alive\n\n".into()),
            (
                80.0,
                "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n".into(),
            ),
            (200.0, content("a")),
        ]));
        assert_eq!(m.ttfb_ms, Some(50.0));
        assert_eq!(m.ttft_ms, Some(200.0));
        assert_eq!(m.tpot_ms, None);
        assert_eq!(m.tpot_n, Some(1));
        assert_eq!(m.itl_ms, None);
    }

    #[test]
    fn reasoning_first_then_content() {
        let m = metrics(&sse_trace(vec![
            (
                120.0,
                "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hm\"}}]}\n\n".into(),
            ),
            (400.0, content("a")),
            (450.0, content("b")),
        ]));
        assert_eq!(m.reasoning_ttft_ms, Some(120.0));
        assert_eq!(m.ttft_ms, Some(400.0));
        assert_eq!(m.tpot_ms, Some(50.0));
    }

    #[test]
    fn itl_percentiles_over_uneven_gaps() {
        let times = [100.0, 110.0, 130.0, 160.0, 200.0, 1200.0];
        let m = metrics(&sse_trace(
            times.iter().map(|&t| (t, content("x"))).collect(),
        ));
        let itl = m.itl_ms.unwrap();
        // gaps 10, 20, 30, 40, 1000 -> numpy: p50 30, p90 616, max 1000, mean 220
        assert_eq!((itl.p50, itl.max, itl.mean), (30.0, 1000.0, 220.0));
        assert!((itl.p90 - 616.0).abs() < 1e-9);
        assert_eq!(m.tpot_ms, Some(220.0));
    }

    #[test]
    fn events_per_read_when_bursty() {
        let burst: String = (0..4).map(|_| content("t")).collect();
        let m = metrics(&sse_trace(vec![
            (100.0, burst.clone()),
            (200.0, burst),
            (300.0, content("t")),
        ]));
        assert_eq!(m.events_per_read_max, 4);
        assert_eq!(m.events_per_read_mean, Some(3.0));
        assert_eq!(m.events_per_read_p50, Some(4.0));
        assert!((m.events_per_read_p99.unwrap() - 4.0).abs() < 1e-9);
        assert_eq!(m.content_reads, 3);
    }

    #[test]
    fn no_reads_no_times() {
        let t = Trace {
            end: Some(TraceEnd::Complete { at_ms: 5.0 }),
            ..Trace::default()
        };
        let m = metrics(&t);
        assert_eq!(
            (m.ttfb_ms, m.ttft_ms, m.total_ms, m.tpot_ms),
            (None, None, None, None)
        );
        assert_eq!((m.reads, m.events_per_read_mean, m.tpot_n), (0, None, None));
    }

    #[test]
    fn cache_stats_deepseek_and_openai() {
        let ds = Usage {
            prompt_cache_hit_tokens: Some(70),
            prompt_cache_miss_tokens: Some(30),
            ..Usage::default()
        };
        let c = CacheStats::from_usage(&ds).unwrap();
        assert_eq!(
            (c.hit_tokens, c.miss_tokens, c.hit_ratio, c.source),
            (70, 30, Some(0.7), CacheSource::Deepseek)
        );
        let oa = Usage {
            prompt_tokens: Some(200),
            cached_tokens: Some(50),
            ..Usage::default()
        };
        let c = CacheStats::from_usage(&oa).unwrap();
        assert_eq!(
            (c.hit_tokens, c.miss_tokens, c.hit_ratio, c.source),
            (50, 150, Some(0.25), CacheSource::Openai)
        );
        assert_eq!(
            CacheStats::from_usage(&Usage {
                prompt_tokens: Some(5),
                ..Usage::default()
            }),
            None
        );
        let zero = Usage {
            prompt_cache_hit_tokens: Some(0),
            prompt_cache_miss_tokens: Some(0),
            ..Usage::default()
        };
        assert_eq!(CacheStats::from_usage(&zero).unwrap().hit_ratio, None);
    }

    #[test]
    fn cache_stats_anthropic_responses_gemini() {
        let anthropic = Usage {
            prompt_tokens: Some(2100),
            cache_read_input_tokens: Some(2048),
            cache_creation_input_tokens: Some(30),
            ..Usage::default()
        };
        let c = CacheStats::from_usage(&anthropic).unwrap();
        assert_eq!(
            (c.hit_tokens, c.miss_tokens, c.source),
            (2048, 52, CacheSource::Anthropic)
        );
        let cached = Usage {
            prompt_tokens: Some(100),
            cached_tokens: Some(75),
            ..Usage::default()
        };
        for (dialect, source) in [
            (Dialect::OpenaiChat, CacheSource::Openai),
            (Dialect::OpenaiResponses, CacheSource::OpenaiResponses),
            (Dialect::Gemini, CacheSource::Gemini),
        ] {
            let c = CacheStats::from_usage_in(&cached, dialect).unwrap();
            assert_eq!((c.hit_ratio, c.source), (Some(0.75), source));
        }
        assert_eq!(
            serde_json::to_value(CacheSource::OpenaiResponses).unwrap(),
            "openai-responses"
        );
    }

    #[test]
    fn usage_n_leaves_reasoning_tokens_out() {
        let mut reads = fifty_events();
        reads.push((
            1300.0,
            "data: {\"choices\":[],\"usage\":{\"completion_tokens\":80,\"completion_tokens_details\":{\"reasoning_tokens\":30}}}\n\n"
                .into(),
        ));
        let m = metrics(&sse_trace(reads));
        assert_eq!(
            (m.tpot_n, m.tpot_n_source, m.tpot_ms),
            (Some(50), Some(TokenCountSource::Usage), Some(20.0))
        );
    }

    /// Regression guard: Anthropic's `output_tokens` and Ollama's `eval_count` hold the thinking tokens;
    /// 50 reasoning and 100 answer tokens 10 ms apart gave a TPOT of 6.65 ms (the answer's 990 ms over 149).
    #[test]
    fn usage_holding_the_reasoning_spans_every_output_token() {
        let reasoning = |t: &str| format!("data: {{\"choices\":[{{\"delta\":{{\"reasoning_content\":\"{t}\"}}}}]}}\n\n");
        let mut reads: Vec<(f64, String)> = (0..50).map(|i| (100.0 + 10.0 * i as f64, reasoning("r"))).collect();
        reads.extend((0..100).map(|i| (600.0 + 10.0 * i as f64, content("a"))));
        let usage = |details: &str| {
            format!("data: {{\"choices\":[],\"usage\":{{\"completion_tokens\":150{details}}}}}\n\n")
        };
        let mut folded = reads.clone();
        folded.push((1600.0, usage("")));
        let m = metrics(&sse_trace(folded));
        assert_eq!((m.tpot_n, m.tpot_n_source), (Some(150), Some(TokenCountSource::UsageWithReasoning)));
        assert!((m.tpot_ms.unwrap() - 10.0).abs() < 1e-9, "{:?}", m.tpot_ms);
        assert!((m.output_tokens_per_s.unwrap() - 100.0).abs() < 1e-6, "{:?}", m.output_tokens_per_s);
        assert_eq!(m.ttft_ms, Some(600.0), "TTFT is still the first answer token");
        // Told how many were reasoning, N is the answer's and the span the answer's.
        reads.push((1600.0, usage(",\"completion_tokens_details\":{\"reasoning_tokens\":50}")));
        let m = metrics(&sse_trace(reads));
        assert_eq!((m.tpot_n, m.tpot_n_source, m.tpot_ms), (Some(100), Some(TokenCountSource::Usage), Some(10.0)));
        assert_eq!(serde_json::to_value(TokenCountSource::UsageWithReasoning).unwrap(), "usage_with_reasoning");
    }

    #[test]
    fn a_body_sent_with_an_error_status_carries_no_tokens() {
        let page = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
        let trace = |status| Trace::from_reads(status, "text/html", 2.0, [(2.6, page)], TraceEnd::Complete { at_ms: 3.0 });
        let m = metrics(&trace(502));
        assert_eq!((m.ttft_ms, m.tpot_n, m.content_events, m.content_reads, m.content_chars), (None, None, 0, 0, 0));
        assert_eq!((m.ttfb_ms, m.total_ms, m.reads, m.bytes), (Some(2.6), Some(2.6), 1, page.len()), "the body's timing stays");
        let d = DeliveryStats::derive(&trace(502), &analyze(&trace(502)));
        assert_eq!((d.deliveries, d.content_events_per_read_max), (0, 0));
        // The same text with 200 is the answer, as raw text.
        let m = metrics(&trace(200));
        assert_eq!((m.ttft_ms, m.content_events), (Some(2.6), 1));
    }

    #[test]
    fn cache_stats_reach_metrics() {
        let m = metrics(&sse_trace(vec![
            (10.0, content("a")),
            (20.0, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":1,\"prompt_tokens_details\":{\"cached_tokens\":8}}}\n\n".into()),
        ]));
        assert_eq!(m.cache.unwrap().hit_ratio, Some(0.8));
    }
}
