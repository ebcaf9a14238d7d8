//! Stream settings for `/v1/chat/completions`: query parameters first, then the JSON body, then the
//! named defaults below (`DEFAULT_*`; limits are `MAX_*`).
//!
//! | query | default | meaning |
//! |---|---|---|
//! | `tokens` | 50 ([`DEFAULT_TOKENS`]) | content events (capped by the body's `max_tokens`) |
//! | `cadence_ms` | 20 ([`DEFAULT_CADENCE_MS`]) | time between content events (or `lab-<N>ms` as the body's `model`) |
//! | `first_ms` | 300 ([`DEFAULT_FIRST_MS`]) | request received → first content event |
//! | `pad` | 0 ([`DEFAULT_PAD_BYTES`]) | bytes of padding in a `"pad"` string field of every JSON event |
//! | `role_first` | 1 ([`DEFAULT_ROLE_FIRST`]) | role-only chunk right away, before the first token |
//! | `usage` | 1 ([`DEFAULT_USAGE`]) | final chunk with `usage`, before `data: [DONE]` |
//! | `mode` | `stream` | `stream`, `collect`, `raw`, `malformed`, `stall`, `bursts` |
//! | `stall_after` | 5 ([`DEFAULT_STALL_AFTER`]) | content events before a `stall` goes silent |
//! | `status` | — | answer with this HTTP status (400-599) and an error body (`error_style`, `retry_after`, `html_error`, `require_key`, `model_check`, `cors`: see [`crate::scenarios::triage`]) |
//! | `ct` | — | `sse`: label `raw` mode `text/event-stream` |
//! | `split_utf8` | 0 | send each event holding a multi-byte character as two writes, 5 ms apart, split inside the character |
//! | `burst_every_ms` | 500 ([`DEFAULT_BURST_EVERY_MS`]) | `bursts`: hold events and release everything held every N ms (from the request) in one write |
//! | `burst_bytes` | — | `bursts`: release as soon as N bytes are held (with `burst_every_ms`: whichever comes first; alone: no timer) |
//! | `content_length` | 0 | `stream`: declare `Content-Length` up front (no chunked encoding); `server_ms` is then the scheduled time |
//! | `cache` | `miss` | `hit`: add `Age: 300` and `X-Cache: HIT`, and date every chunk's `created` one hour back |
//! | `jitter_ms` | 0 ([`DEFAULT_JITTER_MS`]) | move each content event's deadline by a deterministic pseudo-random amount in [−N, +N], never before the previous event |
//! | `tokens_per_event` | 1 ([`DEFAULT_TOKENS_PER_EVENT`]) | tokens' text per content event (`tokens` still counts tokens, so does `usage.completion_tokens`) |
//! | `split_events` | 0 | send every event as two writes about 2 ms apart, split in the middle |
//! | `accel` | — | `no` (or `yes`): add the response header `X-Accel-Buffering: no` (`yes`) |
//! | `dialect` | `openai-chat` | `responses`, `anthropic`, `ollama-chat`, `ollama-generate`, `gemini`, `sse-text`: the same timed stream in that wire format (`mode=stream` only; see [`crate::scenarios::dialect_events`]) |
//! | `reasoning` | 0 | with `dialect`: N reasoning tokens, at the cadence, ending just before `first_ms` |
//! | `finish` | `stop` | with `dialect`: `length` ends with the dialect's token-limit reason (also when the body's limit cut `tokens`) |
//! | `terminal` | 1 | with `dialect`: `0` leaves out the end marker (`response.completed`, `message_stop`, `done: true`, `finishReason`, `[DONE]`) |
//! | `keepalive_bytes` | 0 ([`DEFAULT_KEEPALIVE_BYTES`]) | `stream`: N bytes (rounded up to whole comments) of SSE comments `: keep-alive\n\n` right after the role chunk, before the first token, in writes of about 4 KB sent as fast as the client takes them |
//! | `echo_headers` | 0 | `stream`: the content is the request's credential headers (`authorization`, `x-api-key`, `x-goog-api-key`, `api-key`) and its query, in one content event sent in writes of 5 bytes about 3 ms apart: a debug proxy echoing the request, the key split across reads (the page must scrub it) |
//! | `say` | — | `stream`: the content is this text, in one content event (hostile text for the page to show as text: `<img onerror>`, `<script>`, Markdown) |
//! | `long_line_bytes` | 0 ([`DEFAULT_LONG_LINE_BYTES`]) | `stream`: after the `tokens` content events, one `data:` line of N bytes (`data: ` included) that never ends, in writes of 64 KB; then the body closes (no finish, usage or `[DONE]`) |
//! | `reset_after` | — | `stream` (OpenAI chat, no `content_length`): the role chunk and N content events at their deadlines (N capped by the content events), then, when the next event would be due, the server resets the connection (TCP RST mid-body: no finish, usage, `[DONE]` or final chunk), as a crashed backend or a killed proxy does |
//! | `linger_ms` | 0 | `stream` (every dialect): after the last write (the end marker), the response stays open N ms, or until the client leaves, before the body ends: a server that forgets to end its response |
//! | `stamp` | 1 ([`DEFAULT_STAMP`]) | `0`: JSON events carry no `server_ms` (what real providers send: no server timestamps), in every mode and dialect |
//! | `batch` | 1 ([`DEFAULT_BATCH`]) | `stream`: content events leave K at a time in ONE write, at the deadline of the last event of each group (the last group may be shorter), each stamped at that write: an inference engine's micro-batching or multi-step scheduling |
//! | `cumulative` | 0 | `1`: every content event carries the whole answer so far, not only its new tokens, and every reasoning event (`reasoning`) the whole reasoning so far (in every dialect): a server, gateway or wrapper that resends the text so far instead of a delta |
//! | `prompt` | — | the prompt text, instead of the body's (a GET has no body): what `usage.prompt_tokens` and the simulated prefix cache count (see [`crate::scenarios::prompt_cache`]) |
//! | `usage_style` | `deepseek` | OpenAI chat only: the usage's cache fields, `deepseek` (`prompt_cache_hit_tokens`, `prompt_cache_miss_tokens`) or `openai` (`prompt_tokens_details.cached_tokens`) |
//! | `slots` | — | K (1-[`MAX_SLOTS`](crate::scenarios::slots::MAX_SLOTS)): at most K streams of the pool served at once, the rest wait in FIFO order after their response head went out; the stream's clock (role chunk, `first_ms`, cadence, `server_ms`) starts when it gets its slot, which it holds until its last byte (see [`crate::scenarios::slots`]); the head carries `X-Lab-Queue-Position` |
//! | `slot_pool` | `default` | with `slots`: the pool's name (pools are `(slot_pool, K)`), so separate tests do not share a queue |
//!
//! A request whose planned body would exceed [`size::MAX_RESPONSE_BYTES`] (1 GiB; about `tokens × pad`)
//! is refused with a `400` naming that product (see [`crate::scenarios::size`]); so is a body `model`
//! longer than [`MAX_MODEL_BYTES`].
//!
//! Times (`cadence_ms`, `first_ms`) may have fractions (`cadence_ms=0.5`); `first_ms=0` sends the first
//! token at once. Events leave at absolute deadlines counted from the request (with `slots`, from when
//! the stream got its slot; see [`crate::scenarios::schedule`]), to within about 0.1 ms: tokio's timer wakes the sender up to a ms
//! early and the rest is slept on a blocking thread, so a 1 ms cadence is 1,000 events per second and
//! lateness never accumulates.
//!
//! Every JSON event of an OpenAI chat stream (role, content, finish, usage) carries `server_ms`, the
//! lab's send time in ms after the request was received, taken just before its write; the other
//! dialects' JSON messages carry it too. Exceptions, by design: `mode=bursts` stamps an event when it is
//! generated (the hold time is the point), `content_length=1` stamps the scheduled time (the length is
//! fixed up front), and text without JSON (`mode=raw`, `dialect=sse-text`, `[DONE]`, comments) has none.
//! With `stamp=0` no event carries it.

