//! Findings: plain-English explanations of what went wrong (or what is worth knowing) in a run, each
//! with a stable snake_case code, a severity, the evidence it rests on, and the fix where there is one.
//!
//! Codes: the HTTP triage of [`crate::triage_http`] (`proxy_error_page`, `auth`, `model_not_found`,
//! `rate_limited`, `http_error`), the URL triage of [`crate::triage_url`] (`doubled_v1`, `path_suffix`,
//! `missing_v1`, `mixed_content`, `url_whitespace`, `trailing_slash`), `cors` / `unreachable` from
//! [`crate::triage_net`] (else `network_error`), `timeout_headers`, `timeout_first_byte`, `stall`,
//! `timeout_total`, `cancelled`, `no_content`, `stream_error`, `collected`, then the path findings of
//! [`crate::path`] (`bursts`, `headers_held`, `content_length`, `compressed`, `cached_replay`,
//! `slow_first_token`), `truncated`, `max_tokens`, `malformed_json`, `invalid_utf8`, `long_line`,
//! `not_sse`, `sse_wrong_content_type`, `framing`, `keepalive_comments`, `role_only_first_chunk`.
//! Findings are ordered by severity (errors first), then in the order above.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::analyzer::Analysis;
use crate::delivery::DeliveryStats;
use crate::event::{Dialect, EventKind};
use crate::framing::Framing;
use crate::metrics::Metrics;
use crate::path::{collected_causes, path_findings};
use crate::stop_reason;
use crate::trace::{TimeoutKind, Trace, TraceEnd};
use crate::{triage_http, triage_net, triage_url};
use crate::verdict::Verdict;

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; nothing to fix.
    Info,
    /// Something is off and may hurt users.
    Warning,
    /// The run failed or the stream is broken.
    Error,
}

/// One explained observation about a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable snake_case identifier (tests and automation match on it).
    pub code: String,
    /// How much it matters.
    pub severity: Severity,
    /// One-line summary.
    pub title: String,
    /// What was measured, in plain words.
    pub detail: String,
    /// What to change, when there is something to change.
    pub fix: Option<String>,
    /// The figures the finding rests on (a JSON object).
    pub evidence: Value,
}

impl Finding {
    /// A finding without fix and with empty evidence.
    pub fn new(
        code: &str,
        severity: Severity,
        title: impl Into<String>,
        detail: impl Into<String>,
    ) -> Finding {
        Finding {
            code: code.to_string(),
            severity,
            title: title.into(),
            detail: detail.into(),
            fix: None,
            evidence: json!({}),
        }
    }

    /// Adds the fix.
    pub fn fix(mut self, fix: impl Into<String>) -> Finding {
        self.fix = Some(fix.into());
        self
    }

    /// Sets the evidence (should be a JSON object).
    pub fn evidence(mut self, evidence: Value) -> Finding {
        self.evidence = evidence;
        self
    }
}

/// Said by every time-out and cancel finding: what arrived before is not thrown away.
pub const PARTIAL_KEPT: &str = " Everything received until then is kept: the partial trace (its metrics, text \
    and raw reads) is shown and exported.";

/// The size above which a line is reported as long (64 KiB).
pub const LONG_LINE_BYTES: usize = 64 * 1024;

/// Formats a duration for people: `850 ms`, `12.5 ms`, `3.20 s`.
pub fn fmt_ms(ms: f64) -> String {
    if !ms.is_finite() {
        "n/a".to_string()
    } else if ms.abs() >= 10_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else if ms.abs() >= 1000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else if ms.abs() >= 10.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{ms:.1} ms")
    }
}

/// `1 read`, `2 reads`: a count with the right noun.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Where the dialect puts an error inside its stream, for the `stream_error` detail.
fn stream_error_words(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::OpenaiResponses => " (an error event or response.failed)",
        Dialect::Anthropic => " (an error event)",
        Dialect::Gemini => " (an error object or a blocked prompt)",
        Dialect::Ollama => " (an \"error\" line)",
        _ => "",
    }
}

fn framing_words(f: Framing) -> &'static str {
    match f {
        Framing::Sse => "SSE",
        Framing::Ndjson => "JSON lines",
        Framing::Raw => "raw text",
    }
}

