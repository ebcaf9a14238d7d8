//! Adapter for llama.cpp's own completion stream (`llama-server`'s `POST /completion` with `"stream": true`):
//! one SSE event in, token-level facts out.
//!
//! Each event is `{"content": "<token>", "stop": false, …}` (`reasoning_content` with a reasoning
//! format); the last one has `"stop": true`, why in `stop_type` (`eos` or `word` → `stop`, `limit` →
//! `length`), the tokens counted in `tokens_evaluated` (prompt) and `tokens_predicted` (answer), and ends
//! the stream. (llama-server's OpenAI-compatible `/v1/chat/completions` sends chat chunks, read as
//! `openai-chat`.)

use serde_json::Value;

use super::usage::{as_count, Usage};
use super::{non_empty_str, ChunkFacts, EventKind, StopReason};

/// Whether a JSON object is a llama.cpp completion event: a string `content` and a boolean `stop`.
pub fn is_llama_cpp_event(v: &Value) -> bool {
    v.get("content").is_some_and(Value::is_string) && v.get("stop").is_some_and(Value::is_boolean)
}

/// The stop reason for a llama.cpp `stop_type`.
fn stop_reason_of(stop_type: Option<&str>) -> StopReason {
    match stop_type {
        Some("limit") => StopReason::Length,
        _ => StopReason::Stop,
    }
}

/// Reads the facts of one llama.cpp event (a parsed JSON object).
pub fn event_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    if let Some(t) = non_empty_str(v.get("reasoning_content")) {
        kinds.push(EventKind::Reasoning(t));
    }
    if let Some(t) = non_empty_str(v.get("content")) {
        kinds.push(EventKind::Content(t));
    }
    let mut reported = None;
    if v.get("stop").and_then(Value::as_bool) == Some(true) {
        let stop = stop_reason_of(v.get("stop_type").and_then(Value::as_str));
        let usage = Usage::of_counts(as_count(v.get("tokens_evaluated")), as_count(v.get("tokens_predicted")));
        ChunkFacts::push_end(&mut kinds, &mut reported, Some(stop), usage);
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tokens_and_the_stop_event() {
        let token = json!({"index": 0, "content": " sky", "stop": false, "id_slot": 0});
        assert!(is_llama_cpp_event(&token));
        assert_eq!(event_facts(&token).kinds, vec![EventKind::Content(" sky".into())]);
        assert_eq!(
            event_facts(&json!({"content": "", "reasoning_content": "hm", "stop": false})).kinds,
            vec![EventKind::Reasoning("hm".into())]
        );
        let end = json!({"content": "", "stop": true, "stop_type": "limit", "tokens_evaluated": 12, "tokens_predicted": 64,
            "timings": {"predicted_n": 64}});
        let facts = event_facts(&end);
        assert_eq!(facts.kinds, vec![EventKind::Finish(StopReason::Length), EventKind::Usage, EventKind::Done]);
        assert_eq!(facts.usage.map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(12), Some(64))));
        assert_eq!(event_facts(&json!({"content": "", "stop": true, "stop_type": "eos"})).kinds[0], EventKind::Finish(StopReason::Stop));
        assert!(!is_llama_cpp_event(&json!({"content": "a"})) && !is_llama_cpp_event(&json!({"response": "a", "stop": false})));
    }
}
