//! `dialect=…` and the native paths: the same timed stream in every wire format, read back with the
//! page's own parser (streamscope-core) chunk by chunk at the times they arrived.

use streamscope_core::{StopReason};
use streamscope_core::analysis::Analyzer;
use streamscope_core::{Analysis, Dialect};

use crate::client::*;

/// Runs the chunks of a response through the analyzer, one read per HTTP chunk at its arrival time.
fn analyze(response: &Response) -> Analysis {
    let mut analyzer = Analyzer::new(response.header("content-type"));
    let chunks = response.chunks();
    for chunk in &chunks {
        analyzer.push(chunk.at_ms, &chunk.payload);
    }
    analyzer.finish(chunks.last().map_or(0.0, |c| c.at_ms));
    analyzer.into_analysis()
}

fn content_times(a: &Analysis) -> Vec<f64> {
    a.content_events().map(|e| e.at_ms).collect()
}

/// Each dialect: its Content-Type, its dialect name, 10 content events on schedule, 2 reasoning events
/// before the first token, usage counting both, the natural stop and the end marker.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_dialect_streams_the_same_schedule() {
    let lab = start_lab(None).await;
    let cases = [
        ("responses", "text/event-stream", Dialect::OpenaiResponses),
        ("anthropic", "text/event-stream", Dialect::Anthropic),
        ("ollama-chat", "application/x-ndjson", Dialect::Ollama),
        ("ollama-generate", "application/x-ndjson", Dialect::Ollama),
        ("gemini", "text/event-stream", Dialect::Gemini),
        ("sse-text", "text/event-stream", Dialect::SseText),
    ];
    for (name, content_type, dialect) in cases {
        let reasoning = if name == "sse-text" { 0 } else { 2 };
        let path = format!(
            "/v1/chat/completions?dialect={name}&tokens=10&cadence_ms=20&first_ms=150&reasoning={reasoning}"
        );
        let response = get(lab, &path).await;
        assert_eq!(response.status, 200, "{name}");
        assert_eq!(
            response.header("content-type"),
            Some(content_type),
            "{name}"
        );
        assert!(response.is_chunked(), "{name}");
        let a = analyze(&response);
        assert_eq!(a.dialect, dialect, "{name}");
        assert_eq!(a.malformed_payloads, 0, "{name}");
        let times = content_times(&a);
        assert_eq!(times.len(), 10, "{name}: content events");
        assert!(
            (140.0..400.0).contains(&times[0]),
            "{name}: first token at {} ms",
            times[0]
        );
        let gap_ms = median(&gaps(&times));
        assert!(
            (10.0..40.0).contains(&gap_ms),
            "{name}: median gap {gap_ms}"
        );
        assert!(a.text.starts_with(" The quick"), "{name}: {:?}", a.text);
        if reasoning > 0 {
            assert_eq!(a.reasoning_text, " The quick", "{name}");
            let first_reasoning = a
                .events
                .iter()
                .find(|e| e.kind.name() == "reasoning")
                .unwrap()
                .at_ms;
            assert!(first_reasoning < times[0], "{name}: reasoning first");
        }
        if name != "sse-text" {
            let usage = a
                .usage
                .clone()
                .unwrap_or_else(|| panic!("{name}: no usage"));
            assert_eq!(
                usage.completion_tokens,
                Some(12),
                "{name}: completion tokens"
            );
            assert_eq!(a.finish_reason, Some(StopReason::Stop), "{name}");
        }
        assert!(
            a.ended_properly(),
            "{name}: no end marker"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finish_length_and_missing_terminal() {
    let lab = start_lab(None).await;
    for name in ["responses", "anthropic", "ollama-chat", "gemini"] {
        let path = format!(
            "/v1/chat/completions?dialect={name}&tokens=4&cadence_ms=5&first_ms=20&finish=length"
        );
        let a = analyze(&get(lab, &path).await);
        assert_eq!(a.finish_reason, Some(StopReason::Length), "{name}");

        let path = format!(
            "/v1/chat/completions?dialect={name}&tokens=4&cadence_ms=5&first_ms=20&terminal=0"
        );
        let a = analyze(&get(lab, &path).await);
        assert_eq!(a.text.split_whitespace().count(), 4, "{name}");
        assert!(
            !a.ended_properly(),
            "{name}: the end marker was sent"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_paths_speak_their_dialect_and_body_limits_cut_with_length() {
    let lab = start_lab(None).await;
    let cases = [
        (
            "/v1/responses",
            r#"{"model":"m","input":"hi","stream":true,"max_output_tokens":3}"#,
            Dialect::OpenaiResponses,
        ),
        (
            "/v1/messages",
            r#"{"model":"m","max_tokens":3,"stream":true,"messages":[{"role":"user","content":"hi"}]}"#,
            Dialect::Anthropic,
        ),
        (
            "/api/chat",
            r#"{"model":"m","messages":[{"role":"user","content":"hi"}],"options":{"num_predict":3}}"#,
            Dialect::Ollama,
        ),
        (
            "/api/generate",
            r#"{"model":"m","prompt":"hi","options":{"num_predict":3}}"#,
            Dialect::Ollama,
        ),
        (
            "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
            r#"{"contents":[{"parts":[{"text":"hi"}]}],"generationConfig":{"maxOutputTokens":3}}"#,
            Dialect::Gemini,
        ),
    ];
    for (path, body, dialect) in cases {
        let response = post_json(
            lab,
            &format!("{path}?alt=sse&tokens=8&first_ms=10&cadence_ms=5"),
            body,
        )
        .await;
        assert_eq!(response.status, 200, "{path}");
        let a = analyze(&response);
        assert_eq!(a.dialect, dialect, "{path}");
        assert_eq!(
            content_times(&a).len(),
            3,
            "{path}: capped by the body's limit"
        );
        assert_eq!(a.finish_reason, Some(StopReason::Length), "{path}");
    }
    // The query's dialect wins over the path's.
    let a = analyze(
        &get(
            lab,
            "/api/chat?dialect=sse-text&tokens=2&first_ms=0&cadence_ms=1",
        )
        .await,
    );
    assert_eq!(a.dialect, Dialect::SseText);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dialect_with_another_mode_is_a_400() {
    let lab = start_lab(None).await;
    let response = get(lab, "/v1/chat/completions?dialect=anthropic&mode=collect").await;
    assert_eq!(response.status, 400);
    let response = get(lab, "/v1/chat/completions?reasoning=2").await;
    assert_eq!(response.status, 400);
}
