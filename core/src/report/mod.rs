//! Reports: the JSON of one run (this module: the automation contract's top-level fields, DESIGN.md, plus
//! the rest of the metrics, the findings and the raw facts that identify the run), several runs of one
//! target ([`runs`]), an A/B comparison ([`compare`]), the report of one press of Run ([`campaign`]), the
//! hand-off file ([`export`], checked on import by [`import_check`]) and a Markdown summary ([`markdown`]).
//! Every sentence is kept as a catalogue text beside its English words, so `localize(lang)` says a report
//! in another language (`localize.rs`; the shared words in [`words`]).
//!
//! Depends on [`crate::findings`], [`crate::config`] (an export carries the page configuration) and
//! below.
//!
//! Times are ms since `fetch()` (numbers or `null`), counts are integers. `schema_version` changes only
//! when a field changes meaning or disappears.

use serde::{Deserialize, Serialize};

pub mod campaign;
pub mod compare;
pub mod connection_cost;
pub mod export;
pub mod import_check;
mod localize;
pub mod markdown;
pub mod hops;
mod held;
mod pretty_json;
mod read;
pub mod runs;
pub mod sweep;
pub mod verdict_tally;
pub mod words;

use crate::analysis::{analyze, Analysis};
use crate::dialect::content_filter::ContentFilter;
use crate::dialect::{Dialect, StopReason, Usage};
use crate::findings::{diagnose_with, Finding, FindingCode};
use crate::measure::{DeliveryStats, Metrics};
use crate::trace::{ConnectionTiming, MeasuredIn, RequestSummary, Trace, TraceEnd};
use crate::verdict::{classify_with, Verdict};
use crate::wire::Framing;

/// The report schema version written by this crate.
pub const SCHEMA_VERSION: u32 = 1;

/// The report of one run, serialised as the page's `#report-json`: the verdict, the findings, the raw
/// facts that identify the run, and every [`Metrics`] field at the top level (the report reads as its
/// metrics: `report.ttft_ms` is `report.metrics.ttft_ms`).
///
/// `remote = "Self"`: the derives write inherent `Report::serialize` / `Report::deserialize`, which the
/// trait impls in [`read`] call (reading goes through one JSON value, without the flatten's buffering).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct Report {
    /// Always [`SCHEMA_VERSION`] when written by this crate.
    pub schema_version: u32,
    /// streaming, buffered, collected or failed.
    pub verdict: Verdict,
    /// Explanations, errors first; each has at least a `code`.
    pub findings: Vec<Finding>,
    /// The detected stream format (`openai-chat`, `sse-text`, `ollama`, `raw`, `unknown`).
    pub dialect: Dialect,
    /// HTTP status, if headers arrived.
    pub status: Option<u16>,
    /// The body's framing (`sse`, `ndjson`, `raw`).
    pub framing: Option<Framing>,
    /// The last usage the server reported.
    pub usage: Option<Usage>,
    /// Why generation stopped.
    pub finish_reason: Option<StopReason>,
    /// A content filter the stream showed (Azure OpenAI's marks: `batched`, `asynchronous` or
    /// `text_unmarked`, with its counts); absent when it showed none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_filter: Option<ContentFilter>,
    /// How the run ended (`{"kind": "complete", "at_ms": ...}` and so on); `null` while running.
    pub end: Option<TraceEnd>,
    /// What was requested (no secrets).
    pub request: RequestSummary,
    /// Resource Timing figures, when the server allowed them.
    pub connection: Option<ConnectionTiming>,
    /// Wall-clock start of the run (ms since the Unix epoch), to order and align runs; never used for
    /// timing.
    #[serde(default)]
    pub started_unix_ms: Option<f64>,
    /// How the content was delivered: bursts (with the silence before each), read sizes, hold times.
    #[serde(default)]
    pub delivery: DeliveryStats,
    /// Where the reader loop ran: `worker` (off the page's main thread) or `main-thread` (a fallback, when
    /// the browser could not start the measuring worker); `null` for runs recorded before it was said.
    #[serde(default)]
    pub measured_in: Option<MeasuredIn>,
    /// Every measured figure (TTFT, TTFB, TPOT, totals, counts, cache), flattened into the top level
    /// (read separately, from the same object: see [`read`]).
    #[serde(flatten, skip_deserializing)]
    pub metrics: Metrics,
}

