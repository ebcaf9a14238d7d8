//! Adapter for the AG-UI protocol (Agent-User Interaction: CopilotKit, and the agent frameworks that
//! serve it): one SSE event in, token-level facts out.
//!
//! Each event is `{"type": "…", …}` with an upper-case type: `TEXT_MESSAGE_CONTENT` and
//! `TEXT_MESSAGE_CHUNK` carry answer text in `delta`, `REASONING_MESSAGE_CONTENT` / `_CHUNK` (and the
//! older `THINKING_TEXT_MESSAGE_CONTENT`) reasoning, `TOOL_CALL_ARGS` / `TOOL_CALL_CHUNK` a tool call's
//! arguments; `RUN_ERROR` an error in `message`; `RUN_FINISHED` ends the run. The starts and ends of
//! runs, steps, messages and tool calls, state snapshots and custom events carry no token; the protocol
//! has no token counts.

use serde_json::Value;

use super::{names_at, non_empty_str, ChunkFacts, EventKind};

/// Whether a JSON object is an AG-UI event: a `type` of one of its families (`RUN_`, `TEXT_`, `TOOL_`,
/// `REASONING_`, `THINKING_`, `STEP_`).
pub fn is_ag_ui_event(v: &Value) -> bool {
    let t = v.get("type").and_then(Value::as_str).unwrap_or_default();
    matches!(t.split_once('_'), Some(("RUN" | "TEXT" | "TOOL" | "REASONING" | "THINKING" | "STEP", _)))
}

/// Reads the facts of one AG-UI event (a parsed JSON object).
pub fn event_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    let delta = || non_empty_str(v.get("delta"));
    match v.get("type").and_then(Value::as_str).unwrap_or_default() {
        "TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_CHUNK" => kinds.extend(delta().map(EventKind::Content)),
        "REASONING_MESSAGE_CONTENT" | "REASONING_MESSAGE_CHUNK" | "THINKING_TEXT_MESSAGE_CONTENT" => {
            kinds.extend(delta().map(EventKind::Reasoning))
        }
        "TOOL_CALL_ARGS" | "TOOL_CALL_CHUNK" => kinds.extend(delta().map(EventKind::ToolArgs)),
        "RUN_ERROR" => kinds.push(EventKind::stream_error(non_empty_str(v.get("message")))),
        "RUN_FINISHED" => kinds.push(EventKind::Done),
        _ => {}
    }
    // A tool call's start names the tool (a chunk may carry the name too).
    let tools = match v.get("type").and_then(Value::as_str) {
        Some("TOOL_CALL_START" | "TOOL_CALL_CHUNK") => names_at(Some(v), "/toolCallName"),
        _ => Vec::new(),
    };
    ChunkFacts::of(kinds, v, None).with_tool_names(tools)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(v: Value) -> Vec<EventKind> {
        event_facts(&v).kinds
    }

    #[test]
    fn deltas_errors_and_the_finish() {
        let content = json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hello"});
        assert!(is_ag_ui_event(&content) && is_ag_ui_event(&json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"})));
        assert!(!is_ag_ui_event(&json!({"type": "text-delta"})) && !is_ag_ui_event(&json!({"type": "message_start"})));
        assert_eq!(kinds(content), vec![EventKind::Content("Hello".into())]);
        assert_eq!(kinds(json!({"type": "TEXT_MESSAGE_CHUNK", "delta": "Hi"})), vec![EventKind::Content("Hi".into())]);
        assert_eq!(kinds(json!({"type": "REASONING_MESSAGE_CONTENT", "delta": "hm"})), vec![EventKind::Reasoning("hm".into())]);
        assert_eq!(kinds(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": "{\"q"})), vec![EventKind::ToolArgs("{\"q".into())]);
        for bookkeeping in ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_END", "TOOL_CALL_START", "STEP_FINISHED", "STATE_SNAPSHOT"] {
            assert_eq!(kinds(json!({"type": bookkeeping, "delta": "x"})), vec![EventKind::Empty], "{bookkeeping}");
        }
        assert_eq!(kinds(json!({"type": "TEXT_MESSAGE_CONTENT", "delta": ""})), vec![EventKind::Empty]);
        assert_eq!(kinds(json!({"type": "RUN_ERROR", "message": "The provider request failed."})),
            vec![EventKind::StreamError("The provider request failed.".into())]);
        assert_eq!(kinds(json!({"type": "RUN_ERROR"})), vec![EventKind::StreamError(crate::dialect::NO_ERROR_MESSAGE.into())]);
        assert_eq!(kinds(json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "success"}})), vec![EventKind::Done]);
    }
}
