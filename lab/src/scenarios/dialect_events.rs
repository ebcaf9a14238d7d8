//! The wire messages of a timed stream in the dialects other than OpenAI chat: Responses, Anthropic,
//! Ollama (chat and generate), Gemini, Cohere, Workers AI, llama.cpp, TGI, the AI SDK's streams, Dify,
//! AG-UI, LangGraph and SSE text.
//!
//! A stream is a sequence of [`Step`]s (start, reasoning tokens, content tokens, end); each step renders
//! to the bytes of one write, holding every message the dialect sends at that point (Anthropic opens a
//! content block with its first delta, for example). Every JSON message carries the lab's `server_ms`
//! unless the step is rendered without one (`stamp=0`).

use serde_json::{json, Value};

use crate::scenarios::wire_dialect::WireDialect;

/// One point of a timed stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The response starts (Responses `response.created`, Anthropic `message_start` + `ping`).
    Start,
    /// A reasoning token's text.
    Reasoning(String),
    /// A content token's text.
    Content(String),
    /// Generation is over: the closing messages and, with `terminal`, the end marker.
    End,
}

/// Token accounting and stop reason reported at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndFacts {
    /// Prompt size.
    pub prompt_tokens: usize,
    /// Prompt tokens served from the (simulated) cache.
    pub cache_hit_tokens: usize,
    /// Answer tokens generated.
    pub content_tokens: usize,
    /// Reasoning tokens generated.
    pub reasoning_tokens: usize,
    /// The token limit stopped generation (`length`, `max_tokens`, `MAX_TOKENS`, ...).
    pub hit_limit: bool,
    /// Send the dialect's end marker (off: the stream just stops, as if cut).
    pub terminal: bool,
}

/// Which content block an Anthropic stream (or part, an AI SDK stream) has open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Thinking,
    Text,
}

/// Renders the steps of one response in one dialect.
#[derive(Debug, Clone)]
pub struct DialectWriter {
    dialect: WireDialect,
    model: String,
    id: String,
    created_unix_s: u64,
    end: EndFacts,
    sequence: u64,
    open_block: Option<(usize, Block)>,
    /// The text sent so far (TGI's last event repeats it whole, LangGraph's `messages/partial` each time).
    sent_text: String,
    /// The reasoning sent so far (LangGraph's `messages/partial` repeats it).
    sent_reasoning: String,
    /// Elements of a JSON array written so far (Gemini without `alt=sse`).
    array_elements: usize,
}

impl DialectWriter {
    /// A writer for `dialect` echoing `model`, with the response id number `id` and the end facts.
    pub fn new(
        dialect: WireDialect,
        model: &str,
        id: u64,
        created_unix_s: u64,
        end: EndFacts,
    ) -> Self {
        Self {
            dialect,
            model: model.to_string(),
            id: format!("lab{id}"),
            created_unix_s,
            end,
            sequence: 0,
            open_block: None,
            sent_text: String::new(),
            sent_reasoning: String::new(),
            array_elements: 0,
        }
    }

    /// The bytes of one write for `step`, each JSON message stamped `server_ms` (`None`: no stamp);
    /// empty when there is nothing to send.
    pub fn render(&mut self, step: &Step, server_ms: Option<f64>) -> Vec<u8> {
        let messages = match self.dialect {
            WireDialect::Responses => self.responses(step),
            WireDialect::Anthropic => self.anthropic(step),
            WireDialect::OllamaChat | WireDialect::OllamaGenerate => self.ollama(step),
            WireDialect::Gemini | WireDialect::GeminiArray => self.gemini(step),
            WireDialect::Cohere => self.cohere(step),
            WireDialect::WorkersAi => self.workers_ai(step),
            WireDialect::LlamaCpp => self.llama_cpp(step),
            WireDialect::Tgi => self.tgi(step),
            WireDialect::AiSdk => self.ai_sdk(step),
            WireDialect::AiSdkDataStream => self.ai_sdk_data_stream(step),
            WireDialect::Dify => self.dify(step),
            WireDialect::AgUi => self.ag_ui(step),
            WireDialect::LangGraph => self.langgraph(step),
            WireDialect::LangGraphPartial => self.langgraph_partial(step),
            WireDialect::LangServe => self.langserve(step),
            WireDialect::LangServeText => self.langserve_text(step),
            WireDialect::CohereV1 => self.cohere_v1(step),
            WireDialect::JsonText => self.json_text(step),
            WireDialect::Replicate => return replicate(step, self.end),
            WireDialect::SseText | WireDialect::OpenaiChat => return sse_text(step, self.end),
        };
        let mut out = Vec::new();
        for (event, mut value) in messages {
            if let (Some(server_ms), Some(fields)) = (server_ms, value.as_object_mut()) {
                fields.insert("server_ms".into(), json!((server_ms * 1e3).round() / 1e3));
            }
            let data = value.to_string();
            match self.dialect {
                WireDialect::OllamaChat | WireDialect::OllamaGenerate | WireDialect::CohereV1 => {
                    out.extend_from_slice(format!("{data}\n").as_bytes())
                }
                WireDialect::Gemini => {
                    out.extend_from_slice(format!("data: {data}\r\n\r\n").as_bytes())
                }
                WireDialect::WorkersAi | WireDialect::LlamaCpp | WireDialect::AiSdk | WireDialect::Dify | WireDialect::AgUi | WireDialect::JsonText => {
                    out.extend_from_slice(format!("data: {data}\n\n").as_bytes())
                }
                // Pretty-printed elements of one array, as Google writes them: `[{…}\n,\r\n{…}\n]`.
                WireDialect::GeminiArray => {
                    let element = serde_json::to_string_pretty(&value).unwrap_or_default();
                    let before = if self.array_elements == 0 { "[" } else { "\n,\r\n" };
                    self.array_elements += 1;
                    out.extend_from_slice(format!("{before}{element}").as_bytes());
                }
                // The event name is the part's code.
                WireDialect::AiSdkDataStream => out.extend_from_slice(format!("{event}:{data}\n").as_bytes()),
                // TGI writes no space after the colon.
                WireDialect::Tgi => out.extend_from_slice(format!("data:{data}\n\n").as_bytes()),
                // sse-starlette's CRLF lines; an event without data (`end`) has no data line.
                WireDialect::LangServe | WireDialect::LangServeText if value.is_null() => {
                    out.extend_from_slice(format!("event: {event}\r\n\r\n").as_bytes())
                }
                WireDialect::LangServe | WireDialect::LangServeText => out.extend_from_slice(format!("event: {event}\r\ndata: {data}\r\n\r\n").as_bytes()),
                _ => out.extend_from_slice(format!("event: {event}\ndata: {data}\n\n").as_bytes()),
            }
        }
        if matches!(self.dialect, WireDialect::WorkersAi | WireDialect::AiSdk) && *step == Step::End && self.end.terminal {
            out.extend_from_slice(b"data: [DONE]\n\n");
        }
        if self.dialect == WireDialect::GeminiArray && *step == Step::End && self.end.terminal {
            out.extend_from_slice(if self.array_elements == 0 { b"[]" } else { b"\n]" });
        }
        out
    }

