//! The findings about how a run ended and what its stream looked like: one small function per rule,
//! each returning `Option<Finding>`, listed in order in [`END_RULES`] and [`STREAM_RULES`].
//!
//! - How the run ended: `network_error` (unless [`super::triage::net`] told CORS from unreachable),
//!   `timeout_headers` / `timeout_first_byte` / `stall` / `timeout_total`, `cancelled`;
//! - what arrived: `no_content`, `stream_error`, then (after the path findings) `truncated`,
//!   `max_tokens`, `malformed_json`, `invalid_utf8`, `long_line` (a line over [`LONG_LINE_BYTES`], or an
//!   SSE event cut at [`MAX_EVENT_BYTES`]), `not_sse` /
//!   `sse_wrong_content_type`, `framing`, `keepalive_comments`, `role_only_first_chunk`, `trace_capped`
//!   (the raw trace kept only times and lengths past [`TRACE_BYTES_CAP`]), `text_capped` (the answer or
//!   reasoning passed [`MAX_TEXT_BYTES`]: counted, not kept).

use serde_json::json;

use super::{Finding, FindingCode, RunFacts, Severity};
use crate::analysis::MAX_TEXT_BYTES;
use crate::dialect::{stop_reason, Dialect, StopReason};
use crate::text::{ms, ms_or, plural};
use crate::trace::{ReadChunk, TimeoutKind, TraceEnd, TRACE_BYTES_CAP};
use crate::wire::sse::MAX_EVENT_BYTES;
use crate::wire::Framing;

/// A rule: the finding it makes about a run, if any.
pub type Rule = fn(&RunFacts) -> Option<Finding>;

/// The rules about how the run ended, in report order.
pub const END_RULES: [Rule; 5] = [network_error, timeout, cancelled, no_content, stream_error];

