//! Dialects: one wire message in, token-level facts out, whatever API produced it.
//!
//! A message (an SSE event's data, a JSON line) is first classified ([`classify_payload`]: the `[DONE]`
//! marker, a JSON object, or something else); a JSON object reveals its dialect, decided here and only
//! here: [`detect_sse`] for the data of an SSE event (with its `event` name: `choices` →
//! `openai-chat`, a `type` or event name starting with `response.` → `openai-responses`, an Anthropic
//! event type → `anthropic`, `candidates` / `usageMetadata` → `gemini`) and [`detect_json_line`] for a
//! JSON line (`choices` → `openai-chat`, `message` / `response` / `done` → `ollama`). The first decisive
//! message fixes the dialect; [`sse_facts`] and [`json_line_facts`] then read each message with that
//! dialect's adapter ([`openai`], [`responses`], [`anthropic`], [`gemini`], [`ollama`]) into
//! [`ChunkFacts`]: [`EventKind`]s, the [`usage::Usage`] the server reported and the [`StopReason`] in
//! one vocabulary ([`stop_reason`]). [`chunk_memo`] reads an OpenAI chat chunk shaped like the last one
//! without a `Value` (the analyzer's fast path, same facts). [`error_body`] reads the body of an HTTP error answer, and
//! [`models_list`] the ids of a `GET …/models` answer (bounded, in one pass).
//!
//! Depends on [`crate::wire`] (UTF-8 decoding) and the bottom modules only.

pub mod ag_ui;
pub mod ai_sdk;
pub mod anthropic;
pub mod chunk_memo;
pub mod cohere;
pub mod content_filter;
pub mod dify;
pub mod error_body;
pub mod gemini;
pub mod json_text;
pub mod langgraph;
pub mod langserve;
pub mod llama_cpp;
pub mod models_list;
pub mod ollama;
pub mod openai;
pub mod responses;
pub mod stop_reason;
pub mod tgi;
pub mod usage;
pub mod workers_ai;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use stop_reason::StopReason;
pub use usage::Usage;

/// The stream format detected from the messages (see DESIGN.md, automation contract).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// OpenAI chat-completions chunks (`choices[].delta`), over SSE or JSON lines.
    OpenaiChat,
    /// OpenAI Responses API events (`response.output_text.delta`, `response.completed`, ...).
    OpenaiResponses,
    /// Anthropic Messages events (`message_start`, `content_block_delta`, `message_stop`, ...).
    Anthropic,
    /// Gemini `streamGenerateContent?alt=sse` chunks (`candidates[].content.parts`, `usageMetadata`).
    Gemini,
    /// Cohere v2 chat events (`content-delta`, `message-end`, ...).
    Cohere,
    /// Cloudflare Workers AI's own stream (`{"response": "<token>"}` events, `[DONE]`).
    WorkersAi,
    /// llama.cpp's own completion stream (`{"content": "<token>", "stop": false}` events).
    LlamaCpp,
    /// Hugging Face Text Generation Inference's own stream (`{"token": {"text": …}, "generated_text": …}`).
    Tgi,
    /// The Vercel AI SDK's UI message stream (`{"type": "text-delta", "delta": …}` events, `finish`, `[DONE]`).
    AiSdk,
    /// Dify's streaming API (`{"event": "message", "answer": …}` events, `message_end`).
    Dify,
    /// The AG-UI protocol (`{"type": "TEXT_MESSAGE_CONTENT", "delta": …}` events, `RUN_FINISHED`).
    AgUi,
    /// LangGraph's run stream (`event: messages` with `[message chunk, metadata]`, `event: end`).
    LangGraph,
    /// LangServe's streams (`event: data` with a message chunk, or with an `astream_events` event).
    LangServe,
    /// JSON events or lines no other dialect claims, with the text in a common field (`content`,
    /// `text`, `token`, ...: [`json_text`]).
    JsonText,
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
    /// Every dialect, `unknown` last.
    pub const ALL: [Dialect; 18] = [
        Dialect::OpenaiChat,
        Dialect::OpenaiResponses,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Cohere,
        Dialect::WorkersAi,
        Dialect::LlamaCpp,
        Dialect::Tgi,
        Dialect::AiSdk,
        Dialect::Dify,
        Dialect::AgUi,
        Dialect::LangGraph,
        Dialect::LangServe,
        Dialect::JsonText,
        Dialect::SseText,
        Dialect::Ollama,
        Dialect::Raw,
        Dialect::Unknown,
    ];

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
            Dialect::Cohere => "cohere",
            Dialect::WorkersAi => "workers-ai",
            Dialect::LlamaCpp => "llama-cpp",
            Dialect::Tgi => "tgi",
            Dialect::AiSdk => "ai-sdk",
            Dialect::Dify => "dify",
            Dialect::AgUi => "ag-ui",
            Dialect::LangGraph => "langgraph",
            Dialect::LangServe => "langserve",
            Dialect::JsonText => "json-text",
            Dialect::SseText => "sse-text",
            Dialect::Ollama => "ollama",
            Dialect::Raw => "raw",
            Dialect::Unknown => "unknown",
        }
    }
}