    fn output_tokens(&self) -> usize {
        self.end.content_tokens + self.end.reasoning_tokens
    }

    fn responses_event(&mut self, kind: &str, mut fields: Value) -> (String, Value) {
        fields["type"] = json!(kind);
        fields["sequence_number"] = json!(self.sequence);
        self.sequence += 1;
        (kind.to_string(), fields)
    }

    fn response_object(&self, status: &str) -> Value {
        json!({"id": format!("resp_{}", self.id), "object": "response", "created_at": self.created_unix_s,
            "status": status, "model": self.model, "output": [], "usage": null})
    }

    fn responses(&mut self, step: &Step) -> Vec<(String, Value)> {
        let msg_id = format!("msg_{}", self.id);
        match step {
            Step::Start => {
                let created = self.response_object("in_progress");
                let item = json!({"id": msg_id, "type": "message", "status": "in_progress",
                    "role": "assistant", "content": []});
                vec![
                    self.responses_event("response.created", json!({"response": created.clone()})),
                    self.responses_event("response.in_progress", json!({"response": created})),
                    self.responses_event(
                        "response.output_item.added",
                        json!({"output_index": 0, "item": item}),
                    ),
                ]
            }
            Step::Reasoning(text) => vec![self.responses_event(
                "response.reasoning_summary_text.delta",
                json!({"item_id": format!("rs_{}", self.id), "output_index": 0, "summary_index": 0, "delta": text}),
            )],
            Step::Content(text) => vec![self.responses_event(
                "response.output_text.delta",
                json!({"item_id": msg_id, "output_index": 0, "content_index": 0, "delta": text, "logprobs": []}),
            )],
            Step::End => {
                let mut out = vec![self.responses_event(
                    "response.output_item.done",
                    json!({"output_index": 0, "item": {"id": msg_id, "type": "message", "status": "completed"}}),
                )];
                if self.end.terminal {
                    let (kind, status) = if self.end.hit_limit {
                        ("response.incomplete", "incomplete")
                    } else {
                        ("response.completed", "completed")
                    };
                    let mut response = self.response_object(status);
                    if self.end.hit_limit {
                        response["incomplete_details"] = json!({"reason": "max_output_tokens"});
                    }
                    let e = self.end;
                    response["usage"] = json!({"input_tokens": e.prompt_tokens,
                        "input_tokens_details": {"cached_tokens": e.cache_hit_tokens},
                        "output_tokens": self.output_tokens(),
                        "output_tokens_details": {"reasoning_tokens": e.reasoning_tokens},
                        "total_tokens": e.prompt_tokens + self.output_tokens()});
                    out.push(self.responses_event(kind, json!({"response": response})));
                }
                out
            }
        }
    }

    /// Opens block `kind` (closing another one first) when it is not the open one.
    fn anthropic_block(&mut self, kind: Block, out: &mut Vec<(String, Value)>) -> usize {
        match self.open_block {
            Some((index, open)) if open == kind => return index,
            Some((index, _)) => {
                out.push(typed_event(
                    "content_block_delta",
                    json!({"index": index, "delta": {"type": "signature_delta", "signature": "RXFRQkNnSVlBaElN"}}),
                ));
                out.push(typed_event(
                    "content_block_stop",
                    json!({"index": index}),
                ));
            }
            None => {}
        }
        let index = self.open_block.map_or(0, |(i, _)| i + 1);
        let block = match kind {
            Block::Thinking => json!({"type": "thinking", "thinking": "", "signature": ""}),
            Block::Text => json!({"type": "text", "text": ""}),
        };
        out.push(typed_event(
            "content_block_start",
            json!({"index": index, "content_block": block}),
        ));
        self.open_block = Some((index, kind));
        index
    }

    fn anthropic(&mut self, step: &Step) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        match step {
            Step::Start => {
                let e = self.end;
                let usage = json!({"input_tokens": e.prompt_tokens - e.cache_hit_tokens.min(e.prompt_tokens),
                    "cache_creation_input_tokens": 0, "cache_read_input_tokens": e.cache_hit_tokens,
                    "output_tokens": 1});
                out.push(typed_event(
                    "message_start",
                    json!({"message": {"id": format!("msg_{}", self.id), "type": "message",
                        "role": "assistant", "model": self.model, "content": [], "stop_reason": null,
                        "stop_sequence": null, "usage": usage}}),
                ));
                out.push(typed_event("ping", json!({})));
            }
            Step::Reasoning(text) => {
                let index = self.anthropic_block(Block::Thinking, &mut out);
                out.push(typed_event(
                    "content_block_delta",
                    json!({"index": index, "delta": {"type": "thinking_delta", "thinking": text}}),
                ));
            }
            Step::Content(text) => {
                let index = self.anthropic_block(Block::Text, &mut out);
                out.push(typed_event(
                    "content_block_delta",
                    json!({"index": index, "delta": {"type": "text_delta", "text": text}}),
                ));
            }
            Step::End => {
                if let Some((index, _)) = self.open_block.take() {
                    out.push(typed_event(
                        "content_block_stop",
                        json!({"index": index}),
                    ));
                }
                let reason = if self.end.hit_limit {
                    "max_tokens"
                } else {
                    "end_turn"
                };
                out.push(typed_event(
                    "message_delta",
                    json!({"delta": {"stop_reason": reason, "stop_sequence": null},
                        "usage": {"output_tokens": self.output_tokens()}}),
                ));
                if self.end.terminal {
                    out.push(typed_event("message_stop", json!({})));
                }
            }
        }
        out
    }

    fn ollama(&mut self, step: &Step) -> Vec<(String, Value)> {
        let chat = self.dialect == WireDialect::OllamaChat;
        let line = |content: &str, thinking: Option<&str>, done: bool| {
            let mut v = json!({"model": self.model, "created_at": "2025-01-01T00:00:00Z"});
            if chat {
                v["message"] = json!({"role": "assistant", "content": content});
                if let Some(t) = thinking {
                    v["message"]["thinking"] = json!(t);
                }
            } else {
                v["response"] = json!(content);
                if let Some(t) = thinking {
                    v["thinking"] = json!(t);
                }
            }
            v["done"] = json!(done);
            v
        };
        match step {
            Step::Start => vec![],
            Step::Reasoning(text) => vec![(String::new(), line("", Some(text), false))],
            Step::Content(text) => vec![(String::new(), line(text, None, false))],
            Step::End if !self.end.terminal => vec![],
            Step::End => {
                let mut v = line("", None, true);
                v["done_reason"] = json!(if self.end.hit_limit { "length" } else { "stop" });
                v["prompt_eval_count"] = json!(self.end.prompt_tokens);
                v["eval_count"] = json!(self.output_tokens());
                v["eval_duration"] = json!(self.output_tokens() as u64 * 20_000_000);
                vec![(String::new(), v)]
            }
        }
    }

    fn gemini_usage(&self, candidates: usize, thoughts: usize) -> Value {
        let e = self.end;
        let mut usage = json!({"promptTokenCount": e.prompt_tokens,
            "totalTokenCount": e.prompt_tokens + candidates + thoughts});
        if candidates > 0 {
            usage["candidatesTokenCount"] = json!(candidates);
        }
        if thoughts > 0 {
            usage["thoughtsTokenCount"] = json!(thoughts);
        }
        if e.cache_hit_tokens > 0 {
            usage["cachedContentTokenCount"] = json!(e.cache_hit_tokens);
        }
        usage
    }

    fn gemini(&mut self, step: &Step) -> Vec<(String, Value)> {
        let chunk = |parts: Value, finish: Option<&str>, usage: Value| {
            let mut candidate = json!({"content": {"parts": parts, "role": "model"}, "index": 0});
            if let Some(f) = finish {
                candidate["finishReason"] = json!(f);
            }
            json!({"candidates": [candidate], "usageMetadata": usage, "modelVersion": self.model,
                "responseId": format!("resp_{}", self.id)})
        };
        let prompt_only = self.gemini_usage(0, 0);
        match step {
            Step::Start => vec![],
            Step::Reasoning(text) => vec![(
                String::new(),
                chunk(json!([{"text": text, "thought": true}]), None, prompt_only),
            )],
            Step::Content(text) => vec![(
                String::new(),
                chunk(json!([{"text": text}]), None, prompt_only),
            )],
            Step::End => {
                let finish = match (self.end.terminal, self.end.hit_limit) {
                    (false, _) => None,
                    (true, true) => Some("MAX_TOKENS"),
                    (true, false) => Some("STOP"),
                };
                let usage = self.gemini_usage(self.end.content_tokens, self.end.reasoning_tokens);
                vec![(String::new(), chunk(json!([{"text": ""}]), finish, usage))]
            }
        }
    }
}

