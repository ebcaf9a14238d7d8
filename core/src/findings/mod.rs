//! Findings: plain-English explanations of what went wrong (or what is worth knowing) in a run, each
//! with a stable snake_case [`FindingCode`], a severity, the evidence it rests on, the fix where there is
//! one, and a typed [`Suggestion`] where the page can apply the fix itself.
//!
//! Every rule is a small function returning `Option<Finding>`, listed in order: the HTTP triage of
//! [`triage::http`] (`proxy_error_page`, `auth`, `model_not_found`, `rate_limited`, `http_error`), the URL
//! triage of [`triage::url`] (`doubled_v1`, `path_suffix`, `missing_v1`, `mixed_content`,
//! `url_whitespace`, `trailing_slash`), `cors` / `unreachable` from [`triage::net`], then
//! [`rules::END_RULES`] (`network_error`, `timeout_headers`, `timeout_first_byte`, `stall`,
//! `timeout_total`, `cancelled`, `no_content`, `stream_error`), `collected`, the path findings of
//! [`path`] (`bursts`, `headers_held`, `content_length`, `compressed`, `cached_replay`,
//! `slow_first_token`, `slow_generation`, `text_in_steps`), then [`rules::STREAM_RULES`] (`truncated`, `max_tokens`,
//! `content_filtered`, `tool_call`, `malformed_json`, `invalid_utf8`, `long_line`, `not_sse`, `sse_wrong_content_type`, `framing`,
//! `keepalive_comments`, `role_only_first_chunk`, `trace_capped`, `text_capped`). Findings are ordered by severity (errors first), then in that order,
//! and each code appears at most once ([`one_per_code`], the one place that guarantees it).
//!
//! Depends on [`crate::verdict`], [`crate::measure`], [`crate::analysis`] and below.

pub mod campaign;
pub mod path;
pub mod rules;
#[cfg(test)]
pub(crate) mod testkit;
pub mod triage;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::analysis::Analysis;
use crate::i18n::keys::{PathKey, RulesKey};
use crate::i18n::{Lang, Text};
use crate::measure::{DeliveryStats, Metrics};
use crate::text::ms;
use crate::trace::{Trace, TraceEnd};
use crate::verdict::Verdict;

pub use rules::LONG_LINE_BYTES;

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; nothing to fix.
    Info,
    /// Something is off and may hurt users.
    Warning,
    /// The run failed or the stream is broken.
    Error,
}

read_by_name!(Severity {
    Info = "info",
    Warning = "warning",
    Error = "error",
});