serde_by_name!(Dialect => as_str);

/// What one message carried (a message may carry several, in stream order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum EventKind {
    /// Non-empty answer text: a token (or several) the user sees.
    Content(String),
    /// Non-empty reasoning ("thinking") text.
    Reasoning(String),
    /// Non-empty arguments of a tool call, as they stream (OpenAI `tool_calls[].function.arguments`,
    /// Anthropic `input_json_delta`, Responses `function_call_arguments.delta`; Gemini's and Ollama's
    /// whole calls as compact JSON): when the model answers with a tool call, these are its answer's
    /// tokens, so they are timed as content (and counted apart, [`crate::analysis::Analysis::tool_arg_events`]).
    ToolArgs(String),
    /// A chunk that only announced the role (`delta: {"role": "assistant"}`), not a token.
    RoleOnly,
    /// A chunk with nothing in it (empty delta, empty data).
    Empty,
    /// An SSE comment line, usually a keep-alive.
    KeepAlive,
    /// The server reported token usage here (the counts go to [`ChunkFacts::usage`] and are merged into
    /// the analysis once, not kept per event).
    Usage,
    /// Why generation stopped, in OpenAI's words (see [`StopReason`]).
    Finish(StopReason),
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
            EventKind::ToolArgs(_) => "tool_args",
            EventKind::RoleOnly => "role_only",
            EventKind::Empty => "empty",
            EventKind::KeepAlive => "keep_alive",
            EventKind::Usage => "usage",
            EventKind::Finish(_) => "finish",
            EventKind::Done => "done",
            EventKind::StreamError(_) => "stream_error",
            EventKind::Malformed(_) => "malformed",
        }
    }

    /// A [`EventKind::StreamError`] with the server's message, or with words saying it sent none.
    pub fn stream_error(message: Option<String>) -> EventKind {
        EventKind::StreamError(message.unwrap_or_else(|| NO_ERROR_MESSAGE.into()))
    }
}

/// What an error event says when the server's error carried no message.
pub(crate) const NO_ERROR_MESSAGE: &str = "error without a message";

/// The facts one message carries, in stream order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChunkFacts {
    /// What the message carried; never empty (a message with nothing in it is one [`EventKind::Empty`]).
    pub kinds: Vec<EventKind>,
    /// The usage the message reported (its place in the stream is the [`EventKind::Usage`] in `kinds`).
    pub usage: Option<Usage>,
    /// The top-level `server_ms` number, when present.
    pub server_ms: Option<f64>,
    /// The top-level `created` time (unix seconds), when present.
    pub created_unix_s: Option<f64>,
    /// What the message says about a content filter (Azure OpenAI's marks, [`content_filter`]).
    pub filter: content_filter::FilterMark,
    /// The names of the tools the message starts calling (OpenAI's `tool_calls[].function.name`,
    /// Anthropic's `tool_use` block, ...), as the server wrote them.
    pub tool_names: Vec<String>,
}

impl ChunkFacts {
    /// The facts of one payload `v`: `kinds` (one [`EventKind::Empty`] when there are none), the
    /// payload's `server_ms`, and its creation time when the dialect has one.
    pub fn of(mut kinds: Vec<EventKind>, v: &Value, created_unix_s: Option<f64>) -> ChunkFacts {
        if kinds.is_empty() {
            kinds.push(EventKind::Empty);
        }
        ChunkFacts {
            kinds,
            usage: None,
            server_ms: v.get("server_ms").and_then(Value::as_f64),
            created_unix_s,
            filter: content_filter::FilterMark::None,
            tool_names: Vec::new(),
        }
    }