impl DialectWriter {
    /// Cohere v2: `message-start`, a text content block opened with its first token (after the thinking
    /// ones), `message-end` with the finish reason and the tokens counted.
    fn cohere(&mut self, step: &Step) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        match step {
            Step::Start => out.push(typed_event(
                "message-start",
                json!({"id": format!("cohere-{}", self.id), "delta": {"message": {"role": "assistant", "content": [],
                    "tool_plan": "", "tool_calls": [], "citations": []}}}),
            )),
            Step::Reasoning(text) => out.push(typed_event(
                "content-delta",
                json!({"index": 0, "delta": {"message": {"content": {"thinking": text}}}}),
            )),
            Step::Content(text) => {
                if self.open_block.is_none() {
                    out.push(typed_event(
                        "content-start",
                        json!({"index": 0, "delta": {"message": {"content": {"type": "text", "text": ""}}}}),
                    ));
                    self.open_block = Some((0, Block::Text));
                }
                out.push(typed_event(
                    "content-delta",
                    json!({"index": 0, "delta": {"message": {"content": {"text": text}}}}),
                ));
            }
            Step::End => {
                if self.open_block.take().is_some() {
                    out.push(typed_event("content-end", json!({"index": 0})));
                }
                if self.end.terminal {
                    let reason = if self.end.hit_limit { "MAX_TOKENS" } else { "COMPLETE" };
                    let e = self.end;
                    out.push(typed_event(
                        "message-end",
                        json!({"delta": {"finish_reason": reason, "usage": {
                            "billed_units": {"input_tokens": e.prompt_tokens, "output_tokens": self.output_tokens()},
                            "tokens": {"input_tokens": e.prompt_tokens, "output_tokens": self.output_tokens()}}}}),
                    ));
                }
            }
        }
        out
    }

    /// Workers AI: one `{"response": token, "p": padding}` event per token (reasoning tokens are sent as
    /// text: its own stream has no reasoning field), then an empty `response` with the `usage` and `[DONE]`.
    fn workers_ai(&mut self, step: &Step) -> Vec<(String, Value)> {
        match step {
            Step::Start => vec![],
            Step::Reasoning(text) | Step::Content(text) => {
                vec![(String::new(), json!({"response": text, "p": "abcdefgh"}))]
            }
            Step::End if !self.end.terminal => vec![],
            Step::End => {
                let e = self.end;
                let usage = json!({"prompt_tokens": e.prompt_tokens, "completion_tokens": self.output_tokens(),
                    "total_tokens": e.prompt_tokens + self.output_tokens()});
                vec![(String::new(), json!({"response": "", "usage": usage}))]
            }
        }
    }

    /// llama.cpp: one `{"content": token, "stop": false}` event per token (reasoning in
    /// `reasoning_content`), then `"stop": true` with `stop_type` and the tokens counted.
    fn llama_cpp(&mut self, step: &Step) -> Vec<(String, Value)> {
        let event = |content: &str, reasoning: Option<&str>| {
            let mut v = json!({"index": 0, "content": content, "stop": false, "id_slot": 0});
            if let Some(r) = reasoning {
                v["reasoning_content"] = json!(r);
            }
            (String::new(), v)
        };
        match step {
            Step::Start => vec![],
            Step::Reasoning(text) => vec![event("", Some(text))],
            Step::Content(text) => vec![event(text, None)],
            Step::End if !self.end.terminal => vec![],
            Step::End => {
                let (_, mut v) = event("", None);
                v["stop"] = json!(true);
                v["stop_type"] = json!(if self.end.hit_limit { "limit" } else { "eos" });
                v["tokens_evaluated"] = json!(self.end.prompt_tokens);
                v["tokens_predicted"] = json!(self.output_tokens());
                vec![(String::new(), v)]
            }
        }
    }
}

impl DialectWriter {
    /// Text Generation Inference: one `{"index", "token": {…, "special": false}, "generated_text": null,
    /// "details": null}` event per token (reasoning tokens are sent as text: its stream has no reasoning
    /// field), then the special `</s>` token with the whole text in `generated_text` and the `details`
    /// (`finish_reason` `eos_token` or `length`, `generated_tokens`, `input_length`).
    fn tgi(&mut self, step: &Step) -> Vec<(String, Value)> {
        let text = match step {
            Step::Start => return vec![],
            Step::End if !self.end.terminal => return vec![],
            Step::Reasoning(text) | Step::Content(text) => text.as_str(),
            Step::End => "</s>",
        };
        self.sequence += 1;
        let last = *step == Step::End;
        let token = json!({"id": 1000 + self.sequence, "text": text, "logprob": -0.25, "special": last});
        let mut event = json!({"index": self.sequence, "token": token, "generated_text": null, "details": null});
        if last {
            event["generated_text"] = json!(self.sent_text);
            event["details"] = json!({"finish_reason": if self.end.hit_limit { "length" } else { "eos_token" },
                "generated_tokens": self.output_tokens(), "seed": null, "input_length": self.end.prompt_tokens});
        } else {
            self.sent_text.push_str(text);
        }
        vec![(String::new(), event)]
    }
}

