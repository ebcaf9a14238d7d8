//! Adapter for OpenAI chat-completions stream chunks: one `data` payload in, token-level facts out.
//!
//! Reads `choices[0].delta` (or `choices[0].message` for a non-streamed answer, `choices[0].text` for the
//! legacy completions API): `content` is answer text, `tool_calls[].function.arguments` a tool call's
//! arguments, `reasoning_content` / `reasoning` is reasoning text
//! (only one of them is taken, some servers send both with the same text); a `content` that is a list of
//! chunks (Mistral's reasoning models: `{"type": "thinking", "thinking": [{"type": "text", …}]}` then
//! `{"type": "text", "text": …}`) is read chunk by chunk; a delta with only a `role` is role-only, anything
//! else empty; `finish_reason`, `usage`, an `error` object, the `created` time (when
//! above 0: Azure OpenAI's content filter chunks say `0`), the content filter's marks and the
//! lab's top-level `server_ms` are reported too. `[DONE]` is the end marker.

use serde_json::Value;

use super::{content_filter, names_at, non_empty_str, stop_reason, ChunkFacts, EventKind};
use super::usage::Usage;

/// The payload that ends an OpenAI stream.
pub const DONE_MARKER: &str = "[DONE]";

/// Whether a data payload is the `[DONE]` end marker (surrounding whitespace allowed).
pub fn is_done(data: &str) -> bool {
    data.trim() == DONE_MARKER
}

/// Whether a JSON object looks like a chat-completions chunk (it has `choices`, or its `object` names a
/// chat completion).
pub fn is_chat_chunk(v: &Value) -> bool {
    v.get("choices").is_some()
        || v.get("object")
            .and_then(Value::as_str)
            .is_some_and(|o| o.starts_with("chat.completion"))
}

/// The server's error message from an OpenAI-style error (`{"error": {"message", "type", "code"}}`,
/// `{"error": "text"}`), with type and code appended when present.
pub fn error_message(v: &Value) -> Option<String> {
    let err = v.get("error")?;
    if let Some(s) = err.as_str() {
        return Some(s.to_string());
    }
    let obj = err.as_object()?;
    let mut msg = obj
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| super::NO_ERROR_MESSAGE.to_string());
    let mut extra = Vec::new();
    for key in ["type", "code"] {
        match obj.get(key) {
            Some(Value::String(s)) if !s.is_empty() => extra.push(format!("{key}: {s}")),
            Some(Value::Number(n)) => extra.push(format!("{key}: {n}")),
            _ => {}
        }
    }
    if !extra.is_empty() {
        msg = format!("{msg} ({})", extra.join(", "));
    }
    Some(msg)
}

/// The tool-call arguments a delta streams, joined (`tool_calls[].function.arguments`, or the legacy
/// `function_call.arguments`), when there are any.
fn tool_args(delta: &Value) -> Option<String> {
    let args: String = match delta.get("tool_calls").and_then(Value::as_array) {
        Some(calls) => calls.iter().filter_map(|c| c.pointer("/function/arguments").and_then(Value::as_str)).collect(),
        None => delta.pointer("/function_call/arguments").and_then(Value::as_str).unwrap_or_default().to_string(),
    };
    (!args.is_empty()).then_some(args)
}

/// The texts of a `content` list, in order: `text` chunks' into `answer`, the `text` parts of `thinking`
/// chunks (or a `thinking` string) into `reasoning`; other chunks (`reference`, images) carry neither.
fn content_list(parts: &[Value], reasoning: &mut String, answer: &mut String) {
    fn text_of(v: &Value) -> &str {
        v.get("text").and_then(Value::as_str).unwrap_or_default()
    }
    for part in parts {
        match part.get("type").and_then(Value::as_str) {
            Some("text") => answer.push_str(text_of(part)),
            Some("thinking") => match part.get("thinking") {
                Some(Value::Array(inner)) => {
                    for p in inner {
                        reasoning.push_str(text_of(p));
                    }
                }
                Some(Value::String(text)) => reasoning.push_str(text),
                _ => {}
            },
            _ => {}
        }
    }
}

