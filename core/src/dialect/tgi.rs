//! Adapter for Hugging Face Text Generation Inference's own stream (`POST /generate_stream`): one SSE
//! event in, token-level facts out.
//!
//! Each event is `{"index": n, "token": {"id", "text", "logprob", "special"}, "generated_text": null,
//! "details": null}`. A `special` token (`</s>`, `<|eot_id|>`) is not text the user sees. The last event
//! has the whole answer in `generated_text` (a string) and, when the request asked for `details`, why it
//! stopped (`details.finish_reason`: `length`, `eos_token`, `stop_sequence`) and the answer's tokens
//! (`generated_tokens`; newer servers also `input_length` or `prompt_tokens`). Nothing follows it. An
//! error arrives as `{"error": "…", "error_type": "…"}`. (TGI's OpenAI-compatible `/v1/chat/completions`
//! sends chat chunks, read as `openai-chat`.)
//!
//! `POST /generate` does not stream: its one JSON object is the last event without a `token`, the whole
//! answer in `generated_text` (Hugging Face's Inference API sends it in an array). It is read as one
//! piece of text, so that the page shows a server that answered at once as such, not as one that failed.

use serde_json::Value;

use super::usage::{as_count, Usage};
use super::{non_empty_str, openai, ChunkFacts, EventKind, StopReason};

/// Whether a JSON object is a TGI stream event (a `token` object with a string `text`, and the
/// `generated_text` key, null until the last event) or `/generate`'s whole answer.
pub fn is_tgi_event(v: &Value) -> bool {
    v.get("token").and_then(|t| t.get("text")).is_some_and(Value::is_string) && v.get("generated_text").is_some()
        || is_whole_answer(v)
}

/// Whether a JSON object is `/generate`'s answer: `generated_text` a string, and no `token`.
fn is_whole_answer(v: &Value) -> bool {
    v.get("token").is_none() && v.get("generated_text").is_some_and(Value::is_string)
}

/// The stop reason for a TGI `finish_reason`.
fn stop_reason_of(reason: &str) -> StopReason {
    match reason {
        "eos_token" | "stop_sequence" => StopReason::Stop,
        other => StopReason::from_name(other),
    }
}

/// Reads the facts of one TGI event (a parsed JSON object).
pub fn event_facts(v: &Value) -> ChunkFacts {
    let mut kinds = Vec::new();
    if let Some(msg) = openai::error_message(v) {
        kinds.push(EventKind::StreamError(msg));
    }
    let token = v.get("token");
    let special = token.and_then(|t| t.get("special")).and_then(Value::as_bool) == Some(true);
    if let Some(text) = non_empty_str(token.and_then(|t| t.get("text"))).filter(|_| !special) {
        kinds.push(EventKind::Content(text));
    }
    if is_whole_answer(v) {
        kinds.extend(non_empty_str(v.get("generated_text")).map(EventKind::Content));
    }
    let mut reported = None;
    if v.get("generated_text").is_some_and(Value::is_string) {
        let details = v.get("details");
        let stop = details.and_then(|d| d.get("finish_reason")).and_then(Value::as_str).map(stop_reason_of);
        let usage = details.and_then(|d| {
            let prompt = as_count(d.get("input_length")).or_else(|| as_count(d.get("prompt_tokens")));
            Usage::of_counts(prompt, as_count(d.get("generated_tokens")))
        });
        ChunkFacts::push_end(&mut kinds, &mut reported, stop, usage);
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tokens_special_tokens_and_the_last_event() {
        let token = json!({"index": 1, "token": {"id": 9509, "text": " Deep", "logprob": -0.5, "special": false},
            "generated_text": null, "details": null});
        assert!(is_tgi_event(&token));
        assert_eq!(event_facts(&token).kinds, vec![EventKind::Content(" Deep".into())]);
        let end = json!({"index": 3, "token": {"id": 128001, "text": "<|eot_id|>", "special": true},
            "generated_text": "Deep learning", "details": {"finish_reason": "eos_token", "generated_tokens": 3, "seed": null}});
        let facts = event_facts(&end);
        assert_eq!(facts.kinds, vec![EventKind::Finish(StopReason::Stop), EventKind::Usage, EventKind::Done]);
        assert_eq!(facts.usage.map(|u| (u.prompt_tokens, u.completion_tokens)), Some((None, Some(3))));
        // The last token of an answer cut at the limit is text; without `details` nothing says why it stopped.
        let limit = json!({"token": {"text": " is", "special": false}, "generated_text": "Deep learning is",
            "details": {"finish_reason": "length", "generated_tokens": 3, "input_length": 7}});
        let facts = event_facts(&limit);
        assert_eq!(facts.kinds[..2], [EventKind::Content(" is".into()), EventKind::Finish(StopReason::Length)]);
        assert_eq!(facts.usage.and_then(|u| u.prompt_tokens), Some(7));
        // `/generate`: the whole answer at once, its text the content (a stream's last event repeats it).
        let whole = json!({"generated_text": "Deep learning is", "details": {"finish_reason": "length", "generated_tokens": 3}});
        assert!(is_tgi_event(&whole) && !is_tgi_event(&json!({"generated_text": null})));
        let facts = event_facts(&whole);
        assert_eq!(facts.kinds[..2], [EventKind::Content("Deep learning is".into()), EventKind::Finish(StopReason::Length)]);
        assert_eq!(event_facts(&json!({"generated_text": "Hi"})).kinds, vec![EventKind::Content("Hi".into()), EventKind::Done]);
        let bare = json!({"token": {"text": ".", "special": false}, "generated_text": "x.", "details": null});
        assert_eq!(event_facts(&bare).kinds, vec![EventKind::Content(".".into()), EventKind::Done]);
        assert_eq!(
            event_facts(&json!({"error": "Request failed during generation: Server error: CUDA out of memory", "error_type": "generation"})).kinds,
            vec![EventKind::StreamError("Request failed during generation: Server error: CUDA out of memory".into())]
        );
        // A llama.cpp event is not TGI's, nor a token without `generated_text`.
        assert!(!is_tgi_event(&json!({"content": "a", "stop": false})));
        assert!(!is_tgi_event(&json!({"token": {"text": "a"}})));
    }
}
