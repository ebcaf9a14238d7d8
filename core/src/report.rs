//! The JSON report of one run: the automation contract's top-level fields (DESIGN.md) plus the rest of
//! the metrics, the findings and the raw facts that identify the run.
//!
//! Times are ms since `fetch()` (numbers or `null`), counts are integers. `schema_version` changes only
//! when a field changes meaning or disappears.

use serde::{Deserialize, Serialize};

use crate::analyzer::{analyze, Analysis};
use crate::event::Dialect;
use crate::finding::{diagnose, Finding};
use crate::framing::Framing;
use crate::metrics::{CacheStats, Metrics, TokenCountSource};
use crate::stats::Percentiles;
use crate::trace::{ConnectionTiming, RequestSummary, Trace, TraceEnd};
use crate::usage::Usage;
use crate::verdict::{classify, Verdict};

/// The report schema version written by this crate.
pub const SCHEMA_VERSION: u32 = 1;

/// The report of one run, serialised as the page's `#report-json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Always [`SCHEMA_VERSION`] when written by this crate.
    pub schema_version: u32,
    /// streaming, buffered, collected or failed.
    pub verdict: Verdict,
    /// Time to first token.
    pub ttft_ms: Option<f64>,
    /// Time to first byte.
    pub ttfb_ms: Option<f64>,
    /// Time per output token after the first.
    pub tpot_ms: Option<f64>,
    /// Time of the last byte.
    pub total_ms: Option<f64>,
    /// Events carrying answer text.
    pub content_events: usize,
    /// `reader.read()` chunks that delivered data.
    pub reads: usize,
    /// Explanations, errors first; each has at least a `code`.
    pub findings: Vec<Finding>,
    /// The detected stream format (`openai-chat`, `sse-text`, `ollama`, `raw`, `unknown`).
    pub dialect: Dialect,
    /// When the response headers arrived.
    pub headers_ms: Option<f64>,
    /// Time to the first reasoning token.
    pub reasoning_ttft_ms: Option<f64>,
    /// The token count N used for TPOT.
    pub tpot_n: Option<u64>,
    /// Where N came from (`usage` or `events`).
    pub tpot_n_source: Option<TokenCountSource>,
    /// Gaps between consecutive content events (p50, p90, p99, max, mean).
    pub itl_ms: Option<Percentiles>,
    /// Wire messages (SSE events and comments, JSON lines, raw text chunks).
    pub events: usize,
    /// Mean wire messages per read.
    pub events_per_read_mean: Option<f64>,
    /// Most wire messages in one read.
    pub events_per_read_max: usize,
    /// Body bytes received.
    pub bytes: usize,
    /// Characters of answer text.
    pub content_chars: usize,
    /// Output tokens per second after the first token.
    pub output_tokens_per_s: Option<f64>,
    /// Tokens per second over the whole run.
    pub e2e_tokens_per_s: Option<f64>,
    /// HTTP status, if headers arrived.
    pub status: Option<u16>,
    /// The body's framing (`sse`, `ndjson`, `raw`).
    pub framing: Option<Framing>,
    /// The last usage the server reported.
    pub usage: Option<Usage>,
    /// Prompt-cache figures.
    pub cache: Option<CacheStats>,
    /// Why generation stopped.
    pub finish_reason: Option<String>,
    /// How the run ended (`{"kind": "complete", "at_ms": ...}` and so on); `null` while running.
    pub end: Option<TraceEnd>,
    /// What was requested (no secrets).
    pub request: RequestSummary,
    /// Resource Timing figures, when the server allowed them.
    pub connection: Option<ConnectionTiming>,
}

impl Report {
    /// Analyzes a trace and builds its report.
    pub fn from_trace(trace: &Trace) -> Report {
        Report::from_analysis(trace, &analyze(trace))
    }

    /// Builds the report of a trace from an analysis of that same trace.
    pub fn from_analysis(trace: &Trace, analysis: &Analysis) -> Report {
        let m = Metrics::derive(trace, analysis);
        let verdict = classify(trace, analysis, &m);
        let findings = diagnose(trace, analysis, &m, verdict);
        Report {
            schema_version: SCHEMA_VERSION,
            verdict,
            ttft_ms: m.ttft_ms,
            ttfb_ms: m.ttfb_ms,
            tpot_ms: m.tpot_ms,
            total_ms: m.total_ms,
            content_events: m.content_events,
            reads: m.reads,
            findings,
            dialect: analysis.dialect,
            headers_ms: m.headers_ms,
            reasoning_ttft_ms: m.reasoning_ttft_ms,
            tpot_n: m.tpot_n,
            tpot_n_source: m.tpot_n_source,
            itl_ms: m.itl_ms,
            events: m.events,
            events_per_read_mean: m.events_per_read_mean,
            events_per_read_max: m.events_per_read_max,
            bytes: m.bytes,
            content_chars: m.content_chars,
            output_tokens_per_s: m.output_tokens_per_s,
            e2e_tokens_per_s: m.e2e_tokens_per_s,
            status: trace.status,
            framing: analysis.framing,
            usage: analysis.usage.clone(),
            cache: m.cache,
            finish_reason: analysis.finish_reason.clone(),
            end: trace.end.clone(),
            request: trace.request.clone(),
            connection: trace.connection.clone(),
        }
    }

