//! Adapter for Ollama JSON lines (`/api/chat` and `/api/generate`): one parsed line in, facts out.
//!
//! `message.content` (chat) or `response` (generate) is answer text, `message.thinking` / `thinking` is
//! reasoning text, `done: true` ends generation (`done_reason`, default `stop`) and carries the counters
//! `prompt_eval_count` / `eval_count` (reported as prompt / completion tokens), `error` is an error.

use serde_json::Value;

use super::{names_at, stop_reason, EventKind};
use super::openai::error_message;
use super::ChunkFacts;
use super::usage::{as_count, Usage};

/// Whether a JSON object looks like an Ollama stream line.
pub fn is_ollama_line(v: &Value) -> bool {
    v.get("message").is_some_and(Value::is_object)
        || v.get("response").is_some()
        || v.get("done").is_some()
}

/// Reads the facts of one Ollama line (a parsed JSON object).
pub fn line_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    if let Some(msg) = error_message(v) {
        kinds.push(EventKind::StreamError(msg));
    }
    let text_at = |paths: &[&str]| {
        paths
            .iter()
            .find_map(|p| {
                v.pointer(p)
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
            })
            .map(str::to_string)
    };
    if let Some(r) = text_at(&["/message/thinking", "/thinking"]) {
        kinds.push(EventKind::Reasoning(r));
    }
    if let Some(c) = text_at(&["/message/content", "/response"]) {
        kinds.push(EventKind::Content(c));
    }
    if let Some(calls) = v.pointer("/message/tool_calls").and_then(Value::as_array).filter(|c| !c.is_empty()) {
        let args: String = calls.iter().map(|c| c.pointer("/function/arguments").unwrap_or(&Value::Null).to_string()).collect();
        kinds.push(EventKind::ToolArgs(args));
    }
    if v.get("done").and_then(Value::as_bool) == Some(true) {
        let reason = v
            .get("done_reason")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .unwrap_or("stop");
        kinds.push(EventKind::Finish(stop_reason::from_openai(reason)));
        let u = Usage::of_counts(as_count(v.get("prompt_eval_count")), as_count(v.get("eval_count")));
        ChunkFacts::push_usage(&mut kinds, &mut reported, u);
    }
    ChunkFacts::of(kinds, v, None)
        .with_usage(reported)
        .with_tool_names(names_at(v.pointer("/message/tool_calls"), "/function/name"))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::dialect::StopReason;
    use serde_json::json;

    #[test]
    fn tool_calls_are_tool_args() {
        let v = json!({"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false});
        assert_eq!(line_facts(&v).kinds, vec![EventKind::ToolArgs("{\"city\":\"Paris\"}".into())]);
    }

    #[test]
    fn chat_and_generate_content() {
        let chat = json!({"model":"m","message":{"role":"assistant","content":"Hi"},"done":false});
        assert!(is_ollama_line(&chat));
        assert_eq!(
            line_facts(&chat).kinds,
            vec![EventKind::Content("Hi".into())]
        );
        let gen = json!({"model":"m","response":"Yo","done":false});
        assert_eq!(
            line_facts(&gen).kinds,
            vec![EventKind::Content("Yo".into())]
        );
    }

    #[test]
    fn thinking_is_reasoning() {
        let v = json!({"message":{"role":"assistant","content":"","thinking":"hmm"},"done":false});
        assert_eq!(
            line_facts(&v).kinds,
            vec![EventKind::Reasoning("hmm".into())]
        );
    }

    #[test]
    fn done_line_carries_finish_and_usage() {
        let v = json!({"message":{"role":"assistant","content":""},"done":true,"done_reason":"length",
            "prompt_eval_count":26,"eval_count":290});
        let facts = line_facts(&v);
        assert_eq!(facts.kinds, vec![EventKind::Finish(StopReason::Length), EventKind::Usage]);
        let u = facts.usage.expect("usage");
        assert_eq!((u.prompt_tokens, u.completion_tokens, u.total_tokens), (Some(26), Some(290), Some(316)));
    }

    #[test]
    fn empty_line_and_error() {
        assert_eq!(
            line_facts(&json!({"response":"","done":false})).kinds,
            vec![EventKind::Empty]
        );
        assert_eq!(
            line_facts(&json!({"error":"model not found"})).kinds,
            vec![EventKind::StreamError("model not found".into())]
        );
        assert!(!is_ollama_line(&json!({"error":"x"})));
    }
}
