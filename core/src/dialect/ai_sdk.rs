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
//!
//! AI SDK 4's data stream protocol (`toDataStreamResponse()`, header `x-vercel-ai-data-stream: v1`) sends
//! the same facts as lines of a part code, a colon and JSON ([`crate::wire::framing::stream_part`], read as
//! JSON lines): `0:"text"`, `g:"reasoning"`, `c:` a tool call's argument delta (`argsTextDelta`), `9:` a
//! whole tool call (its `args`: tool calls are not streamed by default), `3:"error"`, and `d:` the
//! message's end with `finishReason` and `usage` (`promptTokens`, `completionTokens`) ([`part_facts`]).

use serde_json::Value;

use super::usage::{as_count, Usage};
use super::{names_at, non_empty_str, stop_reason, ChunkFacts, EventKind, StopReason};

/// Whether a JSON object is a UI message stream event: a `type` only that stream uses (`text-` or
/// `reasoning-` `start` / `delta` / `end`, `start-step`, `finish-step`, `tool-input-start` / `-delta`;
/// `start`, `finish` and `error` are too common to tell).
pub fn is_ai_sdk_event(v: &Value) -> bool {
    let t = v.get("type").and_then(Value::as_str).unwrap_or_default();
    matches!(
        t.rsplit_once('-'),
        Some(("text" | "reasoning", "start" | "delta" | "end") | ("start" | "finish", "step") | ("tool-input", "start" | "delta"))
    )
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

/// The end of a message: its stop reason when it says one, the usage when there is one, the end marker.
fn finish(kinds: &mut Vec<EventKind>, reported: &mut Option<Usage>, reason: Option<&Value>, usage: Option<Usage>) {
    let stop = reason.and_then(Value::as_str).filter(|r| !r.is_empty()).map(stop_reason_of);
    ChunkFacts::push_end(kinds, reported, stop, usage);
}

/// Reads the facts of one data stream part: its code and its parsed JSON.
pub fn part_facts(code: u8, v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    match code {
        b'0' => kinds.extend(non_empty_str(Some(v)).map(EventKind::Content)),
        b'g' => kinds.extend(non_empty_str(Some(v)).map(EventKind::Reasoning)),
        b'c' => kinds.extend(non_empty_str(v.get("argsTextDelta")).map(EventKind::ToolArgs)),
        b'9' => kinds.push(EventKind::ToolArgs(v.get("args").unwrap_or(&Value::Null).to_string())),
        b'3' => kinds.push(EventKind::stream_error(non_empty_str(Some(v)))),
        b'd' => {
            let usage = v.get("usage");
            let counts = Usage::of_counts(
                as_count(usage.and_then(|u| u.get("promptTokens"))),
                as_count(usage.and_then(|u| u.get("completionTokens"))),
            );
            finish(&mut kinds, &mut reported, v.get("finishReason"), counts);
        }
        _ => {}
    }
    // A tool call's start (`b`) and a whole call (`9`) name the tool.
    let tools = if matches!(code, b'b' | b'9') { names_at(Some(v), "/toolName") } else { Vec::new() };
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

/// Reads the facts of one UI message stream event (a parsed JSON object).
pub fn event_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    let kind = v.get("type").and_then(Value::as_str).unwrap_or_default();
    match kind {
        "text-delta" => kinds.extend(non_empty_str(v.get("delta")).map(EventKind::Content)),
        "reasoning-delta" => kinds.extend(non_empty_str(v.get("delta")).map(EventKind::Reasoning)),
        "tool-input-delta" => kinds.extend(non_empty_str(v.get("inputTextDelta")).map(EventKind::ToolArgs)),
        "error" => kinds.push(EventKind::stream_error(non_empty_str(v.get("errorText")))),
        "finish" => finish(&mut kinds, &mut reported, v.get("finishReason"), metadata_usage(v)),
        _ => {}
    }
    let names_tool = matches!(kind, "tool-input-start" | "tool-input-available");
    let tools = if names_tool { names_at(Some(v), "/toolName") } else { Vec::new() };
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(v: Value) -> Vec<EventKind> {
        event_facts(&v).kinds
    }

    #[test]
    fn data_stream_parts() {
        let part = |code: u8, v: Value| part_facts(code, &v).kinds;
        assert_eq!(part(b'0', json!("Hi")), vec![EventKind::Content("Hi".into())]);
        assert_eq!(part(b'g', json!("hm")), vec![EventKind::Reasoning("hm".into())]);
        assert_eq!(part(b'c', json!({"toolCallId": "c", "argsTextDelta": "{\"q"})), vec![EventKind::ToolArgs("{\"q".into())]);
        assert_eq!(
            part(b'9', json!({"toolCallId": "c", "toolName": "weather", "args": {"city": "Paris"}})),
            vec![EventKind::ToolArgs("{\"city\":\"Paris\"}".into())]
        );
        assert_eq!(part(b'3', json!("boom")), vec![EventKind::StreamError("boom".into())]);
        for bookkeeping in [b'f', b'e', b'2', b'8', b'b'] {
            assert_eq!(part(bookkeeping, json!({"messageId": "m", "finishReason": "stop"})), vec![EventKind::Empty]);
        }
        let facts = part_facts(b'd', &json!({"finishReason": "length", "usage": {"promptTokens": 9, "completionTokens": 30}}));
        assert_eq!(facts.kinds, vec![EventKind::Finish(StopReason::Length), EventKind::Usage, EventKind::Done]);
        assert_eq!(facts.usage.map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(9), Some(30))));
    }

    #[test]
    fn deltas_bookkeeping_and_the_finish() {
        assert!(is_ai_sdk_event(&json!({"type": "text-delta", "id": "t1", "delta": "Hi"})));
        for own in ["text-start", "reasoning-end", "start-step", "finish-step", "tool-input-start", "tool-input-delta"] {
            assert!(is_ai_sdk_event(&json!({"type": own})), "{own}");
        }
        for other in ["finish", "start", "error", "content-delta", "tool-call-delta", "message-start", "input-delta"] {
            assert!(!is_ai_sdk_event(&json!({"type": other})), "{other}");
        }
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