/// The rules about the stream itself, in report order (after the path findings).
pub const STREAM_RULES: [Rule; 12] = [
    truncated,
    max_tokens,
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
pub const PARTIAL_KEPT: &str = " Everything received until then is kept: the partial trace (its metrics, text \
    and raw reads) is shown and exported.";

/// The size above which a line is reported as long (64 KiB).
pub const LONG_LINE_BYTES: usize = 64 * 1024;

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

/// How a framing reads in a sentence.
pub fn framing_words(f: Framing) -> &'static str {
    match f {
        Framing::Sse => "SSE",
        Framing::Ndjson => "JSON lines",
        Framing::Raw => "raw text",
    }
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
            "The connection broke during the body",
            format!(
                "The stream failed at {} ({message}) after {received}. A proxy or load balancer closed \
                 the connection, or the server crashed.",
                ms(*at_ms)
            ),
        )
        .fix(
            "Check the time-outs of every layer on the way (nginx proxy_read_timeout, load-balancer idle \
             time-out, CDN limits) and the server's logs at that moment.",
        )
    } else {
        Finding::new(
            FindingCode::NetworkError,
            Severity::Error,
            "The request failed before any response",
            format!(
                "fetch() failed at {} ({message}) before response headers arrived. The browser does not \
                 say why: a network problem (DNS, refused connection, TLS) or CORS (the server did not \
                 allow this page's origin) look the same here.",
                ms(*at_ms)
            ),
        )
        .fix(
            "Open the browser's developer console for the exact reason. For CORS, the server (or a proxy \
             in front of it) must send Access-Control-Allow-Origin for this page's origin and answer the \
             OPTIONS preflight (Access-Control-Allow-Headers: content-type, authorization). Also check \
             that the URL is right and reachable from this machine.",
        )
    };
    Some(f.evidence(json!({"at_ms": at_ms, "message": message, "during_body": during_body,
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
    let ev = json!({"at_ms": at_ms, "limit_ms": limit_ms, "timeout": timeout,
        "headers_ms": trace.headers_ms, "received": run.received_evidence()});
    let f = match timeout {
        TimeoutKind::Headers => Finding::new(
            FindingCode::TimeoutHeaders,
            Severity::Error,
            "No response headers in time",
            format!("No response headers arrived within {limit}; the run was stopped."),
        )
        .fix(
            "The server is unreachable, overloaded or queueing the request, or starting (loading the \
             model): check the URL, the server's load and queue, and a proxy's connect time-out.",
        ),
        TimeoutKind::FirstByte => Finding::new(
            FindingCode::TimeoutFirstByte,
            Severity::Error,
            "Headers arrived, then no body",
            format!(
                "Headers arrived at {} but no body byte within {limit} after that.",
                ms_or(trace.headers_ms, "an unknown time")
            ),
        )
        .fix(
            "Either the model needs that long before its first token (long prompt, queue) or something \
             holds the body back: a collect-then-return backend, or a proxy buffering the response \
             (nginx: proxy_buffering off; or send X-Accel-Buffering: no). Compare with a request straight \
             to the model server.",
        ),
        TimeoutKind::Idle => {
            let last = metrics.total_ms.map_or("the start".to_string(), |t| format!("the last data at {}", ms(t)));
            Finding::new(
                FindingCode::Stall,
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
            FindingCode::TimeoutTotal,
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
    Some(f)
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
            "The run was cancelled",
            format!(
                "The run was cancelled at {} before the stream ended. By then: {}.{PARTIAL_KEPT}",
                ms(*at_ms),
                run.received()
            ),
        )
        .evidence(json!({"at_ms": at_ms, "received": run.received_evidence()})),
    )
}

/// `no_content`: a complete, successful response without any answer text.
pub fn no_content(run: &RunFacts) -> Option<Finding> {
    let (analysis, metrics) = (run.analysis, run.metrics);
    if !run.complete || run.http_failed || metrics.content_events > 0 {
        return None;
    }
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
    Some(
        Finding::new(FindingCode::NoContent, Severity::Error, "No answer text arrived", detail)
            .fix(fix)
            .evidence(json!({"bytes": metrics.bytes, "events": metrics.events, "dialect": analysis.dialect,
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
            "The stream may be cut off",
            format!("The stream ended without {marker}: the answer may be incomplete. Received: {}.", run.received()),
        )
        .fix(
            "Something closed the connection early: a proxy time-out or a failing upstream. Check the proxies' \
             time-outs and the server's logs.",
        )
        .evidence(json!({"saw_done": analysis.saw_done, "finish_reason": analysis.finish_reason,
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
            "The answer was cut off mid-stream",
            format!(
                "The connection broke at {} ({message}) in the middle of the answer: {} ({}) had arrived, \
                 the first at {first} and the last at {last}, and the stream never ended properly. What \
                 arrived is kept and shown, but the answer is incomplete.",
                ms(at_ms),
                plural(m.content_events, "token event", "token events"),
                plural(m.content_chars, "character", "characters"),
            ),
        )
        .fix(
            "Something closed the connection while the model was still answering: a server crash or restart, \
             a proxy or load-balancer time-out (nginx proxy_read_timeout, idle or maximum-duration limits), or \
             a connection limit. Match the time it broke against the server's and every proxy's logs; a \
             client should retry or resume rather than show the partial answer as complete.",
        )
        .evidence(json!({"reason": "network_error", "at_ms": at_ms, "content_events": m.content_events,
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
            "The answer hit the token limit",
            format!("The model stopped because it reached the token limit ({said}); the answer is cut off."),
        )
        .fix(format!("Raise {limit}, or ask for a shorter answer."))
        .evidence(json!({"finish_reason": StopReason::Length, "completion_tokens":
            analysis.usage.as_ref().and_then(|u| u.completion_tokens), "dialect": analysis.dialect})),
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
            "Some payloads were not valid JSON",
            format!("{} not valid JSON; parsing went on. First: {example}", plural(n, "payload was", "payloads were")),
        )
        .fix(
            "The server or a layer in between cuts or mixes the stream (a line split by a re-framing proxy, an \
             error page injected mid-stream): look at the raw trace around the first example.",
        )
        .evidence(json!({"count": n, "first_example": example})),
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
        format!(
            "The longest line was {n} bytes (over {} KiB). Some clients and proxies cap line length and \
             break such streams.",
            LONG_LINE_BYTES / 1024
        )
    } else {
        format!("The longest line was {n} bytes, but an event ran on over many data lines without a blank line.")
    };
    if cut > 0 {
        detail += &format!(
            " {} more than the {} of data kept per event (the largest {}): each was delivered cut at that \
             size and its further data ({}) counted and discarded, so its text and payload are incomplete.",
            plural(cut, "event carried", "events carried"),
            crate::text::bytes(MAX_EVENT_BYTES as f64),
            plural(analysis.longest_event_bytes, "byte", "bytes"),
            plural(analysis.discarded_data_lines, "data line", "data lines"),
        );
    }
    Some(
        Finding::new(
            FindingCode::LongLine,
            Severity::Warning,
            if n > LONG_LINE_BYTES { "A very long line" } else { "A very long event" },
            detail,
        )
        .fix("Send smaller events: a token or a few per event.")
        .evidence(json!({"longest_line_bytes": n, "limit_bytes": LONG_LINE_BYTES,
            "longest_event_bytes": analysis.longest_event_bytes, "cut_events": cut,
            "discarded_data_lines": analysis.discarded_data_lines, "event_limit_bytes": MAX_EVENT_BYTES})),
    )
}

/// How the Content-Type reads in a sentence.
fn ct_words(run: &RunFacts) -> String {
    run.content_type().map_or("no Content-Type".to_string(), |ct| format!("Content-Type {ct}"))
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
            FindingCode::NotSse,
            Severity::Info,
            "Not an SSE stream",
            format!("The body is {} ({ct_words}), not SSE.", framing_words(framing)),
        )
    };
    Some(f.evidence(json!({"framing": framing, "content_type": run.content_type(),
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
            "SSE sent under another Content-Type",
            format!(
                "The body is SSE but the response says {}. Proxies and CDNs recognise streams by \
                 text/event-stream; under another type they may buffer or compress the whole response.",
                ct_words(run)
            ),
        )
        .fix("Send Content-Type: text/event-stream (and X-Accel-Buffering: no).")
        .evidence(json!({"content_type": run.content_type()})),
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
            format!("{}, {}", framing_words(framing), analysis.dialect.as_str()),
            format!(
                "The body ({}) was read as {} and its messages as {}.",
                ct_words(run),
                framing_words(framing),
                analysis.dialect.as_str()
            ),
        )
        .evidence(json!({"framing": framing, "dialect": analysis.dialect, "content_type": run.content_type(),
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
    )
}

/// `role_only_first_chunk`: the first chunk only announced the role, in an earlier read than the first
/// token (arriving together, held by a proxy say, it did not split TTFB from TTFT).
pub fn role_only_first_chunk(run: &RunFacts) -> Option<Finding> {
    let (analysis, metrics) = (run.analysis, run.metrics);
    let first = analysis.first_chunk?;
    let first_token_read = analysis.content_events().next().map(|e| e.read_index);
    if !first.role_only || Some(first.read_index) == first_token_read {
        return None;
    }
    Some(
        Finding::new(
            FindingCode::RoleOnlyFirstChunk,
            Severity::Info,
            "The first chunk carried only the role",
            format!(
                "The first chunk (at {}) announced the role, not a token: it counts for TTFB, not TTFT{}.",
                ms(first.at_ms),
                metrics.ttft_ms.map_or(String::new(), |t| format!(" (the first token came at {})", ms(t)))
            ),
        )
        .evidence(json!({"at_ms": first.at_ms, "ttft_ms": metrics.ttft_ms})),
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
    let how = if reanalysed {
        "This report was computed again from the stored trace (an import): the figures after the cap \
         come from the reads' times and lengths only; the text, events and tokens in those reads are missing \
         from it."
    } else {
        "The analysis itself saw every byte as it arrived (the page analyses each read before the trace \
         drops its bytes), so every figure here is complete; only the raw view and the export lack those bytes."
    };
    Some(
        Finding::new(
            FindingCode::TraceCapped,
            Severity::Info,
            "The raw trace kept only totals after its cap",
            format!(
                "The trace keeps the bytes of its reads up to {} ({}); after that, {} ({}) were kept only \
                 as their times and lengths. {how}",
                crate::text::bytes(TRACE_BYTES_CAP as f64),
                plural(kept, "byte kept", "bytes kept"),
                plural(reads, "read", "reads"),
                plural(bytes, "byte", "bytes"),
            ),
        )
        .evidence(json!({"cap_bytes": TRACE_BYTES_CAP, "kept_bytes": kept, "elided_reads": reads,
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
            "The answer was too long to keep whole",
            format!(
                "The page keeps the first {} of the answer (and of the reasoning); {} after that were counted \
                 (every figure includes them) but not kept, so the text shown and exported stops there.",
                crate::text::bytes(MAX_TEXT_BYTES as f64),
                plural(analysis.dropped_text_chars, "character", "characters"),
            ),
        )
        .evidence(json!({"cap_bytes": MAX_TEXT_BYTES, "dropped_chars": analysis.dropped_text_chars,
            "content_chars": analysis.content_chars})),
    )
}

#[cfg(test)]
mod tests;
