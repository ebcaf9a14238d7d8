//! Adapter for Cloudflare Workers AI's own text-generation stream (`env.AI.run(model, {stream: true})`, or
//! `POST …/ai/run/@cf/…` with `"stream": true`): one SSE event in, token-level facts out.
//!
//! Each event is `{"response": "<token>", "p": "<padding>"}`; the last one before `[DONE]` carries an empty
//! `response` and the OpenAI-style `usage` (`prompt_tokens`, `completion_tokens`). `[DONE]` ends the
//! stream. There is no stop reason. (Workers AI's OpenAI-compatible endpoints send chat chunks, read as
//! `openai-chat`.)

use serde_json::Value;

use super::usage::Usage;
use super::{non_empty_str, ChunkFacts, EventKind};

/// Whether a JSON object is a Workers AI event: a string `response` (a Responses API event's `response`
/// is an object).
pub fn is_workers_ai_event(v: &Value) -> bool {
    v.get("response").is_some_and(Value::is_string)
}

/// Reads the facts of one Workers AI event (a parsed JSON object).
pub fn event_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    if let Some(text) = non_empty_str(v.get("response")) {
        kinds.push(EventKind::Content(text));
    }
    ChunkFacts::push_usage(&mut kinds, &mut reported, v.get("usage").and_then(Usage::from_openai));
    ChunkFacts::of(kinds, v, None).with_usage(reported)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tokens_and_the_closing_usage() {
        let token = json!({"response": " sky", "p": "abcdefgh"});
        assert!(is_workers_ai_event(&token));
        assert_eq!(event_facts(&token).kinds, vec![EventKind::Content(" sky".into())]);
        let end = json!({"response": "", "usage": {"prompt_tokens": 755, "completion_tokens": 10, "total_tokens": 765}});
        let facts = event_facts(&end);
        assert_eq!(facts.kinds, vec![EventKind::Usage]);
        assert_eq!(facts.usage.and_then(|u| u.completion_tokens), Some(10));
        assert_eq!(event_facts(&json!({"response": ""})).kinds, vec![EventKind::Empty]);
        // A Responses API event's `response` is an object, an Ollama line is not SSE.
        assert!(!is_workers_ai_event(&json!({"type": "response.created", "response": {}})));
    }
}
