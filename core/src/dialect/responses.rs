//! Adapter for OpenAI Responses API events (`POST /v1/responses` with `stream: true`): one event in,
//! token-level facts out.
//!
//! The event's `type` (or, without one, the SSE `event` name) decides: `response.output_text.delta` and
//! `response.refusal.delta` are answer text, `response.reasoning_summary_text.delta` and
//! `response.reasoning_text.delta` reasoning text, `response.created` announces the response (role-only,
//! no token); `response.completed` (finish `stop`), `response.incomplete` (finish from
//! `incomplete_details.reason`, `max_output_tokens` → `length`) and `response.failed` (an error) end the
//! stream and carry `response.usage`; an `error` event is an error. The `*.done` events repeat text
//! already streamed and are ignored, as are the other bookkeeping events.

use serde_json::Value;

use super::{names_at, EventKind, StopReason};
use super::ChunkFacts;
use super::stop_reason;
use super::usage::{as_count, Usage};

/// Whether a JSON object (with the SSE event name, if any) is a Responses API event.
pub fn is_responses_event(v: &Value, event: Option<&str>) -> bool {
    event_type(v, event).starts_with("response.")
}

fn event_type<'a>(v: &'a Value, event: Option<&'a str>) -> &'a str {
    v.get("type")
        .and_then(Value::as_str)
        .or(event)
        .unwrap_or("")
}

/// Reads a Responses `usage` object (`input_tokens`, `output_tokens`, `total_tokens`,
/// `input_tokens_details.cached_tokens`, `output_tokens_details.reasoning_tokens`).
pub fn usage(v: &Value) -> Option<Usage> {
    v.as_object()?;
    let u = Usage {
        prompt_tokens: as_count(v.get("input_tokens")),
        completion_tokens: as_count(v.get("output_tokens")),
        total_tokens: as_count(v.get("total_tokens")),
        cached_tokens: as_count(v.pointer("/input_tokens_details/cached_tokens")),
        reasoning_tokens: as_count(v.pointer("/output_tokens_details/reasoning_tokens")),
        ..Usage::default()
    };
    (!u.is_empty()).then_some(u)
}

/// The message of a Responses error: an `error` event (`message`, `code` at the top level) or a failed
/// response's `error` object.
pub fn error_message(v: &Value) -> Option<String> {
    let err = v.get("error").filter(|e| e.is_object()).unwrap_or(v);
    let message = err.get("message").and_then(Value::as_str)?;
    Some(match err.get("code").and_then(Value::as_str) {
        Some(code) if !code.is_empty() => format!("{message} (code: {code})"),
        _ => message.to_string(),
    })
}

fn delta(v: &Value, make: fn(String) -> EventKind) -> EventKind {
    match v.get("delta").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => make(d.to_string()),
        _ => EventKind::Empty,
    }
}

