//! The findings about how a run ended and what its stream looked like: one small function per rule,
//! each returning `Option<Finding>`, listed in order in [`END_RULES`] and [`STREAM_RULES`].
//!
//! - How the run ended: `network_error` (unless [`super::triage::net`] told CORS from unreachable),
//!   `timeout_headers` / `timeout_first_byte` / `stall` / `timeout_total`, `cancelled`;
//! - what arrived: `no_content`, `stream_error`, then (after the path findings) `truncated`,
//!   `max_tokens`, `content_filtered`, `tool_call`, `cumulative_deltas` / `resent_text` (events that
//!   repeated the answer so far), `malformed_json`, `invalid_utf8`, `long_line` (a line over [`LONG_LINE_BYTES`], or an
//!   SSE event cut at [`MAX_EVENT_BYTES`]), `not_sse` /
//!   `sse_wrong_content_type`, `framing`, `keepalive_comments`, `role_only_first_chunk`, `trace_capped`
//!   (the raw trace kept only times and lengths past [`TRACE_BYTES_CAP`]), `text_capped` (the answer or
//!   reasoning passed [`MAX_TEXT_BYTES`]: counted, not kept).

use super::{Finding, FindingCode, RunFacts, Severity};
use crate::analysis::{EventKind, MAX_TEXT_BYTES};
use crate::dialect::{stop_reason, Dialect, StopReason};
use crate::i18n::keys::RulesKey as K;
use crate::i18n::Text;
use crate::text::ms;
use crate::trace::{ReadChunk, TimeoutKind, TraceEnd, TRACE_BYTES_CAP};
use crate::wire::sse::MAX_EVENT_BYTES;
use crate::wire::Framing;

/// A rule: the finding it makes about a run, if any.
pub type Rule = fn(&RunFacts) -> Option<Finding>;

/// The rules about how the run ended, in report order.
pub const END_RULES: [Rule; 5] = [network_error, timeout, cancelled, no_content, stream_error];

/// The rules about the stream itself, in report order (after the path findings).
pub const STREAM_RULES: [Rule; 15] = [
    truncated,
    max_tokens,
    content_filtered,
    tool_call,
    repeated_text,
    malformed_json,
    invalid_utf8,
    long_line,
    not_sse,
    sse_wrong_content_type,
    framing,
    keepalive_comments,
    role_only_first_chunk,
    trace_capped,
    text_capped,
];

/// Said by every time-out and cancel finding: what arrived before is not thrown away.
pub fn partial_kept() -> Text {
    Text::msg(K::PartialKept)
}

/// The size above which a line is reported as long (64 KiB).
pub const LONG_LINE_BYTES: usize = 64 * 1024;

/// Where the dialect puts an error inside its stream, for the `stream_error` detail.
fn stream_error_words(dialect: Dialect) -> Text {
    match dialect {
        Dialect::OpenaiResponses => Text::msg(K::StreamErrorWhereResponses),
        // Each sends an `error` event.
        Dialect::Anthropic | Dialect::AiSdk | Dialect::Dify => Text::msg(K::StreamErrorWhereAnthropic),
        Dialect::Gemini => Text::msg(K::StreamErrorWhereGemini),
        Dialect::Ollama => Text::msg(K::StreamErrorWhereOllama),
        _ => Text::empty(),
    }
}

/// How a framing reads in a sentence.
pub fn framing_words(f: Framing) -> Text {
    Text::msg(match f {
        Framing::Sse => K::FramingSse,
        Framing::Ndjson => K::FramingNdjson,
        Framing::JsonArray => K::FramingJsonArray,
        Framing::Raw => K::FramingRaw,
    })
}