// Written out, not derived: the derive's `#[inline]` let the page's crate and core each keep a copy of the
// whole clone after LTO (2.1 and 1.7 KB of wasm; issue 13's size budget). One body, never inlined.
impl Clone for Report {
    #[inline(never)]
    fn clone(&self) -> Report {
        Report {
            schema_version: self.schema_version,
            verdict: self.verdict,
            findings: self.findings.clone(),
            dialect: self.dialect,
            status: self.status,
            framing: self.framing,
            usage: self.usage.clone(),
            finish_reason: self.finish_reason.clone(),
            content_filter: self.content_filter,
            end: self.end.clone(),
            request: self.request.clone(),
            connection: self.connection.clone(),
            started_unix_ms: self.started_unix_ms,
            delivery: self.delivery.clone(),
            measured_in: self.measured_in,
            metrics: self.metrics.clone(),
        }
    }
}

impl std::ops::Deref for Report {
    type Target = Metrics;

    /// The report reads as its metrics (`report.ttft_ms`).
    fn deref(&self) -> &Metrics {
        &self.metrics
    }
}

impl Report {
    /// Analyzes a trace and builds its report.
    pub fn from_trace(trace: &Trace) -> Report {
        Report::from_analysis(trace, &analyze(trace))
    }

    /// Builds the report of a trace from an analysis of that same trace.
    pub fn from_analysis(trace: &Trace, analysis: &Analysis) -> Report {
        let metrics = Metrics::derive(trace, analysis);
        let delivery = DeliveryStats::derive(trace, analysis);
        let verdict = classify_with(trace, analysis, &metrics, &delivery);
        let findings = diagnose_with(trace, analysis, &metrics, &delivery, verdict);
        Report {
            schema_version: SCHEMA_VERSION,
            verdict,
            findings,
            dialect: analysis.dialect,
            status: trace.status,
            framing: analysis.framing,
            usage: analysis.usage.clone(),
            finish_reason: analysis.finish_reason.clone(),
            content_filter: analysis.filter_marks.seen(analysis.content_event_count),
            end: trace.end.clone(),
            request: trace.request.clone(),
            connection: trace.connection.clone(),
            started_unix_ms: trace.started_unix_ms,
            measured_in: trace.measured_in,
            delivery,
            metrics,
        }
    }

    /// The report as pretty-printed JSON.
    pub fn to_json_pretty(&self) -> String {
        pretty_json::pretty_json(self, || {
            format!("{{\"schema_version\":{SCHEMA_VERSION},\"error\":\"the report could not be written as JSON\"}}")
        })
    }

    /// Reads a report back from JSON.
    pub fn from_json(json: &str) -> Result<Report, serde_json::Error> {
        crate::json_in::from_str(json)
    }

    /// Whether a finding with this code is present.
    pub fn has_finding(&self, code: FindingCode) -> bool {
        self.findings.iter().any(|f| f.code == code)
    }

    /// Whether the user cancelled the run: it measured nothing about the server.
    pub fn cancelled(&self) -> bool {
        matches!(self.end, Some(TraceEnd::Cancelled { .. }))
    }
}

/// The runs that measured the server: every run but those the user cancelled, or all of them when every
/// run was cancelled. A campaign's verdicts and figures are theirs; a cancel mid-campaign then neither
/// makes a side `failed` nor pulls its medians toward a partial run (its report stays in `runs`, its
/// verdict in the counts, its `cancelled` finding in the findings).
pub fn measured_runs(mut runs: Vec<&Report>) -> Vec<&Report> {
    runs.retain(measured_among(&runs));
    runs
}