string_enum! {
    /// The stable snake_case identifier of a finding (tests and automation match on it); serialised as
    /// the bare name.
    pub enum FindingCode {
        /// An HTML error page from a proxy or web server, not the API's answer.
        ProxyErrorPage = "proxy_error_page",
        /// 401/403: the API key is missing, wrong or not allowed.
        Auth = "auth",
        /// The requested model does not exist on that server.
        ModelNotFound = "model_not_found",
        /// 429: rate limit or quota.
        RateLimited = "rate_limited",
        /// Any other HTTP error status.
        HttpError = "http_error",
        /// `/v1/v1` in the URL.
        DoubledV1 = "doubled_v1",
        /// The endpoint path repeated (`/chat/completions/chat/completions`).
        PathSuffix = "path_suffix",
        /// The base URL lacks `/v1` (the probes show it).
        MissingV1 = "missing_v1",
        /// An `http:` URL from an `https:` page.
        MixedContent = "mixed_content",
        /// Whitespace in the URL.
        UrlWhitespace = "url_whitespace",
        /// A URL that does not start with `http://` or `https://`.
        UrlScheme = "url_scheme",
        /// A trailing slash or `//` in the path.
        TrailingSlash = "trailing_slash",
        /// The server answers but refuses CORS.
        Cors = "cors",
        /// Nothing answered at that address.
        Unreachable = "unreachable",
        /// The fetch or a read failed.
        NetworkError = "network_error",
        /// No response headers in time.
        TimeoutHeaders = "timeout_headers",
        /// Headers, then no body byte in time.
        TimeoutFirstByte = "timeout_first_byte",
        /// The stream stalled (idle time-out).
        Stall = "stall",
        /// The answer ended (its end marker arrived) but the response stayed open until the idle time-out.
        LeftOpen = "left_open",
        /// The total time limit ended the run.
        TimeoutTotal = "timeout_total",
        /// The run was cancelled.
        Cancelled = "cancelled",
        /// No answer text arrived.
        NoContent = "no_content",
        /// The server sent an error inside the stream.
        StreamError = "stream_error",
        /// The whole answer arrived at once at the end.
        Collected = "collected",
        /// Content was held and released in bursts.
        Bursts = "bursts",
        /// The headers were held with the body.
        HeadersHeld = "headers_held",
        /// An event stream with a Content-Length.
        ContentLength = "content_length",
        /// The stream was compressed.
        Compressed = "compressed",
        /// The answer came from a cache.
        CachedReplay = "cached_replay",
        /// A slow first token, then a normal stream.
        SlowFirstToken = "slow_first_token",
        /// A streaming run whose tokens (the server's count) came at under 10 a second after the first.
        SlowGeneration = "slow_generation",
        /// A streaming run whose text came several events at a time on a regular clock.
        TextInSteps = "text_in_steps",
        /// The stream ended without its end marker.
        Truncated = "truncated",
        /// The answer hit the token limit.
        MaxTokens = "max_tokens",
        /// A content filter or safety system stopped the answer (`finish_reason: "content_filter"` and
        /// each dialect's own words for it).
        ContentFiltered = "content_filtered",
        /// Info: the answer was (or held) a tool call, whose streamed arguments were timed as its tokens.
        ToolCall = "tool_call",
        /// The content events of a delta stream each repeated the answer so far: a client that appends
        /// them shows it over and over.
        CumulativeDeltas = "cumulative_deltas",
        /// Payloads that were not valid JSON.
        MalformedJson = "malformed_json",
        /// Invalid UTF-8 was replaced.
        InvalidUtf8 = "invalid_utf8",
        /// A very long line.
        LongLine = "long_line",
        /// The body is not SSE.
        NotSse = "not_sse",
        /// SSE under another Content-Type.
        SseWrongContentType = "sse_wrong_content_type",
        /// How the body was framed and read.
        Framing = "framing",
        /// Keep-alive comments arrived.
        KeepaliveComments = "keepalive_comments",
        /// The first chunk carried only the role.
        RoleOnlyFirstChunk = "role_only_first_chunk",
        /// The raw trace kept only totals after its cap.
        TraceCapped = "trace_capped",
        /// The answer text passed its cap: the rest was counted, not kept.
        TextCapped = "text_capped",
        /// Info: the events repeated the answer so far, so the stream's bytes grow with the square of
        /// the answer.
        ResentText = "resent_text",
        /// Above 6 streams at once over HTTP/1.1, the browser itself queued requests (campaign finding).
        BrowserConnectionLimit = "browser_connection_limit",
        /// Warm runs of an identical request hit the prompt cache for under 70% of the prompt (campaign
        /// finding).
        LowCacheHit = "low_cache_hit",
        /// Two request bodies' prompt prefixes carry values that change between requests (timestamps, ids)
        /// or tools / keys in another order: the provider's prompt cache cannot reuse them (from the prefix
        /// check, [`crate::prefix`], not from a run).
        UnstablePrefix = "unstable_prefix",
    }
}

/// A change the page can offer in one click, read by the UI instead of evidence keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Suggestion {
    /// Use this request URL instead.
    Url {
        /// The corrected request URL.
        url: String,
    },
    /// Use this base URL (for the preset), which gives this request URL.
    BaseUrl {
        /// The corrected base URL.
        base: String,
        /// The request URL it gives.
        url: String,
    },
    /// Use one of these model ids (the server lists them).
    Models {
        /// The ids the server lists.
        ids: Vec<String>,
        /// The id closest to the one asked for, when one is close.
        closest: Option<String>,
    },
}

/// Read as written (`{"kind": "base_url", "base": ..., "url": ...}`) through a flat record of every
/// variant's fields, not serde's buffering reader for internally tagged enums (the page's wasm is smaller).
impl<'de> Deserialize<'de> for Suggestion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Suggestion, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Kind {
            Url,
            BaseUrl,
            Models,
        }
        #[derive(Deserialize)]
        struct Wire {
            kind: Kind,
            url: Option<String>,
            base: Option<String>,
            ids: Option<Vec<String>>,
            closest: Option<String>,
        }
        let w = Wire::deserialize(d)?;
        let need = |name: &'static str| <D::Error as serde::de::Error>::missing_field(name);
        Ok(match w.kind {
            Kind::Url => Suggestion::Url { url: w.url.ok_or_else(|| need("url"))? },
            Kind::BaseUrl => Suggestion::BaseUrl { base: w.base.ok_or_else(|| need("base"))?, url: w.url.ok_or_else(|| need("url"))? },
            Kind::Models => Suggestion::Models { ids: w.ids.ok_or_else(|| need("ids"))?, closest: w.closest },
        })
    }
}

/// One explained observation about a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable snake_case identifier (tests and automation match on it).
    pub code: FindingCode,
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
    /// The change the page can apply for the user, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<Suggestion>,
    /// The title, detail and fix as catalogue texts, to say them in another language ([`Finding::localize`]);
    /// not serialised (a report read back keeps the words it was written in).
    #[serde(skip)]
    pub words: Words,
}