/// `network_error`: the fetch or a read failed and no probe told CORS from unreachable.
pub fn network_error(run: &RunFacts) -> Option<Finding> {
    let Some(TraceEnd::NetworkError { at_ms, message, during_body }) = &run.trace.end else {
        return None;
    };
    if run.probed_network {
        return None;
    }
    let received = run.received();
    let f = if *during_body {
        Finding::new(
            FindingCode::NetworkError,
            Severity::Error,
            Text::msg(K::NetworkErrorBodyTitle),
            Text::msg(K::NetworkErrorBodyDetail)
                .with("at", ms(*at_ms))
                .with("message", message)
                .with("received", received),
        )
        .fix(Text::msg(K::NetworkErrorBodyFix))
    } else {
        Finding::new(
            FindingCode::NetworkError,
            Severity::Error,
            Text::msg(K::NetworkErrorTitle),
            Text::msg(K::NetworkErrorDetail).with("at", ms(*at_ms)).with("message", message),
        )
        .fix(Text::msg(K::NetworkErrorFix))
    };
    Some(f.evidence(json_object!({"at_ms": at_ms, "message": message, "during_body": during_body,
        "received": run.received_evidence()})))
}

/// `timeout_headers`, `timeout_first_byte`, `stall` (idle) or `timeout_total`: which time-out ended the run.
pub fn timeout(run: &RunFacts) -> Option<Finding> {
    let Some(TraceEnd::Timeout { at_ms, timeout, limit_ms }) = &run.trace.end else {
        return None;
    };
    let (trace, metrics) = (run.trace, run.metrics);
    let limit = ms(*limit_ms);
    let received = run.received();
    let limit_and_received = |key: K| Text::msg(key).with("limit", limit.as_str()).with("received", received.clone());
    let ev = json_object!({"at_ms": at_ms, "limit_ms": limit_ms, "timeout": timeout,
        "headers_ms": trace.headers_ms, "received": run.received_evidence()});
    let f = match timeout {
        TimeoutKind::Headers => Finding::new(
            FindingCode::TimeoutHeaders,
            Severity::Error,
            Text::msg(K::TimeoutHeadersTitle),
            Text::msg(K::TimeoutHeadersDetail).with("limit", limit.as_str()),
        )
        .fix(Text::msg(K::TimeoutHeadersFix)),
        TimeoutKind::FirstByte => Finding::new(
            FindingCode::TimeoutFirstByte,
            Severity::Error,
            Text::msg(K::TimeoutFirstByteTitle),
            Text::msg(K::TimeoutFirstByteDetail)
                .with("headers", trace.headers_ms.map_or_else(|| Text::msg(K::UnknownTime), |t| ms(t).into()))
                .with("limit", limit.as_str()),
        )
        .fix(Text::msg(K::TimeoutFirstByteFix)),
        TimeoutKind::Idle | TimeoutKind::AfterEnd if crate::verdict::left_open(trace, run.analysis) => Finding::new(
            FindingCode::LeftOpen,
            Severity::Warning,
            Text::msg(K::LeftOpenTitle),
            Text::msg(K::LeftOpenDetail)
                .with("at", metrics.total_ms.map_or_else(|| Text::msg(K::UnknownTime), |t| ms(t).into()))
                .with("end", ms(*at_ms)),
        )
        .fix(Text::msg(K::LeftOpenFix)),
        TimeoutKind::Idle | TimeoutKind::AfterEnd => {
            let last = metrics
                .total_ms
                .map_or_else(|| Text::msg(K::StallAfterStart), |t| Text::msg(K::StallAfterLast).with("at", ms(t)));
            Finding::new(
                FindingCode::Stall,
                Severity::Error,
                Text::msg(K::StallTitle),
                limit_and_received(K::StallDetail).with("last", last),
            )
            .fix(Text::msg(K::StallFix))
        }
        TimeoutKind::Total => Finding::new(
            FindingCode::TimeoutTotal,
            Severity::Error,
            Text::msg(K::TimeoutTotalTitle),
            limit_and_received(K::TimeoutTotalDetail),
        )
        .fix(Text::msg(K::TimeoutTotalFix)),
    };
    Some(f.evidence(ev).then_detail(partial_kept()))
}

/// `cancelled`: the user (or the page closing) stopped the run.
pub fn cancelled(run: &RunFacts) -> Option<Finding> {
    let Some(TraceEnd::Cancelled { at_ms }) = &run.trace.end else {
        return None;
    };
    Some(
        Finding::new(
            FindingCode::Cancelled,
            Severity::Warning,
            Text::msg(K::CancelledTitle),
            Text::msg(K::CancelledDetail).with("at", ms(*at_ms)).with("received", run.received()),
        )
        .then_detail(partial_kept())
        .evidence(json_object!({"at_ms": at_ms, "received": run.received_evidence()})),
    )
}