impl DialectWriter {
    /// The AI SDK's UI message stream: `start` and `start-step`, a `reasoning-start` / `text-start` before
    /// each run of `reasoning-delta` / `text-delta` events (and its `*-end` after), then `finish-step`,
    /// `finish` (with `finishReason` and the usage in `messageMetadata.totalUsage`, as an app adds it) and
    /// `[DONE]`.
    fn ai_sdk(&mut self, step: &Step) -> Vec<(String, Value)> {
        let event = |fields: Value| (String::new(), fields);
        let mut out = Vec::new();
        let (kind, text) = match step {
            Step::Start => {
                out.push(event(json!({"type": "start", "messageId": format!("msg_{}", self.id)})));
                out.push(event(json!({"type": "start-step"})));
                return out;
            }
            Step::End if !self.end.terminal => return out,
            Step::End => {
                self.ai_sdk_block(None, &mut out);
                out.push(event(json!({"type": "finish-step"})));
                let usage = json!({"inputTokens": self.end.prompt_tokens, "outputTokens": self.output_tokens(),
                    "totalTokens": self.end.prompt_tokens + self.output_tokens()});
                out.push(event(json!({"type": "finish", "finishReason": if self.end.hit_limit { "length" } else { "stop" },
                    "messageMetadata": {"totalUsage": usage}})));
                return out;
            }
            Step::Reasoning(text) => (Block::Thinking, text),
            Step::Content(text) => (Block::Text, text),
        };
        let id = self.ai_sdk_block(Some(kind), &mut out);
        let name = if kind == Block::Text { "text-delta" } else { "reasoning-delta" };
        out.push(event(json!({"type": name, "id": id, "delta": text})));
        out
    }

    /// AI SDK 4's data stream: `f:` (the step's start), `g:` reasoning and `0:` text parts, then `e:` (the
    /// step's end) and `d:` (the message's, with `finishReason` and `usage`).
    fn ai_sdk_data_stream(&mut self, step: &Step) -> Vec<(String, Value)> {
        let part = |code: &str, v: Value| (code.to_string(), v);
        match step {
            Step::Start => vec![part("f", json!({"messageId": format!("msg-{}", self.id)}))],
            Step::Reasoning(text) => vec![part("g", json!(text))],
            Step::Content(text) => vec![part("0", json!(text))],
            Step::End if !self.end.terminal => vec![],
            Step::End => {
                let reason = if self.end.hit_limit { "length" } else { "stop" };
                let usage = json!({"promptTokens": self.end.prompt_tokens, "completionTokens": self.output_tokens()});
                vec![
                    part("e", json!({"finishReason": reason, "usage": usage, "isContinued": false})),
                    part("d", json!({"finishReason": reason, "usage": usage})),
                ]
            }
        }
    }

    /// Dify: a `ping`, one `{"event": "message", "answer": token}` per token (reasoning tokens are sent as
    /// text: its stream has no reasoning field), then `message_end` with `metadata.usage`.
    fn dify(&mut self, step: &Step) -> Vec<(String, Value)> {
        let event = |name: &str, mut fields: Value| {
            fields["event"] = json!(name);
            fields["task_id"] = json!(format!("task-{}", self.id));
            fields["message_id"] = json!(format!("msg-{}", self.id));
            fields["conversation_id"] = json!("conv-lab");
            fields["created_at"] = json!(self.created_unix_s);
            (String::new(), fields)
        };
        match step {
            Step::Start => vec![(String::new(), json!({"event": "ping"}))],
            Step::Reasoning(text) | Step::Content(text) => vec![event("message", json!({"answer": text}))],
            Step::End if !self.end.terminal => vec![],
            Step::End => {
                let e = self.end;
                let usage = json!({"prompt_tokens": e.prompt_tokens, "completion_tokens": self.output_tokens(),
                    "total_tokens": e.prompt_tokens + self.output_tokens(), "currency": "USD", "latency": 1.0});
                vec![event("message_end", json!({"metadata": {"usage": usage}}))]
            }
        }
    }

    /// LangGraph, `stream_mode` `messages-tuple`: `metadata`, the user's message in `values`, each token
    /// a `messages` event `[AIMessageChunk, metadata]` (reasoning as a `thinking` block), a last chunk
    /// with `usage_metadata` and `response_metadata.finish_reason`, then `end` (its data `null`).
    fn langgraph(&mut self, step: &Step) -> Vec<(String, Value)> {
        let run_id = format!("run-{}", self.id);
        let chunk = |content: Value, last: Option<(Value, &str)>| {
            let mut message = ai_message_chunk(format!("lc_run--{run_id}"), content);
            if let Some((usage, finish)) = last {
                message["usage_metadata"] = usage;
                message["response_metadata"] = json!({"finish_reason": finish, "model_name": "streamscope-lab"});
                message["chunk_position"] = json!("last");
            }
            ("messages".to_string(), json!([message, {"langgraph_node": "agent", "langgraph_step": 1, "run_id": run_id}]))
        };
        match step {
            Step::Start => vec![
                ("metadata".into(), json!({"run_id": run_id, "attempt": 1})),
                ("values".into(), json!({"messages": [{"content": "Why is the sky blue?", "type": "human", "id": "human-1"}]})),
            ],
            Step::Reasoning(text) => vec![chunk(json!([{"type": "thinking", "thinking": text, "index": 0}]), None)],
            Step::Content(text) => vec![chunk(json!(text), None)],
            Step::End if !self.end.terminal => vec![],
            Step::End => {
                let (input, output) = (self.end.prompt_tokens, self.output_tokens());
                let usage = json!({"input_tokens": input, "output_tokens": output, "total_tokens": input + output});
                let finish = if self.end.hit_limit { "length" } else { "stop" };
                vec![chunk(json!(""), Some((usage, finish))), ("end".into(), Value::Null)]
            }
        }
    }

    /// Cohere v1's chat stream: `stream-start`, each token a `text-generation` line (reasoning is not in
    /// v1: left out), then `stream-end` with the whole answer, `finish_reason` and the counts.
    fn cohere_v1(&mut self, step: &Step) -> Vec<(String, Value)> {
        let line = |fields: Value| (String::new(), fields);
        let generation_id = format!("cohere-{}", self.id);
        match step {
            Step::Start => vec![line(json!({"is_finished": false, "event_type": "stream-start", "generation_id": generation_id}))],
            Step::Reasoning(_) => vec![],
            Step::Content(text) => {
                self.sent_text.push_str(text);
                vec![line(json!({"is_finished": false, "event_type": "text-generation", "text": text}))]
            }
            Step::End if !self.end.terminal => vec![],
            Step::End => {
                let reason = if self.end.hit_limit { "MAX_TOKENS" } else { "COMPLETE" };
                let (input, output) = (self.end.prompt_tokens, self.output_tokens());
                vec![line(json!({"is_finished": true, "event_type": "stream-end", "finish_reason": reason,
                    "response": {"response_id": format!("response-{}", self.id), "text": self.sent_text, "generation_id": generation_id,
                        "finish_reason": reason, "meta": {"api_version": {"version": "1"},
                        "billed_units": {"input_tokens": input, "output_tokens": output},
                        "tokens": {"input_tokens": input, "output_tokens": output}}}}))]
            }
        }
    }

