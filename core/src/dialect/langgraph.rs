//! Adapter for LangGraph's run streams (LangGraph Server / LangSmith Deployment, `POST
//! /threads/{id}/runs/stream` or `/runs/stream` with `stream_mode` `messages-tuple`): one SSE event in,
//! token-level facts out.
//!
//! The SSE event name says what the data is: `messages` (or `messages|<subgraph>`) carries a pair
//! `[message chunk, metadata]`, whose chunk of an AI message (`type` `AIMessageChunk` or `ai`) holds the
//! new text in `content` (a string, or a list of blocks: `text`, and `thinking` / `reasoning` for
//! reasoning), a tool call's arguments in `tool_call_chunks[].args`, the counts in `usage_metadata`
//! and the stop reason in `response_metadata` (`finish_reason`, OpenAI's words, or `stop_reason`,
//! Anthropic's); the user's and the tools' messages echoed there are not the answer. `end` ends the run
//! (its data is `null`), `error` reports one. `metadata`, `values`, `updates`, `custom` and the
//! heartbeat comments carry no token.
//!
//! With `stream_mode` `messages` (older servers' and SDKs' default) the events are `messages/partial`
//! and `messages/complete`, whose data is a list of messages, each the whole message so far: the new
//! text is what follows what an earlier event of the same message said ([`accumulated_facts`]); the
//! complete message says the counts and the stop reason. `messages/metadata` carries no token.

use serde_json::Value;

use super::usage::{as_count, Usage};
use super::{names_at, non_empty_str, stop_reason, ChunkFacts, EventKind};

/// Whether an SSE event name is LangGraph's `messages` (a subgraph's is `messages|<namespace>`).
pub(crate) fn is_messages(event: Option<&str>) -> bool {
    event.is_some_and(|e| e == "messages" || e.starts_with("messages|"))
}

/// Whether an SSE event name is `messages/partial` or `messages/complete` (`stream_mode` `messages`),
/// whose messages are the whole message so far.
pub(crate) fn is_accumulated(event: Option<&str>) -> bool {
    matches!(event, Some("messages/partial" | "messages/complete"))
}

/// Whether an event is a LangGraph message chunk: a `messages` (or `messages/partial`,
/// `messages/complete`) event whose data is an array starting with a message (an object with a `type`).
pub fn is_langgraph_event(v: &Value, event: Option<&str>) -> bool {
    (is_messages(event) || is_accumulated(event)) && v.get(0).and_then(|m| m.get("type")).is_some_and(Value::is_string)
}

/// Whether an event ends a LangGraph run (`event: end`, whose data is `null`).
pub fn is_end(event: Option<&str>) -> bool {
    event == Some("end")
}

/// Reads the facts of one LangGraph event (its parsed data and its SSE event name).
pub fn event_facts(v: &Value, event: Option<&str>) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    let mut tools = Vec::new();
    if event == Some("error") {
        let message = non_empty_str(v.get("message")).or_else(|| non_empty_str(v.get("error")));
        kinds.push(EventKind::stream_error(message));
    } else if is_messages(event) {
        tools = ai_message_facts(v.get(0).unwrap_or(&Value::Null), &mut kinds, &mut reported);
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

/// Whether a message is a chunk of the AI's answer (`type` `AIMessageChunk` or `ai`), not the user's or a
/// tool's message echoed back.
pub(crate) fn is_ai_message_chunk(message: &Value) -> bool {
    matches!(message.get("type").and_then(Value::as_str), Some("AIMessageChunk" | "ai"))
}

/// Reads an AI message chunk into `kinds` and `reported` and returns the names of the tools it calls;
/// nothing for another message (the user's or a tool's, echoed). LangServe's chunks too:
/// [`super::langserve`].
pub(crate) fn ai_message_facts(message: &Value, kinds: &mut Vec<EventKind>, reported: &mut Option<Usage>) -> Vec<String> {
    if !is_ai_message_chunk(message) {
        return Vec::new();
    }
    // A chunk is all new.
    new_parts(message, &mut Seen::default(), kinds);
    counts_and_stop(message, kinds, reported);
    // A tool call's first chunk names the tool (later ones carry `name: null`).
    names_at(message.get("tool_call_chunks"), "/name")
}

/// How much of one message `messages/partial` events said so far: the bytes of its text, reasoning and
/// tool-call arguments already read.
#[derive(Debug, Clone, Default, PartialEq)]
struct Seen {
    content_bytes: usize,
    reasoning_bytes: usize,
    args_bytes: usize,
}

/// What `messages/partial` events said so far of the last [`MESSAGES_FOLLOWED`] messages, by id (two
/// nodes of a graph can stream their messages at the same time, their events interleaved).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Accumulated {
    messages: Vec<(String, Seen)>,
    /// The bytes the events repeated of what earlier events of the same message said.
    pub repeated_bytes: usize,
}