/// `no_content`: a complete, successful response without any answer text.
pub fn no_content(run: &RunFacts) -> Option<Finding> {
    let (analysis, metrics) = (run.analysis, run.metrics);
    if !run.complete || run.http_failed || metrics.content_events > 0 {
        return None;
    }
    let (detail, fix) = if metrics.bytes == 0 {
        (Text::msg(K::NoContentNoBytes), Text::msg(K::NoContentNoBytesFix))
    } else if !analysis.reasoning_text.is_empty() {
        (
            Text::msg(K::NoContentReasoningOnly).count("chars", analysis.reasoning_text.chars().count()),
            Text::msg(K::NoContentReasoningFix),
        )
    } else {
        (
            Text::msg(K::NoContentNoText)
                .count("n", metrics.events)
                .with("framing", analysis.framing.map_or_else(|| Text::msg(K::NoFraming), framing_words))
                .with("dialect", analysis.dialect.as_str()),
            Text::msg(K::NoContentNoTextFix),
        )
    };
    Some(
        Finding::new(FindingCode::NoContent, Severity::Error, Text::msg(K::NoContentTitle), detail)
            .fix(fix)
            .evidence(json_object!({"bytes": metrics.bytes, "events": metrics.events, "dialect": analysis.dialect,
                "reasoning_chars": analysis.reasoning_text.chars().count()})),
    )
}

/// `stream_error`: the server reported an error inside a successful response.
pub fn stream_error(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    if run.http_failed || analysis.stream_errors.is_empty() {
        return None;
    }
    let n = analysis.stream_error_count.max(analysis.stream_errors.len());
    Some(
        Finding::new(
            FindingCode::StreamError,
            Severity::Error,
            Text::msg(K::StreamErrorTitle),
            Text::msg(K::StreamErrorDetail)
                .count("n", n)
                .with("where", stream_error_words(analysis.dialect))
                .with("first", analysis.stream_errors[0].as_str()),
        )
        .fix(Text::msg(K::StreamErrorFix))
        .evidence(json_object!({"count": n, "messages": analysis.stream_errors, "dialect": analysis.dialect})),
    )
}

/// `truncated`: the connection broke in the middle of the answer (error), or a complete response did not
/// end the way its dialect ends a stream (warning).
pub fn truncated(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    if run.http_failed {
        return None;
    }
    if let Some(TraceEnd::NetworkError { at_ms, message, during_body: true }) = &run.trace.end {
        return cut_mid_stream(run, *at_ms, message);
    }
    if !run.complete || analysis.ended_properly() {
        return None;
    }
    let marker = stop_reason::end_marker(analysis.dialect)?;
    Some(
        Finding::new(
            FindingCode::Truncated,
            Severity::Warning,
            Text::msg(K::TruncatedTitle),
            Text::msg(K::TruncatedDetail).with("marker", marker).with("received", run.received()),
        )
        .fix(Text::msg(K::TruncatedFix))
        .evidence(json_object!({"saw_done": analysis.saw_done, "finish_reason": analysis.finish_reason,
            "dialect": analysis.dialect})),
    )
}

/// `truncated` for a connection that broke after answer text had arrived and before the stream's end
/// marker: the answer is cut off, and the user needs to know how much of it came and when.
fn cut_mid_stream(run: &RunFacts, at_ms: f64, message: &str) -> Option<Finding> {
    let (analysis, m) = (run.analysis, run.metrics);
    // Text without an end marker (raw, sse-text) cannot say it ended: a break after text cuts it.
    let ended = stop_reason::end_marker(analysis.dialect).is_some() && analysis.ended_properly();
    if m.content_events == 0 || ended {
        return None;
    }
    let first = m.ttft_ms.map_or("n/a".into(), ms);
    let last = m.last_content_ms.map_or("n/a".into(), ms);
    Some(
        Finding::new(
            FindingCode::Truncated,
            Severity::Error,
            Text::msg(K::CutTitle),
            Text::msg(K::CutDetail)
                .with("at", ms(at_ms))
                .with("message", message)
                .count("events", m.content_events)
                .count("chars", m.content_chars)
                .with("first", first)
                .with("last", last),
        )
        .fix(Text::msg(K::CutFix))
        .evidence(json_object!({"reason": "network_error", "at_ms": at_ms, "content_events": m.content_events,
            "content_chars": m.content_chars, "ttft_ms": m.ttft_ms, "last_content_ms": m.last_content_ms,
            "saw_done": analysis.saw_done, "finish_reason": analysis.finish_reason,
            "dialect": analysis.dialect})),
    )
}