/// The `collected` finding: what arrived when, the likely causes, and the path findings that back them.
fn collected(metrics: &Metrics, path: &[Finding]) -> Finding {
    let span = metrics
        .last_content_ms
        .zip(metrics.ttft_ms)
        .map_or(0.0, |(l, f)| l - f);
    let causes = collected_causes(path);
    let pointers: Vec<&str> = causes
        .iter()
        .map(|c| match *c {
            "content_length" => "the response had a Content-Length (content_length)",
            "compressed" => "the response was compressed (compressed)",
            "cached_replay" => "it came from a cache (cached_replay)",
            _ => "the headers were held with the body (headers_held)",
        })
        .collect();
    let evidence_words = if pointers.is_empty() {
        String::new()
    } else {
        format!(" Evidence here: {}.", pointers.join("; "))
    };
    Finding::new(
        "collected",
        Severity::Warning,
        "The whole answer arrived at once at the end",
        format!(
            "All {} content events arrived within {} at the very end: the first at {} of {} total, in {}. \
             The user saw nothing until then. Likely causes: a backend that collects the model's answer before \
             returning it, a proxy buffering the whole response, a compression layer buffering it, or a cache \
             replaying a stored answer.{evidence_words}",
            metrics.content_events,
            fmt_ms(span),
            metrics.ttft_ms.map_or("n/a".into(), fmt_ms),
            metrics.total_ms.map_or("n/a".into(), fmt_ms),
            plural(metrics.content_reads, "read", "reads"),
        ),
    )
    .fix(
        "Return a real streaming response: do not collect or join the model's stream (list(stream), \
         ''.join(...)) before returning; send Content-Type: text/event-stream and X-Accel-Buffering: no; \
         turn off proxy buffering (nginx: proxy_buffering off; proxy_cache off;) and buffering compression \
         on every layer (CDN, gateway). Check with curl -N: tokens should drip, not arrive in one lump.",
    )
    .evidence(json!({"content_events": metrics.content_events, "span_ms": span, "ttft_ms": metrics.ttft_ms,
        "total_ms": metrics.total_ms, "content_reads": metrics.content_reads, "see": causes}))
}

/// Explains a run: every finding that applies, ordered by severity (errors first).
pub fn diagnose(
    trace: &Trace,
    analysis: &Analysis,
    metrics: &Metrics,
    verdict: Verdict,
) -> Vec<Finding> {
    diagnose_with(
        trace,
        analysis,
        metrics,
        &DeliveryStats::derive(trace, analysis),
        verdict,
    )
}