/// How many messages [`Accumulated`] follows at once (the oldest is forgotten: read whole if it comes
/// back).
pub const MESSAGES_FOLLOWED: usize = 16;

impl Accumulated {
    /// What was seen of the message `id` (nothing yet for a new one).
    fn of(&mut self, id: &str) -> &mut Seen {
        let at = match self.messages.iter().position(|(known, _)| known == id) {
            Some(at) => at,
            None => {
                if self.messages.len() == MESSAGES_FOLLOWED {
                    self.messages.remove(0);
                }
                self.messages.push((id.to_string(), Seen::default()));
                self.messages.len() - 1
            }
        };
        &mut self.messages[at].1
    }
}

/// Reads a `messages/partial` or `messages/complete` event: of each AI message in its list, the text,
/// reasoning and tool-call arguments that follow what `seen` holds of the same message (by id), and the
/// counts and stop reason of a complete one.
pub fn accumulated_facts(v: &Value, event: Option<&str>, seen: &mut Accumulated) -> ChunkFacts {
    let mut kinds = Vec::new();
    let mut reported = None;
    let mut tools = Vec::new();
    for message in v.as_array().into_iter().flatten().filter(|m| is_ai_message_chunk(m)) {
        let id = message.get("id").and_then(Value::as_str).unwrap_or_default();
        let repeated = new_parts(message, seen.of(id), &mut kinds);
        seen.repeated_bytes += repeated;
        tools.extend(names_at(message.get("tool_call_chunks"), "/name"));
        if event == Some("messages/complete") {
            counts_and_stop(message, &mut kinds, &mut reported);
        }
    }
    ChunkFacts::of(kinds, v, None).with_usage(reported).with_tool_names(tools)
}

/// The reasoning, the text and the tool-call arguments (`tool_call_chunks[].args`) of an AI message that
/// follow what `seen` holds, into `kinds`; how many bytes of them `seen` held (were said again).
fn new_parts(message: &Value, seen: &mut Seen, kinds: &mut Vec<EventKind>) -> usize {
    let (content, reasoning) = texts(message.get("content"));
    let mut args = String::new();
    for call in message.get("tool_call_chunks").and_then(Value::as_array).into_iter().flatten() {
        args.push_str(call.get("args").and_then(Value::as_str).unwrap_or_default());
    }
    let mut repeated = 0;
    kinds.extend(new_part(&reasoning, &mut seen.reasoning_bytes, &mut repeated).map(EventKind::Reasoning));
    kinds.extend(new_part(&content, &mut seen.content_bytes, &mut repeated).map(EventKind::Content));
    kinds.extend(new_part(&args, &mut seen.args_bytes, &mut repeated).map(EventKind::ToolArgs));
    repeated
}

/// What `whole` says after the `seen` bytes read before (all of it when it no longer starts there), and
/// `seen` moved to its end; `None` when nothing is new. The bytes said again are added to `repeated`.
fn new_part(whole: &str, seen: &mut usize, repeated: &mut usize) -> Option<String> {
    let new = match whole.get(*seen..) {
        Some(rest) => {
            *repeated += *seen;
            rest
        }
        None => whole,
    };
    *seen = whole.len();
    (!new.is_empty()).then(|| new.to_string())
}