/// Whether a run of `runs` is one of [`measured_runs`]: for lists that keep other things beside each run.
pub fn measured_among(runs: &[&Report]) -> impl Fn(&&Report) -> bool {
    let every_run_cancelled = runs.iter().all(|r| r.cancelled());
    move |r| every_run_cancelled || !r.cancelled()
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
                elided_bytes: 0,
            })
            .collect();
        reads.push(ReadChunk {
            at_ms: 500.0,
            bytes: b"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":10,\"prompt_cache_hit_tokens\":15,\"prompt_cache_miss_tokens\":5}}\n\ndata: [DONE]\n\n".to_vec(),
            elided_bytes: 0,
        });
        Trace {
            request: RequestSummary {
                url: "http://127.0.0.1:8080/v1/chat/completions".into(),
                method: "POST".into(),
                body_len_bytes: 42,
                header_names: vec![],
                ..RequestSummary::default()
            },
            headers_ms: Some(90.0),
            status: Some(200),
            headers: vec![("content-type".into(), "text/event-stream".into())],
            reads,
            end: Some(TraceEnd::Complete { at_ms: 501.0 }),
            connection: None,
            started_unix_ms: None,
            probes: Default::default(),
            ..Trace::default()
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
        assert!(r.has_finding(FindingCode::Framing));
    }

    /// 5 bursts of 20 events, 400 ms apart, each event stamped by the server 20 ms after the previous one.
    fn buffered_sample() -> Trace {
        let reads: Vec<(f64, String)> = (0..5)
            .map(|b| {
                let at = 700.0 + 400.0 * b as f64;
                let burst: String = (0..20)
                    .map(|i| {
                        let server_ms = at - 400.0 + 20.0 * i as f64;
                        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"t\"}}}}],\"server_ms\":{server_ms}}}\n\n")
                    })
                    .collect();
                (at, burst)
            })
            .collect();
        Trace::from_reads(
            200,
            "text/event-stream",
            10.0,
            reads,
            TraceEnd::Complete { at_ms: 2301.0 },
        )
    }

    #[test]
    fn report_json_has_delivery_fields() {
        let json: Value = serde_json::to_value(Report::from_trace(&buffered_sample())).unwrap();
        assert_eq!(json["verdict"], "buffered");
        let d = &json["delivery"];
        assert_eq!(d["burst_count"], 5);
        assert_eq!(d["bursts"].as_array().unwrap().len(), 5);
        let first = &d["bursts"][1];
        for key in [
            "start_ms",
            "end_ms",
            "reads",
            "events",
            "bytes",
            "gap_before_ms",
        ] {
            assert!(first.get(key).is_some(), "burst misses {key}");
        }
        assert_eq!(
            (first["start_ms"].as_f64(), first["gap_before_ms"].as_f64()),
            (Some(1100.0), Some(400.0))
        );
        assert_eq!(first["events"], 20);
        assert_eq!(d["typical_gap_ms"], 400.0);
        assert_eq!(d["events_per_burst_mean"], 20.0);
        assert_eq!(d["burst_event_share"], 1.0);
        assert_eq!(d["content_events_per_read_max"], 20);
        for key in ["p50", "p90", "max"] {
            assert!(d["hold_ms"][key].is_f64(), "hold_ms.{key}");
        }
        assert_eq!(d["hold_ms"]["max"], 380.0);
        assert!(d["read_sizes"].get("buffer_len_bytes").is_some());
        assert!(json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "bursts"));
    }

    #[test]
    fn delivery_without_server_timestamps_has_null_hold() {
        let json: Value = serde_json::to_value(Report::from_trace(&sample())).unwrap();
        assert!(json["delivery"]["hold_ms"].is_null());
        assert_eq!(json["delivery"]["burst_count"], 0);
        assert_eq!(json["delivery"]["bursts"], serde_json::json!([]));
    }

    #[test]
    fn old_report_without_delivery_still_deserializes() {
        let mut json: Value = serde_json::to_value(Report::from_trace(&sample())).unwrap();
        json.as_object_mut().unwrap().remove("delivery");
        let r: Report = serde_json::from_value(json).unwrap();
        assert_eq!(r.delivery, DeliveryStats::default());
        assert_eq!(r.verdict, Verdict::Streaming);
    }

    #[test]
    fn old_trace_without_started_unix_ms_still_deserializes() {
        let mut json: Value = serde_json::to_value(sample()).unwrap();
        json.as_object_mut().unwrap().remove("started_unix_ms");
        let t: Trace = serde_json::from_value(json).unwrap();
        assert_eq!(t.started_unix_ms, None);
    }

    /// Issue 14: every finding of a buffered, a collected and a compressed run (path findings, `collected`
    /// and the stream findings beside them) says its words from the catalogue, in Chinese too, with the
    /// same codes and evidence.
    #[test]
    fn every_finding_of_a_buffered_collected_or_compressed_run_is_worded() {
        let end = "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
        let all: String = (0..30).map(|_| content("t")).collect::<String>() + end;
        let mut collected =
            Trace::from_reads(200, "text/event-stream", 2499.5, vec![(2500.0, all)], TraceEnd::Complete { at_ms: 2501.0 });
        collected.headers.push(("content-length".into(), "5120".into()));
        collected.headers.push(("age".into(), "30".into()));
        let mut compressed = sample();
        compressed.headers.push(("content-encoding".into(), "gzip".into()));
        let mut compressed_buffered = buffered_sample();
        compressed_buffered.headers.push(("content-encoding".into(), "br".into()));
        let cases = [
            ("buffered", buffered_sample(), Verdict::Buffered, FindingCode::Bursts),
            ("collected", collected, Verdict::Collected, FindingCode::Collected),
            ("compressed", compressed, Verdict::Streaming, FindingCode::Compressed),
            ("compressed and buffered", compressed_buffered, Verdict::Buffered, FindingCode::Compressed),
        ];
        for (name, trace, verdict, code) in cases {
            let report = Report::from_trace(&trace);
            assert_eq!(report.verdict, verdict, "{name}");
            assert!(report.has_finding(code.clone()), "{name}: no {code}");
            for f in &report.findings {
                crate::findings::testkit::assert_worded(f);
            }
        }
    }

    /// Regression: a trace no browser records (NaN, infinite, negative and unordered times, reads of
    /// `usize::MAX` bytes, usage counts of `u64::MAX`) must still give a report, never a panic: such a
    /// trace can reach the core by an edited import or a broken clock.
    #[test]
    fn report_of_an_absurd_trace_never_panics() {
        let max = u64::MAX;
        let usage = format!("data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":{max},\"completion_tokens\":{max},\"prompt_cache_hit_tokens\":{max}}}}}\n\n");
        let times = [f64::NAN, -5.0, f64::INFINITY, 3.0, f64::NEG_INFINITY, 1e308, 2.0, -1e308];
        for elided in [0, usize::MAX] {
            let mut t = Trace::from_reads(200, "text/event-stream", f64::NAN, Vec::<(f64, Vec<u8>)>::new(), TraceEnd::Complete { at_ms: f64::NAN });
            for (i, at_ms) in times.iter().enumerate() {
                let bytes = if i == 5 { usage.clone().into_bytes() } else { content("t").into_bytes() };
                t.reads.push(ReadChunk { at_ms: *at_ms, bytes, elided_bytes: if i % 3 == 2 { elided } else { 0 } });
            }
            t.started_unix_ms = Some(f64::NAN);
            let r = Report::from_trace(&t);
            assert_eq!(r.reads, times.len());
            assert!(!r.to_json_pretty().is_empty());
            let summary = runs::RunsSummary::of(vec![r.clone(), r]);
            assert!(summary.cache.is_some());
        }
    }
}
