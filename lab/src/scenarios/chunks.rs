//! OpenAI chat-completions chunks as SSE events, stamped with the server's send time (unless the
//! writer is told not to stamp, as real providers do not).
//!
//! JSON is written by hand so the keys come in OpenAI's order (`id`, `object`, `created`, `model`,
//! `choices`, ...) without turning on serde_json's `preserve_order` for the whole workspace. Events are
//! rendered into a [`Piece`], so the `pad` field (up to 16 MiB per event) is never materialized.

use tokio::time::Instant;

use crate::http::piece::Piece;

/// What one SSE event carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// `{"delta":{"role":"assistant"}}` with no content.
    Role,
    /// A content delta.
    Content(String),
    /// An empty delta with `finish_reason: "stop"`.
    Finish,
    /// `choices: []` plus the `usage` object.
    Usage,
    /// `data: [DONE]`.
    Done,
}

/// Which fields carry the prompt cache in the `usage` object (`usage_style=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UsageStyle {
    /// DeepSeek's `prompt_cache_hit_tokens` and `prompt_cache_miss_tokens`.
    #[default]
    Deepseek,
    /// OpenAI's `prompt_tokens_details.cached_tokens`.
    Openai,
}

/// Token accounting reported in the usage chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Prompt size.
    pub prompt_tokens: usize,
    /// Tokens generated.
    pub completion_tokens: usize,
    /// Prompt tokens served from the (simulated) cache.
    pub cache_hit_tokens: usize,
    /// The fields the cache figures go in.
    pub style: UsageStyle,
}

impl Usage {
    /// The `usage` object in DeepSeek or OpenAI shape ([`UsageStyle`]), as JSON text.
    pub fn to_json(self) -> String {
        let cache = match self.style {
            UsageStyle::Deepseek => format!(
                r#""prompt_cache_hit_tokens":{},"prompt_cache_miss_tokens":{}"#,
                self.cache_hit_tokens,
                self.prompt_tokens.saturating_sub(self.cache_hit_tokens),
            ),
            UsageStyle::Openai => format!(
                r#""prompt_tokens_details":{{"cached_tokens":{}}}"#,
                self.cache_hit_tokens
            ),
        };
        format!(
            r#"{{"prompt_tokens":{},"completion_tokens":{},"total_tokens":{},{cache}}}"#,
            self.prompt_tokens,
            self.completion_tokens,
            self.prompt_tokens + self.completion_tokens,
        )
    }
}

/// Azure OpenAI's content filter marks on the chunks (`content_filter=`): a prompt annotation before the
/// role chunk, then either verdicts on every content chunk (`batched`: Azure's default streaming mode,
/// which releases the text in checked batches; the lab marks the chunks, `mode=bursts` releases them) or
/// one annotation of verdicts without text before the finish chunk (`async`: the Asynchronous Filter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabFilter {
    /// Verdicts on every content chunk.
    Batched,
    /// Verdicts in an annotation chunk of their own.
    Async,
}

/// The verdicts of a content filter that let everything through.
const SAFE_VERDICTS: &str = r#"{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}}"#;

/// Renders the events of one response.
#[derive(Debug, Clone)]
pub struct ChunkWriter {
    /// `chatcmpl-lab-<n>`.
    pub id: String,
    /// Unix seconds at request time.
    pub created: u64,
    /// Model echoed in every chunk.
    pub model: String,
    /// Bytes of padding (`x`) in a `"pad"` field of every JSON event (0: no field).
    pub pad_bytes: usize,
    /// Usage reported at the end.
    pub usage: Usage,
    /// When the stream's clock started (the request's arrival; with `slots`, when the stream got its
    /// slot): deadlines and `server_ms` count from here.
    pub start: Instant,
    /// Add `server_ms` to every JSON event (`false`: no server timestamps, `stamp=0`).
    pub stamp: bool,
    /// Azure OpenAI's content filter marks, if any.
    pub filter: Option<LabFilter>,
    /// `tool_call=1`: the answer is a call of `get_weather`, its text streamed as the call's arguments
    /// (`delta.tool_calls[0].function.arguments`), opened by the role chunk and ended with
    /// `finish_reason: "tool_calls"`.
    pub tool_call: bool,
}

