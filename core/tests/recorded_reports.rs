//! Reports from recorded streams replayed as traces with hand-chosen timing.

use streamscope_core::{FindingCode};
use streamscope_core::trace::{RequestSummary, TimeoutKind};
use streamscope_core::{ReadChunk, Report, Trace, TraceEnd, Verdict};

const DEEPSEEK_CRLF: &[u8] = include_bytes!("fixtures/openai_deepseek_crlf.sse");
const OLLAMA: &[u8] = include_bytes!("fixtures/ollama_chat.ndjson");

/// Splits a body after every occurrence of `sep`, keeping the separator with the part before it.
fn split_after<'a>(body: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + sep.len() <= body.len() {
        if &body[i..i + sep.len()] == sep {
            parts.push(&body[start..i + sep.len()]);
            start = i + sep.len();
            i = start;
        } else {
            i += 1;
        }
    }
    if start < body.len() {
        parts.push(&body[start..]);
    }
    parts
}

fn trace(content_type: &str, reads: Vec<(f64, &[u8])>, end: TraceEnd) -> Trace {
    Trace {
        request: RequestSummary {
            url: "http://127.0.0.1:8787/v1/chat/completions".into(),
            method: "POST".into(),
            body_len_bytes: 120,
            header_names: vec!["authorization".into()],
            ..RequestSummary::default()
        },
        headers_ms: Some(80.0),
        status: Some(200),
        headers: vec![("content-type".into(), content_type.into())],
        reads: reads
            .into_iter()
            .map(|(at_ms, b)| ReadChunk {
                at_ms,
                bytes: b.to_vec(),
                elided_bytes: 0,
            })
            .collect(),
        end: Some(end),
        connection: None,
        started_unix_ms: None,
        probes: Default::default(),
        ..Trace::default()
    }
}

/// The DeepSeek fixture, one SSE event per read, 30 ms apart from 100 ms.
fn deepseek_streamed() -> Trace {
    let parts = split_after(DEEPSEEK_CRLF, b"\r\n\r\n");
    let n = parts.len();
    let reads = parts
        .into_iter()
        .enumerate()
        .map(|(i, p)| (100.0 + 30.0 * i as f64, p))
        .collect();
    trace(
        "text/event-stream",
        reads,
        TraceEnd::Complete {
            at_ms: 100.0 + 30.0 * n as f64,
        },
    )
}

#[test]
fn recorded_deepseek_stream_is_streaming() {
    let r = Report::from_trace(&deepseek_streamed());
    assert_eq!(r.verdict, Verdict::Streaming);
    assert_eq!(r.ttfb_ms, Some(100.0));
    // keep-alive, role, 3 reasoning, keep-alive, then the first content event is the 7th read.
    assert_eq!(r.reasoning_ttft_ms, Some(160.0));
    assert_eq!(r.ttft_ms, Some(280.0));
    assert_eq!(r.content_events, 11);
    // completion_tokens 19 less 5 reasoning tokens: the content span holds 14 answer tokens.
    assert_eq!(r.tpot_n, Some(14));
    assert_eq!(r.tpot_ms, Some(300.0 / 13.0));
    assert_eq!(r.cache.and_then(|c| c.hit_ratio), Some(0.8));
    for code in [FindingCode::KeepaliveComments, FindingCode::RoleOnlyFirstChunk, FindingCode::Framing] {
        assert!(r.has_finding(code.clone()), "missing {code}");
    }
    assert!(!r.has_finding(FindingCode::Truncated));
}

#[test]
fn recorded_deepseek_stream_delivered_in_one_read_at_the_end_is_collected() {
    let t = trace(
        "text/event-stream",
        vec![(4000.0, DEEPSEEK_CRLF)],
        TraceEnd::Complete { at_ms: 4001.0 },
    );
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Collected);
    assert!(r.has_finding(FindingCode::Collected));
    assert_eq!(r.ttft_ms, Some(4000.0));
    assert_eq!(r.ttfb_ms, Some(4000.0));
}

#[test]
fn recorded_stream_cut_by_idle_timeout_is_failed_with_stall() {
    let mut t = deepseek_streamed();
    t.reads.truncate(10);
    t.end = Some(TraceEnd::Timeout {
        at_ms: 30_000.0,
        timeout: TimeoutKind::Idle,
        limit_ms: 20_000.0,
    });
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Failed);
    assert_eq!(r.findings[0].code, FindingCode::Stall);
    assert_eq!(r.content_events, 4);
}

#[test]
fn recorded_ollama_stream_is_streaming() {
    let reads = split_after(OLLAMA, b"\n")
        .into_iter()
        .enumerate()
        .map(|(i, p)| (50.0 + 10.0 * i as f64, p))
        .collect();
    let r = Report::from_trace(&trace(
        "application/x-ndjson",
        reads,
        TraceEnd::Complete { at_ms: 200.0 },
    ));
    assert_eq!(r.verdict, Verdict::Streaming);
    assert_eq!(r.dialect, streamscope_core::Dialect::Ollama);
    assert_eq!(
        r.tpot_n_source,
        Some(streamscope_core::measure::metrics::TokenCountSource::Usage)
    );
    assert!(r.has_finding(FindingCode::NotSse));
}

#[test]
fn trace_exported_as_json_gives_the_same_report() {
    let t = deepseek_streamed();
    let json = serde_json::to_string(&t).unwrap();
    let back: Trace = serde_json::from_str(&json).unwrap();
    assert_eq!(back, t);
    assert_eq!(Report::from_trace(&back), Report::from_trace(&t));
}