/// The text and the reasoning of a message's `content`: a string, or the `text` and the `thinking` /
/// `reasoning` blocks of a list.
fn texts(content: Option<&Value>) -> (String, String) {
    let (mut text, mut reasoning) = (String::new(), String::new());
    match content {
        Some(Value::Array(blocks)) => {
            for block in blocks {
                match block.get("type").and_then(Value::as_str) {
                    Some("text") => text.push_str(block.get("text").and_then(Value::as_str).unwrap_or_default()),
                    Some(kind @ ("thinking" | "reasoning")) => reasoning.push_str(block.get(kind).and_then(Value::as_str).unwrap_or_default()),
                    _ => {}
                }
            }
        }
        Some(Value::String(s)) => text.push_str(s),
        _ => {}
    }
    (text, reasoning)
}

/// The usage (`usage_metadata`) and the stop reason (`response_metadata`) a message says.
fn counts_and_stop(chunk: &Value, kinds: &mut Vec<EventKind>, reported: &mut Option<Usage>) {
    let usage = chunk.get("usage_metadata");
    let counts = Usage::of_counts(as_count(usage.and_then(|u| u.get("input_tokens"))), as_count(usage.and_then(|u| u.get("output_tokens"))));
    ChunkFacts::push_usage(kinds, reported, counts);
    let meta = chunk.get("response_metadata");
    if let Some(reason) = meta.and_then(|m| m.get("finish_reason")).and_then(Value::as_str).filter(|r| !r.is_empty()) {
        kinds.push(EventKind::Finish(stop_reason::from_openai(reason)));
    } else if let Some(reason) = meta.and_then(|m| m.get("stop_reason")).and_then(Value::as_str).filter(|r| !r.is_empty()) {
        kinds.push(EventKind::Finish(stop_reason::from_anthropic(reason)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::StopReason;
    use serde_json::json;

    fn kinds(v: Value, event: &str) -> Vec<EventKind> {
        event_facts(&v, Some(event)).kinds
    }

    #[test]
    fn ai_chunks_are_the_answer_and_echoed_messages_are_not() {
        let meta = json!({"langgraph_node": "agent", "run_id": "r"});
        let chunk = json!([{"content": "Hello", "type": "AIMessageChunk", "id": "lc_run--1", "tool_call_chunks": []}, meta]);
        assert!(is_langgraph_event(&chunk, Some("messages")) && is_langgraph_event(&chunk, Some("messages|sub:1")));
        assert!(!is_langgraph_event(&chunk, Some("values")) && !is_langgraph_event(&json!({"type": "x"}), Some("messages")));
        assert_eq!(kinds(chunk, "messages"), vec![EventKind::Content("Hello".into())]);
        assert_eq!(kinds(json!([{"content": "Hi", "type": "ai"}, {}]), "messages|sub"), vec![EventKind::Content("Hi".into())]);
        for echoed in ["human", "tool", "HumanMessageChunk"] {
            assert_eq!(kinds(json!([{"content": "question", "type": echoed}, {}]), "messages"), vec![EventKind::Empty], "{echoed}");
        }
        let blocks = json!([{"type": "AIMessageChunk", "content": [{"type": "thinking", "thinking": "hm", "index": 0},
            {"type": "text", "text": "Yes", "index": 1}, {"type": "input_json_delta", "partial_json": "{\"", "index": 2}]}, {}]);
        assert_eq!(kinds(blocks, "messages"), vec![EventKind::Reasoning("hm".into()), EventKind::Content("Yes".into())]);
        let tool = json!([{"type": "AIMessageChunk", "content": "", "tool_call_chunks": [{"name": "search", "args": "{\"q\":", "index": 0}]}, {}]);
        assert_eq!(kinds(tool, "messages"), vec![EventKind::ToolArgs("{\"q\":".into())]);
    }

    #[test]
    fn accumulated_messages_say_only_what_is_new() {
        let mut seen = Accumulated::default();
        let mut read = |v: Value, event: &str| accumulated_facts(&v, Some(event), &mut seen).kinds;
        let message = |content: Value, args: &str| json!([{"type": "ai", "id": "run-1", "content": content,
            "tool_call_chunks": [{"name": "search", "args": args, "index": 0}], "response_metadata": {}}]);
        assert!(is_langgraph_event(&message(json!(""), ""), Some("messages/partial")) && is_accumulated(Some("messages/complete")));
        assert_eq!(read(message(json!("Hel"), ""), "messages/partial"), vec![EventKind::Content("Hel".into())]);
        assert_eq!(read(message(json!("Hello"), "{\"q"), "messages/partial"),
            vec![EventKind::Content("lo".into()), EventKind::ToolArgs("{\"q".into())]);
        // Nothing new, then blocks: the reasoning and the text each from where they were.
        assert_eq!(read(message(json!("Hello"), "{\"q"), "messages/partial"), vec![EventKind::Empty]);
        let blocks = json!([{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "Hello!"}]);
        assert_eq!(read(message(blocks, "{\"q"), "messages/partial"),
            vec![EventKind::Reasoning("hm".into()), EventKind::Content("!".into())]);
        // The complete message: its counts and stop reason; a user's message echoed is not the answer.
        let complete = json!([{"type": "human", "id": "h", "content": "question"},
            {"type": "ai", "id": "run-1", "content": "Hello!", "usage_metadata": {"input_tokens": 3, "output_tokens": 2},
             "response_metadata": {"finish_reason": "stop"}}]);
        assert_eq!(read(complete, "messages/complete"), vec![EventKind::Usage, EventKind::Finish(StopReason::Stop)]);
        // Another message starts from nothing, and the first goes on where it was (two nodes streaming at
        // once); a message that shrank is read whole.
        assert_eq!(read(json!([{"type": "ai", "id": "run-2", "content": "Hi"}]), "messages/partial"), vec![EventKind::Content("Hi".into())]);
        assert_eq!(read(json!([{"type": "ai", "id": "run-1", "content": "Hello! Yes"}]), "messages/partial"), vec![EventKind::Content(" Yes".into())]);
        assert_eq!(read(json!([{"type": "ai", "id": "run-2", "content": "H"}]), "messages/partial"), vec![EventKind::Content("H".into())]);
    }

    #[test]
    fn at_most_so_many_messages_are_followed() {
        let mut seen = Accumulated::default();
        for i in 0..=MESSAGES_FOLLOWED {
            accumulated_facts(&json!([{"type": "ai", "id": format!("m{i}"), "content": "ab"}]), Some("messages/partial"), &mut seen);
        }
        assert_eq!(seen.messages.len(), MESSAGES_FOLLOWED);
        // The first was forgotten: read whole again.
        let again = accumulated_facts(&json!([{"type": "ai", "id": "m0", "content": "abc"}]), Some("messages/partial"), &mut seen);
        assert_eq!(again.kinds, vec![EventKind::Content("abc".into())]);
    }

    #[test]
    fn the_last_chunk_s_usage_and_stop_reason_errors_and_bookkeeping() {
        let last = json!([{"type": "AIMessageChunk", "content": "", "chunk_position": "last",
            "usage_metadata": {"input_tokens": 12, "output_tokens": 7, "total_tokens": 19},
            "response_metadata": {"finish_reason": "length", "model_name": "gpt-4o-mini"}}, {}]);
        let facts = event_facts(&last, Some("messages"));
        assert_eq!(facts.kinds, vec![EventKind::Usage, EventKind::Finish(StopReason::Length)]);
        assert_eq!(facts.usage.and_then(|u| u.completion_tokens), Some(7));
        let anthropic = json!([{"type": "AIMessageChunk", "content": [], "response_metadata": {"stop_reason": "end_turn"}}, {}]);
        assert_eq!(kinds(anthropic, "messages"), vec![EventKind::Finish(StopReason::Stop)]);
        assert_eq!(kinds(json!({"error": "GraphRecursionError", "message": "Recursion limit reached"}), "error"),
            vec![EventKind::StreamError("Recursion limit reached".into())]);
        for bookkeeping in ["metadata", "values", "updates", "custom"] {
            assert_eq!(kinds(json!({"run_id": "r", "messages": [{"type": "ai", "content": "x"}]}), bookkeeping), vec![EventKind::Empty]);
        }
        assert!(is_end(Some("end")) && !is_end(Some("messages")));
    }
}