    /// A hand-written backend: each token `{"type": "token", "content": …}` (reasoning as `{"type":
    /// "thinking", …}`, which no common field says is the answer), then `{"type": "done", "done": true}`
    /// with `finish_reason` and `usage` in OpenAI's words.
    fn json_text(&mut self, step: &Step) -> Vec<(String, Value)> {
        let event = |fields: Value| (String::new(), fields);
        match step {
            Step::Start => vec![],
            Step::Reasoning(text) => vec![event(json!({"type": "thinking", "thinking": text}))],
            Step::Content(text) => vec![event(json!({"type": "token", "content": text}))],
            Step::End if !self.end.terminal => vec![],
            Step::End => {
                let finish = if self.end.hit_limit { "length" } else { "stop" };
                let usage = json!({"prompt_tokens": self.end.prompt_tokens, "completion_tokens": self.output_tokens()});
                vec![event(json!({"type": "done", "done": true, "finish_reason": finish, "usage": usage}))]
            }
        }
    }

    /// LangGraph, `stream_mode` `messages`: `metadata`, the user's message in `values`, the answer's
    /// `messages/metadata`, then each token a `messages/partial` with the whole message so far (the
    /// reasoning in a `thinking` block before a `text` block), a `messages/complete` with the counts and
    /// the stop reason, and `end`.
    fn langgraph_partial(&mut self, step: &Step) -> Vec<(String, Value)> {
        let run_id = format!("run-{}", self.id);
        match step {
            Step::Start => {
                return vec![
                    ("metadata".into(), json!({"run_id": run_id, "attempt": 1})),
                    ("values".into(), json!({"messages": [{"content": "Why is the sky blue?", "type": "human", "id": "human-1"}]})),
                    ("messages/metadata".into(), json!({run_id.clone(): {"metadata": {"langgraph_node": "agent", "langgraph_step": 1}}})),
                ];
            }
            Step::Reasoning(text) => self.sent_reasoning.push_str(text),
            Step::Content(text) => self.sent_text.push_str(text),
            Step::End if !self.end.terminal => return vec![],
            Step::End => {}
        }
        let content = if self.sent_reasoning.is_empty() {
            json!(self.sent_text)
        } else {
            json!([{"type": "thinking", "thinking": self.sent_reasoning, "index": 0}, {"type": "text", "text": self.sent_text, "index": 1}])
        };
        let mut message = ai_message_chunk(run_id, content);
        message["type"] = json!("ai");
        if *step != Step::End {
            return vec![("messages/partial".into(), json!([message]))];
        }
        let (input, output) = (self.end.prompt_tokens, self.output_tokens());
        message["usage_metadata"] = json!({"input_tokens": input, "output_tokens": output, "total_tokens": input + output});
        let finish = if self.end.hit_limit { "length" } else { "stop" };
        message["response_metadata"] = json!({"finish_reason": finish, "model_name": "streamscope-lab"});
        vec![("messages/complete".into(), json!([message])), ("end".into(), Value::Null)]
    }

    /// LangServe, `/stream` of a chat model: `metadata`, each token a `data` event with the message chunk
    /// (reasoning as a `thinking` block), a chunk with the stop reason, one with `usage_metadata`, then
    /// `end` (no data).
    fn langserve(&mut self, step: &Step) -> Vec<(String, Value)> {
        let chunk = |content: Value| ai_message_chunk(format!("run-{}", self.id), content);
        match step {
            Step::Start => vec![("metadata".into(), json!({"run_id": format!("run-{}", self.id)}))],
            Step::Reasoning(text) => vec![("data".into(), chunk(json!([{"type": "thinking", "thinking": text, "index": 0}])))],
            Step::Content(text) => vec![("data".into(), chunk(json!(text)))],
            Step::End if !self.end.terminal => vec![],
            Step::End => {
                let (input, output) = (self.end.prompt_tokens, self.output_tokens());
                let finish = if self.end.hit_limit { "length" } else { "stop" };
                let mut stop = chunk(json!(""));
                stop["response_metadata"] = json!({"finish_reason": finish, "model_name": "streamscope-lab"});
                let mut usage = chunk(json!(""));
                usage["usage_metadata"] = json!({"input_tokens": input, "output_tokens": output, "total_tokens": input + output});
                vec![("data".into(), stop), ("data".into(), usage), ("end".into(), Value::Null)]
            }
        }
    }

    /// LangServe, `/stream` of a chain whose output is text: `metadata`, the parser's first output (an
    /// empty string), each token a JSON string in a `data` event, then `end` (no data). The text has no
    /// reasoning, counts or stop reason to say.
    fn langserve_text(&mut self, step: &Step) -> Vec<(String, Value)> {
        match step {
            Step::Start => vec![("metadata".into(), json!({"run_id": format!("run-{}", self.id)})), ("data".into(), json!(""))],
            Step::Reasoning(_) => vec![],
            Step::Content(text) => vec![("data".into(), json!(text))],
            Step::End if !self.end.terminal => vec![],
            Step::End => vec![("end".into(), Value::Null)],
        }
    }

    /// AG-UI: `RUN_STARTED`, a `REASONING_MESSAGE_START` / `TEXT_MESSAGE_START` before each run of
    /// `…_CONTENT` events (and its `…_END` after), then `RUN_FINISHED` (no token counts in the protocol).
    fn ag_ui(&mut self, step: &Step) -> Vec<(String, Value)> {
        let event = |fields: Value| (String::new(), fields);
        let mut out = Vec::new();
        let kind = match step {
            Step::Start => {
                out.push(event(json!({"type": "RUN_STARTED", "threadId": "thread-lab", "runId": format!("run-{}", self.id)})));
                return out;
            }
            Step::End if !self.end.terminal => return out,
            Step::End => {
                if let Some((index, open)) = self.open_block.take() {
                    out.push(event(json!({"type": ag_ui_kind(open, "END"), "messageId": format!("m-{index}")})));
                }
                out.push(event(json!({"type": "RUN_FINISHED", "threadId": "thread-lab", "runId": format!("run-{}", self.id)})));
                return out;
            }
            Step::Reasoning(_) => Block::Thinking,
            Step::Content(_) => Block::Text,
        };
        if self.open_block.is_none_or(|(_, open)| open != kind) {
            if let Some((index, open)) = self.open_block.take() {
                out.push(event(json!({"type": ag_ui_kind(open, "END"), "messageId": format!("m-{index}")})));
            }
            let index = self.sequence as usize;
            self.sequence += 1;
            out.push(event(json!({"type": ag_ui_kind(kind, "START"), "messageId": format!("m-{index}"), "role": "assistant"})));
            self.open_block = Some((index, kind));
        }
        let (Step::Reasoning(text) | Step::Content(text)) = step else { return out };
        let index = self.open_block.map_or(0, |(i, _)| i);
        out.push(event(json!({"type": ag_ui_kind(kind, "CONTENT"), "messageId": format!("m-{index}"), "delta": text})));
        out
    }

