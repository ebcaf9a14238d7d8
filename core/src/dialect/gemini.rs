//! Adapter for Gemini `streamGenerateContent?alt=sse` chunks: one chunk in, token-level facts out.
//!
//! The text parts of `candidates[0].content.parts` are answer text, or reasoning text when the part has
//! `"thought": true` (one event of each per chunk, parts joined); `candidates[0].finishReason` ends the
//! stream (see [`crate::dialect::stop_reason::from_gemini`]: `MAX_TOKENS` → `length`); `usageMetadata` is usage
//! (`promptTokenCount` → prompt, `candidatesTokenCount` + `thoughtsTokenCount` → completion, so that it
//! includes reasoning as OpenAI's does, `thoughtsTokenCount` → reasoning, `cachedContentTokenCount` →
//! cached out of the prompt); a `promptFeedback.blockReason` or an `error` object is an error.

use serde_json::Value;

use super::{non_empty_str, EventKind};
use super::openai::error_message;
use super::ChunkFacts;
use super::stop_reason;
use super::usage::{as_count, checked_sum, Usage};

/// Whether a JSON object looks like a Gemini `GenerateContentResponse` chunk.
pub fn is_gemini_chunk(v: &Value) -> bool {
    v.get("candidates").is_some_and(Value::is_array)
        || v.get("usageMetadata").is_some_and(Value::is_object)
        || v.get("promptFeedback").is_some_and(Value::is_object)
}

/// Reads a Gemini `usageMetadata` object.
pub fn usage(v: &Value) -> Option<Usage> {
    v.as_object()?;
    let candidates = as_count(v.get("candidatesTokenCount"));
    let thoughts = as_count(v.get("thoughtsTokenCount"));
    let completion = checked_sum(&[candidates, thoughts]);
    let u = Usage {
        prompt_tokens: as_count(v.get("promptTokenCount")),
        completion_tokens: completion,
        total_tokens: as_count(v.get("totalTokenCount")),
        cached_tokens: as_count(v.get("cachedContentTokenCount")),
        reasoning_tokens: thoughts,
        ..Usage::default()
    };
    (!u.is_empty()).then_some(u)
}

/// Reads the facts of one Gemini chunk (a parsed JSON object).
pub fn chunk_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    if let Some(msg) = error_message(v) {
        kinds.push(EventKind::StreamError(msg));
    }
    if let Some(reason) = v
        .pointer("/promptFeedback/blockReason")
        .and_then(Value::as_str)
    {
        kinds.push(EventKind::StreamError(format!(
            "the prompt was blocked ({reason})"
        )));
    }
    let candidate = v
        .get("candidates")
        .and_then(Value::as_array)
        .and_then(|c| c.first());
    let mut tools = Vec::new();
    if let Some(candidate) = candidate {
        let (mut thought, mut text, mut calls) = (String::new(), String::new(), String::new());
        let parts = candidate
            .pointer("/content/parts")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for part in parts {
            if let Some(call) = part.get("functionCall") {
                calls.push_str(&call.get("args").unwrap_or(&Value::Null).to_string());
                tools.extend(non_empty_str(call.get("name")));
            }
            if let Some(t) = part.get("text").and_then(Value::as_str) {
                if part.get("thought").and_then(Value::as_bool) == Some(true) {
                    thought.push_str(t);
                } else {
                    text.push_str(t);
                }
            }
        }
        if !thought.is_empty() {
            kinds.push(EventKind::Reasoning(thought));
        }
        if !text.is_empty() {
            kinds.push(EventKind::Content(text));
        }
        if !calls.is_empty() {
            kinds.push(EventKind::ToolArgs(calls));
        }
        let finish = candidate
            .get("finishReason")
            .and_then(Value::as_str)
            .and_then(stop_reason::from_gemini);
        kinds.extend(finish.map(EventKind::Finish));
    }
    let mut reported = None;
    ChunkFacts::push_usage(&mut kinds, &mut reported, v.get("usageMetadata").and_then(usage));
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::dialect::StopReason;
    use serde_json::json;

    fn kinds(v: Value) -> Vec<EventKind> {
        chunk_facts(&v).kinds
    }

    #[test]
    fn a_function_call_is_tool_args() {
        let v = json!({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}}]},"finishReason":"STOP"}]});
        let k = chunk_facts(&v).kinds;
        assert_eq!(k[0], EventKind::ToolArgs("{\"city\":\"Paris\"}".into()));
    }

    #[test]
    fn text_and_thought_parts() {
        let v = json!({"candidates":[{"content":{"role":"model","parts":[
            {"text":"Considering","thought":true},{"text":"Hi"},{"text":" there"}]},"index":0}],
            "usageMetadata":{"promptTokenCount":8},"modelVersion":"gemini-2.5-flash"});
        assert!(is_gemini_chunk(&v));
        let k = kinds(v);
        assert_eq!(k[0], EventKind::Reasoning("Considering".into()));
        assert_eq!(k[1], EventKind::Content("Hi there".into()));
        assert_eq!(k[2], EventKind::Usage);
    }

    #[test]
    fn finish_reason_and_final_usage() {
        let v = json!({"candidates":[{"content":{"parts":[{"text":"."}]},"finishReason":"MAX_TOKENS"}],
            "usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":20,"thoughtsTokenCount":30,
            "cachedContentTokenCount":64,"totalTokenCount":150}});
        let facts = chunk_facts(&v);
        match (&facts.kinds[..], facts.usage) {
            ([EventKind::Content(_), EventKind::Finish(f), EventKind::Usage], Some(u)) => {
                assert_eq!(*f, StopReason::Length);
                assert_eq!(
                    (
                        u.prompt_tokens,
                        u.completion_tokens,
                        u.reasoning_tokens,
                        u.cached_tokens
                    ),
                    (Some(100), Some(50), Some(30), Some(64))
                );
                assert_eq!(u.answer_tokens(), Some(20));
            }
            (other, _) => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn blocked_prompt_and_error_object() {
        assert_eq!(
            kinds(json!({"promptFeedback":{"blockReason":"SAFETY"}})),
            vec![EventKind::StreamError(
                "the prompt was blocked (SAFETY)".into()
            )]
        );
        assert_eq!(
            kinds(
                json!({"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}})
            ),
            vec![EventKind::StreamError(
                "Resource exhausted (code: 429)".into()
            )]
        );
        assert!(!is_gemini_chunk(&json!({"error":{}})));
    }

    #[test]
    fn empty_candidate_is_empty() {
        assert_eq!(
            kinds(json!({"candidates":[{"content":{"parts":[{"text":""}]}}]})),
            vec![EventKind::Empty]
        );
    }
}