/// `max_tokens`: the model stopped at the token limit.
pub fn max_tokens(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    if analysis.finish_reason != Some(StopReason::Length) {
        return None;
    }
    let (said, limit) = stop_reason::limit_words(analysis.dialect);
    Some(
        Finding::new(
            FindingCode::MaxTokens,
            Severity::Warning,
            Text::msg(K::MaxTokensTitle),
            Text::msg(K::MaxTokensDetail).with("said", said),
        )
        .fix(Text::msg(K::MaxTokensFix).with("limit", limit))
        .evidence(json_object!({"finish_reason": StopReason::Length, "completion_tokens":
            analysis.usage.as_ref().and_then(|u| u.completion_tokens), "dialect": analysis.dialect})),
    )
}

/// `content_filtered`: a content filter or safety system stopped the answer.
pub fn content_filtered(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    if analysis.finish_reason != Some(StopReason::ContentFilter) {
        return None;
    }
    Some(
        Finding::new(
            FindingCode::ContentFiltered,
            Severity::Warning,
            Text::msg(K::ContentFilteredTitle),
            Text::msg(K::ContentFilteredDetail).with("said", stop_reason::filter_words(analysis.dialect)),
        )
        .fix(Text::msg(K::ContentFilteredFix))
        .evidence(json_object!({"finish_reason": StopReason::ContentFilter, "content_events": run.metrics.content_events})),
    )
}

/// `tool_call`: the answer was (or held) a tool call, whose arguments were timed as the answer's tokens.
pub fn tool_call(run: &RunFacts) -> Option<Finding> {
    let (analysis, metrics) = (run.analysis, run.metrics);
    let tools = analysis.tool_arg_events;
    if tools == 0 {
        return None;
    }
    // The tools it called, by the names the server gave them (kept short and few by the analysis).
    let names = &analysis.tool_names;
    let title = if names.is_empty() {
        Text::msg(K::ToolCallTitle)
    } else {
        Text::msg(K::ToolCallTitleNamed).with("names", names.join(", "))
    };
    Some(
        Finding::new(
            FindingCode::ToolCall,
            Severity::Info,
            title,
            Text::msg(K::ToolCallDetail).count("tools", tools).count("events", metrics.content_events),
        )
        .evidence(json_object!({"tool_arg_events": tools, "tool_names": names, "content_events": metrics.content_events})),
    )
}

/// `malformed_json`: payloads that should have been JSON objects were not.
pub fn malformed_json(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    if analysis.malformed_payloads == 0 {
        return None;
    }
    let n = analysis.malformed_payloads;
    let example = analysis.first_malformed.clone().unwrap_or_default();
    Some(
        Finding::new(
            FindingCode::MalformedJson,
            Severity::Warning,
            Text::msg(K::MalformedTitle),
            Text::msg(K::MalformedDetail).count("n", n).with("example", example.as_str()),
        )
        .fix(Text::msg(K::MalformedFix))
        .evidence(json_object!({"count": n, "first_example": example})),
    )
}

/// `invalid_utf8`: invalid UTF-8 sequences were replaced.
pub fn invalid_utf8(run: &RunFacts) -> Option<Finding> {
    let n = run.analysis.replaced_utf8_sequences;
    if n == 0 {
        return None;
    }
    Some(
        Finding::new(
            FindingCode::InvalidUtf8,
            Severity::Warning,
            Text::msg(K::InvalidUtf8Title),
            Text::msg(K::InvalidUtf8Detail).count("n", n),
        )
        .fix(Text::msg(K::InvalidUtf8Fix))
        .evidence(json_object!({"count": n})),
    )
}