    /// Ends the open part unless it is `kind`'s, and starts `kind`'s (none: only ends); the part's id.
    fn ai_sdk_block(&mut self, kind: Option<Block>, out: &mut Vec<(String, Value)>) -> String {
        let id_of = |index: usize, block: Block| format!("{}_{index}", if block == Block::Text { "txt" } else { "rs" });
        match self.open_block {
            Some((index, open)) if Some(open) == kind => return id_of(index, open),
            Some((index, open)) => {
                let end = if open == Block::Text { "text-end" } else { "reasoning-end" };
                out.push((String::new(), json!({"type": end, "id": id_of(index, open)})));
                self.open_block = None;
            }
            None => {}
        }
        let Some(kind) = kind else { return String::new() };
        let index = self.sequence as usize;
        self.sequence += 1;
        let start = if kind == Block::Text { "text-start" } else { "reasoning-start" };
        out.push((String::new(), json!({"type": start, "id": id_of(index, kind)})));
        self.open_block = Some((index, kind));
        id_of(index, kind)
    }
}

/// An AG-UI event type for a message of `kind` at `phase` (`START`, `CONTENT`, `END`).
fn ag_ui_kind(kind: Block, phase: &str) -> String {
    let family = if kind == Block::Text { "TEXT_MESSAGE" } else { "REASONING_MESSAGE" };
    format!("{family}_{phase}")
}

/// A JSON event whose `type` field is also its SSE event name (Anthropic, Cohere).
fn typed_event(kind: &str, mut fields: Value) -> (String, Value) {
    fields["type"] = json!(kind);
    (kind.to_string(), fields)
}

/// SSE text: each content token as `data:` lines (one per line of text), `[DONE]` at the end.
fn sse_text(step: &Step, end: EndFacts) -> Vec<u8> {
    match step {
        Step::Content(text) => data_lines(String::new(), text).into_bytes(),
        Step::End if end.terminal => b"data: [DONE]\n\n".to_vec(),
        _ => Vec::new(),
    }
}

