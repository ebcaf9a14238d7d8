//! Adapter for the Vercel AI SDK's UI message stream (what `toUIMessageStreamResponse()` sends to `useChat`,
//! AI SDK 5 and later; header `x-vercel-ai-ui-message-stream: v1`): one SSE event in, token-level facts out.
//!
//! Each event is `{"type": …}`: `text-delta` carries answer text in `delta`, `reasoning-delta` reasoning in
//! `delta`, `tool-input-delta` a tool call's arguments in `inputTextDelta`; `error` an error in
//! `errorText`; `finish` ends the message (with a `finishReason` since AI SDK 6: `stop`, `length`,
//! `content-filter`, `tool-calls`, `error`, `other`), and `[DONE]` follows. The `start` / `*-start` /
//! `*-end` / `*-step` bookkeeping, sources, files, tool results and the app's `data-*` parts carry no token
//! (a tool call's input sent whole, `tool-input-available`, repeats what its deltas streamed). The stream
//! has no token counts unless the app puts them in a `finish` event's `messageMetadata` (`usage` or
//! `totalUsage`, with `inputTokens` and `outputTokens`, as the SDK names them).

use serde_json::Value;

use super::usage::{as_count, Usage};
use super::{non_empty_str, stop_reason, ChunkFacts, EventKind, StopReason};

/// The `type`s only the UI message stream uses (`start`, `finish` and `error` are too common to tell).
const OWN_TYPES: [&str; 10] = [
    "text-start",
    "text-delta",
    "text-end",
    "reasoning-start",
    "reasoning-delta",
    "reasoning-end",
    "start-step",
    "finish-step",
    "tool-input-start",
    "tool-input-delta",
];

/// Whether a JSON object is a UI message stream event: a `type` of its own ([`OWN_TYPES`]).
pub fn is_ai_sdk_event(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str).is_some_and(|t| OWN_TYPES.contains(&t))
}

/// The stop reason for an AI SDK `finishReason` (kebab-case words).
fn stop_reason_of(reason: &str) -> StopReason {
    match reason {
        "content-filter" => StopReason::ContentFilter,
        "tool-calls" => StopReason::ToolCalls,
        other => stop_reason::from_openai(other),
    }
}

/// The usage an app put in a `finish` event's `messageMetadata` (`usage` or `totalUsage`).
fn metadata_usage(v: &Value) -> Option<Usage> {
    let meta = v.get("messageMetadata")?;
    let usage = meta.get("totalUsage").or_else(|| meta.get("usage"))?;
    Usage::of_counts(as_count(usage.get("inputTokens")), as_count(usage.get("outputTokens")))
}

/// Reads the facts of one UI message stream event (a parsed JSON object).
pub fn event_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    match v.get("type").and_then(Value::as_str).unwrap_or_default() {
        "text-delta" => kinds.extend(non_empty_str(v.get("delta")).map(EventKind::Content)),
        "reasoning-delta" => kinds.extend(non_empty_str(v.get("delta")).map(EventKind::Reasoning)),
        "tool-input-delta" => kinds.extend(non_empty_str(v.get("inputTextDelta")).map(EventKind::ToolArgs)),
        "error" => kinds.push(EventKind::StreamError(
            non_empty_str(v.get("errorText")).unwrap_or_else(|| "error event without a message".into()),
        )),
        "finish" => {
            if let Some(reason) = non_empty_str(v.get("finishReason")) {
                kinds.push(EventKind::Finish(stop_reason_of(&reason)));
            }
            ChunkFacts::push_usage(&mut kinds, &mut reported, metadata_usage(v));
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
    fn deltas_bookkeeping_and_the_finish() {
        assert!(is_ai_sdk_event(&json!({"type": "text-delta", "id": "t1", "delta": "Hi"})));
        assert!(!is_ai_sdk_event(&json!({"type": "finish"})) && !is_ai_sdk_event(&json!({"type": "content-delta"})));
        assert_eq!(kinds(json!({"type": "text-delta", "id": "t1", "delta": "Hi"})), vec![EventKind::Content("Hi".into())]);
        assert_eq!(kinds(json!({"type": "reasoning-delta", "id": "r", "delta": "hm"})), vec![EventKind::Reasoning("hm".into())]);
        assert_eq!(
            kinds(json!({"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": "{\"q"})),
            vec![EventKind::ToolArgs("{\"q".into())]
        );
        for bookkeeping in ["start", "start-step", "text-start", "text-end", "finish-step", "tool-input-available", "data-weather"] {
            assert_eq!(kinds(json!({"type": bookkeeping, "id": "t1", "input": {"q": 1}})), vec![EventKind::Empty], "{bookkeeping}");
        }
        assert_eq!(kinds(json!({"type": "finish"})), vec![EventKind::Done]);
        let facts = event_facts(&json!({"type": "finish", "finishReason": "length",
            "messageMetadata": {"totalUsage": {"inputTokens": 12, "outputTokens": 40, "totalTokens": 52}}}));
        assert_eq!(facts.kinds, vec![EventKind::Finish(StopReason::Length), EventKind::Usage, EventKind::Done]);
        assert_eq!(facts.usage.map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(12), Some(40))));
        assert_eq!(kinds(json!({"type": "finish", "finishReason": "content-filter"}))[0], EventKind::Finish(StopReason::ContentFilter));
        assert_eq!(kinds(json!({"type": "error", "errorText": "Rate limit"})), vec![EventKind::StreamError("Rate limit".into())]);
    }
}
