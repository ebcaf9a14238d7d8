//! Adapter for Anthropic Messages stream events (`POST /v1/messages` with `stream: true`): one event
//! in, token-level facts out.
//!
//! `message_start` announces the message (role-only, no token) and carries the prompt usage;
//! `content_block_delta` with a `text_delta` is answer text and with a `thinking_delta` reasoning text
//! (`signature_delta`, `input_json_delta` and `citations_delta` carry neither); a `content_block_start`
//! that already holds text counts the same way; `message_delta` carries `delta.stop_reason` (see
//! [`crate::dialect::stop_reason::from_anthropic`]: `max_tokens` → `length`) and the cumulative `output_tokens`;
//! `message_stop` ends the stream; `ping` is a keep-alive; an `error` event is an error.
//!
//! Usage: `prompt_tokens` = `input_tokens` + `cache_read_input_tokens` + `cache_creation_input_tokens`
//! (Anthropic's `input_tokens` counts only the uncached part), both cache fields kept as sent;
//! `completion_tokens` = `output_tokens` (thinking included; Anthropic does not break it down). A sum
//! past `u64::MAX` is left out, never wrapped (see [`crate::dialect::usage`]).

use serde_json::Value;

use super::{names_at, non_empty_str, EventKind};
use super::openai::error_message;
use super::ChunkFacts;
use super::stop_reason;
use super::usage::{as_count, checked_sum, Usage};

/// The `type`s of Anthropic Messages stream events.
const EVENT_TYPES: [&str; 7] = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
];

fn event_type<'a>(v: &'a Value, event: Option<&'a str>) -> &'a str {
    v.get("type")
        .and_then(Value::as_str)
        .or(event)
        .unwrap_or("")
}

/// Whether a JSON object (with the SSE event name, if any) is an Anthropic Messages stream event.
pub fn is_anthropic_event(v: &Value, event: Option<&str>) -> bool {
    EVENT_TYPES.contains(&event_type(v, event))
}

/// Reads an Anthropic `usage` object; `prompt_tokens` only when `input_tokens` is present, and the
/// `output_tokens` of `message_start` (a placeholder) only when `with_output` is set.
pub fn usage(v: &Value, with_output: bool) -> Option<Usage> {
    v.as_object()?;
    let input = as_count(v.get("input_tokens"));
    let read = as_count(v.get("cache_read_input_tokens"));
    let creation = as_count(v.get("cache_creation_input_tokens"));
    let prompt = input.and_then(|i| checked_sum(&[Some(i), read, creation]));
    let completion = as_count(v.get("output_tokens")).filter(|_| with_output);
    let u = Usage {
        cache_read_input_tokens: read,
        cache_creation_input_tokens: creation,
        ..Usage::of_counts(prompt, completion).unwrap_or_default()
    };
    (!u.is_empty()).then_some(u)
}

fn text_kind(block: &Value) -> EventKind {
    let field = |key: &str| non_empty_str(block.get(key));
    match block.get("type").and_then(Value::as_str) {
        Some("text" | "text_delta") => field("text").map_or(EventKind::Empty, EventKind::Content),
        Some("thinking" | "thinking_delta") => {
            field("thinking").map_or(EventKind::Empty, EventKind::Reasoning)
        }
        Some("input_json_delta") => field("partial_json").map_or(EventKind::Empty, EventKind::ToolArgs),
        _ => EventKind::Empty,
    }
}

/// Whether a JSON object is a whole Anthropic message (`POST /v1/messages` without `stream`): `type`
/// `message` with a list of content blocks.
pub fn is_whole_message(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("message") && v.get("content").is_some_and(Value::is_array)
}