/// A finding's title, detail and fix as [`Text`]s.
///
/// Equality ignores them: two findings with the same code, figures and rendered words are the same
/// finding, whether or not one was read back from JSON (which keeps no texts).
#[derive(Debug, Clone, Default)]
pub struct Words(Option<Box<FindingWords>>);

/// The texts behind a finding's words.
#[derive(Debug, Clone)]
struct FindingWords {
    title: Text,
    detail: Text,
    fix: Option<Text>,
}

impl PartialEq for Words {
    fn eq(&self, _: &Words) -> bool {
        true
    }
}

impl Finding {
    /// A finding without fix and with empty evidence; its words are kept as texts and said in English.
    pub fn new(code: FindingCode, severity: Severity, title: impl Into<Text>, detail: impl Into<Text>) -> Finding {
        let (title, detail) = (title.into(), detail.into());
        Finding {
            code,
            severity,
            title: title.render(Lang::En),
            detail: detail.render(Lang::En),
            fix: None,
            evidence: Value::Object(serde_json::Map::new()),
            suggestion: None,
            words: Words(Some(Box::new(FindingWords { title, detail, fix: None }))),
        }
    }

    /// Adds the fix.
    pub fn fix(mut self, fix: impl Into<Text>) -> Finding {
        let fix = fix.into();
        self.fix = Some(fix.render(Lang::En));
        if let Some(words) = &mut self.words.0 {
            words.fix = Some(fix);
        }
        self
    }

    /// Adds `more` at the end of the detail.
    pub fn then_detail(mut self, more: impl Into<Text>) -> Finding {
        let more = more.into();
        self.detail.push_str(&more.render(Lang::En));
        if let Some(words) = &mut self.words.0 {
            words.detail = std::mem::replace(&mut words.detail, Text::empty()).then(more);
        }
        self
    }

    /// Sets the evidence (should be a JSON object).
    pub fn evidence(mut self, evidence: Value) -> Finding {
        self.evidence = evidence;
        self
    }

    /// Adds the suggestion.
    pub fn suggest(mut self, suggestion: Suggestion) -> Finding {
        self.suggestion = Some(suggestion);
        self
    }

    /// The finding with its title, detail and fix said in `lang` (as it is when its words were not kept:
    /// read back from JSON).
    pub fn localize(&self, lang: Lang) -> Finding {
        let mut out = self.clone();
        if let Some(words) = &self.words.0 {
            out.title = words.title.render(lang);
            out.detail = words.detail.render(lang);
            out.fix = words.fix.as_ref().map(|f| f.render(lang));
        }
        out
    }

    /// Whether every word of the title, detail and fix comes from the catalogue.
    pub fn is_worded(&self) -> bool {
        self.words.0.as_ref().is_some_and(|w| {
            w.title.is_worded() && w.detail.is_worded() && w.fix.as_ref().is_none_or(Text::is_worded)
        })
    }
}

/// Everything a rule may look at, worked out once per run.
#[derive(Debug, Clone, Copy)]
pub struct RunFacts<'a> {
    /// The raw facts.
    pub trace: &'a Trace,
    /// The analysis of the trace.
    pub analysis: &'a Analysis,
    /// The metrics.
    pub metrics: &'a Metrics,
    /// How the content was delivered.
    pub delivery: &'a DeliveryStats,
    /// The verdict.
    pub verdict: Verdict,
    /// The HTTP status is 400 or above.
    pub http_failed: bool,
    /// The body ended normally.
    pub complete: bool,
    /// A probe told a network failure's cause (`cors` / `unreachable` said it instead of `network_error`).
    pub probed_network: bool,
}

impl<'a> RunFacts<'a> {
    /// The facts of a run for the rules.
    pub fn new(
        trace: &'a Trace,
        analysis: &'a Analysis,
        metrics: &'a Metrics,
        delivery: &'a DeliveryStats,
        verdict: Verdict,
    ) -> RunFacts<'a> {
        RunFacts {
            trace,
            analysis,
            metrics,
            delivery,
            verdict,
            http_failed: !trace.answered(),
            complete: matches!(trace.end, Some(TraceEnd::Complete { .. })),
            probed_network: matches!(trace.end, Some(TraceEnd::NetworkError { .. }))
                && triage::net::network_finding(trace).is_some(),
        }
    }

    /// The response's Content-Type.
    pub fn content_type(&self) -> Option<&'a str> {
        self.trace.header("content-type")
    }

    /// What arrived, in words: `12 bytes in 2 reads, 1 content event (3 characters)`.
    pub fn received(&self) -> Text {
        let m = self.metrics;
        Text::msg(RulesKey::Received)
            .count("bytes", m.bytes)
            .count("reads", m.reads)
            .count("events", m.content_events)
            .count("chars", m.content_chars)
    }

    /// What arrived, as evidence.
    pub fn received_evidence(&self) -> Value {
        let m = self.metrics;
        json_object!({
            "bytes": m.bytes, "reads": m.reads, "content_events": m.content_events,
            "content_chars": m.content_chars, "last_read_ms": m.total_ms,
        })
    }
}