/// Reads the facts of one Responses event (a parsed JSON object) whose SSE event name was `event`.
pub fn event_facts(v: &Value, event: Option<&str>) -> ChunkFacts {
    let response = v.get("response");
    let reported = response.and_then(|r| r.get("usage")).and_then(usage);
    // The end of a response: what ended it, the usage when it carries one, the end marker.
    let ending = |first: EventKind| {
        let mut kinds = vec![first];
        if reported.is_some() {
            kinds.push(EventKind::Usage);
        }
        kinds.push(EventKind::Done);
        kinds
    };
    let kind = event_type(v, event);
    // A function call starts with its item, which names the function.
    let call = v.get("item").filter(|i| kind == "response.output_item.added" && i.get("type").and_then(Value::as_str) == Some("function_call"));
    let kinds: Vec<EventKind> = match kind {
        "response.output_text.delta" | "response.refusal.delta" => {
            vec![delta(v, EventKind::Content)]
        }
        "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
            vec![delta(v, EventKind::Reasoning)]
        }
        "response.function_call_arguments.delta" => vec![delta(v, EventKind::ToolArgs)],
        "response.created" => vec![EventKind::RoleOnly],
        "response.completed" => ending(EventKind::Finish(StopReason::Stop)),
        "response.incomplete" => {
            let reason = response
                .and_then(|r| r.pointer("/incomplete_details/reason"))
                .and_then(Value::as_str);
            ending(EventKind::Finish(stop_reason::from_responses_incomplete(reason)))
        }
        "response.failed" => {
            let msg = response
                .and_then(error_message)
                .unwrap_or_else(|| "the response failed without an error message".into());
            ending(EventKind::StreamError(msg))
        }
        "error" => vec![EventKind::stream_error(error_message(v))],
        _ => vec![EventKind::Empty],
    };
    let ends = kinds.contains(&EventKind::Usage);
    ChunkFacts::of(kinds, v, response.and_then(|r| r.get("created_at")).and_then(Value::as_f64))
        .with_usage(reported.filter(|_| ends))
        .with_tool_names(names_at(call, "/name"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(v: Value) -> Vec<EventKind> {
        event_facts(&v, None).kinds
    }

    #[test]
    fn function_call_arguments_are_tool_args() {
        let v = json!({"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"city"});
        assert_eq!(event_facts(&v, None).kinds, vec![EventKind::ToolArgs("{\"city".into())]);
        let done = json!({"type":"response.function_call_arguments.done","arguments":"{}"});
        assert_eq!(event_facts(&done, None).kinds, vec![EventKind::Empty]);
    }

    #[test]
    fn text_and_reasoning_deltas() {
        assert_eq!(
            kinds(json!({"type":"response.output_text.delta","item_id":"msg_1","delta":"Hi"})),
            vec![EventKind::Content("Hi".into())]
        );
        assert_eq!(
            kinds(json!({"type":"response.reasoning_summary_text.delta","delta":"**Plan**"})),
            vec![EventKind::Reasoning("**Plan**".into())]
        );
        assert_eq!(
            kinds(json!({"type":"response.reasoning_text.delta","delta":"so"})),
            vec![EventKind::Reasoning("so".into())]
        );
        assert_eq!(
            kinds(json!({"type":"response.output_text.delta","delta":""})),
            vec![EventKind::Empty]
        );
        assert_eq!(
            kinds(json!({"type":"response.output_text.done","text":"Hi there"})),
            vec![EventKind::Empty]
        );
    }

    #[test]
    fn event_name_decides_when_data_has_no_type() {
        let v = json!({"delta":"x"});
        assert!(is_responses_event(&v, Some("response.output_text.delta")));
        assert_eq!(
            event_facts(&v, Some("response.output_text.delta")).kinds,
            vec![EventKind::Content("x".into())]
        );
        assert!(!is_responses_event(&json!({"type":"message_start"}), None));
    }

    #[test]
    fn completed_carries_usage_with_cache_and_reasoning() {
        let v = json!({"type":"response.completed","response":{"id":"resp_1","status":"completed",
            "created_at":1_741_290_958,
            "usage":{"input_tokens":2006,"input_tokens_details":{"cached_tokens":1920},
            "output_tokens":300,"output_tokens_details":{"reasoning_tokens":100},"total_tokens":2306}}});
        let facts = event_facts(&v, None);
        assert_eq!(facts.created_unix_s, Some(1_741_290_958.0));
        match (&facts.kinds[..], facts.usage) {
            ([EventKind::Finish(f), EventKind::Usage, EventKind::Done], Some(u)) => {
                assert_eq!(*f, StopReason::Stop);
                assert_eq!(
                    (
                        u.prompt_tokens,
                        u.cached_tokens,
                        u.completion_tokens,
                        u.reasoning_tokens
                    ),
                    (Some(2006), Some(1920), Some(300), Some(100))
                );
            }
            (other, _) => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn incomplete_at_max_output_tokens_is_length() {
        let v = json!({"type":"response.incomplete","response":{"status":"incomplete",
            "incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":5,"output_tokens":16}}});
        let k = kinds(v);
        assert_eq!(k[0], EventKind::Finish(StopReason::Length));
        assert_eq!(k.last(), Some(&EventKind::Done));
    }

    #[test]
    fn failed_and_error_events_are_errors() {
        let failed = json!({"type":"response.failed","response":{"status":"failed",
            "error":{"code":"server_error","message":"The model failed"}}});
        assert_eq!(
            kinds(failed),
            vec![
                EventKind::StreamError("The model failed (code: server_error)".into()),
                EventKind::Done
            ]
        );
        let err =
            json!({"type":"error","code":"rate_limit_exceeded","message":"Slow down","param":null});
        assert_eq!(
            kinds(err),
            vec![EventKind::StreamError(
                "Slow down (code: rate_limit_exceeded)".into()
            )]
        );
    }

    #[test]
    fn created_announces_the_response_and_bookkeeping_is_empty() {
        assert_eq!(
            kinds(json!({"type":"response.created","response":{"status":"in_progress"}})),
            vec![EventKind::RoleOnly]
        );
        assert_eq!(
            kinds(json!({"type":"response.output_item.added","item":{"type":"message"}})),
            vec![EventKind::Empty]
        );
    }
}
