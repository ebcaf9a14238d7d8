//! How each dialect says why generation stopped and that the stream is over, in one vocabulary.
//!
//! Stop reasons are reported in OpenAI's words so that findings and reports read the same for every
//! dialect: `stop` (a natural end: Anthropic `end_turn` / `stop_sequence`, Gemini `STOP`, Responses
//! `response.completed`), `length` (the token limit: Anthropic `max_tokens`, Gemini `MAX_TOKENS`,
//! Responses `incomplete_details.reason: "max_output_tokens"`, Ollama `done_reason: "length"`),
//! `content_filter` (Anthropic `refusal`, Gemini `SAFETY` and friends, Responses `content_filter`),
//! `tool_calls` (Anthropic `tool_use`). Anything else is kept as sent (lower-cased for Gemini).

use crate::analyzer::Analysis;
use crate::event::Dialect;

/// The OpenAI-style stop reason for an Anthropic `stop_reason`.
pub fn from_anthropic(reason: &str) -> String {
    match reason {
        "end_turn" | "stop_sequence" => "stop",
        "max_tokens" | "model_context_window_exceeded" => "length",
        "tool_use" => "tool_calls",
        "refusal" => "content_filter",
        other => other,
    }
    .to_string()
}

/// The OpenAI-style stop reason for a Gemini `finishReason`; `None` for `FINISH_REASON_UNSPECIFIED`.
pub fn from_gemini(reason: &str) -> Option<String> {
    Some(match reason {
        "" | "FINISH_REASON_UNSPECIFIED" => return None,
        "STOP" => "stop".to_string(),
        "MAX_TOKENS" => "length".to_string(),
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => {
            "content_filter".to_string()
        }
        other => other.to_ascii_lowercase(),
    })
}

/// The OpenAI-style stop reason for a Responses `incomplete_details.reason`.
pub fn from_responses_incomplete(reason: Option<&str>) -> String {
    match reason {
        Some("max_output_tokens") => "length",
        Some("content_filter") => "content_filter",
        Some(other) if !other.is_empty() => other,
        _ => "incomplete",
    }
    .to_string()
}

/// The marker a complete stream of this dialect ends with, in words for a finding; `None` for dialects
/// without one (SSE text, raw text, unknown).
pub fn end_marker(dialect: Dialect) -> Option<&'static str> {
    match dialect {
        Dialect::OpenaiChat => Some("[DONE] and without a finish_reason"),
        Dialect::OpenaiResponses => Some("a response.completed (or .incomplete / .failed) event"),
        Dialect::Anthropic => Some("a message_stop event"),
        Dialect::Ollama => Some("a \"done\": true line"),
        Dialect::Gemini => Some("a chunk with a finishReason"),
        Dialect::SseText | Dialect::Raw | Dialect::Unknown => None,
    }
}

/// Whether the stream ended the way its dialect ends a stream (always true for dialects without a
/// marker): `[DONE]` or a finish reason for OpenAI chat and Ollama, the end event for Responses and
/// Anthropic (`saw_done`), a `finishReason` for Gemini.
pub fn ended_properly(analysis: &Analysis) -> bool {
    match analysis.dialect {
        Dialect::OpenaiChat | Dialect::Ollama => {
            analysis.saw_done || analysis.finish_reason.is_some()
        }
        Dialect::OpenaiResponses | Dialect::Anthropic => analysis.saw_done,
        Dialect::Gemini => analysis.finish_reason.is_some(),
        Dialect::SseText | Dialect::Raw | Dialect::Unknown => true,
    }
}

/// How the dialect said the token limit was hit, and the request field that sets the limit.
pub fn limit_words(dialect: Dialect) -> (&'static str, &'static str) {
    match dialect {
        Dialect::OpenaiResponses => (
            "incomplete_details.reason: max_output_tokens",
            "max_output_tokens",
        ),
        Dialect::Anthropic => ("stop_reason: max_tokens", "max_tokens"),
        Dialect::Ollama => ("done_reason: length", "options.num_predict"),
        Dialect::Gemini => (
            "finishReason: MAX_TOKENS",
            "generationConfig.maxOutputTokens",
        ),
        _ => (
            "finish_reason: length",
            "max_tokens (max_completion_tokens)",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_reasons_map_to_openai_words() {
        assert_eq!(from_anthropic("end_turn"), "stop");
        assert_eq!(from_anthropic("max_tokens"), "length");
        assert_eq!(from_anthropic("tool_use"), "tool_calls");
        assert_eq!(from_anthropic("pause_turn"), "pause_turn");
        assert_eq!(from_gemini("MAX_TOKENS").as_deref(), Some("length"));
        assert_eq!(from_gemini("SAFETY").as_deref(), Some("content_filter"));
        assert_eq!(from_gemini("OTHER").as_deref(), Some("other"));
        assert_eq!(from_gemini("FINISH_REASON_UNSPECIFIED"), None);
        assert_eq!(
            from_responses_incomplete(Some("max_output_tokens")),
            "length"
        );
        assert_eq!(from_responses_incomplete(None), "incomplete");
    }

    #[test]
    fn end_markers_per_dialect() {
        let mut a = Analysis {
            dialect: Dialect::Anthropic,
            finish_reason: Some("stop".into()),
            ..Analysis::default()
        };
        assert!(!ended_properly(&a), "message_delta without message_stop");
        a.saw_done = true;
        assert!(ended_properly(&a));
        let g = Analysis {
            dialect: Dialect::Gemini,
            ..Analysis::default()
        };
        assert!(!ended_properly(&g));
        let raw = Analysis {
            dialect: Dialect::Raw,
            ..Analysis::default()
        };
        assert!(ended_properly(&raw) && end_marker(Dialect::Raw).is_none());
        assert_eq!(limit_words(Dialect::Anthropic).0, "stop_reason: max_tokens");
    }
}