use serde_json::Value;

use crate::http::query::Query;
use crate::scenarios::chunks::{LabFilter, UsageStyle};
use crate::scenarios::prompt_cache::{prompt_text, Prompt};
use crate::scenarios::schedule;
use crate::scenarios::slots::SlotRequest;
use crate::scenarios::size;
use crate::scenarios::wire_dialect::WireDialect;

/// `tokens`: content events when the query does not say (what a short chat answer looks like).
pub const DEFAULT_TOKENS: usize = 50;
/// `cadence_ms`: time between content events, a typical decode speed (50 tokens/s).
pub const DEFAULT_CADENCE_MS: f64 = 20.0;
/// `first_ms`: request received → first content event, a typical prefill time.
pub const DEFAULT_FIRST_MS: f64 = 300.0;
/// `pad`: no padding.
pub const DEFAULT_PAD_BYTES: usize = 0;
/// `role_first`: a role-only chunk right away, as OpenAI and vLLM send it.
pub const DEFAULT_ROLE_FIRST: bool = true;
/// `usage`: a final usage chunk, as with `stream_options.include_usage`.
pub const DEFAULT_USAGE: bool = true;
/// `stall_after`: content events a `stall` sends before going silent.
pub const DEFAULT_STALL_AFTER: usize = 5;
/// `burst_every_ms`: release period of `mode=bursts` when neither it nor `burst_bytes` is given.
pub const DEFAULT_BURST_EVERY_MS: u64 = 500;
/// `jitter_ms`: no jitter.
pub const DEFAULT_JITTER_MS: u64 = 0;
/// `tokens_per_event`: one token per event.
pub const DEFAULT_TOKENS_PER_EVENT: usize = 1;
/// `keepalive_bytes`: no keep-alive comments.
pub const DEFAULT_KEEPALIVE_BYTES: usize = 0;
/// `long_line_bytes`: no unterminated line.
pub const DEFAULT_LONG_LINE_BYTES: usize = 0;
/// `stamp`: every JSON event carries the lab's `server_ms`.
pub const DEFAULT_STAMP: bool = true;
/// `batch`: one content event per write.
pub const DEFAULT_BATCH: usize = 1;
/// The model echoed in every chunk when the body names none.
pub const DEFAULT_MODEL: &str = "streamscope-lab";