/// Reads a whole message: each content block's text or reasoning, the tools it calls, why it stopped,
/// its usage, and its end.
pub fn message_facts(v: &Value) -> ChunkFacts {
    let blocks = v.get("content").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let mut kinds: Vec<EventKind> = blocks.iter().map(text_kind).filter(|k| *k != EventKind::Empty).collect();
    let tools = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
        .flat_map(|b| names_at(Some(b), "/name"))
        .collect();
    let stop = v.get("stop_reason").and_then(Value::as_str).map(stop_reason::from_anthropic);
    let mut reported = None;
    ChunkFacts::push_end(&mut kinds, &mut reported, stop, v.get("usage").and_then(|u| usage(u, true)));
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

/// Reads the facts of one Anthropic event (a parsed JSON object) whose SSE event name was `event`.
pub fn event_facts(v: &Value, event: Option<&str>) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    let mut tools = Vec::new();
    match event_type(v, event) {
        "message_start" => {
            kinds.push(EventKind::RoleOnly);
            let u = v.pointer("/message/usage").and_then(|u| usage(u, false));
            ChunkFacts::push_usage(&mut kinds, &mut reported, u);
        }
        "content_block_start" => {
            let block = v.get("content_block");
            kinds.push(block.map_or(EventKind::Empty, text_kind));
            if block.and_then(|b| b.get("type")).and_then(Value::as_str) == Some("tool_use") {
                tools = names_at(block, "/name");
            }
        }
        "content_block_delta" => kinds.push(v.get("delta").map_or(EventKind::Empty, text_kind)),
        "message_delta" => {
            let reason = v
                .pointer("/delta/stop_reason")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty());
            kinds.extend(reason.map(|r| EventKind::Finish(stop_reason::from_anthropic(r))));
            let u = v.get("usage").and_then(|u| usage(u, true));
            ChunkFacts::push_usage(&mut kinds, &mut reported, u);
        }
        "message_stop" => kinds.push(EventKind::Done),
        "ping" => kinds.push(EventKind::KeepAlive),
        "error" => kinds.push(EventKind::stream_error(error_message(v))),
        _ => {}
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::dialect::StopReason;
    use serde_json::json;

    fn kinds(v: Value) -> Vec<EventKind> {
        event_facts(&v, None).kinds
    }

    #[test]
    fn message_start_is_role_only_with_prompt_usage() {
        let v = json!({"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[],
            "usage":{"input_tokens":25,"cache_creation_input_tokens":10,"cache_read_input_tokens":2048,"output_tokens":1}}});
        assert!(is_anthropic_event(&v, None));
        let f = event_facts(&v, None);
        match (&f.kinds[..], f.usage) {
            ([EventKind::RoleOnly, EventKind::Usage], Some(u)) => {
                assert_eq!(u.prompt_tokens, Some(2083));
                assert_eq!(
                    (u.cache_read_input_tokens, u.cache_creation_input_tokens),
                    (Some(2048), Some(10))
                );
                assert_eq!(
                    u.completion_tokens, None,
                    "the start's output_tokens is a placeholder"
                );
            }
            (other, _) => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn text_and_thinking_deltas_but_not_signatures() {
        let delta = |d: Value| json!({"type":"content_block_delta","index":0,"delta":d});
        assert_eq!(
            kinds(delta(json!({"type":"text_delta","text":"Hello"}))),
            vec![EventKind::Content("Hello".into())]
        );
        assert_eq!(
            kinds(delta(json!({"type":"thinking_delta","thinking":"Let me"}))),
            vec![EventKind::Reasoning("Let me".into())]
        );
        assert_eq!(
            kinds(delta(
                json!({"type":"signature_delta","signature":"EqQBCgIYAhIM"})
            )),
            vec![EventKind::Empty]
        );
        assert_eq!(
            kinds(delta(
                json!({"type":"input_json_delta","partial_json":"{\"a\""})
            )),
            vec![EventKind::ToolArgs("{\"a\"".into())]
        );
        assert_eq!(kinds(delta(json!({"type":"input_json_delta","partial_json":""}))), vec![EventKind::Empty]);
        assert_eq!(
            kinds(
                json!({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})
            ),
            vec![EventKind::Empty]
        );
    }

    #[test]
    fn message_delta_stop_reason_and_output_tokens() {
        let v = json!({"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},
            "usage":{"output_tokens":64}});
        let facts = event_facts(&v, None);
        match (&facts.kinds[..], facts.usage) {
            ([EventKind::Finish(f), EventKind::Usage], Some(u)) => {
                assert_eq!(*f, StopReason::Length);
                assert_eq!((u.completion_tokens, u.prompt_tokens), (Some(64), None));
            }
            (other, _) => panic!("unexpected {other:?}"),
        }
        let end = json!({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}});
        assert_eq!(kinds(end)[0], EventKind::Finish(StopReason::Stop));
    }

    #[test]
    fn stop_ping_and_error() {
        assert_eq!(kinds(json!({"type":"message_stop"})), vec![EventKind::Done]);
        assert_eq!(kinds(json!({"type":"ping"})), vec![EventKind::KeepAlive]);
        assert_eq!(
            kinds(
                json!({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})
            ),
            vec![EventKind::StreamError(
                "Overloaded (type: overloaded_error)".into()
            )]
        );
        assert!(!is_anthropic_event(&json!({"type":"error"}), None));
    }
}