/// `long_line`: a line longer than [`LONG_LINE_BYTES`], or an SSE event whose data passed
/// [`MAX_EVENT_BYTES`] (cut at the cap, its further data lines counted and discarded).
pub fn long_line(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    let n = analysis.longest_line_bytes;
    let cut = analysis.cut_events;
    if n <= LONG_LINE_BYTES && cut == 0 {
        return None;
    }
    let mut detail = if n > LONG_LINE_BYTES {
        Text::msg(K::LongLineDetail).count("n", n).count("kib", LONG_LINE_BYTES / 1024)
    } else {
        Text::msg(K::LongEventDetail).count("n", n)
    };
    if cut > 0 {
        detail = detail.then(
            Text::msg(K::LongEventCut)
                .count("cut", cut)
                .with("cap", crate::text::bytes(MAX_EVENT_BYTES as f64))
                .count("largest", analysis.longest_event_bytes)
                .count("lines", analysis.discarded_data_lines),
        );
    }
    Some(
        Finding::new(
            FindingCode::LongLine,
            Severity::Warning,
            Text::msg(if n > LONG_LINE_BYTES { K::LongLineTitle } else { K::LongEventTitle }),
            detail,
        )
        .fix(Text::msg(K::LongLineFix))
        .evidence(json_object!({"longest_line_bytes": n, "limit_bytes": LONG_LINE_BYTES,
            "longest_event_bytes": analysis.longest_event_bytes, "cut_events": cut,
            "discarded_data_lines": analysis.discarded_data_lines, "event_limit_bytes": MAX_EVENT_BYTES})),
    )
}

/// How the Content-Type reads in a sentence.
/// The response's Content-Type in words (or that it had none).
pub(super) fn ct_words(run: &RunFacts) -> Text {
    run.content_type().map_or_else(|| Text::msg(K::CtNone), |ct| Text::msg(K::CtIs).with("ct", ct))
}

/// `not_sse`: a body that is not SSE (a warning when it is labelled `text/event-stream`).
pub fn not_sse(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    let framing = analysis.framing.filter(|&f| !run.http_failed && f != Framing::Sse)?;
    let ct_words = ct_words(run);
    let f = if analysis.mislabelled {
        Finding::new(
            FindingCode::NotSse,
            Severity::Warning,
            Text::msg(K::NotSseMislabelledTitle),
            Text::msg(K::NotSseMislabelledDetail).with("ct", ct_words).with("framing", framing_words(framing)),
        )
        .fix(Text::msg(K::NotSseMislabelledFix))
    } else {
        let f = Finding::new(
            FindingCode::NotSse,
            Severity::Info,
            Text::msg(K::NotSseTitle),
            Text::msg(K::NotSseDetail).with("framing", framing_words(framing)).with("ct", ct_words),
        );
        // Gemini streams the same chunks as SSE when asked (`alt=sse`).
        if framing == Framing::JsonArray && analysis.dialect == Dialect::Gemini {
            f.fix(Text::msg(K::NotSseGeminiFix))
        } else {
            f
        }
    };
    Some(f.evidence(json_object!({"framing": framing, "content_type": run.content_type(),
        "mislabelled": analysis.mislabelled})))
}

/// `sse_wrong_content_type`: an SSE body under another Content-Type.
pub fn sse_wrong_content_type(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    analysis.framing.filter(|&f| !run.http_failed && f == Framing::Sse && analysis.mislabelled)?;
    Some(
        Finding::new(
            FindingCode::SseWrongContentType,
            Severity::Warning,
            Text::msg(K::SseWrongCtTitle),
            Text::msg(K::SseWrongCtDetail).with("ct", ct_words(run)),
        )
        .fix(Text::msg(K::SseWrongCtFix))
        .evidence(json_object!({"content_type": run.content_type()})),
    )
}

/// `framing`: how the body was read (framing and dialect), always said when there was a body.
pub fn framing(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    let framing = analysis.framing.filter(|_| !run.http_failed)?;
    Some(
        Finding::new(
            FindingCode::Framing,
            Severity::Info,
            Text::msg(K::FramingTitle)
                .with("framing", framing_words(framing))
                .with("dialect", analysis.dialect.as_str()),
            Text::msg(K::FramingDetail)
                .with("ct", ct_words(run))
                .with("framing", framing_words(framing))
                .with("dialect", analysis.dialect.as_str()),
        )
        .evidence(json_object!({"framing": framing, "dialect": analysis.dialect, "content_type": run.content_type(),
            "mislabelled": analysis.mislabelled})),
    )
}