    /// Records a usage report: an [`EventKind::Usage`] at this point of `kinds`, the counts in `usage`.
    pub fn push_usage(kinds: &mut Vec<EventKind>, usage: &mut Option<Usage>, reported: Option<Usage>) {
        if let Some(u) = reported {
            kinds.push(EventKind::Usage);
            *usage = Some(u);
        }
    }

    /// Records the end of a message: its stop reason when it says one, the usage when there is one,
    /// then the end marker ([`EventKind::Done`]).
    pub fn push_end(kinds: &mut Vec<EventKind>, usage: &mut Option<Usage>, stop: Option<StopReason>, reported: Option<Usage>) {
        kinds.extend(stop.map(EventKind::Finish));
        ChunkFacts::push_usage(kinds, usage, reported);
        kinds.push(EventKind::Done);
    }

    /// The same facts with what the message says about a content filter.
    pub fn with_filter(mut self, filter: content_filter::FilterMark) -> ChunkFacts {
        self.filter = filter;
        self
    }

    /// The same facts with the names of the tools the message starts calling.
    pub fn with_tool_names(mut self, names: Vec<String>) -> ChunkFacts {
        self.tool_names = names;
        self
    }

    /// The same facts with the usage the message reported.
    pub fn with_usage(mut self, usage: Option<Usage>) -> ChunkFacts {
        self.usage = usage;
        self
    }
}

/// What a data payload is, before any dialect-specific reading.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// The `[DONE]` end marker.
    Done,
    /// A JSON object (or, in an SSE event, what a dialect sends instead: [`classify_sse_payload`]).
    Object(Value),
    /// Not JSON, or JSON that is not an object.
    Other,
}

/// The text of a JSON string that is not empty (the text fields of every dialect: a token, a stop
/// reason); `None` for anything else.
pub(crate) fn non_empty_str(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string)
}

/// The non-empty strings at `pointer` in each item of `items` (an array, or one object): the names of the
/// tools a message calls, wherever a dialect keeps them.
pub(crate) fn names_at(items: Option<&Value>, pointer: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut push = |item: &Value| names.extend(non_empty_str(item.pointer(pointer)));
    match items {
        Some(Value::Array(items)) => items.iter().for_each(&mut push),
        Some(item @ Value::Object(_)) => push(item),
        _ => {}
    }
    names
}

/// [`classify_payload`] for an SSE event's data: LangGraph's `messages` events carry an array and
/// LangServe's `data` events of a chain whose output is text a JSON string, read as [`Payload::Object`]
/// too.
pub fn classify_sse_payload(data: &str, event: Option<&str>) -> Payload {
    let start = data.trim_start();
    let list = langgraph::is_messages(event) || langgraph::is_accumulated(event);
    if (list && start.starts_with('[')) || (langserve::is_output(event) && start.starts_with('"')) {
        if let Ok(v) = crate::json::parse_value(data) {
            return Payload::Object(v);
        }
    }
    classify_payload(data)
}

/// Classifies a data payload as the end marker, a JSON object or something else.
pub fn classify_payload(data: &str) -> Payload {
    if openai::is_done(data) {
        return Payload::Done;
    }
    match crate::json::parse_value(data) {
        Ok(v) if v.is_object() => Payload::Object(v),
        _ => Payload::Other,
    }
}

/// The dialect the JSON data of an SSE event (named `event`) reveals, or `None` when it reveals none
/// (`json-text` when only a common text field says anything).
pub fn detect_sse(v: &Value, event: Option<&str>) -> Option<Dialect> {
    if openai::is_chat_chunk(v) {
        Some(Dialect::OpenaiChat)
    } else if responses::is_responses_event(v, event) {
        Some(Dialect::OpenaiResponses)
    } else if anthropic::is_anthropic_event(v, event) {
        Some(Dialect::Anthropic)
    } else if gemini::is_gemini_chunk(v) {
        Some(Dialect::Gemini)
    } else if cohere::is_cohere_event(v, event) {
        Some(Dialect::Cohere)
    } else if workers_ai::is_workers_ai_event(v) {
        Some(Dialect::WorkersAi)
    } else if llama_cpp::is_llama_cpp_event(v) {
        Some(Dialect::LlamaCpp)
    } else if tgi::is_tgi_event(v) {
        Some(Dialect::Tgi)
    } else if ai_sdk::is_ai_sdk_event(v) {
        Some(Dialect::AiSdk)
    } else if dify::is_dify_event(v) {
        Some(Dialect::Dify)
    } else if ag_ui::is_ag_ui_event(v) {
        Some(Dialect::AgUi)
    } else if langgraph::is_langgraph_event(v, event) {
        Some(Dialect::LangGraph)
    } else if langserve::is_langserve_event(v, event) {
        Some(Dialect::LangServe)
    } else if json_text::is_json_text_event(v) {
        Some(Dialect::JsonText)
    } else {
        None
    }
}

