//! Stream settings for `/v1/chat/completions`: query parameters first, then the JSON body, then defaults.
//!
//! | query | default | meaning |
//! |---|---|---|
//! | `tokens` | 50 | content events (capped by the body's `max_tokens`) |
//! | `cadence_ms` | 20 | time between content events (or `lab-<N>ms` as the body's `model`) |
//! | `first_ms` | 300 | request received → first content event |
//! | `pad` | 0 | bytes of padding in a `"pad"` string field of every JSON event |
//! | `role_first` | 1 | role-only chunk right away, before the first token |
//! | `usage` | 1 | final chunk with `usage`, before `data: [DONE]` |
//! | `mode` | `stream` | `stream`, `collect`, `raw`, `malformed`, `stall` |
//! | `stall_after` | 5 | content events before a `stall` goes silent |
//! | `status` | — | answer with this HTTP status (400-599) and an OpenAI error body |
//! | `ct` | — | `sse`: label `raw` mode `text/event-stream` |
//! | `split_utf8` | 0 | send each event holding a multi-byte character as two writes, 5 ms apart, split inside the character |

use serde_json::Value;

use crate::query::Query;

/// How the stream is delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Events at their scheduled times (a healthy streaming backend).
    Stream,
    /// Nothing until generation is over, then the whole SSE body with a `Content-Length`.
    Collect,
    /// Plain token text with no SSE framing.
    Raw,
    /// Good chunks mixed with broken JSON, invalid UTF-8 and a 1 MiB line.
    Malformed,
    /// A few events, then silence with the connection held open.
    Stall,
}

/// Everything that shapes one chat-completions response.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamSettings {
    /// Number of content events.
    pub tokens: usize,
    /// Time between content events.
    pub cadence_ms: u64,
    /// Delay from request to the first content event.
    pub first_ms: u64,
    /// Padding bytes added to each JSON event.
    pub pad_bytes: usize,
    /// Send a role-only chunk at t≈0.
    pub role_first: bool,
    /// Send a usage chunk at the end.
    pub usage: bool,
    /// Delivery mode.
    pub mode: Mode,
    /// Content events sent before a stall.
    pub stall_after: usize,
    /// Forced error status, if any.
    pub status: Option<u16>,
    /// Label raw text `text/event-stream`.
    pub raw_as_sse: bool,
    /// Split events inside a multi-byte character across two writes.
    pub split_utf8: bool,
    /// Model id echoed in every chunk.
    pub model: String,
    /// `false` when the body asked for `"stream": false`.
    pub stream: bool,
    /// Prompt size reported in `usage.prompt_tokens`.
    pub prompt_tokens: usize,
    /// Hash of the prompt, for the simulated prompt cache.
    pub prompt_hash: u64,
}

const MAX_TOKENS: usize = 100_000;
const MAX_DELAY_MS: u64 = 600_000;
const MAX_PAD_BYTES: usize = 16 * 1024 * 1024;

impl StreamSettings {
    /// Reads settings from the query and an optional JSON body; the error is a message for a 400.
    pub fn from_request(query: &Query, body: &[u8]) -> Result<Self, String> {
        let body: Value = if body.iter().all(u8::is_ascii_whitespace) {
            Value::Null
        } else {
            serde_json::from_slice(body)
                .map_err(|err| format!("request body is not valid JSON: {err}"))?
        };
        let model = body
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or("streamscope-lab")
            .to_string();
        let body_cadence_ms = model
            .strip_prefix("lab-")
            .and_then(|rest| rest.strip_suffix("ms"))
            .and_then(|n| n.parse::<u64>().ok());
        let max_tokens = body
            .get("max_tokens")
            .or_else(|| body.get("max_completion_tokens"))
            .and_then(Value::as_u64)
            .map(|n| n as usize);

        let tokens = number(query, "tokens", 50, MAX_TOKENS)?;
        let tokens = max_tokens.map_or(tokens, |cap| tokens.min(cap));
        let cadence_ms = match query.get("cadence_ms") {
            Some(_) => number(query, "cadence_ms", 20, MAX_DELAY_MS)?,
            None => body_cadence_ms.unwrap_or(20).min(MAX_DELAY_MS),
        };
        let mode = match query.get("mode").unwrap_or("stream") {
            "stream" => Mode::Stream,
            "collect" => Mode::Collect,
            "raw" => Mode::Raw,
            "malformed" => Mode::Malformed,
            "stall" => Mode::Stall,
            other => {
                return Err(format!(
                    "unknown mode {other:?}; use stream, collect, raw, malformed or stall"
                ))
            }
        };
        let status = match query.get("status") {
            None => None,
            Some(raw) => match raw.parse::<u16>() {
                Ok(200) => None,
                Ok(code @ 400..=599) => Some(code),
                _ => return Err(format!("status must be 200 or 400-599, not {raw:?}")),
            },
        };
        let prompt = prompt_text(&body);
        Ok(Self {
            tokens,
            cadence_ms,
            first_ms: number(query, "first_ms", 300, MAX_DELAY_MS)?,
            pad_bytes: number(query, "pad", 0, MAX_PAD_BYTES)?,
            role_first: flag(query, "role_first", true)?,
            usage: flag(query, "usage", true)?,
            mode,
            stall_after: number(query, "stall_after", 5, MAX_TOKENS)?,
            status,
            raw_as_sse: query.get("ct") == Some("sse"),
            split_utf8: flag(query, "split_utf8", false)?,
            model,
            stream: body.get("stream").and_then(Value::as_bool).unwrap_or(true),
            prompt_tokens: prompt.len().div_ceil(4).max(1),
            prompt_hash: fnv1a(prompt.as_bytes()),
        })
    }