/// The `collected` finding: what arrived when, the likely causes, and the path findings that back them;
/// for one JSON answer ([`crate::verdict::is_one_json_answer`]), that the request was not streamed and
/// how to ask for a stream.
fn collected(run: &RunFacts, path: &[Finding]) -> Option<Finding> {
    if run.verdict != Verdict::Collected {
        return None;
    }
    let metrics = run.metrics;
    if crate::verdict::is_one_json_answer(run.analysis, metrics) {
        let fix = match run.analysis.dialect {
            crate::dialect::Dialect::Ollama => PathKey::OneJsonFixOllama,
            crate::dialect::Dialect::Tgi => PathKey::OneJsonFixTgi,
            crate::dialect::Dialect::Gemini => PathKey::OneJsonFixGemini,
            _ => PathKey::OneJsonFix,
        };
        let f = Finding::new(
            FindingCode::Collected,
            Severity::Warning,
            Text::msg(PathKey::OneJsonTitle),
            Text::msg(PathKey::OneJsonDetail)
                .with("ct", rules::ct_words(run))
                .count("chars", metrics.content_chars)
                .with("total", path::ms_or_na(metrics.total_ms)),
        )
        .fix(Text::msg(fix))
        .evidence(json_object!({"one_json_answer": true, "content_events": metrics.content_events,
            "ttft_ms": metrics.ttft_ms, "total_ms": metrics.total_ms, "content_type": run.content_type()}));
        return Some(f);
    }
    let span = metrics
        .last_content_ms
        .zip(metrics.ttft_ms)
        .map_or(0.0, |(l, f)| l - f);
    let causes = path::collected_causes(path);
    let pointers: Vec<Text> = causes
        .iter()
        .map(|c| {
            Text::msg(match c {
                FindingCode::ContentLength => PathKey::CollectedSeeContentLength,
                FindingCode::Compressed => PathKey::CollectedSeeCompressed,
                FindingCode::CachedReplay => PathKey::CollectedSeeCached,
                _ => PathKey::CollectedSeeHeadersHeld,
            })
        })
        .collect();
    let evidence_words = if pointers.is_empty() {
        Text::empty()
    } else {
        Text::msg(PathKey::CollectedEvidence).with("causes", Text::join(pointers, Text::msg(PathKey::ListSep)))
    };
    let f = Finding::new(
        FindingCode::Collected,
        Severity::Warning,
        Text::msg(PathKey::CollectedTitle),
        Text::msg(PathKey::CollectedDetail)
            .count("events", metrics.content_events)
            .with("span", ms(span))
            .with("first", path::ms_or_na(metrics.ttft_ms))
            .with("total", path::ms_or_na(metrics.total_ms))
            .count("reads", metrics.content_reads)
            .with("evidence", evidence_words),
    )
    .fix(Text::msg(PathKey::CollectedFix))
    .evidence(json_object!({"content_events": metrics.content_events, "span_ms": span, "ttft_ms": metrics.ttft_ms,
        "total_ms": metrics.total_ms, "content_reads": metrics.content_reads, "see": causes}));
    Some(f)
}

/// Explains a run: every finding that applies, ordered by severity (errors first).
pub fn diagnose(trace: &Trace, analysis: &Analysis, metrics: &Metrics, verdict: Verdict) -> Vec<Finding> {
    diagnose_with(trace, analysis, metrics, &DeliveryStats::derive(trace, analysis), verdict)
}

/// Explains a run whose delivery was already worked out (the same as [`diagnose`]).
pub fn diagnose_with(
    trace: &Trace,
    analysis: &Analysis,
    metrics: &Metrics,
    delivery: &DeliveryStats,
    verdict: Verdict,
) -> Vec<Finding> {
    let run = RunFacts::new(trace, analysis, metrics, delivery, verdict);
    let mut out = Vec::new();
    out.extend(triage::http::http_finding(trace));
    out.extend(triage::url::request_url_findings(trace));
    if matches!(trace.end, Some(TraceEnd::NetworkError { .. })) {
        out.extend(triage::net::network_finding(trace));
    }
    out.extend(rules::END_RULES.iter().filter_map(|rule| rule(&run)));
    let path = path::path_findings(&run);
    out.extend(collected(&run, &path));
    out.extend(path);
    out.extend(rules::STREAM_RULES.iter().filter_map(|rule| rule(&run)));
    crate::sort::sort_by_key(&mut out, |f| std::cmp::Reverse(f.severity));
    one_per_code(out)
}

