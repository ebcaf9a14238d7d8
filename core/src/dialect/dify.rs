//! Adapter for Dify's streaming API (`POST /v1/chat-messages`, `/v1/completion-messages` or
//! `/v1/workflows/run` with `"response_mode": "streaming"`): one SSE event in, token-level facts out.
//!
//! Every event's data is `{"event": …, "task_id": …}`: `message` and `agent_message` carry answer text
//! in `answer`, a workflow's `text_chunk` in `data.text`; `message_replace` means output moderation
//! replaced the answer with a preset reply (read as stopped by a content filter); `error` carries
//! `message` (and `code`); `message_end` ends a chat or completion with `metadata.usage` (OpenAI's
//! names), `workflow_finished` ends a workflow (`data.status`, `data.error` when it failed). The
//! `ping` events every 10 s, the agent's thoughts (each sent again whole as it grows), files, speech and
//! a workflow's node and iteration events carry no token.

use serde_json::Value;

use super::usage::Usage;
use super::{non_empty_str, ChunkFacts, EventKind, StopReason};

/// Whether a JSON object is a Dify stream event: an `event` name and a `task_id`.
pub fn is_dify_event(v: &Value) -> bool {
    v.get("event").is_some_and(Value::is_string) && v.get("task_id").is_some_and(Value::is_string)
}

/// Reads the facts of one Dify event (a parsed JSON object).
pub fn event_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    match v.get("event").and_then(Value::as_str).unwrap_or_default() {
        "message" | "agent_message" => kinds.extend(non_empty_str(v.get("answer")).map(EventKind::Content)),
        "text_chunk" => kinds.extend(non_empty_str(v.pointer("/data/text")).map(EventKind::Content)),
        "message_replace" => kinds.push(EventKind::Finish(StopReason::ContentFilter)),
        "error" => {
            let mut message = non_empty_str(v.get("message")).unwrap_or_else(|| super::NO_ERROR_MESSAGE.into());
            if let Some(code) = v.get("code").and_then(Value::as_str).filter(|c| !c.is_empty()) {
                message.push_str(" (code: ");
                message.push_str(code);
                message.push(')');
            }
            kinds.push(EventKind::StreamError(message));
        }
        "message_end" => {
            ChunkFacts::push_usage(&mut kinds, &mut reported, v.pointer("/metadata/usage").and_then(Usage::from_openai));
            kinds.push(EventKind::Done);
        }
        "workflow_finished" => {
            if let Some(error) = non_empty_str(v.pointer("/data/error")) {
                kinds.push(EventKind::StreamError(error));
            }
            kinds.push(EventKind::Done);
        }
        _ => {}
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(v: Value) -> Vec<EventKind> {
        event_facts(&v).kinds
    }

    #[test]
    fn answers_chunks_moderation_errors_and_the_end() {
        let message = json!({"event": "message", "task_id": "t", "message_id": "m", "answer": " I", "created_at": 1679586595});
        assert!(is_dify_event(&message));
        assert_eq!(kinds(message), vec![EventKind::Content(" I".into())]);
        assert_eq!(kinds(json!({"event": "agent_message", "task_id": "t", "answer": "ok"})), vec![EventKind::Content("ok".into())]);
        assert_eq!(kinds(json!({"event": "text_chunk", "task_id": "t", "data": {"text": "- ship"}})), vec![EventKind::Content("- ship".into())]);
        for bookkeeping in ["ping", "agent_thought", "workflow_started", "node_finished", "message_file", "tts_message"] {
            assert_eq!(kinds(json!({"event": bookkeeping, "task_id": "t", "thought": "I should", "answer": ""})), vec![EventKind::Empty]);
        }
        assert_eq!(kinds(json!({"event": "message_replace", "task_id": "t", "answer": "Sorry."})), vec![EventKind::Finish(StopReason::ContentFilter)]);
        assert_eq!(
            kinds(json!({"event": "error", "task_id": "t", "status": 400, "code": "completion_request_error", "message": "quota"})),
            vec![EventKind::StreamError("quota (code: completion_request_error)".into())]
        );
        let end = event_facts(&json!({"event": "message_end", "task_id": "t", "metadata": {"usage": {"prompt_tokens": 1033,
            "completion_tokens": 135, "total_tokens": 1168, "total_price": "0.001303", "latency": 1.38}}}));
        assert_eq!(end.kinds, vec![EventKind::Usage, EventKind::Done]);
        assert_eq!(end.usage.and_then(|u| u.completion_tokens), Some(135));
        assert_eq!(
            kinds(json!({"event": "workflow_finished", "task_id": "t", "data": {"status": "failed", "error": "node timed out"}})),
            vec![EventKind::StreamError("node timed out".into()), EventKind::Done]
        );
        // A `ping` alone is not enough to tell, nor an event without a task.
        assert!(!is_dify_event(&json!({"event": "ping"})) && !is_dify_event(&json!({"event": "message", "answer": "a"})));
    }
}
