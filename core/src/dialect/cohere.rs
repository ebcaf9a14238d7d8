//! Adapter for Cohere's v2 chat stream (`POST /v2/chat` with `stream: true`): one event in, token-level
//! facts out.
//!
//! The event's `type` (or, without one, the SSE `event` name) decides: `content-delta` carries answer
//! text in `delta.message.content.text` (or reasoning in `delta.message.content.thinking`),
//! `tool-plan-delta` the model's plan before a tool call in `delta.message.tool_plan` (read as reasoning),
//! `tool-call-delta` a tool call's arguments in `delta.message.tool_calls.function.arguments`;
//! `message-start` announces the message (role-only, no token); `message-end` ends the stream with
//! `delta.finish_reason` (`COMPLETE`, `STOP_SEQUENCE` → `stop`, `MAX_TOKENS` → `length`, `TOOL_CALL` →
//! `tool_calls`, `ERROR`, `TIMEOUT`) and `delta.usage.tokens` (`input_tokens`, `output_tokens`; the billed
//! units and `cached_tokens` are left aside: no cache figures for Cohere yet). The `*-start` / `*-end`
//! bookkeeping and citation events carry no token.
//!
//! Cohere's v1 API (`POST /v1/chat` and `/v1/generate` with `stream: true`) streams JSON lines instead
//! (`application/stream+json`), each with `is_finished` ([`v1_line_facts`]): `text-generation` carries
//! text in `text` (`/v1/generate`'s lines have no `event_type`, only `text`), `tool-calls-chunk` the
//! tool plan in `text` and a call's arguments in `tool_call_delta.parameters`, and the finished line
//! (`stream-end`) the `finish_reason` and, in `response.meta.tokens`, the counts.

use serde_json::Value;

use super::usage::{as_count, Usage};
use super::{names_at, non_empty_str, stop_reason, ChunkFacts, EventKind, StopReason};

/// Whether a JSON object (with the SSE event name, if any) is a Cohere v2 stream event: a `type` such as
/// `message-start`, `content-delta`, `tool-plan-delta`, `tool-call-end` or `citation-start` (its kinds are
/// `message`, `content`, `tool-plan`, `tool-call` and `citation`, its phases `start`, `delta` and `end`).
pub fn is_cohere_event(v: &Value, event: Option<&str>) -> bool {
    matches!(
        event_type(v, event).rsplit_once('-'),
        Some(("message" | "content" | "tool-plan" | "tool-call" | "citation", "start" | "delta" | "end"))
    )
}

fn event_type<'a>(v: &'a Value, event: Option<&'a str>) -> &'a str {
    v.get("type").and_then(Value::as_str).or(event).unwrap_or("")
}

/// Whether a JSON line is Cohere v1's: it says whether the stream `is_finished`.
pub fn is_cohere_v1_line(v: &Value) -> bool {
    v.get("is_finished").is_some_and(Value::is_boolean)
}