/// The dialect a JSON line reveals (`openai-chat` for chat chunks, `cohere` for Cohere v1's lines,
/// `ollama` for Ollama lines; as a JSON body, TGI's `/generate` answer, Anthropic's whole message and
/// Gemini's `generateContent` answer; `json-text` when only a common text field says anything), or `None`.
pub fn detect_json_line(v: &Value) -> Option<Dialect> {
    if openai::is_chat_chunk(v) {
        Some(Dialect::OpenaiChat)
    } else if cohere::is_cohere_v1_line(v) {
        Some(Dialect::Cohere)
    } else if ollama::is_ollama_line(v) {
        Some(Dialect::Ollama)
    } else if tgi::is_tgi_event(v) {
        Some(Dialect::Tgi)
    } else if anthropic::is_whole_message(v) {
        Some(Dialect::Anthropic)
    } else if gemini::is_gemini_chunk(v) {
        Some(Dialect::Gemini)
    } else if json_text::is_json_text_event(v) {
        Some(Dialect::JsonText)
    } else {
        None
    }
}

/// Reads the JSON data of an SSE event with the adapter of `dialect` (OpenAI chat's for messages before
/// the dialect is known: it reads an error object, or nothing).
pub fn sse_facts(dialect: Dialect, v: &Value, event: Option<&str>) -> ChunkFacts {
    match dialect {
        Dialect::OpenaiResponses => responses::event_facts(v, event),
        Dialect::Anthropic => anthropic::event_facts(v, event),
        Dialect::Gemini => gemini::chunk_facts(v),
        Dialect::Cohere => cohere::event_facts(v, event),
        Dialect::WorkersAi => workers_ai::event_facts(v),
        Dialect::LlamaCpp => llama_cpp::event_facts(v),
        Dialect::Tgi => tgi::event_facts(v),
        Dialect::AiSdk => ai_sdk::event_facts(v),
        Dialect::Dify => dify::event_facts(v),
        Dialect::AgUi => ag_ui::event_facts(v),
        Dialect::LangGraph => langgraph::event_facts(v, event),
        Dialect::LangServe => langserve::event_facts(v, event),
        Dialect::JsonText => json_text::event_facts(v),
        _ => openai::chunk_facts(v),
    }
}

/// Reads a JSON line: a line of a Cohere v1 or a `json-text` stream with their adapters, a chat chunk
/// with the OpenAI adapter, an Ollama line (or any non-chat line of an Ollama stream) with the Ollama
/// adapter, TGI's, Anthropic's and Gemini's answers with theirs, anything else with the OpenAI adapter.
pub fn json_line_facts(dialect: Dialect, v: &Value) -> ChunkFacts {
    let ollama_line = || !openai::is_chat_chunk(v) && (ollama::is_ollama_line(v) || dialect == Dialect::Ollama);
    match dialect {
        Dialect::Cohere => cohere::v1_line_facts(v),
        Dialect::JsonText => json_text::event_facts(v),
        _ if ollama_line() => ollama::line_facts(v),
        Dialect::Tgi => tgi::event_facts(v),
        Dialect::Anthropic => anthropic::message_facts(v),
        Dialect::Gemini => gemini::chunk_facts(v),
        _ => openai::chunk_facts(v),
    }
}

