//! Adapter for a stream of JSON events (or lines) that no other dialect claims but whose text is in a
//! field every hand-written backend uses (`{"token": "Hi"}`, `{"type": "chunk", "content": "Hi"}`,
//! KoboldCpp's `token`, Anthropic's legacy `completion`, Mistral's conversation deltas' `content`):
//! dialect `json-text`. Without it such a stream had no content at all and a healthy server was called `failed`.
//!
//! The text is the first of [`TEXT_FIELDS`] that is a string, in that order. A stream that sends the whole
//! text so far in every event instead of what is new is read as such: a value that starts with all the
//! text read so far (two characters at least) adds only what follows it ([`new_text`]). `finish_reason`
//! (OpenAI's words) or `stop_reason` (Anthropic's) says why it stopped, `usage` the counts (OpenAI's
//! fields), `done: true` or `[DONE]` the end, and an `error` a stream error. In SSE, any other dialect
//! that a later event reveals takes over (`Analysis`'s reading of an event); not in JSON lines, where
//! Ollama's lines are told by fields (`done`, `response`) a hand-written line may have too.

use serde_json::Value;

use super::usage::Usage;
use super::{openai, stop_reason, ChunkFacts, EventKind};

/// The fields a hand-written stream puts its text in, in the order they are looked for.
pub const TEXT_FIELDS: [&str; 9] = ["content", "text", "token", "delta", "completion", "answer", "output", "response", "chunk"];

/// The text field of an event: the first of [`TEXT_FIELDS`] that is a string.
fn text_of(v: &Value) -> Option<&str> {
    TEXT_FIELDS.iter().find_map(|field| v.get(field).and_then(Value::as_str))
}

/// Whether a JSON object that no other dialect claims carries text in one of [`TEXT_FIELDS`] (not
/// empty) and is not an error.
pub fn is_json_text_event(v: &Value) -> bool {
    v.get("error").is_none() && text_of(v).is_some_and(|text| !text.is_empty())
}

/// Reads the facts of one event: its text as it came (a stream that repeats the whole text is read by
/// [`new_text`]), its stop reason, counts and end, or its error.
pub fn event_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    if let Some(message) = openai::error_message(v) {
        kinds.push(EventKind::StreamError(message));
    } else if let Some(text) = text_of(v).filter(|t| !t.is_empty()) {
        kinds.push(EventKind::Content(text.to_string()));
    }
    let non_empty = |field: &str| v.get(field).and_then(Value::as_str).filter(|r| !r.is_empty());
    if let Some(reason) = non_empty("finish_reason") {
        kinds.push(EventKind::Finish(stop_reason::from_openai(reason)));
    } else if let Some(reason) = non_empty("stop_reason") {
        kinds.push(EventKind::Finish(stop_reason::from_anthropic(reason)));
    }
    let mut reported = None;
    ChunkFacts::push_usage(&mut kinds, &mut reported, v.get("usage").and_then(Usage::from_openai));
    if v.get("done").and_then(Value::as_bool) == Some(true) {
        kinds.push(EventKind::Done);
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported)
}

/// What `value` adds to the text read so far, `so_far`: what follows it when `value` repeats all of it
/// (a stream of the whole text so far; `so_far` two characters at least, so that a short first token is
/// never taken for the start of the next), else all of `value`.
pub fn new_text<'a>(value: &'a str, so_far: &str) -> &'a str {
    if so_far.chars().nth(1).is_some() && value.len() > so_far.len() && value.starts_with(so_far) {
        &value[so_far.len()..]
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::StopReason;
    use serde_json::json;

    #[test]
    fn text_in_a_common_field_usage_stop_and_end() {
        assert!(is_json_text_event(&json!({"token": "Hi", "finish_reason": null})));
        assert!(is_json_text_event(&json!({"type": "chunk", "content": "Hi"})));
        for not_text in [json!({"token": ""}), json!({"run_id": "r"}), json!({"error": "x", "text": "y"}), json!({"content": 3})] {
            assert!(!is_json_text_event(&not_text), "{not_text}");
        }
        assert_eq!(event_facts(&json!({"type": "chunk", "content": "Hi", "text": "no"})).kinds, vec![EventKind::Content("Hi".into())]);
        let last = json!({"token": ".", "finish_reason": "length", "usage": {"prompt_tokens": 4, "completion_tokens": 9}, "done": true});
        let facts = event_facts(&last);
        assert_eq!(facts.kinds, vec![EventKind::Content(".".into()), EventKind::Finish(StopReason::Length), EventKind::Usage, EventKind::Done]);
        assert_eq!(facts.usage.map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(4), Some(9))));
        assert_eq!(event_facts(&json!({"completion": " world", "stop_reason": "stop_sequence"})).kinds,
            vec![EventKind::Content(" world".into()), EventKind::Finish(StopReason::Stop)]);
        assert_eq!(event_facts(&json!({"error": {"message": "overloaded"}})).kinds, vec![EventKind::StreamError("overloaded".into())]);
        assert_eq!(event_facts(&json!({"type": "done"})).kinds, vec![EventKind::Empty]);
    }

    #[test]
    fn a_stream_of_the_whole_text_so_far_adds_what_follows() {
        assert_eq!(new_text("Hello world", "Hello"), " world");
        // Each token as it came: a delta stream, or too little read to tell.
        assert_eq!(new_text(" world", "Hello"), " world");
        assert_eq!(new_text("He", "H"), "He");
        assert_eq!(new_text("Hello", "Hello"), "Hello");
        assert_eq!(new_text("héllo", "hé"), "llo");
    }
}
