//! The token-level events the analyzer extracts from a stream, whatever its framing and dialect.

use serde::{Deserialize, Serialize};

use crate::usage::Usage;

/// What one event carried.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum EventKind {
    /// Non-empty answer text: a token (or several) the user sees.
    Content(String),
    /// Non-empty reasoning ("thinking") text.
    Reasoning(String),
    /// A chunk that only announced the role (`delta: {"role": "assistant"}`), not a token.
    RoleOnly,
    /// A chunk with nothing in it (empty delta, empty data).
    Empty,
    /// An SSE comment line, usually a keep-alive.
    KeepAlive,
    /// Token usage reported by the server.
    Usage(Usage),
    /// Why generation stopped, in OpenAI's words (`stop`, `length`, ...; see [`crate::stop_reason`]).
    Finish(String),
    /// The dialect's end marker (`[DONE]`, Responses `response.completed`, Anthropic `message_stop`).
    Done,
    /// An error the server reported inside the stream.
    StreamError(String),
    /// A payload that should have been JSON and was not (truncated to 200 characters).
    Malformed(String),
}

impl EventKind {
    /// The snake_case name of the kind, as serialised.
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Content(_) => "content",
            EventKind::Reasoning(_) => "reasoning",
            EventKind::RoleOnly => "role_only",
            EventKind::Empty => "empty",
            EventKind::KeepAlive => "keep_alive",
            EventKind::Usage(_) => "usage",
            EventKind::Finish(_) => "finish",
            EventKind::Done => "done",
            EventKind::StreamError(_) => "stream_error",
            EventKind::Malformed(_) => "malformed",
        }
    }
}

/// One event with the time and the read it arrived in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StreamEvent {
    /// When the read that completed this event resolved, ms since `fetch()`.
    pub at_ms: f64,
    /// Which read (numbered from 0) completed this event.
    pub read_index: usize,
    /// What the event carried.
    pub kind: EventKind,
    /// The server's own send time for this event, when it reports one (the lab's `server_ms`).
    pub server_ms: Option<f64>,
}

impl StreamEvent {
    /// Whether this event carries answer text (counts for TTFT, TPOT and ITL).
    pub fn is_content(&self) -> bool {
        matches!(self.kind, EventKind::Content(_))
    }
}

/// The stream format detected from the messages (see DESIGN.md, automation contract).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// OpenAI chat-completions chunks (`choices[].delta`), over SSE or JSON lines.
    OpenaiChat,
    /// OpenAI Responses API events (`response.output_text.delta`, `response.completed`, ...).
    OpenaiResponses,
    /// Anthropic Messages events (`message_start`, `content_block_delta`, `message_stop`, ...).
    Anthropic,
    /// Gemini `streamGenerateContent?alt=sse` chunks (`candidates[].content.parts`, `usageMetadata`).
    Gemini,
    /// SSE whose data is plain text: each non-empty data is content.
    SseText,
    /// Ollama JSON lines (`message.content` or `response`, `done`).
    Ollama,
    /// Raw text: each read's text is content.
    Raw,
    /// Nothing decisive seen yet.
    #[default]
    Unknown,
}

impl Dialect {
    /// Whether the dialect's messages are JSON objects (every dialect but `sse-text`, `raw`, `unknown`).
    pub fn is_json(self) -> bool {
        !matches!(self, Dialect::SseText | Dialect::Raw | Dialect::Unknown)
    }

    /// The name used in reports (`openai-chat`, `openai-responses`, `anthropic`, `gemini`, `sse-text`,
    /// `ollama`, `raw`, `unknown`).
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::OpenaiChat => "openai-chat",
            Dialect::OpenaiResponses => "openai-responses",
            Dialect::Anthropic => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::SseText => "sse-text",
            Dialect::Ollama => "ollama",
            Dialect::Raw => "raw",
            Dialect::Unknown => "unknown",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_serde_names_follow_design() {
        for d in [
            Dialect::OpenaiChat,
            Dialect::OpenaiResponses,
            Dialect::Anthropic,
            Dialect::Gemini,
            Dialect::SseText,
            Dialect::Ollama,
            Dialect::Raw,
            Dialect::Unknown,
        ] {
            assert_eq!(
                serde_json::to_value(d).unwrap(),
                serde_json::Value::String(d.as_str().into())
            );
        }
    }

    #[test]
    fn event_kind_serialises_with_kind_tag() {
        let v = serde_json::to_value(EventKind::Content("hi".into())).unwrap();
        assert_eq!(v, serde_json::json!({"kind": "content", "value": "hi"}));
        let v = serde_json::to_value(EventKind::Done).unwrap();
        assert_eq!(v, serde_json::json!({"kind": "done"}));
        assert_eq!(EventKind::RoleOnly.name(), "role_only");
    }
}