/// `keepalive_comments`: keep-alives arrived (they count for TTFB, not TTFT).
pub fn keepalive_comments(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    let n = analysis.keepalive_comments;
    if n == 0 {
        return None;
    }
    Some(
        Finding::new(
            FindingCode::KeepaliveComments,
            Severity::Info,
            Text::msg(K::KeepaliveTitle),
            Text::msg(K::KeepaliveDetail).with(
                "what",
                Text::msg(if analysis.dialect == Dialect::Anthropic { K::KeepaliveAnthropic } else { K::KeepaliveSse })
                    .count("n", n),
            ),
        )
        .evidence(json_object!({"count": n})),
    )
}

/// `role_only_first_chunk`: the first chunk only announced the role, in an earlier read than the first
/// token (arriving together, held by a proxy say, it did not split TTFB from TTFT).
pub fn role_only_first_chunk(run: &RunFacts) -> Option<Finding> {
    let (analysis, metrics) = (run.analysis, run.metrics);
    let first = analysis.first_chunk?;
    // The first token the reader sees: answer text, or a reasoning model's thinking before it.
    let first_token = analysis.events.iter().find(|e| e.is_content() || matches!(e.kind, EventKind::Reasoning(_)));
    if !first.role_only || first_token.map(|e| e.read_index) == Some(first.read_index) {
        return None;
    }
    let then = match first_token {
        Some(e) if !e.is_content() => Text::msg(K::RoleOnlyThenReasoning).with("at", ms(e.at_ms)),
        _ => metrics.ttft_ms.map_or_else(Text::empty, |t| Text::msg(K::RoleOnlyThen).with("at", ms(t))),
    };
    Some(
        Finding::new(
            FindingCode::RoleOnlyFirstChunk,
            Severity::Info,
            Text::msg(K::RoleOnlyTitle),
            Text::msg(K::RoleOnlyDetail).with("at", ms(first.at_ms)).with("then", then),
        )
        .evidence(json_object!({"at_ms": first.at_ms, "ttft_ms": metrics.ttft_ms})),
    )
}

/// `trace_capped`: the trace kept some reads only as times and lengths (over [`TRACE_BYTES_CAP`]).
pub fn trace_capped(run: &RunFacts) -> Option<Finding> {
    let trace = run.trace;
    let elided: Vec<&ReadChunk> = trace.reads.iter().filter(|r| r.elided_bytes > 0).collect();
    if elided.is_empty() {
        return None;
    }
    let reads = elided.len();
    let bytes = elided.iter().fold(0usize, |sum, r| sum.saturating_add(r.elided_bytes));
    let kept = trace.kept_bytes();
    let reanalysed = run.analysis.bytes < trace.body_bytes();
    let how = Text::msg(if reanalysed { K::TraceCappedReanalysed } else { K::TraceCappedLive });
    Some(
        Finding::new(
            FindingCode::TraceCapped,
            Severity::Info,
            Text::msg(K::TraceCappedTitle),
            Text::msg(K::TraceCappedDetail)
                .with("cap", crate::text::bytes(TRACE_BYTES_CAP as f64))
                .count("kept", kept)
                .count("reads", reads)
                .count("bytes", bytes)
                .with("how", how),
        )
        .evidence(json_object!({"cap_bytes": TRACE_BYTES_CAP, "kept_bytes": kept, "elided_reads": reads,
            "elided_bytes": bytes, "reanalysed": reanalysed})),
    )
}