    /// The report as pretty-printed JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| {
            format!(
                "{{\"schema_version\":{SCHEMA_VERSION},\"error\":{:?}}}",
                e.to_string()
            )
        })
    }

    /// Reads a report back from JSON.
    pub fn from_json(json: &str) -> Result<Report, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// Whether a finding with this code is present.
    pub fn has_finding(&self, code: &str) -> bool {
        self.findings.iter().any(|f| f.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::ReadChunk;
    use serde_json::Value;

    fn content(text: &str) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}\n\n")
    }

    fn sample() -> Trace {
        let mut reads: Vec<ReadChunk> = (0..10)
            .map(|i| ReadChunk {
                at_ms: 200.0 + 25.0 * i as f64,
                bytes: content("tok").into_bytes(),
            })
            .collect();
        reads.push(ReadChunk {
            at_ms: 500.0,
            bytes: b"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":10,\"prompt_cache_hit_tokens\":15,\"prompt_cache_miss_tokens\":5}}\n\ndata: [DONE]\n\n".to_vec(),
        });
        Trace {
            request: RequestSummary {
                url: "http://127.0.0.1:8080/v1/chat/completions".into(),
                method: "POST".into(),
                body_len_bytes: 42,
                header_names: vec![],
            },
            headers_ms: Some(90.0),
            status: Some(200),
            headers: vec![("content-type".into(), "text/event-stream".into())],
            reads,
            end: Some(TraceEnd::Complete { at_ms: 501.0 }),
            connection: None,
        }
    }

    #[test]
    fn report_json_has_contract_fields() {
        let json: Value =
            serde_json::from_str(&Report::from_trace(&sample()).to_json_pretty()).unwrap();
        for key in [
            "verdict",
            "ttft_ms",
            "ttfb_ms",
            "tpot_ms",
            "total_ms",
            "content_events",
            "reads",
            "findings",
            "dialect",
        ] {
            assert!(json.get(key).is_some(), "missing {key}");
        }
        assert_eq!(json["verdict"], "streaming");
        assert_eq!(json["dialect"], "openai-chat");
        assert_eq!(json["ttft_ms"], 200.0);
        assert_eq!(json["ttfb_ms"], 200.0);
        assert_eq!(json["tpot_ms"], 25.0);
        assert_eq!(json["total_ms"], 500.0);
        assert_eq!(json["content_events"], 10);
        assert_eq!(json["reads"], 11);
        assert!(json["content_events"].is_u64() && json["reads"].is_u64());
        assert!(json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["code"].is_string()));
    }

    #[test]
    fn report_json_has_extra_fields() {
        let json: Value = serde_json::to_value(Report::from_trace(&sample())).unwrap();
        assert_eq!(json["schema_version"], 1);
        assert_eq!(json["headers_ms"], 90.0);
        assert_eq!(json["tpot_n"], 10);
        assert_eq!(json["tpot_n_source"], "usage");
        for key in ["p50", "p90", "p99", "max", "mean"] {
            assert_eq!(json["itl_ms"][key], 25.0, "{key}");
        }
        assert_eq!(json["events"], 12);
        assert_eq!(json["events_per_read_max"], 2);
        assert_eq!(json["status"], 200);
        assert_eq!(json["framing"], "sse");
        assert_eq!(json["usage"]["completion_tokens"], 10);
        assert_eq!(json["cache"]["hit_ratio"], 0.75);
        assert_eq!(json["finish_reason"], "stop");
        assert_eq!(json["end"]["kind"], "complete");
        assert_eq!(json["request"]["method"], "POST");
        assert!(json["reasoning_ttft_ms"].is_null());
        for key in [
            "events_per_read_mean",
            "bytes",
            "content_chars",
            "output_tokens_per_s",
            "e2e_tokens_per_s",
            "connection",
        ] {
            assert!(json.get(key).is_some(), "missing {key}");
        }
    }

    #[test]
    fn missing_values_are_null_not_absent() {
        let t = Trace {
            end: Some(TraceEnd::NetworkError {
                at_ms: 3.0,
                message: "Failed to fetch".into(),
                during_body: false,
            }),
            ..Trace::default()
        };
        let json: Value = serde_json::to_value(Report::from_trace(&t)).unwrap();
        assert_eq!(json["verdict"], "failed");
        for key in [
            "ttft_ms", "ttfb_ms", "tpot_ms", "total_ms", "itl_ms", "status", "framing",
        ] {
            assert!(json[key].is_null(), "{key} should be null");
            assert!(
                json.as_object().unwrap().contains_key(key),
                "{key} should be present"
            );
        }
        assert_eq!(json["reads"], 0);
        assert_eq!(json["dialect"], "unknown");
        assert_eq!(json["findings"][0]["code"], "network_error");
    }

    #[test]
    fn report_round_trips_through_json() {
        let r = Report::from_trace(&sample());
        assert_eq!(Report::from_json(&r.to_json_pretty()).unwrap(), r);
        assert!(r.has_finding("framing"));
    }
}