impl ChunkWriter {
    /// Milliseconds since the request was received.
    pub fn server_ms(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1e3
    }

    /// Appends the JSON of `event` (not for [`Event::Done`]) with `pad_bytes` of padding and a send
    /// time (left out when the writer does not stamp) to `out`.
    pub fn render_json(&self, event: &Event, pad_bytes: usize, server_ms: f64, out: &mut Piece) {
        let verdicts = match (self.filter, event) {
            (Some(LabFilter::Batched), Event::Content(_)) => Some(SAFE_VERDICTS),
            (Some(_), Event::Role) => Some("{}"),
            _ => None,
        };
        let choice = |delta: &str, finish: &str| match verdicts {
            Some(v) => format!(r#"[{{"index":0,"content_filter_results":{v},"delta":{delta},"finish_reason":{finish}}}]"#),
            None => choice(delta, finish),
        };
        let (choices, usage) = match event {
            Event::Role if self.tool_call => (
                choice(r#"{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_lab","type":"function","function":{"name":"get_weather","arguments":""}}]}"#, "null"),
                None,
            ),
            Event::Role => (choice(r#"{"role":"assistant"}"#, "null"), None),
            Event::Content(text) if self.tool_call => (
                choice(&format!(r#"{{"tool_calls":[{{"index":0,"function":{{"arguments":{}}}}}]}}"#, string(text)), "null"),
                None,
            ),
            Event::Content(text) => (
                choice(&format!(r#"{{"content":{}}}"#, string(text)), "null"),
                None,
            ),
            Event::Finish if self.tool_call => (choice("{}", r#""tool_calls""#), None),
            Event::Finish => (choice("{}", r#""stop""#), None),
            Event::Usage | Event::Done => ("[]".to_string(), Some(self.usage.to_json())),
        };
        let mut text = format!(
            r#"{{"id":{},"object":"chat.completion.chunk","created":{},"model":{},"choices":{choices}"#,
            string(&self.id),
            self.created,
            string(&self.model),
        );
        if let Some(usage) = usage {
            text.push_str(&format!(r#","usage":{usage}"#));
        }
        if pad_bytes > 0 {
            text.push_str(r#","pad":""#);
            out.push(text.as_bytes());
            out.push_pad(pad_bytes);
            text.clear();
            text.push('"');
        }
        if self.stamp {
            text.push_str(&format!(r#","server_ms":{server_ms:.3}"#));
        }
        text.push('}');
        out.push(text.as_bytes());
    }

    /// Appends the SSE event `data: …\n\n` for `event` with `pad_bytes` of padding and an explicit
    /// `server_ms` stamp to `out`.
    pub fn render(&self, event: &Event, pad_bytes: usize, server_ms: f64, out: &mut Piece) {
        match event {
            Event::Done => out.push(b"data: [DONE]\n\n"),
            other => {
                match (self.filter, other) {
                    (Some(_), Event::Role) => {
                        out.push(br#"data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":"#);
                        out.push(SAFE_VERDICTS.as_bytes());
                        out.push(b"}]}\n\n");
                    }
                    (Some(LabFilter::Async), Event::Finish) => {
                        out.push(br#"data: {"choices":[{"index":0,"finish_reason":null,"content_filter_results":"#);
                        out.push(SAFE_VERDICTS.as_bytes());
                        out.push(br#","content_filter_offsets":{"check_offset":0,"start_offset":0,"end_offset":0}}],"created":0,"id":"","model":"","object":""}"#);
                        out.push(b"\n\n");
                    }
                    _ => {}
                }
                out.push(b"data: ");
                self.render_json(other, pad_bytes, server_ms, out);
                out.push(b"\n\n");
            }
        }
    }

    /// The JSON text of `event` (not for [`Event::Done`]) with an explicit pad and send time (left out
    /// when the writer does not stamp); the padding is materialized, so keep `pad_bytes` small.
    pub fn json_with(&self, event: &Event, pad_bytes: usize, server_ms: f64) -> String {
        let mut piece = Piece::new();
        self.render_json(event, pad_bytes, server_ms, &mut piece);
        String::from_utf8_lossy(&piece.to_vec()).into_owned()
    }

    /// The JSON text of `event` without padding, stamped now.
    pub fn json(&self, event: &Event) -> String {
        self.json_with(event, 0, self.server_ms())
    }

    /// The SSE event `data: …\n\n` for `event`, stamped now.
    pub fn sse(&self, event: &Event) -> Piece {
        self.sse_at(event, self.server_ms())
    }

    /// The SSE event `data: …\n\n` for `event` with an explicit `server_ms` stamp.
    pub fn sse_at(&self, event: &Event, server_ms: f64) -> Piece {
        let mut piece = Piece::new();
        self.render(event, self.pad_bytes, server_ms, &mut piece);
        piece
    }

    /// A non-streaming `chat.completion` object holding `text`, as JSON text (see
    /// [`ChunkWriter::completion_around`] for the parts, which a large answer is streamed between).
    pub fn completion(&self, text: &str) -> String {
        let (before, after) = self.completion_around(self.server_ms());
        format!("{before}{}{after}", escaped(text))
    }

    /// The JSON of a non-streaming `chat.completion` before and after the text of its message content
    /// (which goes between them JSON-escaped, without quotes: see [`escaped`]), stamped `server_ms`.
    pub fn completion_around(&self, server_ms: f64) -> (String, String) {
        let before = format!(
            r#"{{"id":{},"object":"chat.completion","created":{},"model":{},"choices":[{{"index":0,"message":{{"role":"assistant","content":""#,
            string(&self.id),
            self.created,
            string(&self.model),
        );
        let mut after = format!(
            r#""}},"finish_reason":"stop"}}],"usage":{}"#,
            self.usage.to_json(),
        );
        if self.stamp {
            after.push_str(&format!(r#","server_ms":{server_ms:.3}"#));
        }
        after.push('}');
        (before, after)
    }
}

/// `text` as the inside of a JSON string literal (escaped, without the quotes).
pub fn escaped(text: &str) -> String {
    let quoted = string(text);
    quoted
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or_default()
        .to_string()
}

fn choice(delta: &str, finish_reason: &str) -> String {
    format!(r#"[{{"index":0,"delta":{delta},"finish_reason":{finish_reason}}}]"#)
}

/// A JSON string literal.
fn string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writer() -> ChunkWriter {
        ChunkWriter {
            id: "chatcmpl-lab-1".into(),
            created: 7,
            model: "m\"1".into(),
            pad_bytes: 0,
            usage: Usage {
                prompt_tokens: 4,
                completion_tokens: 2,
                cache_hit_tokens: 1,
                style: UsageStyle::Deepseek,
            },
            start: Instant::now(),
            stamp: true,
            filter: None,
            tool_call: false,
        }
    }

    #[test]
    fn chunks_are_valid_json_in_openai_key_order() {
        let text = writer().json_with(&Event::Content(" café \"q\"".into()), 2, 12.3);
        assert!(text.starts_with(r#"{"id":"chatcmpl-lab-1","object":"chat.completion.chunk","created":7,"model":"m\"1","choices":"#));
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["choices"][0]["delta"]["content"], " café \"q\"");
        assert_eq!(
            (json["pad"].as_str(), json["server_ms"].as_f64()),
            (Some("xx"), Some(12.3))
        );
        let usage: serde_json::Value =
            serde_json::from_str(&writer().json_with(&Event::Usage, 0, 0.0)).unwrap();
        assert_eq!(usage["usage"]["prompt_cache_miss_tokens"], 3);
        assert!(usage["server_ms"].is_f64());
        let openai = Usage {
            style: UsageStyle::Openai,
            ..writer().usage
        };
        let openai: serde_json::Value = serde_json::from_str(&openai.to_json()).unwrap();
        assert_eq!(openai["prompt_tokens_details"]["cached_tokens"], 1);
        assert_eq!((openai["prompt_tokens"].as_u64(), openai["total_tokens"].as_u64()), (Some(4), Some(6)));
        assert!(openai.get("prompt_cache_hit_tokens").is_none());
        let completion: serde_json::Value =
            serde_json::from_str(&writer().completion(" a")).unwrap();
        assert_eq!(completion["choices"][0]["message"]["content"], " a");
    }

    #[test]
    fn an_unstamped_writer_leaves_server_ms_out_of_every_json() {
        let unstamped = ChunkWriter {
            stamp: false,
            ..writer()
        };
        for event in [
            Event::Role,
            Event::Content(" a".into()),
            Event::Finish,
            Event::Usage,
        ] {
            let json: serde_json::Value =
                serde_json::from_str(&unstamped.json_with(&event, 2, 12.3)).unwrap();
            assert!(json.get("server_ms").is_none(), "{json}");
            assert_eq!(json["pad"], "xx");
        }
        let completion: serde_json::Value =
            serde_json::from_str(&unstamped.completion(" a")).unwrap();
        assert!(completion.get("server_ms").is_none() && completion["usage"].is_object());
    }

    /// The SSE events of `event` as JSON values.
    fn events(w: &ChunkWriter, event: &Event) -> Vec<serde_json::Value> {
        let text = String::from_utf8(w.sse_at(event, 1.0).to_vec()).unwrap();
        text.split("\n\n")
            .filter(|e| !e.is_empty())
            .map(|e| serde_json::from_str(e.strip_prefix("data: ").unwrap()).unwrap())
            .collect()
    }

    #[test]
    fn content_filter_marks_are_azure_s() {
        let batched = ChunkWriter { filter: Some(LabFilter::Batched), ..writer() };
        let role = events(&batched, &Event::Role);
        assert_eq!(role.len(), 2);
        assert_eq!(role[0]["choices"], serde_json::json!([]));
        assert_eq!(role[0]["prompt_filter_results"][0]["content_filter_results"]["hate"]["severity"], "safe");
        assert_eq!(role[1]["choices"][0]["content_filter_results"], serde_json::json!({}));
        let content = events(&batched, &Event::Content("a".into()));
        assert_eq!(content.len(), 1);
        assert_eq!(content[0]["choices"][0]["content_filter_results"]["violence"]["filtered"], false);
        assert_eq!(content[0]["choices"][0]["delta"]["content"], "a");
        assert_eq!(events(&batched, &Event::Finish).len(), 1);

        let asynchronous = ChunkWriter { filter: Some(LabFilter::Async), ..writer() };
        assert!(events(&asynchronous, &Event::Content("a".into()))[0]["choices"][0].get("content_filter_results").is_none());
        let finish = events(&asynchronous, &Event::Finish);
        assert_eq!(finish.len(), 2);
        assert!(finish[0]["choices"][0]["content_filter_offsets"].is_object() && finish[0]["choices"][0].get("delta").is_none());
        assert_eq!(finish[1]["choices"][0]["finish_reason"], "stop");
        // A tool call: the text streams as the call's arguments.
        let call = ChunkWriter { tool_call: true, ..writer() };
        assert_eq!(events(&call, &Event::Role)[0]["choices"][0]["delta"]["tool_calls"][0]["function"]["name"], "get_weather");
        assert_eq!(events(&call, &Event::Content("{\"a".into()))[0]["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"], "{\"a");
        assert_eq!(events(&call, &Event::Finish)[0]["choices"][0]["finish_reason"], "tool_calls");
        // No filter: no marks.
        assert_eq!(events(&writer(), &Event::Role).len(), 1);
        assert!(events(&writer(), &Event::Content("a".into()))[0]["choices"][0].get("content_filter_results").is_none());
    }
}