/// `text` as the data lines of one SSE event after `out` (a line break splits it), and the blank line
/// that ends the event.
fn data_lines(mut out: String, text: &str) -> String {
    for line in text.split('\n') {
        out.push_str("data: ");
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// Replicate's prediction stream: each token in an `event: output` (a line break splits it into data
/// lines), then `event: done` with `{}`; the reasoning is not streamed.
fn replicate(step: &Step, end: EndFacts) -> Vec<u8> {
    match step {
        Step::Content(text) => data_lines("event: output\n".to_string(), text).into_bytes(),
        Step::End if end.terminal => b"event: done\ndata: {}\n\n".to_vec(),
        _ => Vec::new(),
    }
}

/// A LangChain `AIMessageChunk` as LangGraph and LangServe serialise it, carrying `content`.
fn ai_message_chunk(id: String, content: Value) -> Value {
    json!({"content": content, "additional_kwargs": {}, "response_metadata": {}, "type": "AIMessageChunk",
        "name": null, "id": id, "example": false, "tool_calls": [], "invalid_tool_calls": [],
        "usage_metadata": null, "tool_call_chunks": []})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writer(dialect: WireDialect, hit_limit: bool, terminal: bool) -> DialectWriter {
        let end = EndFacts {
            prompt_tokens: 12,
            cache_hit_tokens: 12,
            content_tokens: 2,
            reasoning_tokens: 1,
            hit_limit,
            terminal,
        };
        DialectWriter::new(dialect, "lab", 7, 1_700_000_000, end)
    }

    fn steps() -> Vec<Step> {
        vec![
            Step::Start,
            Step::Reasoning(" hm".into()),
            Step::Content(" a".into()),
            Step::Content(" b".into()),
            Step::End,
        ]
    }

    fn body(dialect: WireDialect, hit_limit: bool, terminal: bool) -> String {
        let mut w = writer(dialect, hit_limit, terminal);
        let bytes: Vec<u8> = steps()
            .iter()
            .flat_map(|s| w.render(s, Some(1.5)))
            .collect();
        String::from_utf8(bytes).unwrap()
    }

    fn data_json(body: &str) -> Vec<Value> {
        body.lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|d| serde_json::from_str(d).unwrap())
            .collect()
    }

    #[test]
    fn steps_rendered_without_a_stamp_carry_no_server_ms() {
        for dialect in [
            WireDialect::Responses,
            WireDialect::Anthropic,
            WireDialect::OllamaChat,
            WireDialect::OllamaGenerate,
            WireDialect::Gemini,
        ] {
            let mut w = writer(dialect, false, true);
            let bytes: Vec<u8> = steps().iter().flat_map(|s| w.render(s, None)).collect();
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.contains(" b"), "{dialect:?}: {text}");
            assert!(!text.contains("server_ms"), "{dialect:?}: {text}");
        }
        assert!(body(WireDialect::Gemini, false, true).contains(r#""server_ms":1.5"#));
    }

    #[test]
    fn responses_stream_ends_with_completed_and_usage() {
        let b = body(WireDialect::Responses, false, true);
        let events = data_json(&b);
        let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(types[0], "response.created");
        assert_eq!(types.last(), Some(&"response.completed"));
        let last = events.last().unwrap();
        assert_eq!(last["response"]["usage"]["output_tokens"], 3);
        assert_eq!(
            last["response"]["usage"]["output_tokens_details"]["reasoning_tokens"],
            1
        );
        assert!(b.contains("event: response.output_text.delta\n"));
        let seq: Vec<u64> = events
            .iter()
            .map(|e| e["sequence_number"].as_u64().unwrap())
            .collect();
        assert!(seq.windows(2).all(|w| w[1] == w[0] + 1));
        let limited = data_json(&body(WireDialect::Responses, true, true));
        assert_eq!(
            limited.last().unwrap()["response"]["incomplete_details"]["reason"],
            "max_output_tokens"
        );
        let cut = data_json(&body(WireDialect::Responses, false, false));
        assert!(cut.iter().all(|e| e["type"] != "response.completed"));
    }

    #[test]
    fn anthropic_blocks_open_and_close_in_order() {
        let b = body(WireDialect::Anthropic, true, true);
        let types: Vec<String> = data_json(&b)
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            types,
            [
                "message_start",
                "ping",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );
        let events = data_json(&b);
        assert_eq!(events[0]["message"]["usage"]["cache_read_input_tokens"], 12);
        assert_eq!(events[10]["delta"]["stop_reason"], "max_tokens");
        assert!(!body(WireDialect::Anthropic, false, false).contains("message_stop"));
    }

    #[test]
    fn ollama_lines_and_done() {
        let b = body(WireDialect::OllamaChat, false, true);
        let lines: Vec<Value> = b
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0]["message"]["thinking"], " hm");
        assert_eq!(lines[1]["message"]["content"], " a");
        assert_eq!(lines[3]["done"], true);
        assert_eq!(lines[3]["eval_count"], 3);
        let g = body(WireDialect::OllamaGenerate, true, true);
        let last: Value = serde_json::from_str(g.lines().last().unwrap()).unwrap();
        assert_eq!(
            (&last["done_reason"], &last["response"]),
            (&json!("length"), &json!(""))
        );
        assert_eq!(
            body(WireDialect::OllamaGenerate, false, false)
                .lines()
                .count(),
            3
        );
    }

    #[test]
    fn gemini_chunks_with_crlf_and_finish_reason() {
        let b = body(WireDialect::Gemini, false, true);
        assert!(b.contains("}\r\n\r\ndata: "));
        let chunks = data_json(&b);
        assert_eq!(
            chunks[0]["candidates"][0]["content"]["parts"][0]["thought"],
            true
        );
        let last = chunks.last().unwrap();
        assert_eq!(last["candidates"][0]["finishReason"], "STOP");
        assert_eq!(last["usageMetadata"]["thoughtsTokenCount"], 1);
        assert_eq!(last["usageMetadata"]["cachedContentTokenCount"], 12);
        let cut = data_json(&body(WireDialect::Gemini, false, false));
        assert!(cut.last().unwrap()["candidates"][0]
            .get("finishReason")
            .is_none());
    }

    #[test]
    fn cohere_events_open_a_content_block_and_end_with_message_end() {
        let b = body(WireDialect::Cohere, false, true);
        let types: Vec<String> = data_json(&b).iter().map(|v| v["type"].as_str().unwrap().to_string()).collect();
        assert_eq!(types.first().map(String::as_str), Some("message-start"));
        assert_eq!(types.iter().filter(|t| *t == "content-start").count(), 1);
        assert_eq!(types.last().map(String::as_str), Some("message-end"));
        assert!(b.contains("event: content-delta\n"), "{b}");
        let end = data_json(&b).pop().unwrap();
        assert_eq!(end["delta"]["finish_reason"], "COMPLETE");
        assert_eq!(end["delta"]["usage"]["tokens"]["output_tokens"], 3);
        assert!(body(WireDialect::Cohere, true, true).contains("MAX_TOKENS"));
        assert!(!body(WireDialect::Cohere, false, false).contains("message-end"));
    }

    #[test]
    fn workers_ai_events_end_with_usage_and_done() {
        let b = body(WireDialect::WorkersAi, false, true);
        let events = data_json(&b.replace("data: [DONE]", ""));
        assert_eq!(events[0]["response"], " hm");
        assert_eq!(events[1]["response"], " a");
        assert_eq!(events.last().unwrap()["usage"]["completion_tokens"], 3);
        assert!(b.ends_with("data: [DONE]\n\n") && !b.contains("event:"), "{b}");
        assert!(!body(WireDialect::WorkersAi, false, false).contains("[DONE]"));
    }

    #[test]
    fn llama_cpp_events_end_with_stop_true() {
        let events = data_json(&body(WireDialect::LlamaCpp, true, true));
        assert_eq!((events[0]["reasoning_content"].as_str(), events[1]["content"].as_str()), (Some(" hm"), Some(" a")));
        let end = events.last().unwrap();
        assert_eq!((end["stop"].as_bool(), end["stop_type"].as_str(), end["tokens_predicted"].as_u64()), (Some(true), Some("limit"), Some(3)));
        assert!(data_json(&body(WireDialect::LlamaCpp, false, false)).iter().all(|v| v["stop"] == false));
    }

    #[test]
    fn tgi_events_end_with_the_whole_text_and_details() {
        let b = body(WireDialect::Tgi, true, true);
        assert!(b.starts_with("data:{"), "{b}");
        let events: Vec<Value> = b.lines().filter_map(|l| l.strip_prefix("data:")).map(|d| serde_json::from_str(d).unwrap()).collect();
        assert_eq!((events[0]["token"]["text"].as_str(), events[0]["generated_text"].is_null()), (Some(" hm"), true));
        let end = events.last().unwrap();
        assert_eq!((end["token"]["special"].as_bool(), end["generated_text"].as_str()), (Some(true), Some(" hm a b")));
        assert_eq!((end["details"]["finish_reason"].as_str(), end["details"]["generated_tokens"].as_u64()), (Some("length"), Some(3)));
        assert!(!body(WireDialect::Tgi, false, false).contains("generated_text\":\""));
    }

    #[test]
    fn ai_sdk_parts_open_stream_and_close() {
        let b = body(WireDialect::AiSdk, true, true);
        assert!(b.ends_with("data: [DONE]\n\n"), "{b}");
        let events = data_json(&b.replace("data: [DONE]", ""));
        let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["start", "start-step", "reasoning-start", "reasoning-delta", "reasoning-end", "text-start", "text-delta",
            "text-delta", "text-end", "finish-step", "finish"]);
        assert_eq!((events[6]["delta"].as_str(), events[6]["id"] == events[5]["id"]), (Some(" a"), true));
        let finish = events.last().unwrap();
        assert_eq!((finish["finishReason"].as_str(), finish["messageMetadata"]["totalUsage"]["outputTokens"].as_u64()), (Some("length"), Some(3)));
        let cut = body(WireDialect::AiSdk, false, false);
        assert!(!cut.contains("finish") && !cut.contains("[DONE]"), "{cut}");
    }

    #[test]
    fn ai_sdk_data_stream_is_coded_lines() {
        let b = body(WireDialect::AiSdkDataStream, true, true);
        let lines: Vec<&str> = b.lines().collect();
        assert!(lines[0].starts_with("f:{\"messageId\""), "{b}");
        assert_eq!(lines[1..4], ["g:\" hm\"", "0:\" a\"", "0:\" b\""]);
        let end: Value = serde_json::from_str(lines[5].strip_prefix("d:").unwrap()).unwrap();
        assert_eq!((end["finishReason"].as_str(), end["usage"]["completionTokens"].as_u64()), (Some("length"), Some(3)));
        assert!(!body(WireDialect::AiSdkDataStream, false, false).contains("d:"));
    }

    #[test]
    fn gemini_array_is_one_json_array_of_the_sse_chunks() {
        let b = body(WireDialect::GeminiArray, true, true);
        assert!(b.starts_with("[{\n  \"candidates\"") && b.ends_with("\n]") && b.contains("}\n,\r\n{"), "{b}");
        let chunks: Vec<Value> = serde_json::from_str(&b).unwrap();
        let sse = data_json(&body(WireDialect::Gemini, true, true));
        assert_eq!(chunks, sse);
        // Cut: no closing bracket.
        assert!(!body(WireDialect::GeminiArray, false, false).ends_with(']'));
    }

    #[test]
    fn dify_events_end_with_message_end() {
        let events = data_json(&body(WireDialect::Dify, true, true));
        assert_eq!((events[0]["event"].as_str(), events[1]["answer"].as_str(), events[2]["answer"].as_str()), (Some("ping"), Some(" hm"), Some(" a")));
        let end = events.last().unwrap();
        assert_eq!((end["event"].as_str(), end["metadata"]["usage"]["completion_tokens"].as_u64()), (Some("message_end"), Some(3)));
        assert!(end["task_id"].is_string());
        assert!(!body(WireDialect::Dify, false, false).contains("message_end"));
    }

    #[test]
    fn langgraph_message_tuples_and_the_end() {
        let text = body(WireDialect::LangGraph, true, true);
        let names: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("event: ")).collect();
        assert_eq!(names, ["metadata", "values", "messages", "messages", "messages", "messages", "end"]);
        assert!(text.ends_with("event: end\ndata: null\n\n"), "{text}");
        let tuples: Vec<Value> = text.lines().filter_map(|l| l.strip_prefix("data: [")).map(|d| serde_json::from_str(&format!("[{d}")).unwrap()).collect();
        assert_eq!((tuples[0][0]["content"][0]["type"].as_str(), tuples[1][0]["content"].as_str()), (Some("thinking"), Some(" a")));
        assert_eq!(tuples[3][0]["response_metadata"]["finish_reason"], "length");
        assert!(tuples[3][0]["usage_metadata"]["output_tokens"].as_u64().is_some());
        assert!(!body(WireDialect::LangGraph, false, false).contains("event: end"));
    }

    #[test]
    fn json_text_tokens_and_a_done_event() {
        let events = data_json(&body(WireDialect::JsonText, true, true));
        assert!(events.iter().any(|e| e["type"] == "token" && e["content"].is_string()));
        let last = events.last().unwrap();
        assert_eq!((last["done"].as_bool(), last["finish_reason"].as_str()), (Some(true), Some("length")));
        assert!(last["usage"]["completion_tokens"].as_u64().is_some());
        assert!(!body(WireDialect::JsonText, false, false).contains("\"done\""));
    }

    #[test]
    fn cohere_v1_lines_and_replicate_events() {
        let text = body(WireDialect::CohereV1, true, true);
        let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines[0]["event_type"], "stream-start");
        assert!(lines[1..lines.len() - 1].iter().all(|l| l["event_type"] == "text-generation" && l["is_finished"] == false));
        let end = lines.last().unwrap();
        assert_eq!((end["is_finished"].as_bool(), end["finish_reason"].as_str()), (Some(true), Some("MAX_TOKENS")));
        assert!(end["response"]["meta"]["tokens"]["output_tokens"].as_u64().is_some());
        assert!(!body(WireDialect::CohereV1, false, false).contains("stream-end"));
        let text = body(WireDialect::Replicate, false, true);
        assert!(text.starts_with("event: output\ndata: ") && text.ends_with("event: done\ndata: {}\n\n"), "{text}");
        assert!(!body(WireDialect::Replicate, false, false).contains("event: done"));
    }

    #[test]
    fn langgraph_partial_messages_repeat_the_whole_message() {
        let text = body(WireDialect::LangGraphPartial, true, true);
        let names: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("event: ")).collect();
        assert_eq!(names[..3], ["metadata", "values", "messages/metadata"]);
        assert_eq!(names[names.len() - 2..], ["messages/complete", "end"]);
        let lists: Vec<Value> = text.lines().filter_map(|l| l.strip_prefix("data: [")).map(|d| serde_json::from_str(&format!("[{d}")).unwrap()).collect();
        // Each message holds what the one before held, and more.
        let texts: Vec<String> = lists.iter().map(|l| l[0]["content"][1]["text"].as_str().unwrap_or_default().to_string()).collect();
        assert!(texts.windows(2).all(|w| w[1].starts_with(&w[0])), "{texts:?}");
        assert_eq!(lists[0][0]["content"][0]["thinking"].as_str().map(str::is_empty), Some(false));
        let complete = lists.last().unwrap();
        assert_eq!(complete[0]["response_metadata"]["finish_reason"], "length");
        assert!(complete[0]["usage_metadata"]["output_tokens"].as_u64().is_some());
        assert!(!body(WireDialect::LangGraphPartial, false, false).contains("messages/complete"));
    }

    /// The event names and the JSON data of a LangServe body, after checking that every line ends in CRLF.
    fn crlf_events(text: &str) -> (Vec<&str>, Vec<Value>) {
        assert!(!text.replace("\r\n", "").contains('\n'), "every line ends in CRLF: {text}");
        let names = text.split("\r\n").filter_map(|l| l.strip_prefix("event: ")).collect();
        let data = text.split("\r\n").filter_map(|l| l.strip_prefix("data: ")).map(|d| serde_json::from_str(d).unwrap()).collect();
        (names, data)
    }

    #[test]
    fn langserve_chunks_crlf_and_an_end_without_data() {
        let text = body(WireDialect::LangServe, true, true);
        let (names, events) = crlf_events(&text);
        assert_eq!(names, ["metadata", "data", "data", "data", "data", "data", "end"]);
        assert!(text.ends_with("event: end\r\n\r\n") && !text.contains("data: null"), "{text}");
        assert_eq!((events[1]["content"][0]["type"].as_str(), events[2]["content"].as_str()), (Some("thinking"), Some(" a")));
        assert_eq!(events[4]["response_metadata"]["finish_reason"], "length");
        assert!(events[5]["usage_metadata"]["output_tokens"].as_u64().is_some());
        assert!(!body(WireDialect::LangServe, false, false).contains("event: end"));
    }

    #[test]
    fn langserve_text_strings_crlf_and_an_end_without_data() {
        let text = body(WireDialect::LangServeText, false, true);
        let (names, pieces) = crlf_events(&text);
        assert_eq!(names.first(), Some(&"metadata"));
        assert_eq!(names.last(), Some(&"end"));
        assert_eq!(pieces[1], json!(""), "the parser's first output");
        assert!(pieces[2..].iter().all(Value::is_string), "{text}");
        assert!(!pieces[2..].iter().filter_map(Value::as_str).collect::<String>().is_empty());
        assert!(!body(WireDialect::LangServeText, false, false).contains("event: end"));
    }

    #[test]
    fn ag_ui_messages_open_stream_and_close() {
        let events = data_json(&body(WireDialect::AgUi, true, true));
        let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["RUN_STARTED", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END",
            "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
        assert_eq!((events[5]["delta"].as_str(), events[5]["messageId"] == events[4]["messageId"]), (Some(" a"), true));
        assert!(!body(WireDialect::AgUi, false, false).contains("RUN_FINISHED"));
    }

    #[test]
    fn sse_text_is_plain_data_lines() {
        assert_eq!(
            body(WireDialect::SseText, false, true),
            "data:  a\n\ndata:  b\n\ndata: [DONE]\n\n"
        );
    }
}