/// Keeps the first finding of each code (after the severity sort: the most severe, then the first in
/// rule order), so a report never lists a code twice whatever the rules do: automation reads findings
/// by code, and the page keys its list by it. Each kept finding is compared with those kept before it:
/// the rules and checks above make a few dozen at most, so no hash set (and its hashing code in the wasm).
pub fn one_per_code(findings: Vec<Finding>) -> Vec<Finding> {
    let mut kept: Vec<Finding> = Vec::with_capacity(findings.len());
    for f in findings {
        if !kept.iter().any(|k| k.code == f.code) {
            kept.push(f);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use super::*;
    use crate::analysis::analyze;
    use crate::trace::{ReadChunk, TimeoutKind};
    use crate::verdict::classify;

    #[test]
    fn every_suggestion_reads_back_as_written() {
        let all = [
            Suggestion::Url { url: "http://x/v1/chat/completions".into() },
            Suggestion::BaseUrl { base: "http://x/v1".into(), url: "http://x/v1/chat/completions".into() },
            Suggestion::Models { ids: vec!["a".into(), "b".into()], closest: Some("a".into()) },
            Suggestion::Models { ids: vec![], closest: None },
        ];
        for s in all {
            let text = serde_json::to_string(&s).unwrap();
            assert_eq!(serde_json::from_str::<Suggestion>(&text).unwrap(), s, "{text}");
        }
        assert!(serde_json::from_str::<Suggestion>(r#"{"kind":"base_url","url":"u"}"#).is_err());
        assert!(serde_json::from_str::<Suggestion>(r#"{"kind":"models"}"#).is_err());
    }

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

    fn codes(t: &Trace) -> Vec<FindingCode> {
        findings(t).into_iter().map(|f| f.code).collect()
    }

    fn find(t: &Trace, code: FindingCode) -> Finding {
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
        assert_eq!(codes(&t), vec![FindingCode::Framing]);
        assert_eq!(find(&t, FindingCode::Framing).evidence["dialect"], "openai-chat");
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
        let f = find(&t, FindingCode::ModelNotFound);
        assert_eq!(f.severity, Severity::Error);
        assert!(f.detail.contains("does not exist"), "{}", f.detail);
        assert!(f.fix.unwrap().contains("models list"));
        assert_eq!(f.evidence["status"], 400);
        assert_eq!(codes(&t), vec![FindingCode::ModelNotFound]);
    }

    #[test]
    fn http_404_is_http_error_and_401_is_auth() {
        let t = trace(
            "text/plain",
            404,
            vec![(90.0, "Not Found".into())],
            complete(91.0),
        );
        assert!(find(&t, FindingCode::HttpError).fix.unwrap().contains("/v1/v1"));
        let t = trace("application/json", 401, vec![], complete(91.0));
        let f = find(&t, FindingCode::Auth);
        assert!(f.fix.unwrap().contains("API key"));
        assert_eq!(codes(&t), vec![FindingCode::Auth]);
    }

    #[test]
    fn url_mistakes_join_the_http_error() {
        let mut t = trace("text/plain", 404, vec![(90.0, "not found".into())], complete(91.0));
        t.request.url = "http://h/v1/v1/chat/completions".into();
        assert_eq!(codes(&t), vec![FindingCode::HttpError, FindingCode::DoubledV1]);
    }

    #[test]
    fn probed_network_errors_are_cors_or_unreachable() {
        let mut t = Trace {
            end: Some(TraceEnd::NetworkError { at_ms: 12.0, message: "Failed to fetch".into(), during_body: false }),
            ..Trace::default()
        };
        t.probes.no_cors_reached = Some(true);
        assert_eq!(codes(&t), vec![FindingCode::Cors]);
        t.probes.no_cors_reached = Some(false);
        assert_eq!(codes(&t), vec![FindingCode::Unreachable]);
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
        let f = find(&t, FindingCode::NetworkError);
        assert!(f.fix.unwrap().contains("Access-Control-Allow-Origin"));
        assert_eq!(codes(&t), vec![FindingCode::NetworkError]);
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
        assert!(find(&t, FindingCode::NetworkError).title.contains("during the body"));
    }

    #[test]
    fn each_timeout_kind_has_its_code() {
        let cases = [
            (TimeoutKind::Headers, FindingCode::TimeoutHeaders),
            (TimeoutKind::FirstByte, FindingCode::TimeoutFirstByte),
            (TimeoutKind::Idle, FindingCode::Stall),
            (TimeoutKind::Total, FindingCode::TimeoutTotal),
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
        let f = find(&t, FindingCode::Stall);
        assert!(f.detail.contains("10.0 s"), "{}", f.detail);
        assert!(f.detail.contains("150 ms"), "{}", f.detail);
        assert!(f.detail.contains("2 content events"), "{}", f.detail);
        assert!(!codes(&t).contains(&FindingCode::Truncated));
    }

    #[test]
    fn an_answer_left_open_is_not_a_stall() {
        let t = sse(
            vec![(100.0, content("ab")), (150.0, content("c")), (160.0, "data: [DONE]\n\n".into())],
            TraceEnd::Timeout { at_ms: 10_160.0, timeout: TimeoutKind::Idle, limit_ms: 10_000.0 },
        );
        let f = find(&t, FindingCode::LeftOpen);
        assert_eq!(f.severity, Severity::Warning);
        assert!(f.detail.contains("160 ms") && f.detail.contains("10.2 s"), "{}", f.detail);
        assert!(f.fix.as_deref().unwrap_or("").contains("res.end()"));
        assert!(!codes(&t).contains(&FindingCode::Stall) && !codes(&t).contains(&FindingCode::Truncated), "{:?}", codes(&t));
        assert_eq!(crate::Report::from_trace(&t).verdict, crate::Verdict::Streaming);
        // The run stopped reading AFTER_END_LIMIT_MS after the end marker: the same finding.
        let reads = vec![(100.0, content("ab")), (150.0, content("c")), (160.0, "data: [DONE]\n\n".into())];
        let limit_ms = crate::trace::AFTER_END_LIMIT_MS;
        let t = sse(reads, TraceEnd::Timeout { at_ms: 160.0 + limit_ms, timeout: TimeoutKind::AfterEnd, limit_ms });
        let f = find(&t, FindingCode::LeftOpen);
        assert!(f.detail.contains("160 ms") && f.detail.contains("2.16 s"), "{}", f.detail);
        assert_eq!(crate::Report::from_trace(&t).verdict, crate::Verdict::Streaming);
        // Without the end marker it is a stall, whichever limit stopped it.
        let cut = vec![(100.0, content("ab")), (150.0, content("c"))];
        let t = sse(cut, TraceEnd::Timeout { at_ms: 2_150.0, timeout: TimeoutKind::AfterEnd, limit_ms });
        assert!(codes(&t).contains(&FindingCode::Stall) && !codes(&t).contains(&FindingCode::LeftOpen), "{:?}", codes(&t));
    }

    #[test]
    fn cancelled_run() {
        let t = sse(
            vec![(100.0, content("a"))],
            TraceEnd::Cancelled { at_ms: 300.0 },
        );
        assert_eq!(find(&t, FindingCode::Cancelled).severity, Severity::Warning);
    }

    #[test]
    fn no_content_variants() {
        let t = sse(vec![], complete(200.0));
        assert!(find(&t, FindingCode::NoContent)
            .detail
            .contains("without a single body byte"));
        let r = "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
        let t = sse(vec![(100.0, r.into())], complete(200.0));
        assert!(find(&t, FindingCode::NoContent).detail.contains("Only reasoning"));
        assert!(codes(&t).contains(&FindingCode::MaxTokens));
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
            elided_bytes: 0,
        });
        let m = find(&t, FindingCode::MalformedJson);
        assert_eq!(m.evidence["count"], 1);
        assert_eq!(m.evidence["first_example"], "{oops");
        let u = find(&t, FindingCode::InvalidUtf8);
        assert!(u.detail.contains("U+FFFD"));
        assert!(u.detail.contains("parsing went on"));
        assert!(find(&t, FindingCode::StreamError).detail.contains("overloaded"));
    }

    #[test]
    fn long_line() {
        let t = sse(
            vec![(100.0, content(&"z".repeat(70_000))), (120.0, done())],
            complete(121.0),
        );
        let line_len = content(&"z".repeat(70_000)).trim_end().len() as u64;
        assert_eq!(
            find(&t, FindingCode::LongLine).evidence["longest_line_bytes"]
                .as_u64()
                .unwrap(),
            line_len
        );
        let t = sse(
            vec![(100.0, content("short")), (120.0, done())],
            complete(121.0),
        );
        assert!(!codes(&t).contains(&FindingCode::LongLine));
    }

    #[test]
    fn truncated_openai_stream() {
        let t = sse(
            vec![(100.0, content("a")), (120.0, content("b"))],
            complete(121.0),
        );
        assert_eq!(find(&t, FindingCode::Truncated).severity, Severity::Warning);
        let t = sse(
            vec![(100.0, content("a")), (120.0, done())],
            complete(121.0),
        );
        assert!(!codes(&t).contains(&FindingCode::Truncated));
    }

    fn reset_at(at_ms: f64) -> TraceEnd {
        TraceEnd::NetworkError { at_ms, message: "network error".into(), during_body: true }
    }

    /// Regression (issue 9): a connection reset after 10 tokens said only `network_error`; the user needs
    /// to hear that the answer was cut off, how much of it came and when.
    #[test]
    fn reset_after_ten_tokens_is_truncated_with_the_network_error() {
        let role = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n".to_string();
        let mut reads = vec![(5.0, role)];
        reads.extend((0..10).map(|i| (300.0 + 20.0 * i as f64, content("tok"))));
        let t = sse(reads, reset_at(485.0));
        let c = codes(&t);
        assert!(c.contains(&FindingCode::NetworkError) && c.contains(&FindingCode::Truncated), "{c:?}");
        let f = find(&t, FindingCode::Truncated);
        assert_eq!((f.severity, f.title.as_str()), (Severity::Error, "The answer was cut off mid-stream"));
        assert_eq!(f.evidence["content_events"], 10);
        assert_eq!(f.evidence["content_chars"], 30);
        assert_eq!((f.evidence["ttft_ms"].as_f64(), f.evidence["last_content_ms"].as_f64()), (Some(300.0), Some(480.0)));
        assert_eq!((f.evidence["at_ms"].as_f64(), f.evidence["reason"].as_str()), (Some(485.0), Some("network_error")));
        for words in ["485 ms", "10 token events", "30 characters", "300 ms", "480 ms"] {
            assert!(f.detail.contains(words), "{words}: {}", f.detail);
        }
        assert!(f.fix.unwrap().contains("proxy_read_timeout"));
    }

    #[test]
    fn a_break_before_any_text_or_after_the_end_is_not_truncated() {
        let role = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n".to_string();
        let t = sse(vec![(5.0, role)], reset_at(300.0));
        assert!(!codes(&t).contains(&FindingCode::Truncated), "no answer text: network_error says it");
        let t = sse(vec![(100.0, content("a")), (120.0, done())], reset_at(130.0));
        assert!(!codes(&t).contains(&FindingCode::Truncated), "[DONE] came: the answer is whole");
        let raw = Trace::from_reads(200, "text/plain", 5.0, vec![(10.0, "half an ans")], reset_at(20.0));
        assert!(codes(&raw).contains(&FindingCode::Truncated), "raw text has no end marker: a break cuts it");
    }

    #[test]
    fn max_tokens_on_length() {
        let l = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
        let t = sse(
            vec![(100.0, content("a")), (120.0, l.into())],
            complete(121.0),
        );
        assert!(find(&t, FindingCode::MaxTokens).fix.unwrap().contains("max_tokens"));
    }

    #[test]
    fn plain_text_under_event_stream_is_not_sse_and_mislabelled() {
        let t = sse(
            vec![(100.0, "Hello".into()), (130.0, " world".into())],
            complete(131.0),
        );
        let f = find(&t, FindingCode::NotSse);
        assert_eq!(f.severity, Severity::Warning);
        assert!(f.detail.contains("text/event-stream"));
        assert_eq!(f.evidence["mislabelled"], true);
        let t = trace(
            "text/plain",
            200,
            vec![(100.0, "Hello".into())],
            complete(131.0),
        );
        assert_eq!(find(&t, FindingCode::NotSse).severity, Severity::Info);
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
            find(&t, FindingCode::SseWrongContentType).severity,
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
        assert_eq!(find(&t, FindingCode::KeepaliveComments).evidence["count"], 2);
        let f = find(&t, FindingCode::RoleOnlyFirstChunk);
        assert!(
            f.detail.contains("60.0 ms") && f.detail.contains("300 ms"),
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
        assert!(!codes(&t).contains(&FindingCode::RoleOnlyFirstChunk), "{:?}", codes(&t));
    }

    #[test]
    fn collected_explains_and_names_the_fix() {
        let all: String = (0..30).map(|_| content("t")).collect::<String>() + &done();
        let t = sse(vec![(3000.0, all)], complete(3001.0));
        let f = find(&t, FindingCode::Collected);
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
        assert_eq!(f[0].code, FindingCode::HttpError);
        assert!(f.windows(2).all(|w| w[0].severity >= w[1].severity));
    }

    /// Regression guard for `collected` called alone: it fires only on a collected verdict and points to
    /// the path findings it is given, in their order.
    #[test]
    fn collected_alone_points_to_the_path_findings_it_is_given() {
        use crate::findings::testkit::{assert_worded, healthy, sse as sse_trace, Facts};
        let all: String = (0..30).map(|_| content("t")).collect::<String>() + &done();
        let mut t = sse_trace(vec![(3000.0, all)]);
        t.headers.push(("content-length".into(), "5120".into()));
        let facts = Facts::of(t);
        let run = facts.run();
        let f = collected(&run, &[]).expect("collected");
        assert_worded(&f);
        assert_eq!((f.code, f.severity), (FindingCode::Collected, Severity::Warning));
        assert_eq!((f.evidence["content_events"].as_u64(), f.evidence["content_reads"].as_u64()), (Some(30), Some(1)));
        assert_eq!((f.evidence["span_ms"].as_f64(), f.evidence["ttft_ms"].as_f64()), (Some(0.0), Some(3000.0)));
        assert_eq!(f.evidence["see"], json!([]));
        let path = path::path_findings(&run);
        let f = collected(&run, &path).expect("collected");
        assert_eq!(f.evidence["see"], json!(["content_length"]), "headers came at 40 ms, not held");
        assert!(f.detail.ends_with(" Evidence here: the response had a Content-Length (content_length)."), "{}", f.detail);
        assert_worded(&f);
        let zh = f.localize(Lang::ZhCn).detail;
        assert!(zh.starts_with("全部 30 个内容事件都在最后的 0.0 ms 之内到达：第一个在 3.00 s"), "{zh}");
        assert!(zh.ends_with("本次运行中的证据：响应带有 Content-Length（content_length）。"), "{zh}");
        assert_eq!(collected(&Facts::of(healthy()).run(), &[]), None);
    }

    /// A trace whose last two reads were kept only as lengths, and the analysis the page made live.
    fn capped() -> (Trace, Analysis) {
        let reads: Vec<String> = (0..6).map(|i| content(&format!("t{i}"))).chain([done()]).collect();
        let mut live = crate::analysis::Analyzer::new(Some("text/event-stream"));
        let mut t = sse(vec![], complete(400.0));
        for (i, r) in reads.iter().enumerate() {
            let at = 100.0 + 20.0 * i as f64;
            live.push(at, r.as_bytes());
            t.reads.push(if i < 5 {
                ReadChunk::new(at, r.clone().into_bytes())
            } else {
                ReadChunk { at_ms: at, bytes: Vec::new(), elided_bytes: r.len() }
            });
        }
        live.finish(400.0);
        (t, live.into_analysis())
    }

    /// Regression (issue 8): a capped trace must say so, and say whether its figures are complete.
    #[test]
    fn trace_capped_live_analysis_saw_everything() {
        let (t, a) = capped();
        let m = Metrics::derive(&t, &a);
        let v = classify(&t, &a, &m);
        let f = diagnose(&t, &a, &m, v).into_iter().find(|f| f.code == FindingCode::TraceCapped).expect("trace_capped");
        assert_eq!(f.severity, Severity::Info);
        assert_eq!((f.evidence["elided_reads"].as_u64(), f.evidence["reanalysed"].as_bool()), (Some(2), Some(false)));
        assert!(f.detail.contains("saw every byte"), "{}", f.detail);
        assert_eq!(m.content_events, 6, "the live analysis counted the events past the cap");
        assert_eq!(m.bytes, t.body_bytes());
    }

    #[test]
    fn trace_capped_reanalysed_import_says_figures_come_from_timing_only() {
        let (t, _) = capped();
        let f = find(&t, FindingCode::TraceCapped);
        assert_eq!(f.evidence["reanalysed"], true);
        assert!(f.detail.contains("from the reads' times and lengths only"), "{}", f.detail);
        assert!(!codes(&sse(vec![(1.0, content("a"))], complete(2.0))).contains(&FindingCode::TraceCapped));
    }

    /// Regression: the page keyed its findings list by code and detail, so two findings alike broke the
    /// list; core now keeps one finding per code, the most severe.
    #[test]
    fn duplicate_codes_keep_one_finding_the_most_severe() {
        let f = |code: FindingCode, severity, detail: &str| Finding::new(code, severity, "t", detail);
        let mut list = vec![
            f(FindingCode::Truncated, Severity::Warning, "second"),
            f(FindingCode::Framing, Severity::Info, "framing"),
            f(FindingCode::Truncated, Severity::Error, "first"),
            f(FindingCode::Truncated, Severity::Error, "first"),
        ];
        list.sort_by_key(|f| std::cmp::Reverse(f.severity));
        let kept = one_per_code(list);
        let codes: Vec<_> = kept.iter().map(|f| (f.code.clone(), f.detail.as_str())).collect();
        assert_eq!(codes, [(FindingCode::Truncated, "first"), (FindingCode::Framing, "framing")]);
    }

    /// A run that trips many rules at once (mixed content, a probed network failure mid-body, malformed
    /// and invalid bytes, keep-alives) still lists each code once.
    #[test]
    fn a_report_lists_each_code_once() {
        let mut t = sse(
            vec![(10.0, ": ping\n\n".into()), (20.0, content("a")), (30.0, "data: {broken\n\ndata: \u{fffd}\n\n".into())],
            TraceEnd::NetworkError { at_ms: 40.0, message: "reset".into(), during_body: true },
        );
        t.request.url = "http://example.com/v1/v1/chat/completions/ ".into();
        t.request.page_protocol = Some("https:".into());
        t.probes.no_cors_reached = Some(true);
        let codes = codes(&t);
        let unique: std::collections::HashSet<_> = codes.iter().collect();
        assert_eq!(unique.len(), codes.len(), "{codes:?}");
    }
}