/// Largest `tokens`, `stall_after`, `tokens_per_event`, `reasoning`, `reset_after` and `batch`.
pub const MAX_TOKENS: usize = 100_000;
/// Largest delay or period in ms (ten minutes).
pub const MAX_DELAY_MS: u64 = 600_000;
/// Largest `pad` and `burst_bytes`.
pub const MAX_PAD_BYTES: usize = 16 * 1024 * 1024;
/// Largest `keepalive_bytes` and `long_line_bytes`.
pub const MAX_FLOOD_BYTES: usize = 64 * 1024 * 1024;
/// Longest model name a body may give: real ids are under 64 bytes, and the name is echoed in every
/// event, so a long one would multiply the response.
pub const MAX_MODEL_BYTES: usize = 256;

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
    /// Events held and released in bursts, as a buffering proxy would (see [`Bursts`]).
    Bursts,
}

/// When `mode=bursts` releases the events it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bursts {
    /// Release everything held at every multiple of this many ms after the request.
    pub every_ms: Option<u64>,
    /// Release as soon as at least this many bytes are held.
    pub bytes: Option<usize>,
}


/// Everything that shapes one chat-completions response.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamSettings {
    /// Number of content events.
    pub tokens: usize,
    /// Time between content events (fractions of a ms allowed).
    pub cadence_ms: f64,
    /// Delay from request to the first content event (`0`: at once).
    pub first_ms: f64,
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
    /// Release rule for `mode=bursts`.
    pub bursts: Bursts,
    /// Declare `Content-Length` up front on a timed stream instead of chunked encoding.
    pub content_length: bool,
    /// Pretend to be a cache replay: `Age`, `X-Cache: HIT`, `created` one hour back.
    pub cache_hit: bool,
    /// Largest pseudo-random shift of a content event's deadline, either way.
    pub jitter_ms: u64,
    /// Tokens carried by each content event.
    pub tokens_per_event: usize,
    /// Send every event in two writes about 2 ms apart.
    pub split_events: bool,
    /// Value of an `X-Accel-Buffering` response header, if any (`"no"` or `"yes"`).
    pub accel_buffering: Option<&'static str>,
    /// Prompt size reported in `usage.prompt_tokens` (`max(1, ⌈bytes / 4⌉)`).
    pub prompt_tokens: usize,
    /// The prompt's cut points, for the simulated prefix cache.
    pub prompt: Prompt,
    /// The cache fields of an OpenAI chat usage object.
    pub usage_style: UsageStyle,
    /// `slots` / `slot_pool`: the queue the stream waits in (`None`: served at once).
    pub slots: Option<SlotRequest>,
    /// The wire format of the stream.
    pub dialect: WireDialect,
    /// Reasoning tokens sent before the content (dialects other than OpenAI chat).
    pub reasoning_tokens: usize,
    /// End with the dialect's token-limit stop reason.
    pub hit_limit: bool,
    /// Send the dialect's end marker.
    pub terminal: bool,
    /// Bytes of SSE keep-alive comments sent before the first token (0: none).
    pub keepalive_bytes: usize,
    /// Length of the unterminated `data:` line that ends the stream (0: none).
    pub long_line_bytes: usize,
    /// Content events sent before the server resets the connection (`None`: the stream ends normally).
    pub reset_after: Option<usize>,
    /// How long the response stays open after the stream's last write (its end marker) before the body
    /// ends, or until the client leaves (`0`: it ends at once).
    pub linger_ms: f64,
    /// JSON events carry `server_ms` (`false`: no server timestamps at all).
    pub stamp: bool,
    /// Content events per write (1: each event in its own write).
    pub batch: usize,
    /// `echo_headers=1`: the content is one event holding the request's credential headers and query,
    /// sent in writes of [`ECHO_PIECE_BYTES`] (what a debug proxy that returns the request does, split
    /// across reads); filled in from the request by the stream handler.
    pub echo_headers: bool,
    /// The text echoed (set by the handler when `echo_headers`, or `say=` as given).
    pub echo_text: Option<String>,
    /// `content_filter=batched|async`: mark the chunks as Azure OpenAI's content filter does.
    pub content_filter: Option<LabFilter>,
    /// `tool_call=1`: the answer is a tool call whose arguments stream (OpenAI chat only).
    pub tool_call: bool,
    /// `cumulative=1`: every content event carries the whole answer so far ([`Self::event_text`]), and
    /// every reasoning event the whole reasoning so far.
    pub cumulative: bool,
}

/// Longest `say=` text kept, in characters.
pub const MAX_SAY_CHARS: usize = 64 * 1024;