/// The message of an SSE `error` event's JSON data, whatever the dialect: an `error` object or string
/// (OpenAI, Anthropic, Gemini) or a top-level `message` (Responses).
pub fn error_message(v: &Value) -> Option<String> {
    openai::error_message(v).or_else(|| responses::error_message(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_dialect_names_the_tools_its_answer_starts_calling() {
        let names = |facts: ChunkFacts| facts.tool_names;
        let delta = json!({"choices":[{"index":0,"delta":{"tool_calls":[
            {"index":0,"id":"c1","type":"function","function":{"name":"get_weather","arguments":""}},
            {"index":1,"id":"c2","type":"function","function":{"name":"get_time","arguments":""}}]}}]});
        assert_eq!(names(openai::chunk_facts(&delta)), ["get_weather", "get_time"]);
        let later = json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"q"}}]}}]});
        assert!(names(openai::chunk_facts(&later)).is_empty(), "a later fragment names nothing");
        let legacy = json!({"choices":[{"delta":{"function_call":{"name":"lookup","arguments":""}}}]});
        assert_eq!(names(openai::chunk_facts(&legacy)), ["lookup"]);
        let start = json!({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"search","input":{}}});
        assert_eq!(names(anthropic::event_facts(&start, None)), ["search"]);
        let text = json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":"","name":"x"}});
        assert!(names(anthropic::event_facts(&text, None)).is_empty());
        let item = json!({"type":"response.output_item.added","item":{"type":"function_call","name":"get_weather","arguments":""}});
        assert_eq!(names(responses::event_facts(&item, None)), ["get_weather"]);
        let message = json!({"type":"response.output_item.added","item":{"type":"message","name":"x"}});
        assert!(names(responses::event_facts(&message, None)).is_empty());
        let gemini = json!({"candidates":[{"content":{"parts":[{"functionCall":{"name":"find","args":{"q":1}}}]}}]});
        assert_eq!(names(gemini::chunk_facts(&gemini)), ["find"]);
        let cohere = json!({"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"c","type":"function","function":{"name":"query_db","arguments":""}}}}});
        assert_eq!(names(cohere::event_facts(&cohere, None)), ["query_db"]);
        assert_eq!(names(ai_sdk::part_facts(b'b', &json!({"toolCallId":"c","toolName":"calc"}))), ["calc"]);
        assert_eq!(names(ai_sdk::event_facts(&json!({"type":"tool-input-start","toolCallId":"c","toolName":"calc"}))), ["calc"]);
        assert_eq!(names(ag_ui::event_facts(&json!({"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"plan"}))), ["plan"]);
        let chunk = json!([{"type":"AIMessageChunk","content":"","tool_call_chunks":[{"name":"search","args":"","id":"c","index":0}]},{}]);
        assert_eq!(names(langgraph::event_facts(&chunk, Some("messages"))), ["search"]);
        let ollama = json!({"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false});
        assert_eq!(names(ollama::line_facts(&ollama)), ["get_weather"]);
        // A name that is not a non-empty string names nothing.
        assert!(names_at(Some(&json!([{"name":""},{"name":7},{"name":null}])), "/name").is_empty());
    }

    #[test]
    fn detects_each_json_dialect() {
        assert_eq!(detect_sse(&json!({"choices":[]}), None), Some(Dialect::OpenaiChat));
        assert_eq!(detect_sse(&json!({"type":"response.created"}), None), Some(Dialect::OpenaiResponses));
        assert_eq!(detect_sse(&json!({"type":"message_start","message":{}}), None), Some(Dialect::Anthropic));
        assert_eq!(detect_sse(&json!({"candidates":[]}), None), Some(Dialect::Gemini));
        assert_eq!(detect_sse(&json!({"type":"message-start","id":"m"}), None), Some(Dialect::Cohere));
        assert_eq!(detect_sse(&json!({}), Some("content-delta")), Some(Dialect::Cohere));
        assert_eq!(detect_sse(&json!({"response":"Hi","p":"ab"}), None), Some(Dialect::WorkersAi));
        assert_eq!(detect_sse(&json!({"content":"Hi","stop":false}), None), Some(Dialect::LlamaCpp));
        assert_eq!(detect_sse(&json!({"token":{"text":"Hi"},"generated_text":null}), None), Some(Dialect::Tgi));
        assert_eq!(detect_sse(&json!({"type":"text-delta","id":"t","delta":"Hi"}), None), Some(Dialect::AiSdk));
        assert_eq!(detect_sse(&json!({"event":"message","task_id":"t","answer":"Hi"}), None), Some(Dialect::Dify));
        assert_eq!(detect_sse(&json!({"type":"RUN_STARTED","threadId":"t","runId":"r"}), None), Some(Dialect::AgUi));
        let tuple = json!([{"type":"AIMessageChunk","content":"Hi"},{"langgraph_node":"agent"}]);
        assert_eq!(detect_sse(&tuple, Some("messages")), Some(Dialect::LangGraph));
        assert_eq!(detect_sse(&tuple, None), None);
        assert!(matches!(classify_sse_payload("[{\"type\":\"ai\"},{}]", Some("messages")), Payload::Object(_)));
        assert_eq!(classify_sse_payload("[1, 2]", Some("data")), Payload::Other);
        // LangServe's text chain: a JSON string in a `data` event, and only there.
        assert_eq!(classify_sse_payload(" \"Hi\"", Some("data")), Payload::Object(json!("Hi")));
        assert_eq!(detect_sse(&json!("Hi"), Some("data")), Some(Dialect::LangServe));
        assert_eq!(classify_sse_payload("\"Hi\"", None), Payload::Other);
        assert_eq!(classify_sse_payload("\"Hi", Some("data")), Payload::Other);
        assert_eq!(detect_sse(&json!({"type":"response.created","response":{}}), None), Some(Dialect::OpenaiResponses));
        assert_eq!(detect_sse(&json!({"type":"error","message":"x"}), None), None);
        assert_eq!(detect_sse(&json!({}), None), None);
    }

    #[test]
    fn detects_json_line_dialects() {
        assert_eq!(detect_json_line(&json!({"choices":[]})), Some(Dialect::OpenaiChat));
        assert_eq!(detect_json_line(&json!({"response":"a","done":false})), Some(Dialect::Ollama));
        assert_eq!(detect_json_line(&json!({"x":1})), None);
        // A line without choices in an Ollama stream is read as Ollama.
        let facts = json_line_facts(Dialect::Ollama, &json!({"error":"boom"}));
        assert_eq!(facts.kinds, vec![EventKind::StreamError("boom".into())]);
    }

    #[test]
    fn error_messages_of_every_shape() {
        assert_eq!(
            error_message(&json!({"type":"error","message":"boom","code":"server_error"})).as_deref(),
            Some("boom (code: server_error)")
        );
        assert_eq!(
            error_message(&json!({"error":{"type":"overloaded_error","message":"Overloaded"}})).as_deref(),
            Some("Overloaded (type: overloaded_error)")
        );
    }

    #[test]
    fn payload_classification() {
        assert_eq!(classify_payload("[DONE]"), Payload::Done);
        assert_eq!(classify_payload(" [DONE] "), Payload::Done);
        assert_eq!(classify_payload("{\"choices\":"), Payload::Other);
        assert_eq!(classify_payload("42"), Payload::Other);
        assert!(matches!(classify_payload("{}"), Payload::Object(_)));
    }

    #[test]
    fn dialect_serde_names_follow_design() {
        for d in Dialect::ALL {
            assert_eq!(serde_json::to_value(d).unwrap(), serde_json::Value::String(d.as_str().into()));
            assert_eq!(serde_json::from_value::<Dialect>(serde_json::to_value(d).unwrap()).unwrap(), d);
        }
        let kebab = ["openai-chat", "openai-responses", "anthropic", "gemini", "cohere", "workers-ai", "llama-cpp", "tgi",
            "ai-sdk", "dify", "ag-ui", "langgraph", "langserve", "json-text", "sse-text", "ollama", "raw", "unknown"];
        assert_eq!(Dialect::ALL.map(Dialect::as_str), kebab);
        let refused = serde_json::from_str::<Dialect>("\"openai_chat\"").unwrap_err().to_string();
        assert!(refused.contains("unknown Dialect `openai_chat`"), "{refused}");
        assert!(serde_json::from_str::<Dialect>("3").is_err());
    }

    #[test]
    fn event_kind_serialises_with_kind_tag() {
        let v = serde_json::to_value(EventKind::Content("hi".into())).unwrap();
        assert_eq!(v, serde_json::json!({"kind": "content", "value": "hi"}));
        let v = serde_json::to_value(EventKind::Done).unwrap();
        assert_eq!(v, serde_json::json!({"kind": "done"}));
        assert_eq!(EventKind::RoleOnly.name(), "role_only");
        let v = serde_json::to_value(EventKind::Finish(StopReason::Length)).unwrap();
        assert_eq!(v, serde_json::json!({"kind": "finish", "value": "length"}));
    }
}
