//! Which dialect a JSON message of an SSE stream speaks, and the adapter that reads it.
//!
//! Detection looks at one message (and its SSE `event` name): `choices` → `openai-chat`, a `type` (or
//! event name) starting with `response.` → `openai-responses`, an Anthropic event `type`
//! (`message_start`, `content_block_delta`, `ping`, ...) → `anthropic`, `candidates` / `usageMetadata`
//! → `gemini`. The first decisive message fixes the dialect; later messages go to its adapter, and
//! messages before it to the OpenAI chat adapter (which reads an error object, or nothing).

use serde_json::Value;

use crate::event::Dialect;
use crate::openai::{self, ChunkFacts};
use crate::{anthropic, gemini, responses};

/// The dialect a JSON message reveals, or `None` when it reveals none.
pub fn detect(v: &Value, event: Option<&str>) -> Option<Dialect> {
    if openai::is_chat_chunk(v) {
        Some(Dialect::OpenaiChat)
    } else if responses::is_responses_event(v, event) {
        Some(Dialect::OpenaiResponses)
    } else if anthropic::is_anthropic_event(v, event) {
        Some(Dialect::Anthropic)
    } else if gemini::is_gemini_chunk(v) {
        Some(Dialect::Gemini)
    } else {
        None
    }
}

/// Reads a JSON message with the adapter of `dialect`.
pub fn facts(dialect: Dialect, v: &Value, event: Option<&str>) -> ChunkFacts {
    match dialect {
        Dialect::OpenaiResponses => responses::event_facts(v, event),
        Dialect::Anthropic => anthropic::event_facts(v, event),
        Dialect::Gemini => gemini::chunk_facts(v),
        _ => openai::chunk_facts(v),
    }
}

/// The message of an SSE `error` event's JSON data, whatever the dialect: an `error` object or string
/// (OpenAI, Anthropic, Gemini) or a top-level `message` (Responses).
pub fn error_message(v: &Value) -> Option<String> {
    openai::error_message(v).or_else(|| responses::error_message(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn detects_each_json_dialect() {
        assert_eq!(
            detect(&json!({"choices":[]}), None),
            Some(Dialect::OpenaiChat)
        );
        assert_eq!(
            detect(&json!({"type":"response.created"}), None),
            Some(Dialect::OpenaiResponses)
        );
        assert_eq!(
            detect(&json!({"type":"message_start","message":{}}), None),
            Some(Dialect::Anthropic)
        );
        assert_eq!(
            detect(&json!({"candidates":[]}), None),
            Some(Dialect::Gemini)
        );
        assert_eq!(detect(&json!({"type":"error","message":"x"}), None), None);
        assert_eq!(detect(&json!({}), None), None);
    }

    #[test]
    fn error_messages_of_every_shape() {
        assert_eq!(
            error_message(&json!({"type":"error","message":"boom","code":"server_error"}))
                .as_deref(),
            Some("boom (code: server_error)")
        );
        assert_eq!(
            error_message(&json!({"error":{"type":"overloaded_error","message":"Overloaded"}}))
                .as_deref(),
            Some("Overloaded (type: overloaded_error)")
        );
    }
}