/// Bytes per write of the echo under `echo_headers=1` (small, so a key spans several reads).
pub const ECHO_PIECE_BYTES: usize = 5;


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
            .unwrap_or(DEFAULT_MODEL)
            .to_string();
        if model.len() > MAX_MODEL_BYTES {
            return Err(format!("model must be at most {MAX_MODEL_BYTES} bytes"));
        }
        let body_cadence_ms = model
            .strip_prefix("lab-")
            .and_then(|rest| rest.strip_suffix("ms"))
            .and_then(|n| n.parse::<f64>().ok())
            .filter(|ms| ms.is_finite() && *ms >= 0.0);
        let max_tokens = body
            .get("max_tokens")
            .or_else(|| body.get("max_completion_tokens"))
            .or_else(|| body.get("max_output_tokens"))
            .or_else(|| body.pointer("/generationConfig/maxOutputTokens"))
            .or_else(|| body.pointer("/options/num_predict"))
            .and_then(Value::as_u64)
            .map(|n| n as usize);

        let requested_tokens = number(query, "tokens", DEFAULT_TOKENS, MAX_TOKENS)?;
        let tokens = max_tokens.map_or(requested_tokens, |cap| requested_tokens.min(cap));
        let cadence_ms = match query.get("cadence_ms") {
            Some(_) => millis(query, "cadence_ms", DEFAULT_CADENCE_MS)?,
            None => body_cadence_ms
                .unwrap_or(DEFAULT_CADENCE_MS)
                .min(MAX_DELAY_MS as f64),
        };
        let mode = match query.get("mode").unwrap_or("stream") {
            "stream" => Mode::Stream,
            "collect" => Mode::Collect,
            "raw" => Mode::Raw,
            "malformed" => Mode::Malformed,
            "stall" => Mode::Stall,
            "bursts" => Mode::Bursts,
            other => {
                return Err(format!(
                    "unknown mode {other:?}; use stream, collect, raw, malformed, stall or bursts"
                ))
            }
        };
        let bursts = bursts(query)?;
        let content_length = flag(query, "content_length", false)?;
        if content_length && !matches!(mode, Mode::Stream | Mode::Collect) {
            return Err("content_length=1 applies to mode=stream (collect always has one)".into());
        }
        let cache_hit = match query.get("cache").unwrap_or("miss") {
            "hit" => true,
            "miss" => false,
            other => return Err(format!("cache must be hit or miss, not {other:?}")),
        };
        let accel_buffering = match query.get("accel") {
            None => None,
            Some("no") => Some("no"),
            Some("yes") => Some("yes"),
            Some(other) => return Err(format!("accel must be no or yes, not {other:?}")),
        };
        let tokens_per_event = number(query, "tokens_per_event", DEFAULT_TOKENS_PER_EVENT, MAX_TOKENS)?;
        if tokens_per_event == 0 {
            return Err("tokens_per_event must be at least 1".into());
        }
        let status = match query.get("status") {
            None => None,
            Some(raw) => match raw.parse::<u16>() {
                Ok(200) => None,
                Ok(code @ 400..=599) => Some(code),
                _ => return Err(format!("status must be 200 or 400-599, not {raw:?}")),
            },
        };
        let prompt = Prompt::of(prompt_text(query, &body).as_bytes());
        let usage_style = match query.get("usage_style") {
            None | Some("deepseek") => UsageStyle::Deepseek,
            Some("openai") => UsageStyle::Openai,
            Some(other) => {
                return Err(format!("usage_style must be deepseek or openai, not {other:?}"))
            }
        };
        let dialect = match query.get("dialect") {
            None => WireDialect::OpenaiChat,
            Some(value) => WireDialect::parse(value)?,
        };
        let hit_limit = match query.get("finish") {
            None => tokens < requested_tokens,
            Some("stop") => false,
            Some("length") => true,
            Some(other) => return Err(format!("finish must be stop or length, not {other:?}")),
        };
        let content_filter = match query.get("content_filter") {
            None => None,
            Some("batched") => Some(LabFilter::Batched),
            Some("async") => Some(LabFilter::Async),
            Some(other) => return Err(format!("content_filter must be batched or async, not {other:?}")),
        };
        let tool_call = flag(query, "tool_call", false)?;
        let cumulative = flag(query, "cumulative", false)?;
        if cumulative && tool_call {
            return Err("cumulative applies to text, not to a tool call's arguments".into());
        }
        if tool_call && dialect != WireDialect::OpenaiChat {
            return Err("tool_call applies to openai-chat chunks only".into());
        }
        if content_filter.is_some() && dialect != WireDialect::OpenaiChat {
            return Err("content_filter applies to openai-chat chunks only (Azure OpenAI's marks)".into());
        }
        let extras = ["reasoning", "finish", "terminal"];
        if dialect == WireDialect::OpenaiChat && extras.iter().any(|k| query.get(k).is_some()) {
            return Err(
                "reasoning, finish and terminal apply with dialect=… (not openai-chat)".into(),
            );
        }
        let settings = Self {
            tokens,
            cadence_ms,
            first_ms: millis(query, "first_ms", DEFAULT_FIRST_MS)?,
            pad_bytes: number(query, "pad", DEFAULT_PAD_BYTES, MAX_PAD_BYTES)?,
            role_first: flag(query, "role_first", DEFAULT_ROLE_FIRST)?,
            usage: flag(query, "usage", DEFAULT_USAGE)?,
            mode,
            stall_after: number(query, "stall_after", DEFAULT_STALL_AFTER, MAX_TOKENS)?,
            status,
            raw_as_sse: query.get("ct") == Some("sse"),
            split_utf8: flag(query, "split_utf8", false)?,
            model,
            stream: body.get("stream").and_then(Value::as_bool).unwrap_or(true),
            bursts,
            content_length,
            cache_hit,
            jitter_ms: number(query, "jitter_ms", DEFAULT_JITTER_MS, MAX_DELAY_MS)?,
            tokens_per_event,
            split_events: flag(query, "split_events", false)?,
            accel_buffering,
            prompt_tokens: prompt.tokens(),
            prompt,
            usage_style,
            slots: SlotRequest::from_query(query)?,
            dialect,
            reasoning_tokens: number(query, "reasoning", 0, MAX_TOKENS)?,
            hit_limit,
            terminal: flag(query, "terminal", true)?,
            keepalive_bytes: number(query, "keepalive_bytes", DEFAULT_KEEPALIVE_BYTES, MAX_FLOOD_BYTES)?,
            long_line_bytes: number(query, "long_line_bytes", DEFAULT_LONG_LINE_BYTES, MAX_FLOOD_BYTES)?,
            reset_after: optional_number(query, "reset_after", MAX_TOKENS)?,
            linger_ms: millis(query, "linger_ms", 0.0)?,
            stamp: flag(query, "stamp", DEFAULT_STAMP)?,
            batch: number(query, "batch", DEFAULT_BATCH, MAX_TOKENS)?,
            echo_headers: flag(query, "echo_headers", false)?,
            echo_text: query.get("say").map(|t| t.chars().take(MAX_SAY_CHARS).collect()),
            content_filter,
            tool_call,
            cumulative,
        };
        settings.check_stream_only()?;
        let settings = settings.with_dialect(dialect)?;
        size::check(&settings)?;
        Ok(settings)
    }

    /// Refuses the settings that shape a timed `mode=stream` when the mode (or `content_length`, or a
    /// body asking for `"stream": false`) cannot carry them.
    fn check_stream_only(&self) -> Result<(), String> {
        let shaped = self.keepalive_bytes > 0 || self.long_line_bytes > 0;
        if shaped && (self.mode != Mode::Stream || self.content_length) {
            return Err(
                "keepalive_bytes and long_line_bytes apply to mode=stream without content_length"
                    .into(),
            );
        }
        if self.batch == 0 {
            return Err("batch must be at least 1".into());
        }
        if self.batch > 1 && self.mode != Mode::Stream {
            return Err("batch needs mode=stream".into());
        }
        let streamed = self.mode == Mode::Stream && !self.content_length && self.stream;
        if self.reset_after.is_some() && !streamed {
            return Err(
                "reset_after needs mode=stream (a streamed OpenAI chat answer without \
                 content_length)"
                    .into(),
            );
        }
        if self.reset_after.is_some() && self.long_line_bytes > 0 {
            return Err(
                "reset_after and long_line_bytes end the stream in two ways; use one".into(),
            );
        }
        Ok(())
    }

    /// These settings speaking `dialect`; an error when the delivery mode cannot (only a timed
    /// `mode=stream` without `content_length` speaks the other dialects).
    pub fn with_dialect(mut self, dialect: WireDialect) -> Result<Self, String> {
        if dialect != WireDialect::OpenaiChat && (self.mode != Mode::Stream || self.content_length)
        {
            return Err("dialect applies to mode=stream without content_length".into());
        }
        if dialect != WireDialect::OpenaiChat && (self.keepalive_bytes > 0 || self.long_line_bytes > 0)
        {
            return Err("keepalive_bytes and long_line_bytes apply to OpenAI chat streams".into());
        }
        if dialect != WireDialect::OpenaiChat && self.reset_after.is_some() {
            return Err("reset_after needs mode=stream with the OpenAI chat dialect".into());
        }
        if dialect != WireDialect::OpenaiChat && self.usage_style != UsageStyle::Deepseek {
            return Err(
                "usage_style applies to OpenAI chat; the other dialects have their own cache fields"
                    .into(),
            );
        }
        self.dialect = dialect;
        Ok(self)
    }

    /// Number of content events: `tokens` split into events of `tokens_per_event` (the last may be short).
    pub fn content_events(&self) -> usize {
        self.tokens.div_ceil(self.tokens_per_event)
    }

    /// The token indices content event `index` carries (at least one, even past `tokens`).
    pub fn event_tokens(&self, index: usize) -> std::ops::Range<usize> {
        let start = index * self.tokens_per_event;
        let end = (start + self.tokens_per_event).min(self.tokens);
        start..end.max(start + 1)
    }

    /// The text of content event `index`: its tokens, or with `cumulative` every token up to its last
    /// (the answer so far, as a server that resends it in every event sends it).
    pub fn event_text(&self, index: usize) -> String {
        self.sent_text(self.event_tokens(index))
    }

    /// The text an event of `tokens` sends: those tokens, or with `cumulative` every token up to its
    /// last (the text so far; content and reasoning alike).
    pub fn sent_text(&self, tokens: std::ops::Range<usize>) -> String {
        crate::scenarios::passage::span_text(if self.cumulative { 0..tokens.end } else { tokens })
    }

    /// Deadlines of the first `events` content events in ms after the request (cadence plus jitter).
    pub fn deadlines_ms(&self, events: usize) -> Vec<f64> {
        schedule::deadlines_ms(self.first_ms, self.cadence_ms, self.jitter_ms, events)
    }

    /// The same deadlines one at a time, without end (nothing held in memory).
    pub fn deadlines(&self) -> impl Iterator<Item = f64> + Clone {
        schedule::deadlines(self.first_ms, self.cadence_ms, self.jitter_ms)
    }

    /// When content event `index` is (or would be) due, in ms after the request.
    pub fn deadline_ms(&self, index: usize) -> f64 {
        self.deadlines().nth(index).unwrap_or(self.first_ms)
    }

    /// When the last of `events` content events is due (`first_ms` when there are none): where the
    /// closing events of a stream go.
    pub fn end_ms(&self, events: usize) -> f64 {
        match events {
            0 => self.first_ms,
            n => self.deadline_ms(n - 1),
        }
    }

    /// Milliseconds a whole generation takes (what `collect` and `"stream": false` wait).
    pub fn generation_ms(&self) -> f64 {
        self.first_ms + self.content_events() as f64 * self.cadence_ms
    }

    /// Response headers these settings add to a stream (`Age`/`X-Cache`, `X-Accel-Buffering`).
    pub fn extra_headers(&self) -> Vec<(&'static str, String)> {
        let mut headers = Vec::new();
        if self.cache_hit {
            headers.push(("Age", CACHE_AGE_S.to_string()));
            headers.push(("X-Cache", "HIT".to_string()));
        }
        if let Some(value) = self.accel_buffering {
            headers.push(("X-Accel-Buffering", value.to_string()));
        }
        headers
    }
}

