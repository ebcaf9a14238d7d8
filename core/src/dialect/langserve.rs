//! Adapter for LangServe's streams (a LangChain runnable served by `add_routes`: `POST /<path>/stream`
//! and `/<path>/stream_events`): one SSE event in, token-level facts out.
//!
//! `event: metadata` opens the run (its `run_id`); each `event: data` carries one output chunk. From
//! `/stream` of a chat model the chunk is the serialised message chunk itself (`type` `AIMessageChunk`,
//! the new text in `content`, read as LangGraph's are: [`super::langgraph::ai_message_facts`]); from
//! `/stream_events` it is an event of `astream_events`, whose `on_chat_model_stream` carries the message
//! chunk in `data.chunk` (the chain's and the parser's events repeat the same text and are not read).
//! `event: error` reports a failure (`{"status_code": 500, "message": …}`); `event: end` has no data, so it
//! is not an SSE event at all (no end marker can be seen). A chain whose output is text (LangServe's own
//! example, `prompt | model | StrOutputParser()`) sends each piece as a JSON string: the string is the
//! new text.

use serde_json::Value;

use super::langgraph::{ai_message_facts, is_ai_message_chunk};
use super::{non_empty_str, ChunkFacts, EventKind};

/// Whether an SSE event name is LangServe's for a piece of the output (`data`).
pub(crate) fn is_output(event: Option<&str>) -> bool {
    event == Some("data")
}

/// Whether an event is LangServe's: a `data` event with a piece of text, a message chunk or an
/// `astream_events` event streaming one, or an `error` event with LangServe's `status_code` and `message`.
pub fn is_langserve_event(v: &Value, event: Option<&str>) -> bool {
    match event {
        Some("data") => v.is_string() || is_ai_message_chunk(v) || streamed_chunk(v).is_some(),
        Some("error") => v.get("status_code").is_some_and(Value::is_u64) && v.get("message").is_some_and(Value::is_string),
        _ => false,
    }
}

/// The message chunk of an `astream_events` event that streams a chat model's output.
fn streamed_chunk(v: &Value) -> Option<&Value> {
    (v.get("event").and_then(Value::as_str) == Some("on_chat_model_stream")).then(|| v.pointer("/data/chunk")).flatten()
}

/// Reads the facts of one LangServe event (its parsed data and its SSE event name).
pub fn event_facts(v: &Value, event: Option<&str>) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    let mut tools = Vec::new();
    match event {
        Some("error") => kinds.push(EventKind::stream_error(non_empty_str(v.get("message")))),
        Some("data") if v.is_string() => kinds.extend(non_empty_str(Some(v)).map(EventKind::Content)),
        Some("data") => {
            tools = ai_message_facts(streamed_chunk(v).unwrap_or(v), &mut kinds, &mut reported);
        }
        _ => {}
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::StopReason;
    use serde_json::json;

    fn chunk(content: Value) -> Value {
        json!({"content": content, "additional_kwargs": {}, "response_metadata": {}, "type": "AIMessageChunk",
            "name": null, "id": "run-1", "example": false, "tool_calls": [], "invalid_tool_calls": [],
            "usage_metadata": null, "tool_call_chunks": []})
    }

    fn kinds(v: Value, event: &str) -> Vec<EventKind> {
        event_facts(&v, Some(event)).kinds
    }

    #[test]
    fn a_chat_model_s_chunks_from_stream_and_from_stream_events() {
        assert!(is_langserve_event(&chunk(json!("Hi")), Some("data")));
        assert_eq!(kinds(chunk(json!("Hi")), "data"), vec![EventKind::Content("Hi".into())]);
        let streamed = json!({"event": "on_chat_model_stream", "name": "ChatOpenAI", "run_id": "r", "tags": [],
            "metadata": {}, "data": {"chunk": chunk(json!(" there"))}});
        assert!(is_langserve_event(&streamed, Some("data")));
        assert_eq!(kinds(streamed, "data"), vec![EventKind::Content(" there".into())]);
        // The chain's and the parser's events repeat the text: not read, and not LangServe's mark.
        let repeated = json!({"event": "on_chain_stream", "name": "RunnableSequence", "data": {"chunk": " there"}});
        assert!(!is_langserve_event(&repeated, Some("data")));
        assert_eq!(kinds(repeated, "data"), vec![EventKind::Empty]);
        // Another server's `data` events and other names are not LangServe's.
        assert!(!is_langserve_event(&json!({"content": "x"}), Some("data")));
        assert!(!is_langserve_event(&chunk(json!("Hi")), Some("message")));
        assert_eq!(kinds(json!({"run_id": "r"}), "metadata"), vec![EventKind::Empty]);
    }

    #[test]
    fn a_text_chain_s_strings_are_its_text() {
        assert!(is_langserve_event(&json!("Hi"), Some("data")) && !is_langserve_event(&json!("Hi"), Some("message")));
        assert_eq!(kinds(json!(" there\n"), "data"), vec![EventKind::Content(" there\n".into())]);
        // The parser's first output is often an empty string: nothing yet.
        assert_eq!(kinds(json!(""), "data"), vec![EventKind::Empty]);
    }

    #[test]
    fn usage_stop_reason_tool_names_and_errors() {
        let mut last = chunk(json!(""));
        last["usage_metadata"] = json!({"input_tokens": 9, "output_tokens": 4, "total_tokens": 13});
        last["response_metadata"] = json!({"finish_reason": "stop", "model_name": "gpt-4o-mini"});
        let facts = event_facts(&last, Some("data"));
        assert_eq!(facts.kinds, vec![EventKind::Usage, EventKind::Finish(StopReason::Stop)]);
        assert_eq!(facts.usage.and_then(|u| u.completion_tokens), Some(4));
        let mut tool = chunk(json!(""));
        tool["tool_call_chunks"] = json!([{"name": "get_weather", "args": "{\"city\":", "id": "call_1", "index": 0}]);
        let facts = event_facts(&tool, Some("data"));
        assert_eq!((facts.kinds, facts.tool_names), (vec![EventKind::ToolArgs("{\"city\":".into())], vec!["get_weather".to_string()]));
        let error = json!({"status_code": 500, "message": "Internal Server Error"});
        assert!(is_langserve_event(&error, Some("error")));
        assert_eq!(kinds(error, "error"), vec![EventKind::StreamError("Internal Server Error".into())]);
    }
}