/// Explains a run whose delivery was already worked out (the same as [`diagnose`]).
pub fn diagnose_with(
    trace: &Trace,
    analysis: &Analysis,
    metrics: &Metrics,
    delivery: &DeliveryStats,
    verdict: Verdict,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let http_failed = trace.status.is_some_and(|s| s >= 400);
    let content_type = trace.header("content-type");
    let received = format!(
        "{} in {}, {} ({})",
        plural(metrics.bytes, "byte", "bytes"),
        plural(metrics.reads, "read", "reads"),
        plural(metrics.content_events, "content event", "content events"),
        plural(metrics.content_chars, "character", "characters"),
    );
    let received_evidence = json!({
        "bytes": metrics.bytes, "reads": metrics.reads, "content_events": metrics.content_events,
        "content_chars": metrics.content_chars, "last_read_ms": metrics.total_ms,
    });

    // HTTP errors (auth, model_not_found, rate_limited, proxy_error_page, http_error) and URL mistakes.
    out.extend(triage_http::http_finding(trace));
    out.extend(triage_url::request_url_findings(trace));
    // A failed fetch told apart by the page's no-cors probe (cors, unreachable); network_error without one.
    let probed_network = triage_net::network_finding(trace);

    match &trace.end {
        Some(TraceEnd::NetworkError { .. }) if probed_network.is_some() => out.extend(probed_network),
        Some(TraceEnd::NetworkError {
            at_ms,
            message,
            during_body,
        }) => {
            let f = if *during_body {
                Finding::new(
                    "network_error",
                    Severity::Error,
                    "The connection broke during the body",
                    format!(
                        "The stream failed at {} ({message}) after {received}. A proxy or load balancer closed \
                         the connection, or the server crashed.",
                        fmt_ms(*at_ms)
                    ),
                )
                .fix(
                    "Check the time-outs of every layer on the way (nginx proxy_read_timeout, load-balancer idle \
                     time-out, CDN limits) and the server's logs at that moment.",
                )
            } else {
                Finding::new(
                    "network_error",
                    Severity::Error,
                    "The request failed before any response",
                    format!(
                        "fetch() failed at {} ({message}) before response headers arrived. The browser does not \
                         say why: a network problem (DNS, refused connection, TLS) or CORS (the server did not \
                         allow this page's origin) look the same here.",
                        fmt_ms(*at_ms)
                    ),
                )
                .fix(
                    "Open the browser's developer console for the exact reason. For CORS, the server (or a proxy \
                     in front of it) must send Access-Control-Allow-Origin for this page's origin and answer the \
                     OPTIONS preflight (Access-Control-Allow-Headers: content-type, authorization). Also check \
                     that the URL is right and reachable from this machine.",
                )
            };
            out.push(f.evidence(
                json!({"at_ms": at_ms, "message": message, "during_body": during_body,
                "received": received_evidence}),
            ));
        }
        Some(TraceEnd::Timeout {
            at_ms,
            timeout,
            limit_ms,
        }) => {
            let limit = fmt_ms(*limit_ms);
            let ev = json!({"at_ms": at_ms, "limit_ms": limit_ms, "timeout": timeout,
                "headers_ms": trace.headers_ms, "received": received_evidence});
            let f = match timeout {
                TimeoutKind::Headers => Finding::new(
                    "timeout_headers",
                    Severity::Error,
                    "No response headers in time",
                    format!("No response headers arrived within {limit}; the run was stopped."),
                )
                .fix(
                    "The server is unreachable, overloaded or queueing the request, or starting (loading the \
                     model): check the URL, the server's load and queue, and a proxy's connect time-out.",
                ),
                TimeoutKind::FirstByte => Finding::new(
                    "timeout_first_byte",
                    Severity::Error,
                    "Headers arrived, then no body",
                    format!(
                        "Headers arrived at {} but no body byte within {limit} after that.",
                        trace.headers_ms.map_or("an unknown time".to_string(), fmt_ms)
                    ),
                )
                .fix(
                    "Either the model needs that long before its first token (long prompt, queue) or something \
                     holds the body back: a collect-then-return backend, or a proxy buffering the response \
                     (nginx: proxy_buffering off; or send X-Accel-Buffering: no). Compare with a request straight \
                     to the model server.",
                ),
                TimeoutKind::Idle => {
                    let last = metrics.total_ms.map_or("the start".to_string(), |t| format!("the last data at {}", fmt_ms(t)));
                    Finding::new(
                        "stall",
                        Severity::Error,
                        "The stream stalled",
                        format!("Nothing arrived for {limit} after {last}; the run was stopped. Before that: {received}."),
                    )
                    .fix(
                        "The server or a proxy stalled mid-stream: check the server's logs at that moment and \
                         whether a proxy buffers the rest of the response. If the model really pauses that long \
                         (long reasoning), raise the idle time-out.",
                    )
                }
                TimeoutKind::Total => Finding::new(
                    "timeout_total",
                    Severity::Error,
                    "The run hit the total time limit",
                    format!("The run was stopped at the total limit of {limit}. By then: {received}."),
                )
                .fix(
                    "Raise the total time-out or lower max_tokens. Prefer an idle time-out (no data for N s) over \
                     a total one, so long answers that keep flowing are not cut off.",
                ),
            };
            let mut f = f.evidence(ev);
            f.detail.push_str(PARTIAL_KEPT);
            out.push(f);
        }
        Some(TraceEnd::Cancelled { at_ms }) => out.push(
            Finding::new(
                "cancelled",
                Severity::Warning,
                "The run was cancelled",
                format!(
                    "The run was cancelled at {} before the stream ended. By then: {received}.{PARTIAL_KEPT}",
                    fmt_ms(*at_ms)
                ),
            )
            .evidence(json!({"at_ms": at_ms, "received": received_evidence})),
        ),
        Some(TraceEnd::Complete { .. }) | None => {}
    }

    let complete = matches!(trace.end, Some(TraceEnd::Complete { .. }));
    if complete && !http_failed && metrics.content_events == 0 {
        let (detail, fix) = if metrics.bytes == 0 {
            (
                "The response ended without a single body byte.".to_string(),
                "Check that the request asks for a stream (\"stream\": true) and that no layer in between strips \
                 the body."
                    .to_string(),
            )
        } else if !analysis.reasoning_text.is_empty() {
            (
                format!(
                    "Only reasoning text arrived ({}), no answer text.",
                    plural(analysis.reasoning_text.chars().count(), "character", "characters")
                ),
                "The token budget was probably spent on reasoning: raise max_tokens or lower the reasoning effort."
                    .to_string(),
            )
        } else {
            (
                format!(
                    "{} arrived ({}, dialect {}) but none carried answer text.",
                    plural(metrics.events, "message", "messages"),
                    analysis.framing.map_or("no framing", framing_words),
                    analysis.dialect.as_str()
                ),
                "Check the request (model, messages) and the response format: streamscope reads OpenAI chat \
                 chunks, OpenAI Responses, Anthropic Messages and Gemini events, Ollama lines, SSE text and raw \
                 text."
                    .to_string(),
            )
        };
        out.push(
            Finding::new("no_content", Severity::Error, "No answer text arrived", detail)
                .fix(fix)
                .evidence(json!({"bytes": metrics.bytes, "events": metrics.events, "dialect": analysis.dialect,
                    "reasoning_chars": analysis.reasoning_text.chars().count()})),
        );
    }

    if !http_failed && !analysis.stream_errors.is_empty() {
        let n = analysis.stream_errors.len();
        out.push(
            Finding::new(
                "stream_error",
                Severity::Error,
                "The server sent an error inside the stream",
                format!(
                    "The stream carried {}{}: {}",
                    plural(n, "error", "errors"),
                    stream_error_words(analysis.dialect),
                    analysis.stream_errors[0]
                ),
            )
            .fix(
                "The response started fine but the server reported an error mid-way (overload, rate limit, content \
                 filter, upstream failure): see the message and the server's logs.",
            )
            .evidence(json!({"count": n, "messages": analysis.stream_errors, "dialect": analysis.dialect})),
        );
    }

    let path = path_findings(trace, analysis, metrics, delivery, verdict);
    if verdict == Verdict::Collected {
        out.push(collected(metrics, &path));
    }
    out.extend(path);

    let missing_end = stop_reason::end_marker(analysis.dialect)
        .filter(|_| !stop_reason::ended_properly(analysis));
    if let Some(marker) = missing_end.filter(|_| complete && !http_failed) {
        out.push(
            Finding::new(
                "truncated",
                Severity::Warning,
                "The stream may be cut off",
                format!("The stream ended without {marker}: the answer may be incomplete. Received: {received}."),
            )
            .fix(
                "Something closed the connection early: a proxy time-out or a failing upstream. Check the proxies' \
                 time-outs and the server's logs.",
            )
            .evidence(json!({"saw_done": analysis.saw_done, "finish_reason": analysis.finish_reason,
                "dialect": analysis.dialect})),
        );
    }

    if analysis.finish_reason.as_deref() == Some("length") {
        let (said, limit) = stop_reason::limit_words(analysis.dialect);
        out.push(
            Finding::new(
                "max_tokens",
                Severity::Warning,
                "The answer hit the token limit",
                format!("The model stopped because it reached the token limit ({said}); the answer is cut off."),
            )
            .fix(format!("Raise {limit}, or ask for a shorter answer."))
            .evidence(json!({"finish_reason": "length", "completion_tokens":
                analysis.usage.as_ref().and_then(|u| u.completion_tokens), "dialect": analysis.dialect})),
        );
    }

    if analysis.malformed_payloads > 0 {
        let n = analysis.malformed_payloads;
        let example = analysis.first_malformed.clone().unwrap_or_default();
        out.push(
            Finding::new(
                "malformed_json",
                Severity::Warning,
                "Some payloads were not valid JSON",
                format!("{} not valid JSON; parsing went on. First: {example}", plural(n, "payload was", "payloads were")),
            )
            .fix(
                "The server or a layer in between cuts or mixes the stream (a line split by a re-framing proxy, an \
                 error page injected mid-stream): look at the raw trace around the first example.",
            )
            .evidence(json!({"count": n, "first_example": example})),
        );
    }

    if analysis.replaced_utf8_sequences > 0 {
        let n = analysis.replaced_utf8_sequences;
        out.push(
            Finding::new(
                "invalid_utf8",
                Severity::Warning,
                "The body was not valid UTF-8",
                format!(
                    "{} replaced with U+FFFD, parsing went on.",
                    plural(n, "invalid UTF-8 sequence was", "invalid UTF-8 sequences were")
                ),
            )
            .fix(
                "The server or a proxy sends text that is not UTF-8 or breaks multi-byte characters when \
                 re-encoding (characters merely split across reads are handled): make every layer send UTF-8.",
            )
            .evidence(json!({"count": n})),
        );
    }

    if analysis.longest_line_bytes > LONG_LINE_BYTES {
        let n = analysis.longest_line_bytes;
        out.push(
            Finding::new(
                "long_line",
                Severity::Warning,
                "A very long line",
                format!(
                    "The longest line was {n} bytes (over {} KiB). Some clients and proxies cap line length and \
                     break such streams.",
                    LONG_LINE_BYTES / 1024
                ),
            )
            .fix("Send smaller events: a token or a few per event.")
            .evidence(json!({"longest_line_bytes": n, "limit_bytes": LONG_LINE_BYTES})),
        );
    }

    let ct_words = content_type.map_or("no Content-Type".to_string(), |ct| {
        format!("Content-Type {ct}")
    });
    if let Some(framing) = analysis.framing.filter(|_| !http_failed) {
        if framing != Framing::Sse {
            let f = if analysis.mislabelled {
                Finding::new(
                    "not_sse",
                    Severity::Warning,
                    "Labelled text/event-stream, but not SSE",
                    format!(
                        "The response says {ct_words} but the body is {}, not SSE (no data: lines). SSE clients \
                         (EventSource, OpenAI SDKs) will see nothing or fail.",
                        framing_words(framing)
                    ),
                )
                .fix(
                    "Frame each chunk as `data: <chunk>` followed by a blank line, or declare the real type (text/plain, \
                     application/x-ndjson).",
                )
            } else {
                Finding::new(
                    "not_sse",
                    Severity::Info,
                    "Not an SSE stream",
                    format!(
                        "The body is {} ({ct_words}), not SSE.",
                        framing_words(framing)
                    ),
                )
            };
            out.push(
                f.evidence(json!({"framing": framing, "content_type": content_type,
                "mislabelled": analysis.mislabelled})),
            );
        } else if analysis.mislabelled {
            out.push(
                Finding::new(
                    "sse_wrong_content_type",
                    Severity::Warning,
                    "SSE sent under another Content-Type",
                    format!(
                        "The body is SSE but the response says {ct_words}. Proxies and CDNs recognise streams by \
                         text/event-stream; under another type they may buffer or compress the whole response."
                    ),
                )
                .fix("Send Content-Type: text/event-stream (and X-Accel-Buffering: no).")
                .evidence(json!({"content_type": content_type})),
            );
        }
        out.push(
            Finding::new(
                "framing",
                Severity::Info,
                format!("{}, {}", framing_words(framing), analysis.dialect.as_str()),
                format!(
                    "The body ({ct_words}) was read as {} and its messages as {}.",
                    framing_words(framing),
                    analysis.dialect.as_str()
                ),
            )
            .evidence(json!({"framing": framing, "dialect": analysis.dialect, "content_type": content_type,
                "mislabelled": analysis.mislabelled})),
        );
    }

    if analysis.keepalive_comments > 0 {
        let n = analysis.keepalive_comments;
        out.push(
            Finding::new(
                "keepalive_comments",
                Severity::Info,
                "Keep-alive comments",
                format!(
                    "{} arrived; they count for TTFB, not for TTFT.",
                    if analysis.dialect == Dialect::Anthropic {
                        plural(n, "keep-alive (ping event or SSE comment)", "keep-alives (ping events or SSE comments)")
                    } else {
                        plural(n, "SSE comment line", "SSE comment lines")
                    }
                ),
            )
            .evidence(json!({"count": n})),
        );
    }

    let first_chunk = analysis
        .events
        .iter()
        .find(|e| !matches!(e.kind, EventKind::KeepAlive));
    // Only worth saying when the role chunk came in an earlier read than the first token: arriving
    // together (held by a proxy, say), it did not split TTFB from TTFT.
    let first_token_read = analysis.content_events().next().map(|e| e.read_index);
    let role_first = first_chunk.filter(|e| e.kind == EventKind::RoleOnly && Some(e.read_index) != first_token_read);
    if let Some(first) = role_first {
        out.push(
            Finding::new(
                "role_only_first_chunk",
                Severity::Info,
                "The first chunk carried only the role",
                format!(
                    "The first chunk (at {}) announced the role, not a token: it counts for TTFB, not TTFT{}.",
                    fmt_ms(first.at_ms),
                    metrics.ttft_ms.map_or(String::new(), |t| format!(" (the first token came at {})", fmt_ms(t)))
                ),
            )
            .evidence(json!({"at_ms": first.at_ms, "ttft_ms": metrics.ttft_ms})),
        );
    }

    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyzer::analyze;
    use crate::trace::ReadChunk;
    use crate::verdict::classify;

    fn content(text: &str) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}\n\n")
    }

    fn trace(ct: &str, status: u16, reads: Vec<(f64, String)>, end: TraceEnd) -> Trace {
        Trace::from_reads(status, ct, 40.0, reads, end)
    }

    fn sse(reads: Vec<(f64, String)>, end: TraceEnd) -> Trace {
        trace("text/event-stream", 200, reads, end)
    }

    fn findings(t: &Trace) -> Vec<Finding> {
        let a = analyze(t);
        let m = Metrics::derive(t, &a);
        let v = classify(t, &a, &m);
        diagnose(t, &a, &m, v)
    }

    fn codes(t: &Trace) -> Vec<String> {
        findings(t).into_iter().map(|f| f.code).collect()
    }

    fn find(t: &Trace, code: &str) -> Finding {
        findings(t)
            .into_iter()
            .find(|f| f.code == code)
            .unwrap_or_else(|| panic!("no {code} in {:?}", codes(t)))
    }

    fn done() -> String {
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n".into()
    }

    fn complete(at_ms: f64) -> TraceEnd {
        TraceEnd::Complete { at_ms }
    }

    #[test]
    fn healthy_stream_has_only_info() {
        let t = sse(
            vec![
                (100.0, content("a")),
                (120.0, content("b")),
                (140.0, done()),
            ],
            complete(141.0),
        );
        let f = findings(&t);
        assert!(f.iter().all(|f| f.severity == Severity::Info), "{f:?}");
        assert_eq!(codes(&t), vec!["framing"]);
        assert_eq!(find(&t, "framing").evidence["dialect"], "openai-chat");
    }

    #[test]
    fn unknown_model_is_model_not_found_not_a_generic_http_error() {
        let body = "{\"error\":{\"message\":\"The model `gpt-x` does not exist\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}";
        let t = trace(
            "application/json",
            400,
            vec![(90.0, body.into())],
            complete(91.0),
        );
        let f = find(&t, "model_not_found");
        assert_eq!(f.severity, Severity::Error);
        assert!(f.detail.contains("does not exist"), "{}", f.detail);
        assert!(f.fix.unwrap().contains("models list"));
        assert_eq!(f.evidence["status"], 400);
        assert_eq!(codes(&t), vec!["model_not_found"]);
    }

    #[test]
    fn http_404_is_http_error_and_401_is_auth() {
        let t = trace(
            "text/plain",
            404,
            vec![(90.0, "Not Found".into())],
            complete(91.0),
        );
        assert!(find(&t, "http_error").fix.unwrap().contains("/v1/v1"));
        let t = trace("application/json", 401, vec![], complete(91.0));
        let f = find(&t, "auth");
        assert!(f.fix.unwrap().contains("API key"));
        assert_eq!(codes(&t), vec!["auth"]);
    }

    #[test]
    fn url_mistakes_join_the_http_error() {
        let mut t = trace("text/plain", 404, vec![(90.0, "not found".into())], complete(91.0));
        t.request.url = "http://h/v1/v1/chat/completions".into();
        assert_eq!(codes(&t), vec!["http_error", "doubled_v1"]);
    }

    #[test]
    fn probed_network_errors_are_cors_or_unreachable() {
        let mut t = Trace {
            end: Some(TraceEnd::NetworkError { at_ms: 12.0, message: "Failed to fetch".into(), during_body: false }),
            ..Trace::default()
        };
        t.probes.no_cors_reached = Some(true);
        assert_eq!(codes(&t), vec!["cors"]);
        t.probes.no_cors_reached = Some(false);
        assert_eq!(codes(&t), vec!["unreachable"]);
    }

    #[test]
    fn time_outs_and_cancel_say_the_partial_trace_is_kept() {
        let ends = [
            TraceEnd::Timeout { at_ms: 5000.0, timeout: TimeoutKind::Headers, limit_ms: 4000.0 },
            TraceEnd::Timeout { at_ms: 5000.0, timeout: TimeoutKind::FirstByte, limit_ms: 4000.0 },
            TraceEnd::Timeout { at_ms: 5000.0, timeout: TimeoutKind::Idle, limit_ms: 4000.0 },
            TraceEnd::Timeout { at_ms: 5000.0, timeout: TimeoutKind::Total, limit_ms: 4000.0 },
            TraceEnd::Cancelled { at_ms: 300.0 },
        ];
        for end in ends {
            let t = sse(vec![(100.0, content("a"))], end);
            let f = &findings(&t)[0];
            assert!(f.detail.contains("partial trace"), "{}: {}", f.code, f.detail);
        }
    }

    #[test]
    fn network_error_before_headers_mentions_cors() {
        let t = Trace {
            end: Some(TraceEnd::NetworkError {
                at_ms: 12.0,
                message: "Failed to fetch".into(),
                during_body: false,
            }),
            ..Trace::default()
        };
        let f = find(&t, "network_error");
        assert!(f.fix.unwrap().contains("Access-Control-Allow-Origin"));
        assert_eq!(codes(&t), vec!["network_error"]);
    }

    #[test]
    fn network_error_during_body() {
        let t = sse(
            vec![(100.0, content("a"))],
            TraceEnd::NetworkError {
                at_ms: 500.0,
                message: "reset".into(),
                during_body: true,
            },
        );
        assert!(find(&t, "network_error").title.contains("during the body"));
    }

    #[test]
    fn each_timeout_kind_has_its_code() {
        let cases = [
            (TimeoutKind::Headers, "timeout_headers"),
            (TimeoutKind::FirstByte, "timeout_first_byte"),
            (TimeoutKind::Idle, "stall"),
            (TimeoutKind::Total, "timeout_total"),
        ];
        for (kind, code) in cases {
            let t = sse(
                vec![(100.0, content("a"))],
                TraceEnd::Timeout {
                    at_ms: 5000.0,
                    timeout: kind,
                    limit_ms: 4000.0,
                },
            );
            let f = find(&t, code);
            assert_eq!(f.severity, Severity::Error);
            assert_eq!(f.evidence["limit_ms"], 4000.0);
        }
    }

    #[test]
    fn stall_says_how_long_and_what_came_before() {
        let t = sse(
            vec![(100.0, content("ab")), (150.0, content("c"))],
            TraceEnd::Timeout {
                at_ms: 10_150.0,
                timeout: TimeoutKind::Idle,
                limit_ms: 10_000.0,
            },
        );
        let f = find(&t, "stall");
        assert!(f.detail.contains("10.0 s"), "{}", f.detail);
        assert!(f.detail.contains("150 ms"), "{}", f.detail);
        assert!(f.detail.contains("2 content events"), "{}", f.detail);
        assert!(!codes(&t).contains(&"truncated".to_string()));
    }

    #[test]
    fn cancelled_run() {
        let t = sse(
            vec![(100.0, content("a"))],
            TraceEnd::Cancelled { at_ms: 300.0 },
        );
        assert_eq!(find(&t, "cancelled").severity, Severity::Warning);
    }

    #[test]
    fn no_content_variants() {
        let t = sse(vec![], complete(200.0));
        assert!(find(&t, "no_content")
            .detail
            .contains("without a single body byte"));
        let r = "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
        let t = sse(vec![(100.0, r.into())], complete(200.0));
        assert!(find(&t, "no_content").detail.contains("Only reasoning"));
        assert!(codes(&t).contains(&"max_tokens".to_string()));
    }

    #[test]
    fn malformed_and_invalid_utf8_and_stream_error() {
        let mut bytes = (content("a") + "data: {oops\n\n").into_bytes();
        bytes.extend_from_slice(b"data: {\"choices\":[{\"delta\":{\"content\":\"b\xff\"}}]}\n\n");
        let mut t = sse(vec![(100.0, String::new())], complete(200.0));
        t.reads[0].bytes = bytes;
        t.reads.push(ReadChunk {
            at_ms: 150.0,
            bytes: b"data: {\"error\":{\"message\":\"overloaded\"}}\n\n".to_vec(),
        });
        let m = find(&t, "malformed_json");
        assert_eq!(m.evidence["count"], 1);
        assert_eq!(m.evidence["first_example"], "{oops");
        let u = find(&t, "invalid_utf8");
        assert!(u.detail.contains("U+FFFD"));
        assert!(u.detail.contains("parsing went on"));
        assert!(find(&t, "stream_error").detail.contains("overloaded"));
    }

    #[test]
    fn long_line() {
        let t = sse(
            vec![(100.0, content(&"z".repeat(70_000))), (120.0, done())],
            complete(121.0),
        );
        let line_len = content(&"z".repeat(70_000)).trim_end().len() as u64;
        assert_eq!(
            find(&t, "long_line").evidence["longest_line_bytes"]
                .as_u64()
                .unwrap(),
            line_len
        );
        let t = sse(
            vec![(100.0, content("short")), (120.0, done())],
            complete(121.0),
        );
        assert!(!codes(&t).contains(&"long_line".to_string()));
    }

    #[test]
    fn truncated_openai_stream() {
        let t = sse(
            vec![(100.0, content("a")), (120.0, content("b"))],
            complete(121.0),
        );
        assert_eq!(find(&t, "truncated").severity, Severity::Warning);
        let t = sse(
            vec![(100.0, content("a")), (120.0, done())],
            complete(121.0),
        );
        assert!(!codes(&t).contains(&"truncated".to_string()));
    }

    #[test]
    fn max_tokens_on_length() {
        let l = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
        let t = sse(
            vec![(100.0, content("a")), (120.0, l.into())],
            complete(121.0),
        );
        assert!(find(&t, "max_tokens").fix.unwrap().contains("max_tokens"));
    }

    #[test]
    fn plain_text_under_event_stream_is_not_sse_and_mislabelled() {
        let t = sse(
            vec![(100.0, "Hello".into()), (130.0, " world".into())],
            complete(131.0),
        );
        let f = find(&t, "not_sse");
        assert_eq!(f.severity, Severity::Warning);
        assert!(f.detail.contains("text/event-stream"));
        assert_eq!(f.evidence["mislabelled"], true);
        let t = trace(
            "text/plain",
            200,
            vec![(100.0, "Hello".into())],
            complete(131.0),
        );
        assert_eq!(find(&t, "not_sse").severity, Severity::Info);
    }

    #[test]
    fn sse_under_json_content_type() {
        let t = trace(
            "application/json",
            200,
            vec![(100.0, content("a") + &done())],
            complete(131.0),
        );
        assert_eq!(
            find(&t, "sse_wrong_content_type").severity,
            Severity::Warning
        );
    }

    #[test]
    fn keepalives_and_role_only_first_chunk() {
        let role =
            "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
        let t = sse(
            vec![
                (50.0, ": ping\n\n: ping\n\n".into()),
                (60.0, role.into()),
                (300.0, content("a")),
                (320.0, done()),
            ],
            complete(321.0),
        );
        assert_eq!(find(&t, "keepalive_comments").evidence["count"], 2);
        let f = find(&t, "role_only_first_chunk");
        assert!(
            f.detail.contains("60 ms") && f.detail.contains("300 ms"),
            "{}",
            f.detail
        );
    }

    /// Regression: a proxy released the role chunk and the first tokens in one read, and the page still
    /// said the role chunk had come first and counted for TTFB only.
    #[test]
    fn role_chunk_in_the_same_read_as_the_first_token_is_not_reported() {
        let role = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n";
        let t = sse(vec![(400.0, format!("{role}{}{}", content("a"), content("b"))), (420.0, done())], complete(421.0));
        assert!(!codes(&t).contains(&"role_only_first_chunk".to_string()), "{:?}", codes(&t));
    }

    #[test]
    fn collected_explains_and_names_the_fix() {
        let all: String = (0..30).map(|_| content("t")).collect::<String>() + &done();
        let t = sse(vec![(3000.0, all)], complete(3001.0));
        let f = find(&t, "collected");
        assert!(f.detail.contains("All 30 content events"), "{}", f.detail);
        let fix = f.fix.unwrap();
        assert!(fix.contains("X-Accel-Buffering: no") && fix.contains("proxy_buffering off"));
    }

    #[test]
    fn errors_come_first() {
        let t = trace(
            "text/plain",
            503,
            vec![(90.0, "upstream down".into())],
            complete(91.0),
        );
        let f = findings(&t);
        assert_eq!(f[0].code, "http_error");
        assert!(f.windows(2).all(|w| w[0].severity >= w[1].severity));
    }

    #[test]
    fn fmt_ms_ranges() {
        assert_eq!(fmt_ms(5.25), "5.2 ms");
        assert_eq!(fmt_ms(850.4), "850 ms");
        assert_eq!(fmt_ms(3200.0), "3.20 s");
        assert_eq!(fmt_ms(12_000.0), "12.0 s");
        assert_eq!(fmt_ms(f64::NAN), "n/a");
    }
}
