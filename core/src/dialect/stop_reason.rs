//! How each dialect says why generation stopped and that the stream is over, in one vocabulary.
//!
//! Stop reasons are reported in OpenAI's words so that findings and reports read the same for every
//! dialect: `stop` (a natural end: Anthropic `end_turn` / `stop_sequence`, Gemini `STOP`, Responses
//! `response.completed`), `length` (the token limit: Anthropic `max_tokens`, Gemini `MAX_TOKENS`,
//! Responses `incomplete_details.reason: "max_output_tokens"`, Ollama `done_reason: "length"`),
//! `content_filter` (Anthropic `refusal`, Gemini `SAFETY` and friends, Responses `content_filter`),
//! `tool_calls` (Anthropic `tool_use`), `incomplete` (a Responses `response.incomplete` without a reason).
//! Anything else is kept as sent (lower-cased for Gemini) in [`StopReason::Other`].

use super::Dialect;

string_enum! {
    /// Why generation stopped, in OpenAI's words; serialised as the bare name (`"stop"`, `"length"`, ...).
    pub enum StopReason {
        /// A natural end.
        Stop = "stop",
        /// The token limit was hit.
        Length = "length",
        /// A content filter or safety system stopped it.
        ContentFilter = "content_filter",
        /// The model called a tool.
        ToolCalls = "tool_calls",
        /// A Responses answer ended incomplete without saying why.
        Incomplete = "incomplete",
    }
}

/// The stop reason for an OpenAI `finish_reason` (or Ollama `done_reason`), taken as it is.
pub fn from_openai(reason: &str) -> StopReason {
    StopReason::from_name(reason)
}

/// The OpenAI-style stop reason for an Anthropic `stop_reason`.
pub fn from_anthropic(reason: &str) -> StopReason {
    match reason {
        "end_turn" | "stop_sequence" => StopReason::Stop,
        "max_tokens" | "model_context_window_exceeded" => StopReason::Length,
        "tool_use" => StopReason::ToolCalls,
        "refusal" => StopReason::ContentFilter,
        other => StopReason::from_name(other),
    }
}

/// The OpenAI-style stop reason for a Gemini `finishReason`; `None` for `FINISH_REASON_UNSPECIFIED`.
pub fn from_gemini(reason: &str) -> Option<StopReason> {
    Some(match reason {
        "" | "FINISH_REASON_UNSPECIFIED" => return None,
        "STOP" => StopReason::Stop,
        "MAX_TOKENS" => StopReason::Length,
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => {
            StopReason::ContentFilter
        }
        other => StopReason::from_name(&other.to_ascii_lowercase()),
    })
}

/// The OpenAI-style stop reason for a Responses `incomplete_details.reason`.
pub fn from_responses_incomplete(reason: Option<&str>) -> StopReason {
    match reason {
        Some("max_output_tokens") => StopReason::Length,
        Some("content_filter") => StopReason::ContentFilter,
        Some(other) if !other.is_empty() => StopReason::from_name(other),
        _ => StopReason::Incomplete,
    }
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
        Dialect::Cohere => Some("a message-end event"),
        Dialect::WorkersAi => Some("[DONE]"),
        Dialect::LlamaCpp => Some("an event with \"stop\": true"),
        Dialect::Tgi => Some("an event with the generated_text"),
        Dialect::AiSdk => Some("a finish event (or [DONE])"),
        Dialect::Dify => Some("a message_end (or workflow_finished) event"),
        Dialect::AgUi => Some("a RUN_FINISHED event"),
        Dialect::LangGraph => Some("an end event"),
        // LangServe's `event: end` has no data: not an SSE event, so no end marker can be seen.
        Dialect::LangServe | Dialect::JsonText | Dialect::SseText | Dialect::Raw | Dialect::Unknown => None,
    }
}

/// Whether a stream of this dialect that saw (or not) its end marker and a stop reason ended the way the
/// dialect ends a stream (always true for dialects without a marker): `[DONE]` or a stop reason for
/// OpenAI chat and Ollama, the end event for Responses and Anthropic, a `finishReason` for Gemini.
pub fn ended_properly(dialect: Dialect, saw_done: bool, has_stop_reason: bool) -> bool {
    match dialect {
        Dialect::OpenaiChat | Dialect::Ollama => saw_done || has_stop_reason,
        Dialect::OpenaiResponses | Dialect::Anthropic | Dialect::Cohere | Dialect::WorkersAi | Dialect::LlamaCpp | Dialect::Tgi | Dialect::AiSdk | Dialect::Dify | Dialect::AgUi | Dialect::LangGraph => saw_done,
        Dialect::Gemini => has_stop_reason,
        Dialect::LangServe | Dialect::JsonText | Dialect::SseText | Dialect::Raw | Dialect::Unknown => true,
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
        Dialect::Cohere => ("finish_reason: MAX_TOKENS", "max_tokens"),
        Dialect::LlamaCpp => ("stop_type: limit", "n_predict"),
        Dialect::Tgi => ("details.finish_reason: length", "parameters.max_new_tokens"),
        Dialect::AiSdk => ("finishReason: length", "maxOutputTokens (streamText)"),
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

/// How a dialect says that a content filter stopped the answer.
pub fn filter_words(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::OpenaiResponses => "incomplete_details.reason: content_filter",
        Dialect::Anthropic => "stop_reason: refusal",
        Dialect::Gemini => "finishReason: SAFETY (or RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII)",
        Dialect::AiSdk => "finishReason: content-filter",
        Dialect::Dify => "a message_replace event (output moderation)",
        _ => "finish_reason: content_filter",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_reasons_map_to_openai_words() {
        assert_eq!(from_anthropic("end_turn"), StopReason::Stop);
        assert_eq!(from_anthropic("max_tokens"), StopReason::Length);
        assert_eq!(from_anthropic("tool_use"), StopReason::ToolCalls);
        assert_eq!(from_anthropic("pause_turn").as_str(), "pause_turn");
        assert_eq!(from_gemini("MAX_TOKENS"), Some(StopReason::Length));
        assert_eq!(from_gemini("SAFETY"), Some(StopReason::ContentFilter));
        assert_eq!(from_gemini("OTHER"), Some(StopReason::Other("other".into())));
        assert_eq!(from_gemini("FINISH_REASON_UNSPECIFIED"), None);
        assert_eq!(from_responses_incomplete(Some("max_output_tokens")), StopReason::Length);
        assert_eq!(from_responses_incomplete(None), StopReason::Incomplete);
    }

    #[test]
    fn stop_reasons_serialise_to_their_names() {
        for (reason, name) in [
            (StopReason::Stop, "stop"),
            (StopReason::Length, "length"),
            (StopReason::ContentFilter, "content_filter"),
            (StopReason::ToolCalls, "tool_calls"),
            (StopReason::Incomplete, "incomplete"),
            (StopReason::Other("pause_turn".into()), "pause_turn"),
        ] {
            assert_eq!(serde_json::to_value(&reason).unwrap(), name);
            assert_eq!(serde_json::from_value::<StopReason>(name.into()).unwrap(), reason);
        }
    }

    #[test]
    fn end_markers_per_dialect() {
        assert!(!ended_properly(Dialect::Anthropic, false, true), "message_delta without message_stop");
        assert!(ended_properly(Dialect::Anthropic, true, true));
        assert!(!ended_properly(Dialect::Gemini, false, false));
        assert!(ended_properly(Dialect::Raw, false, false) && end_marker(Dialect::Raw).is_none());
        assert_eq!(limit_words(Dialect::Anthropic).0, "stop_reason: max_tokens");
    }
}