/// `Age` of a simulated cache hit, in seconds.
pub const CACHE_AGE_S: u64 = 300;

/// Reads `burst_every_ms` and `burst_bytes` (both at least 1); neither means every 500 ms.
fn bursts(query: &Query) -> Result<Bursts, String> {
    let every_ms = optional_number(query, "burst_every_ms", MAX_DELAY_MS)?;
    let bytes = optional_number(query, "burst_bytes", MAX_PAD_BYTES)?;
    if every_ms == Some(0) || bytes == Some(0) {
        return Err("burst_every_ms and burst_bytes must be at least 1".into());
    }
    Ok(match (every_ms, bytes) {
        (None, None) => Bursts {
            every_ms: Some(DEFAULT_BURST_EVERY_MS),
            bytes: None,
        },
        _ => Bursts { every_ms, bytes },
    })
}

fn optional_number<T>(query: &Query, key: &str, max: T) -> Result<Option<T>, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Default,
{
    match query.get(key) {
        None => Ok(None),
        Some(_) => number(query, key, T::default(), max).map(Some),
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

/// A time in ms: a non-negative finite number (fractions allowed) up to [`MAX_DELAY_MS`].
fn millis(query: &Query, key: &str, default: f64) -> Result<f64, String> {
    match query.get(key) {
        None => Ok(default),
        Some(raw) => match raw.trim().parse::<f64>() {
            Ok(value) if value.is_finite() && value >= 0.0 && value <= MAX_DELAY_MS as f64 => {
                Ok(value)
            }
            Ok(_) => Err(format!("{key} must be between 0 and {MAX_DELAY_MS} ms, not {raw:?}")),
            Err(_) => Err(format!("{key} must be a number of ms, not {raw:?}")),
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
            (50, 20.0, 300.0, 0)
        );
        assert!(s.role_first && s.usage && s.stream);
        assert_eq!((s.mode, s.stall_after, s.status), (Mode::Stream, 5, None));
        assert_eq!(s.model, "streamscope-lab");
        assert_eq!(s.linger_ms, 0.0);
        assert_eq!(settings("linger_ms=5000", "").unwrap().linger_ms, 5000.0);
        assert!(settings("linger_ms=-1", "").is_err());
    }

    #[test]
    fn body_model_sets_cadence_unless_query_has_one() {
        assert_eq!(
            settings("", r#"{"model":"lab-40ms"}"#).unwrap().cadence_ms,
            40.0
        );
        assert_eq!(
            settings("cadence_ms=7", r#"{"model":"lab-40ms"}"#)
                .unwrap()
                .cadence_ms,
            7.0
        );
        assert_eq!(
            settings("", r#"{"model":"lab-xms"}"#).unwrap().cadence_ms,
            20.0
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
            "mode=bursts&burst_every_ms=0",
            "mode=bursts&burst_bytes=0",
            "mode=raw&content_length=1",
            "cache=maybe",
            "accel=off",
            "dialect=bedrock",
            "dialect=anthropic&mode=collect",
            "dialect=gemini&finish=maybe",
            "reasoning=3",
            "terminal=0",
            "tokens_per_event=0",
            "split_events=2",
            "jitter_ms=-1",
            "cadence_ms=-1",
            "cadence_ms=NaN",
            "cadence_ms=inf",
            "first_ms=x",
            "keepalive_bytes=-5",
            "long_line_bytes=999999999999",
            "mode=collect&keepalive_bytes=10",
            "content_length=1&long_line_bytes=10",
            "dialect=anthropic&keepalive_bytes=10",
            "reset_after=x",
            "reset_after=-1",
            "reset_after=100001",
            "mode=collect&reset_after=3",
            "mode=bursts&reset_after=3",
            "content_length=1&reset_after=3",
            "dialect=anthropic&reset_after=3",
            "reset_after=3&long_line_bytes=10",
            "stamp=2",
            "stamp=maybe",
            "batch=0",
            "batch=x",
            "batch=100001",
            "mode=raw&batch=2",
            "mode=stall&batch=3",
            "usage_style=anthropic",
            "dialect=anthropic&usage_style=openai",
            "slots=0",
            "slots=65",
            "slot_pool=x",
            "slots=2&slot_pool=a/b",
        ] {
            assert!(settings(query, "").is_err(), "{query}");
        }
        assert!(settings("", "{not json").is_err());
    }

    #[test]
    fn fractional_and_instant_times() {
        let s = settings("cadence_ms=0.5&first_ms=0", "").unwrap();
        assert_eq!((s.cadence_ms, s.first_ms), (0.5, 0.0));
        assert_eq!(s.deadlines_ms(3), [0.0, 0.5, 1.0]);
        assert_eq!(
            settings("", r#"{"model":"lab-2.5ms"}"#).unwrap().cadence_ms,
            2.5
        );
        let s = settings("keepalive_bytes=4194304&long_line_bytes=1048576", "").unwrap();
        assert_eq!((s.keepalive_bytes, s.long_line_bytes), (4_194_304, 1_048_576));
    }

    #[test]
    fn cumulative_events_carry_the_answer_so_far() {
        let plain = settings("tokens=6&tokens_per_event=2", "").unwrap();
        let so_far = settings("tokens=6&tokens_per_event=2&cumulative=1&dialect=gemini", "").unwrap();
        assert!(!plain.cumulative && so_far.cumulative);
        assert_eq!(plain.event_text(1), crate::scenarios::passage::span_text(2..4));
        assert_eq!(so_far.event_text(0), plain.event_text(0));
        assert_eq!(so_far.event_text(2), crate::scenarios::passage::text_of(6));
        assert!(settings("cumulative=1&tool_call=1", "").unwrap_err().contains("tool call"));
        // Its planned size grows with the square of the tokens: 20,000 tokens ask for more than 1 GiB.
        assert!(settings("tokens=20000", "").is_ok());
        assert!(settings("tokens=20000&cumulative=1", "").unwrap_err().contains("cumulative=1 with tokens=20000"));
        // And its reasoning's: 20,000 reasoning tokens too.
        assert!(settings("dialect=anthropic&tokens=10&reasoning=20000", "").is_ok());
        let refused = settings("dialect=anthropic&tokens=10&reasoning=20000&cumulative=1", "").unwrap_err();
        assert!(refused.contains("tokens=10 and reasoning=20000") && refused.contains("lower tokens or reasoning"), "{refused}");
    }

    #[test]
    fn content_filter_marks_openai_chat_only() {
        assert_eq!(settings("", "").unwrap().content_filter, None);
        assert_eq!(settings("content_filter=batched&mode=bursts", "").unwrap().content_filter, Some(LabFilter::Batched));
        assert_eq!(settings("content_filter=async", "").unwrap().content_filter, Some(LabFilter::Async));
        assert!(settings("content_filter=strict", "").unwrap_err().contains("batched or async"));
        assert!(settings("content_filter=async&dialect=anthropic", "").unwrap_err().contains("openai-chat"));
        assert!(settings("tool_call=1", "").unwrap().tool_call && !settings("", "").unwrap().tool_call);
        assert!(settings("tool_call=1&dialect=gemini", "").unwrap_err().contains("openai-chat"));
    }

    #[test]
    fn proxy_path_parameters() {
        let s = settings("", "").unwrap();
        assert_eq!(
            (
                s.content_length,
                s.cache_hit,
                s.jitter_ms,
                s.tokens_per_event
            ),
            (false, false, 0, 1)
        );
        assert!(!s.split_events && s.accel_buffering.is_none() && s.extra_headers().is_empty());

        let s = settings("mode=bursts", "").unwrap();
        assert_eq!(s.mode, Mode::Bursts);
        assert_eq!(
            s.bursts,
            Bursts {
                every_ms: Some(DEFAULT_BURST_EVERY_MS),
                bytes: None
            }
        );
        let s = settings("mode=bursts&burst_bytes=4096", "").unwrap();
        assert_eq!(
            s.bursts,
            Bursts {
                every_ms: None,
                bytes: Some(4096)
            }
        );

        let s = settings(
            "cache=hit&accel=no&content_length=1&jitter_ms=8&split_events=1",
            "",
        )
        .unwrap();
        assert!(s.content_length && s.cache_hit && s.split_events);
        assert_eq!(s.jitter_ms, 8);
        assert_eq!(
            s.extra_headers(),
            [
                ("Age", "300".to_string()),
                ("X-Cache", "HIT".to_string()),
                ("X-Accel-Buffering", "no".to_string()),
            ]
        );
    }

    #[test]
    fn dialect_parameters() {
        let s = settings("dialect=anthropic&reasoning=4&terminal=0", "").unwrap();
        assert_eq!(s.dialect, WireDialect::Anthropic);
        assert_eq!(
            (s.reasoning_tokens, s.terminal, s.hit_limit),
            (4, false, false)
        );
        assert!(
            settings("dialect=gemini&finish=length", "")
                .unwrap()
                .hit_limit
        );
        let capped = settings("dialect=responses&tokens=20", r#"{"max_output_tokens":8}"#).unwrap();
        assert_eq!((capped.tokens, capped.hit_limit), (8, true));
        let ollama = settings("dialect=ollama-chat", r#"{"options":{"num_predict":5}}"#).unwrap();
        assert_eq!((ollama.tokens, ollama.hit_limit), (5, true));
        assert_eq!(settings("", "").unwrap().dialect, WireDialect::OpenaiChat);
    }

    #[test]
    fn reset_stamp_and_batch_parameters() {
        let s = settings("", "").unwrap();
        assert_eq!(
            (s.reset_after, s.stamp, s.batch),
            (None, DEFAULT_STAMP, DEFAULT_BATCH)
        );
        let s = settings("reset_after=0&stamp=0&batch=4&tokens_per_event=2", "").unwrap();
        assert_eq!((s.reset_after, s.stamp, s.batch), (Some(0), false, 4));
        let s = settings("reset_after=7&keepalive_bytes=100", "").unwrap();
        assert_eq!(s.reset_after, Some(7));
        let s = settings("dialect=gemini&batch=3&stamp=0", "").unwrap();
        assert_eq!((s.batch, s.stamp), (3, false));
        assert!(!settings("mode=collect&stamp=0", "").unwrap().stamp);
        assert_eq!(settings("mode=collect&batch=1", "").unwrap().batch, 1);
        assert!(settings("content_length=1&batch=2", "").is_ok());
    }

    #[test]
    fn reset_after_is_refused_where_it_cannot_reset_mid_stream() {
        let message = |query: &str, body: &str| settings(query, body).unwrap_err();
        assert!(message("mode=stall&reset_after=1", "").contains("needs mode=stream"));
        assert!(message("reset_after=1", r#"{"stream":false}"#).contains("needs mode=stream"));
        assert!(message("dialect=responses&reset_after=1", "").contains("OpenAI chat"));
        let native = settings("reset_after=1", "")
            .unwrap()
            .with_dialect(WireDialect::Anthropic)
            .unwrap_err();
        assert!(native.contains("needs mode=stream"), "{native}");
        assert!(message("batch=0", "").contains("at least 1"));
        assert!(message("mode=collect&batch=2", "").contains("needs mode=stream"));
    }

    #[test]
    fn prompt_usage_style_and_slot_parameters() {
        let s = settings("", "").unwrap();
        assert_eq!((s.prompt_tokens, s.usage_style, s.slots), (1, UsageStyle::Deepseek, None));
        let s = settings("prompt=abcdefghi&usage_style=openai&slots=3", r#"{"prompt":"other"}"#).unwrap();
        assert_eq!((s.prompt.len_bytes, s.prompt_tokens), (9, 3), "the query's prompt wins");
        assert_eq!(s.usage_style, UsageStyle::Openai);
        let slots = s.slots.unwrap();
        assert_eq!((slots.pool.as_str(), slots.slots), ("default", 3));
        let body = r#"{"messages":[{"role":"system","content":"sys"},{"role":"user","content":"hello"}]}"#;
        assert_eq!(settings("", body).unwrap().prompt.len_bytes, "sys\nhello".len());
        let native = settings("usage_style=openai", "").unwrap().with_dialect(WireDialect::Anthropic);
        assert!(native.unwrap_err().contains("usage_style"));
    }

    #[test]
    fn tokens_per_event_groups_tokens_and_the_last_event_may_be_short() {
        let s = settings("tokens=50&tokens_per_event=3&first_ms=0&cadence_ms=10", "").unwrap();
        assert_eq!(s.content_events(), 17);
        assert_eq!(s.event_tokens(0), 0..3);
        assert_eq!(s.event_tokens(16), 48..50);
        assert_eq!(s.generation_ms(), 170.0);
        assert_eq!(settings("tokens=0", "").unwrap().content_events(), 0);
    }
}