/// Reads the facts of one chat-completions chunk (a parsed JSON object).
pub fn chunk_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut carried_text = false;
    let mut tools = Vec::new();
    if let Some(msg) = error_message(v) {
        kinds.push(EventKind::StreamError(msg));
    }
    let choice = v
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|a| a.first());
    if let Some(choice) = choice {
        let delta = choice
            .get("delta")
            .or_else(|| choice.get("message"))
            .filter(|d| d.is_object());
        let mut carried = false;
        if let Some(d) = delta {
            let mut reasoning = non_empty_str(d.get("reasoning_content"))
                .or_else(|| non_empty_str(d.get("reasoning")));
            let mut content = non_empty_str(d.get("content"));
            if let Some(parts) = d.get("content").and_then(Value::as_array) {
                let (mut listed_reasoning, mut answer) = (String::new(), String::new());
                content_list(parts, &mut listed_reasoning, &mut answer);
                reasoning = reasoning.or((!listed_reasoning.is_empty()).then_some(listed_reasoning));
                content = (!answer.is_empty()).then_some(answer);
            }
            if let Some(r) = reasoning {
                kinds.push(EventKind::Reasoning(r));
                carried = true;
            }
            if let Some(c) = content {
                kinds.push(EventKind::Content(c));
                carried = true;
            }
            if let Some(args) = tool_args(d) {
                kinds.push(EventKind::ToolArgs(args));
                carried = true;
            }
            tools = match d.get("tool_calls") {
                Some(calls) => names_at(Some(calls), "/function/name"),
                None => names_at(d.get("function_call"), "/name"),
            };
        }
        if !carried {
            if let Some(t) = non_empty_str(choice.get("text")) {
                kinds.push(EventKind::Content(t));
                carried = true;
            }
        }
        let finish = non_empty_str(choice.get("finish_reason"));
        if !carried {
            let role_only = delta.is_some_and(|d| {
                d.get("role").is_some_and(Value::is_string)
                    && d.get("tool_calls").is_none_or(Value::is_null)
                    && d.get("function_call").is_none_or(Value::is_null)
            });
            if role_only {
                kinds.push(EventKind::RoleOnly);
            } else if finish.is_none() {
                kinds.push(EventKind::Empty);
            }
        }
        if let Some(f) = finish {
            kinds.push(EventKind::Finish(stop_reason::from_openai(&f)));
        }
        carried_text = carried;
    }
    let mut usage = None;
    // Groq's older chunks carry the usage only in `x_groq.usage`.
    let reported = v.get("usage").and_then(Usage::from_openai).or_else(|| v.pointer("/x_groq/usage").and_then(Usage::from_openai));
    ChunkFacts::push_usage(&mut kinds, &mut usage, reported);
    // `created: 0` is no time: Azure OpenAI's content filter chunks carry it (read as a time, it made every
    // Azure stream a replay from 1970).
    let created = v.get("created").and_then(Value::as_f64).filter(|s| *s > 0.0);
    ChunkFacts::of(kinds, v, created)
        .with_usage(usage)
        .with_filter(content_filter::mark(v, choice, carried_text))
        .with_tool_names(tools)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::StopReason;
    use serde_json::json;

    fn kinds(v: Value) -> Vec<EventKind> {
        chunk_facts(&v).kinds
    }

    #[test]
    fn content_delta() {
        assert_eq!(
            kinds(json!({"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]})),
            vec![EventKind::Content("Hi".into())]
        );
    }

    #[test]
    fn groq_usage_in_x_groq() {
        let facts = chunk_facts(&json!({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],
            "x_groq":{"id":"req_1","usage":{"queue_time":0.06,"prompt_tokens":18,"completion_tokens":439,"total_tokens":457}}}));
        assert_eq!(facts.kinds, vec![EventKind::Finish(StopReason::Stop), EventKind::Usage]);
        assert_eq!(facts.usage.and_then(|u| u.completion_tokens), Some(439));
        assert_eq!(chunk_facts(&json!({"choices":[],"x_groq":{"id":"req_1"}})).usage, None);
    }

    #[test]
    fn content_lists_of_thinking_and_text_chunks() {
        // Mistral's reasoning models (Magistral): the thinking, then the answer, as lists of chunks.
        assert_eq!(
            kinds(json!({"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"Let me"}]}]}}]})),
            vec![EventKind::Reasoning("Let me".into())]
        );
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"role":"assistant","content":[{"type":"text","text":"The sky"}]}}]})),
            vec![EventKind::Content("The sky".into())]
        );
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"content":[{"type":"thinking","thinking":"so"},{"type":"text","text":" blue"},
                {"type":"reference","reference_ids":[1]}]}}]})),
            vec![EventKind::Reasoning("so".into()), EventKind::Content(" blue".into())]
        );
        assert_eq!(kinds(json!({"choices":[{"delta":{"content":[]}}]})), vec![EventKind::Empty]);
    }

    #[test]
    fn reasoning_content_and_reasoning_fields() {
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"reasoning_content":"hmm","content":null}}]})),
            vec![EventKind::Reasoning("hmm".into())]
        );
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"reasoning":"so"}}]})),
            vec![EventKind::Reasoning("so".into())]
        );
        // vLLM may send both with the same text: take it once.
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"reasoning":"x","reasoning_content":"x"}}]})),
            vec![EventKind::Reasoning("x".into())]
        );
    }

    #[test]
    fn role_only_delta() {
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"role":"assistant","content":""}}]})),
            vec![EventKind::RoleOnly]
        );
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"role":"assistant","content":"Hi"}}]})),
            vec![EventKind::Content("Hi".into())]
        );
    }

    #[test]
    fn empty_delta_and_empty_choices() {
        assert_eq!(
            kinds(json!({"choices":[{"delta":{}}]})),
            vec![EventKind::Empty]
        );
        assert_eq!(
            kinds(json!({"choices":[],"prompt_filter_results":[]})),
            vec![EventKind::Empty]
        );
        assert_eq!(kinds(json!({})), vec![EventKind::Empty]);
    }

    #[test]
    fn tool_call_arguments_are_tool_args() {
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a"}},{"index":1,"function":{"arguments":"\"b"}}]}}]})),
            vec![EventKind::ToolArgs("{\"a\"b".into())]
        );
        // The call's opening delta names it with empty arguments: nothing generated yet.
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":""}}]}}]})),
            vec![EventKind::Empty]
        );
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"function_call":{"arguments":"{}"}}}]})),
            vec![EventKind::ToolArgs("{}".into())]
        );
    }

    #[test]
    fn tool_call_delta_is_not_role_only() {
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"role":"assistant","tool_calls":[{"index":0}]}}]})),
            vec![EventKind::Empty]
        );
    }

    #[test]
    fn finish_reason_with_and_without_content() {
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"content":"."},"finish_reason":"stop"}]})),
            vec![
                EventKind::Content(".".into()),
                EventKind::Finish(StopReason::Stop)
            ]
        );
        assert_eq!(
            kinds(json!({"choices":[{"delta":{},"finish_reason":"length"}]})),
            vec![EventKind::Finish(StopReason::Length)]
        );
    }

    #[test]
    fn usage_chunk_deepseek_style() {
        let f = chunk_facts(
            &json!({"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,
            "prompt_cache_hit_tokens":8,"prompt_cache_miss_tokens":2}}),
        );
        match (&f.kinds[..], f.usage) {
            ([EventKind::Usage], Some(u)) => {
                assert_eq!(
                    (u.prompt_cache_hit_tokens, u.prompt_cache_miss_tokens),
                    (Some(8), Some(2))
                );
                assert_eq!(u.completion_tokens, Some(5));
            }
            (other, _) => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn usage_chunk_openai_style() {
        let f = chunk_facts(
            &json!({"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,
            "prompt_tokens_details":{"cached_tokens":6},"completion_tokens_details":{"reasoning_tokens":2}}}),
        );
        match (&f.kinds[..], f.usage) {
            ([EventKind::Usage], Some(u)) => {
                assert_eq!((u.cached_tokens, u.reasoning_tokens), (Some(6), Some(2)))
            }
            (other, _) => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn null_usage_on_every_chunk_is_ignored() {
        assert_eq!(
            kinds(json!({"choices":[{"delta":{"content":"a"}}],"usage":null})),
            vec![EventKind::Content("a".into())]
        );
    }

    #[test]
    fn error_object_in_stream() {
        assert_eq!(
            kinds(json!({"error":{"message":"overloaded","type":"server_error","code":503}})),
            vec![EventKind::StreamError(
                "overloaded (type: server_error, code: 503)".into()
            )]
        );
        assert_eq!(
            kinds(json!({"error":"boom"})),
            vec![EventKind::StreamError("boom".into())]
        );
    }

    #[test]
    fn server_ms_is_read() {
        assert_eq!(
            chunk_facts(&json!({"choices":[],"server_ms":12.5})).server_ms,
            Some(12.5)
        );
        assert_eq!(chunk_facts(&json!({"choices":[]})).server_ms, None);
    }

    #[test]
    fn created_is_read() {
        let facts = chunk_facts(&json!({"created":1_700_000_000,"choices":[]}));
        assert_eq!(facts.created_unix_s, Some(1_700_000_000.0));
        assert_eq!(chunk_facts(&json!({"choices":[]})).created_unix_s, None);
    }

    #[test]
    fn non_streamed_message_and_legacy_text() {
        assert_eq!(
            kinds(
                json!({"choices":[{"message":{"role":"assistant","content":"All"},"finish_reason":"stop"}]})
            ),
            vec![
                EventKind::Content("All".into()),
                EventKind::Finish(StopReason::Stop)
            ]
        );
        assert_eq!(
            kinds(json!({"choices":[{"text":"x"}]})),
            vec![EventKind::Content("x".into())]
        );
    }

    #[test]
    fn chat_chunks_are_recognised() {
        assert!(is_chat_chunk(&json!({"object":"chat.completion.chunk"})));
        assert!(!is_chat_chunk(&json!({"text":"x"})));
    }
}