/// `text_capped` (info): the answer or the reasoning passed [`MAX_TEXT_BYTES`]; the rest was counted.
pub fn text_capped(run: &RunFacts) -> Option<Finding> {
    let analysis = run.analysis;
    if analysis.dropped_text_chars == 0 {
        return None;
    }
    Some(
        Finding::new(
            FindingCode::TextCapped,
            Severity::Info,
            Text::msg(K::TextCappedTitle),
            Text::msg(K::TextCappedDetail)
                .with("cap", crate::text::bytes(MAX_TEXT_BYTES as f64))
                .count("n", analysis.dropped_text_chars),
        )
        .evidence(json_object!({"cap_bytes": MAX_TEXT_BYTES, "dropped_chars": analysis.dropped_text_chars,
            "content_chars": analysis.content_chars})),
    )
}

/// The bytes of text said again above which `resent_text` is said (64 KiB): below it, repeating a
/// short answer costs less than its JSON around it.
pub const RESENT_TEXT_BYTES: usize = 64 * 1024;

/// How many events of one kind (answer or reasoning) must repeat the one before them for
/// `cumulative_deltas` (with at least half of those after the first): one or two can do so by chance at
/// the start of an answer.
pub const CUMULATIVE_EVENTS_MIN: usize = 3;

/// Whether `repeats` of `events` events repeated the text before them as a rule, not by chance.
fn as_a_rule(repeats: usize, events: usize) -> bool {
    repeats >= CUMULATIVE_EVENTS_MIN && repeats * 2 >= events.saturating_sub(1)
}

/// Events that repeated the text so far, so the stream's bytes grow with the square of the text:
/// - `cumulative_deltas` (warning) in a delta stream (OpenAI's `delta.content`, ...): its content events
///   repeated the one before them ([`crate::analysis::Analysis`]'s `cumulative_events`), or else its
///   reasoning events did (`cumulative_reasoning_events`), so a client that appends them shows the text
///   over and over; the text is kept as sent. `json-text` reads a stream of the text so far as such: not
///   a delta stream;
/// - `resent_text` (info) in a format that may send the text so far (`json-text`, LangGraph's
///   `messages/partial`, each read as what is new): over [`RESENT_TEXT_BYTES`] said again.
pub fn repeated_text(run: &RunFacts) -> Option<Finding> {
    let a = run.analysis;
    let delta_stream = a.dialect != Dialect::JsonText;
    let answer = delta_stream && as_a_rule(a.cumulative_events, a.content_event_count);
    let reasoning = delta_stream && as_a_rule(a.cumulative_reasoning_events, a.reasoning_event_count);
    // The words, and the events they count: the answer's, or the reasoning's when only it repeated.
    let answer_events = (a.cumulative_events, a.content_event_count);
    let (code, severity, title, detail, fix, (n, events)) = if answer {
        (FindingCode::CumulativeDeltas, Severity::Warning, K::CumulativeDeltasTitle, K::CumulativeDeltasDetail, K::CumulativeDeltasFix, answer_events)
    } else if reasoning {
        let reasoning_events = (a.cumulative_reasoning_events, a.reasoning_event_count);
        (FindingCode::CumulativeDeltas, Severity::Warning, K::CumulativeReasoningTitle, K::CumulativeReasoningDetail, K::CumulativeDeltasFix, reasoning_events)
    } else if a.resent_text_bytes >= RESENT_TEXT_BYTES {
        let fix = if a.dialect == Dialect::LangGraph { K::ResentTextFixLangGraph } else { K::ResentTextFix };
        (FindingCode::ResentText, Severity::Info, K::ResentTextTitle, K::ResentTextDetail, fix, answer_events)
    } else {
        return None;
    };
    let share = a.resent_text_bytes as f64 / a.bytes.max(1) as f64;
    Some(
        Finding::new(
            code,
            severity,
            Text::msg(title),
            Text::msg(detail)
                .count("n", n)
                .count("events", events)
                .with("resent", crate::text::bytes(a.resent_text_bytes as f64))
                .with("body", crate::text::bytes(a.bytes as f64))
                .with("share", crate::fixed::fixed(share * 100.0, 0)),
        )
        .fix(Text::msg(fix))
        .evidence(json_object!({"resent_text_bytes": a.resent_text_bytes, "body_bytes": a.bytes,
            "content_events": a.content_event_count, "cumulative_events": a.cumulative_events,
            "reasoning_events": a.reasoning_event_count, "cumulative_reasoning_events": a.cumulative_reasoning_events})),
    )
}

#[cfg(test)]
mod tests;