/// Reads the facts of one Cohere v1 line (a parsed JSON object).
pub fn v1_line_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    let mut tools = Vec::new();
    let finished = v.get("is_finished").and_then(Value::as_bool) == Some(true);
    match v.get("event_type").and_then(Value::as_str) {
        Some("stream-start") => kinds.push(EventKind::RoleOnly),
        Some("text-generation") => kinds.extend(text_at(v, "/text").map(EventKind::Content)),
        None if !finished => kinds.extend(text_at(v, "/text").map(EventKind::Content)),
        Some("tool-calls-chunk") => {
            kinds.extend(text_at(v, "/text").map(EventKind::Reasoning));
            kinds.extend(text_at(v, "/tool_call_delta/parameters").map(EventKind::ToolArgs));
            tools = names_at(v.get("tool_call_delta"), "/name");
        }
        _ => {}
    }
    if finished {
        let stop = text_at(v, "/finish_reason").map(|r| stop_reason_of(&r));
        let meta = v.pointer("/response/meta");
        let counts = meta.and_then(|m| m.get("tokens").or_else(|| m.get("billed_units")));
        let counts = counts.and_then(|t| Usage::of_counts(as_count(t.get("input_tokens")), as_count(t.get("output_tokens"))));
        ChunkFacts::push_end(&mut kinds, &mut reported, stop, counts);
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

/// The non-empty string at `pointer` in `v`.
fn text_at(v: &Value, pointer: &str) -> Option<String> {
    non_empty_str(v.pointer(pointer))
}

/// The stop reason for a Cohere `finish_reason`.
pub fn stop_reason_of(reason: &str) -> StopReason {
    match reason {
        "COMPLETE" | "STOP_SEQUENCE" => StopReason::Stop,
        "MAX_TOKENS" => StopReason::Length,
        "TOOL_CALL" => StopReason::ToolCalls,
        other => stop_reason::from_openai(&other.to_ascii_lowercase()),
    }
}

/// The usage of a `message-end` event's `delta.usage`: the tokens counted (`tokens`).
fn usage(u: &Value) -> Option<Usage> {
    Usage::of_counts(as_count(u.pointer("/tokens/input_tokens")), as_count(u.pointer("/tokens/output_tokens")))
}

/// Reads the facts of one Cohere event (a parsed JSON object) whose SSE event name was `event`.
pub fn event_facts(v: &Value, event: Option<&str>) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    let mut tools = Vec::new();
    match event_type(v, event) {
        "message-start" => kinds.push(EventKind::RoleOnly),
        "tool-call-start" => tools = names_at(v.pointer("/delta/message/tool_calls"), "/function/name"),
        "content-delta" => {
            if let Some(t) = text_at(v, "/delta/message/content/thinking") {
                kinds.push(EventKind::Reasoning(t));
            }
            if let Some(t) = text_at(v, "/delta/message/content/text") {
                kinds.push(EventKind::Content(t));
            }
        }
        "tool-plan-delta" => kinds.extend(text_at(v, "/delta/message/tool_plan").map(EventKind::Reasoning)),
        "tool-call-delta" => {
            kinds.extend(text_at(v, "/delta/message/tool_calls/function/arguments").map(EventKind::ToolArgs))
        }
        "message-end" => {
            let stop = text_at(v, "/delta/finish_reason").map(|r| stop_reason_of(&r));
            ChunkFacts::push_end(&mut kinds, &mut reported, stop, v.pointer("/delta/usage").and_then(usage));
        }
        _ => {}
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(v: Value) -> Vec<EventKind> {
        event_facts(&v, None).kinds
    }

    #[test]
    fn text_thinking_plans_and_tool_arguments() {
        assert_eq!(
            kinds(json!({"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"Hi"}}}})),
            vec![EventKind::Content("Hi".into())]
        );
        assert_eq!(
            kinds(json!({"type":"content-delta","index":0,"delta":{"message":{"content":{"thinking":"hmm"}}}})),
            vec![EventKind::Reasoning("hmm".into())]
        );
        assert_eq!(
            kinds(json!({"type":"tool-plan-delta","delta":{"message":{"tool_plan":"I will look"}}})),
            vec![EventKind::Reasoning("I will look".into())]
        );
        assert_eq!(
            kinds(json!({"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"arguments":"{\"q"}}}}})),
            vec![EventKind::ToolArgs("{\"q".into())]
        );
        assert_eq!(kinds(json!({"type":"message-start","id":"m","delta":{"message":{"role":"assistant"}}})), vec![EventKind::RoleOnly]);
        for quiet in ["content-start", "content-end", "citation-start", "tool-call-end"] {
            assert_eq!(kinds(json!({"type": quiet, "index": 0})), vec![EventKind::Empty], "{quiet}");
        }
        // The SSE event name stands in for a missing type.
        assert_eq!(event_facts(&json!({"delta":{"message":{"content":{"text":"a"}}}}), Some("content-delta")).kinds, vec![EventKind::Content("a".into())]);
    }

    #[test]
    fn v1_lines_text_tool_calls_and_the_end() {
        let v1 = |v: Value| v1_line_facts(&v).kinds;
        let start = json!({"is_finished": false, "event_type": "stream-start", "generation_id": "g"});
        assert!(is_cohere_v1_line(&start) && !is_cohere_v1_line(&json!({"done": false})));
        assert_eq!(v1(start), vec![EventKind::RoleOnly]);
        assert_eq!(v1(json!({"is_finished": false, "event_type": "text-generation", "text": "Hi"})), vec![EventKind::Content("Hi".into())]);
        // `/v1/generate`: no event type.
        assert_eq!(v1(json!({"index": 0, "is_finished": false, "text": " there"})), vec![EventKind::Content(" there".into())]);
        let chunk = json!({"is_finished": false, "event_type": "tool-calls-chunk", "text": "I will search",
            "tool_call_delta": {"index": 0, "name": "search", "parameters": "{\"q"}});
        let facts = v1_line_facts(&chunk);
        assert_eq!(facts.kinds, vec![EventKind::Reasoning("I will search".into()), EventKind::ToolArgs("{\"q".into())]);
        assert_eq!(facts.tool_names, ["search"]);
        assert_eq!(v1(json!({"is_finished": false, "event_type": "citation-generation", "citations": []})), vec![EventKind::Empty]);
        let end = json!({"is_finished": true, "event_type": "stream-end", "finish_reason": "MAX_TOKENS", "response": {"text": "Hi there",
            "meta": {"billed_units": {"input_tokens": 3, "output_tokens": 2}, "tokens": {"input_tokens": 70, "output_tokens": 2}}}});
        let facts = v1_line_facts(&end);
        assert_eq!(facts.kinds, vec![EventKind::Finish(StopReason::Length), EventKind::Usage, EventKind::Done]);
        assert_eq!(facts.usage.map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(70), Some(2))));
        // `/v1/generate`'s last line: the whole text again, not new text.
        let generated = json!({"is_finished": true, "finish_reason": "COMPLETE", "response": {"generations": [{"text": "Hi there"}],
            "meta": {"billed_units": {"input_tokens": 3, "output_tokens": 2}}}});
        assert_eq!(v1(generated), vec![EventKind::Finish(StopReason::Stop), EventKind::Usage, EventKind::Done]);
    }

    #[test]
    fn message_end_stops_counts_and_ends() {
        let end = json!({"type":"message-end","delta":{"finish_reason":"MAX_TOKENS","usage":{
            "billed_units":{"input_tokens":5,"output_tokens":10},"tokens":{"input_tokens":71,"output_tokens":10},"cached_tokens":64}}});
        let facts = event_facts(&end, None);
        assert_eq!(facts.kinds, vec![EventKind::Finish(StopReason::Length), EventKind::Usage, EventKind::Done]);
        let u = facts.usage.unwrap();
        assert_eq!((u.prompt_tokens, u.completion_tokens, u.total_tokens, u.cached_tokens), (Some(71), Some(10), Some(81), None));
        assert_eq!(stop_reason_of("COMPLETE"), StopReason::Stop);
        assert_eq!(stop_reason_of("TOOL_CALL"), StopReason::ToolCalls);
        assert_eq!(stop_reason_of("ERROR").as_str(), "error");
        assert!(is_cohere_event(&end, None) && is_cohere_event(&json!({}), Some("content-delta")));
        assert!(!is_cohere_event(&json!({"type":"content_block_delta"}), None));
    }
}