    /// Milliseconds from request to the deadline of content event `index`.
    pub fn content_at_ms(&self, index: usize) -> u64 {
        self.first_ms + index as u64 * self.cadence_ms
    }

    /// Milliseconds a whole generation takes (what `collect` and `"stream": false` wait).
    pub fn generation_ms(&self) -> u64 {
        self.first_ms + self.tokens as u64 * self.cadence_ms
    }
}

fn number<T>(query: &Query, key: &str, default: T, max: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    match query.get(key) {
        None => Ok(default),
        Some(raw) => match raw.trim().parse::<T>() {
            Ok(value) if value <= max => Ok(value),
            Ok(_) => Err(format!("{key} must be at most {max}")),
            Err(_) => Err(format!("{key} must be a non-negative integer, not {raw:?}")),
        },
    }
}

fn flag(query: &Query, key: &str, default: bool) -> Result<bool, String> {
    match query.get(key) {
        None => Ok(default),
        Some("1" | "true" | "yes" | "on" | "") => Ok(true),
        Some("0" | "false" | "no" | "off") => Ok(false),
        Some(raw) => Err(format!("{key} must be 0 or 1, not {raw:?}")),
    }
}

/// The text of all message contents (what the prompt cache keys on).
fn prompt_text(body: &Value) -> String {
    let Some(messages) = body.get("messages").and_then(Value::as_array) else {
        return body
            .get("prompt")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
    };
    messages
        .iter()
        .filter_map(|message| message.get("content"))
        .map(|content| match content {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(query: &str, body: &str) -> Result<StreamSettings, String> {
        StreamSettings::from_request(&Query::parse(query), body.as_bytes())
    }

    #[test]
    fn defaults() {
        let s = settings("", "").unwrap();
        assert_eq!(
            (s.tokens, s.cadence_ms, s.first_ms, s.pad_bytes),
            (50, 20, 300, 0)
        );
        assert!(s.role_first && s.usage && s.stream);
        assert_eq!((s.mode, s.stall_after, s.status), (Mode::Stream, 5, None));
        assert_eq!(s.model, "streamscope-lab");
    }

    #[test]
    fn body_model_sets_cadence_unless_query_has_one() {
        assert_eq!(
            settings("", r#"{"model":"lab-40ms"}"#).unwrap().cadence_ms,
            40
        );
        assert_eq!(
            settings("cadence_ms=7", r#"{"model":"lab-40ms"}"#)
                .unwrap()
                .cadence_ms,
            7
        );
        assert_eq!(
            settings("", r#"{"model":"lab-xms"}"#).unwrap().cadence_ms,
            20
        );
    }

    #[test]
    fn max_tokens_caps_tokens() {
        assert_eq!(settings("", r#"{"max_tokens":7}"#).unwrap().tokens, 7);
        assert_eq!(
            settings("tokens=5", r#"{"max_tokens":7}"#).unwrap().tokens,
            5
        );
        assert_eq!(settings("", r#"{"max_tokens":700}"#).unwrap().tokens, 50);
    }

    #[test]
    fn bad_values_are_errors_not_panics() {
        for query in [
            "tokens=-1",
            "tokens=x",
            "mode=zip",
            "status=302",
            "status=abc",
            "role_first=2",
            "cadence_ms=99999999999999999999",
        ] {
            assert!(settings(query, "").is_err(), "{query}");
        }
        assert!(settings("", "{not json").is_err());
    }
}
