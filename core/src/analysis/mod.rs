//! The incremental analyzer: reads in, token-level events out, while the stream arrives.
//!
//! The UI drives an [`Analyzer`] read by read to show text and live numbers; [`analyze`] runs the same
//! analyzer over a finished [`Trace`], so live figures and the final report agree. The analyzer detects
//! the framing (holding the first reads until it can decide, then replaying them with their own times),
//! parses SSE, JSON lines, a streamed JSON array or raw text, picks the dialect from the first decisive
//! message, and turns every message into [`StreamEvent`]s stamped with the time and index of the read that
//! completed it.
//!
//! Dialects: SSE whose data is JSON is one of the JSON dialects (`openai-chat`, `openai-responses`,
//! `anthropic`, `gemini`, `cohere`, ...: see [`crate::dialect`]); SSE whose data is not JSON is `sse-text`
//! (each non-empty data is content); JSON lines with `message`/`response`/`done` are `ollama` (JSON lines
//! with `choices` are `openai-chat`, lines of a part code and JSON, `0:"text"`, are `ai-sdk`); a streamed
//! JSON array's elements are read as SSE data is (Gemini without `alt=sse`); raw framing is `raw` (each
//! read's text is one content event, UTF-8 decoded across reads). Inside a JSON
//! dialect a payload that is not a JSON object (and not `[DONE]`) is malformed, and parsing goes on.
//! Usage reports are merged (later counts win, earlier ones stay), since some dialects split them.
//!
//! Fast paths (same results, tested against [`Analyzer::new_reference`] in `core/tests/fast_paths.rs`):
//! SSE is parsed with [`SseParser::push_with`] (borrowed lines and events, no allocation per event), and
//! an OpenAI chat chunk shaped like an earlier one is read from a [`ChunkMemo`] instead of being decoded
//! to a `serde_json::Value`.

pub mod event;

use serde::{Deserialize, Serialize};

use crate::dialect::chunk_memo::ChunkMemo;
use crate::dialect::content_filter::FilterMarks;
use crate::dialect::{self, classify_payload, openai, stop_reason, ChunkFacts, Payload, StopReason, Usage};
use crate::text::truncate_chars;
use crate::trace::{Trace, TraceEnd};
use crate::wire::framing::{Framing, FramingDecision, FramingDetector};
use crate::wire::json_array::ElementSplitter;
use crate::wire::lines::LineSplitter;
use crate::wire::sse::{SseParser, SseRef};
use crate::wire::utf8::{decode_lossy, Utf8Decoder};

pub use event::{Dialect, EventKind, StreamEvent};

/// How many characters of the first malformed payload are kept as an example.
pub const MALFORMED_EXAMPLE_CHARS: usize = 200;

/// How many stream error messages [`Analysis::stream_errors`] keeps (the first 20): a stream that repeats
/// an error line (an Ollama `{"error": ...}` per line, say) is counted in
/// [`Analysis::stream_error_count`], not stored message by message.
pub const STREAM_ERRORS_KEPT: usize = 20;

/// How many characters of a stream error message are kept (1000: every real message fits; an error
/// event is otherwise bounded only by the line and event caps).
pub const STREAM_ERROR_CHARS: usize = 1000;

/// How many different tool names an analysis keeps ([`Analysis::tool_names`]).
pub const TOOL_NAMES_KEPT: usize = 8;

/// How many characters of a tool's name an analysis keeps: a name is the server's text.
pub const TOOL_NAME_CHARS: usize = 64;

/// The first fact of a stream that was not a keep-alive.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FirstChunk {
    /// When the read that completed it resolved.
    pub at_ms: f64,
    /// Which read completed it.
    pub read_index: usize,
    /// Whether it only announced the role (no token).
    pub role_only: bool,
}

/// The most answer (and reasoning) text kept, in bytes: past it, text is counted but not kept, in the
/// analysis or in its events (a 50 MB raw body held three copies of itself: 300 MB of wasm memory).
pub const MAX_TEXT_BYTES: usize = 4 * 1024 * 1024;

/// Appends what of `s` fits under [`MAX_TEXT_BYTES`] to `text` (cut on a character boundary) and leaves in
/// `s` only what was kept; returns how many characters were dropped.
fn keep_up_to_cap(text: &mut String, s: &mut String) -> usize {
    let room = MAX_TEXT_BYTES.saturating_sub(text.len());
    if s.len() <= room {
        text.push_str(s);
        return 0;
    }
    let mut cut = room;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    let dropped = s[cut..].chars().count();
    s.truncate(cut);
    text.push_str(s);
    dropped
}

/// Whether an event's `text` repeats the one before it whole and adds to it, that one being the last
/// `last_bytes` of `so_far` (see [`Analysis::cumulative_events`]): the bytes said again (0 when it does
/// not; a repeat is of two characters at least), and the length to compare the next event with. Not for
/// raw text (`raw`), whose reads are wherever the network cut the bytes: a text of one repeated word would
/// look like it.
fn repeat_of(raw: bool, so_far: &str, last_bytes: usize, text: &str) -> (usize, usize) {
    let last = so_far.get(so_far.len().saturating_sub(last_bytes)..).unwrap_or_default();
    let repeats = !raw && text.len() > last.len() && last.chars().nth(1).is_some() && text.starts_with(last);
    // An event the text's cap cuts does not end the text: nothing to compare the next with.
    let next = if so_far.len() + text.len() <= MAX_TEXT_BYTES { text.len() } else { 0 };
    (if repeats { last.len() } else { 0 }, next)
}

/// Everything the analyzer extracted from a stream so far.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// Token-level events in arrival order; keep-alives and empty messages are only counted
    /// ([`Analysis::keepalive_comments`], [`Analysis::empty_messages`]), so this grows with what the
    /// stream carried, not with its padding.
    pub events: Vec<StreamEvent>,
    /// The answer text so far (all content events joined), its first [`MAX_TEXT_BYTES`] at most.
    pub text: String,
    /// The reasoning text so far, its first [`MAX_TEXT_BYTES`] at most.
    pub reasoning_text: String,
    /// Characters of answer text that arrived, kept or not.
    #[serde(default)]
    pub content_chars: usize,
    /// Characters of answer or reasoning text past [`MAX_TEXT_BYTES`]: counted, not kept (nor stored in
    /// their events).
    #[serde(default)]
    pub dropped_text_chars: usize,
    /// The body's framing, once decided.
    pub framing: Option<Framing>,
    /// The Content-Type disagrees with the framing (see [`FramingDecision::mislabelled`]).
    pub mislabelled: bool,
    /// The stream format, from the first decisive message.
    pub dialect: Dialect,
    /// How many reads were pushed.
    pub reads: usize,
    /// When the first read arrived (the live TTFB; the report's comes from the trace).
    #[serde(default)]
    pub first_read_ms: Option<f64>,
    /// When the first content event arrived.
    #[serde(default)]
    pub first_content_ms: Option<f64>,
    /// When the first reasoning event arrived.
    #[serde(default)]
    pub first_reasoning_ms: Option<f64>,
    /// Content events so far.
    #[serde(default)]
    pub content_event_count: usize,
    /// How many body bytes were pushed (fewer than the trace's length when a capped trace is analysed
    /// again: its elided reads arrive empty).
    #[serde(default)]
    pub bytes: usize,
    /// Wire messages: SSE events and comments, non-blank JSON lines, raw text chunks.
    pub messages: usize,
    /// Wire messages completed by each read (index = read index).
    pub messages_per_read: Vec<usize>,
    /// Keep-alives: SSE comment lines (and Anthropic `ping` events). Counted, not kept as events.
    pub keepalive_comments: usize,
    /// Messages that carried nothing (empty data, an empty delta). Counted, not kept as events.
    #[serde(default)]
    pub empty_messages: usize,
    /// The first fact that was not a keep-alive (an empty message included): when, in which read, and
    /// whether it only announced the role.
    #[serde(default)]
    pub first_chunk: Option<FirstChunk>,
    /// Payloads that should have been JSON objects and were not.
    pub malformed_payloads: usize,
    /// The first malformed payload, truncated to [`MALFORMED_EXAMPLE_CHARS`] characters.
    pub first_malformed: Option<String>,
    /// Invalid UTF-8 sequences replaced with U+FFFD.
    pub replaced_utf8_sequences: usize,
    /// The longest line in bytes (SSE and JSON lines; 0 for raw text).
    pub longest_line_bytes: usize,
    /// The largest SSE event's data in bytes, its true length (0 for other framings).
    #[serde(default)]
    pub longest_event_bytes: usize,
    /// SSE events whose data passed [`crate::wire::sse::MAX_EVENT_BYTES`]: each was delivered cut at
    /// the cap.
    #[serde(default)]
    pub cut_events: usize,
    /// SSE data lines cut or discarded past [`crate::wire::sse::MAX_EVENT_BYTES`] (counted, not kept).
    #[serde(default)]
    pub discarded_data_lines: usize,
    /// Whether the `[DONE]` end marker arrived.
    pub saw_done: bool,
    /// The last stop reason seen (`stop`, `length`, ...).
    pub finish_reason: Option<StopReason>,
    /// The last usage the server reported.
    pub usage: Option<Usage>,
    /// Error messages the server sent inside the stream: the first [`STREAM_ERRORS_KEPT`], each cut to
    /// [`STREAM_ERROR_CHARS`] characters.
    pub stream_errors: Vec<String>,
    /// How many error messages the server sent inside the stream (kept or not).
    #[serde(default)]
    pub stream_error_count: usize,
    /// The reconnection time the server asked for with an SSE `retry` field.
    pub retry_ms: Option<u64>,
    /// Whether the analyzer was finished or aborted (no more reads will come).
    pub finished: bool,
    /// The first `created` time (unix seconds) a chunk carried (OpenAI chunks).
    #[serde(default)]
    pub created_unix_s: Option<f64>,
    /// Content events that were a tool call's arguments ([`EventKind::ToolArgs`]).
    #[serde(default)]
    pub tool_arg_events: usize,
    /// The content filter marks the stream carried (Azure OpenAI's, [`crate::dialect::content_filter`]).
    #[serde(default)]
    pub filter_marks: FilterMarks,
    /// The names of the tools the answer called, in the order they were first named: the first
    /// [`TOOL_NAMES_KEPT`] different ones, each cut to [`TOOL_NAME_CHARS`] characters.
    #[serde(default)]
    pub tool_names: Vec<String>,
    /// Bytes of answer text and reasoning (and, for LangGraph, tool-call arguments) that events repeated
    /// from the events before them: a stream of the whole text so far, whose bytes grow with the square
    /// of the answer. Read as such where the format allows it (`json-text`'s cumulative values,
    /// LangGraph's `messages/partial`: [`crate::findings`]'s `resent_text`); counted in
    /// [`Analysis::cumulative_events`] where it breaks a delta stream's contract (`cumulative_deltas`).
    #[serde(default)]
    pub resent_text_bytes: usize,
    /// Content events whose text began with the whole text of the content event before it (when that
    /// text is two characters or more) and added to it: a delta stream (OpenAI's `delta.content`, ...) whose server
    /// resends the answer so far, which a client that appends deltas shows over and over. The text
    /// is kept as sent, as such a client shows it.
    #[serde(default)]
    pub cumulative_events: usize,
    /// Reasoning events (`reasoning_content`, thinking deltas, ...), counted as content events are.
    #[serde(default)]
    pub reasoning_event_count: usize,
    /// Reasoning events whose text began with the whole text of the reasoning event before it (two
    /// characters or more) and added to it, as [`Analysis::cumulative_events`] counts for the answer: a
    /// server or wrapper that resends the reasoning so far (reported for Spring AI's `reasoning_content`
    /// and MiniMax's reasoning), which a client shows over and over.
    #[serde(default)]
    pub cumulative_reasoning_events: usize,
    /// The length of the last content event's text, the end of [`Analysis::text`], to compare the next
    /// with (0 after a tool call's arguments, which also end up there; not reported).
    #[serde(skip)]
    pub(crate) last_content_bytes: usize,
    /// The length of the last reasoning event's text, the end of [`Analysis::reasoning_text`] (not
    /// reported).
    #[serde(skip)]
    pub(crate) last_reasoning_bytes: usize,
    /// How much of each message LangGraph's `messages/partial` events repeat was read (not reported).
    #[serde(skip)]
    pub(crate) langgraph_seen: crate::dialect::langgraph::Accumulated,
    /// The lines so far of a JSON value written over several lines, and how deep it is open (not
    /// reported).
    #[serde(skip)]
    pub(crate) pending_json: Option<(String, usize)>,
}

impl Analysis {
    /// The content events only.
    pub fn content_events(&self) -> impl Iterator<Item = &StreamEvent> {
        self.events.iter().filter(|e| e.is_content())
    }

    /// Whether the stream ended the way its dialect ends a stream (see
    /// [`crate::dialect::stop_reason::ended_properly`]).
    pub fn ended_properly(&self) -> bool {
        stop_reason::ended_properly(self.dialect, self.saw_done, self.finish_reason.is_some())
    }

    /// Whether the answer has ended: its end marker arrived (`[DONE]`, `message_stop`, ...; for Gemini,
    /// which has none, a `finishReason`). A stop reason alone is not the end where a marker
    /// follows it (OpenAI chat: the usage chunk and `[DONE]` come after `finish_reason`, and with `n` > 1
    /// each choice has its own). A run goes on reading at most [`crate::trace::AFTER_END_LIMIT_MS`]
    /// after that.
    pub fn answer_ended(&self) -> bool {
        self.saw_done || (self.dialect == dialect::Dialect::Gemini && self.finish_reason.is_some())
    }

    fn count_message(&mut self, read_index: usize) {
        self.messages += 1;
        if let Some(n) = self.messages_per_read.get_mut(read_index) {
            *n += 1;
        }
    }

    fn emit(&mut self, at_ms: f64, read_index: usize, mut kind: EventKind, server_ms: Option<f64>) {
        if self.first_chunk.is_none() && kind != EventKind::KeepAlive {
            self.first_chunk = Some(FirstChunk { at_ms, read_index, role_only: kind == EventKind::RoleOnly });
        }
        if let EventKind::StreamError(m) = &mut kind {
            if m.len() > STREAM_ERROR_CHARS {
                *m = truncate_chars(m, STREAM_ERROR_CHARS);
            }
        }
        let raw = self.framing == Some(Framing::Raw);
        match &kind {
            EventKind::ToolArgs(_) => {
                self.tool_arg_events += 1;
                self.last_content_bytes = 0;
            }
            EventKind::Content(s) => {
                let (resent, last) = repeat_of(raw, &self.text, self.last_content_bytes, s);
                (self.resent_text_bytes, self.last_content_bytes) = (self.resent_text_bytes + resent, last);
                self.cumulative_events += usize::from(resent > 0);
            }
            EventKind::Reasoning(s) => {
                let (resent, last) = repeat_of(raw, &self.reasoning_text, self.last_reasoning_bytes, s);
                (self.resent_text_bytes, self.last_reasoning_bytes) = (self.resent_text_bytes + resent, last);
                self.cumulative_reasoning_events += usize::from(resent > 0);
                self.reasoning_event_count += 1;
            }
            _ => {}
        }
        match &mut kind {
            EventKind::Content(s) | EventKind::ToolArgs(s) => {
                self.content_chars += s.chars().count();
                self.dropped_text_chars += keep_up_to_cap(&mut self.text, s);
                self.first_content_ms.get_or_insert(at_ms);
                self.content_event_count += 1;
            }
            EventKind::Reasoning(s) => {
                self.dropped_text_chars += keep_up_to_cap(&mut self.reasoning_text, s);
                self.first_reasoning_ms.get_or_insert(at_ms);
            }
            EventKind::KeepAlive => {
                self.keepalive_comments += 1;
                return;
            }
            EventKind::Empty => {
                self.empty_messages += 1;
                return;
            }
            EventKind::Usage => {}
            EventKind::Finish(f) => self.finish_reason = Some(f.clone()),
            EventKind::Done => self.saw_done = true,
            EventKind::StreamError(m) => {
                self.stream_error_count += 1;
                if self.stream_errors.len() < STREAM_ERRORS_KEPT {
                    self.stream_errors.push(m.clone());
                }
            }
            EventKind::Malformed(m) => {
                self.malformed_payloads += 1;
                self.first_malformed.get_or_insert_with(|| m.clone());
            }
            EventKind::RoleOnly => {}
        }
        self.events.push(StreamEvent {
            at_ms,
            read_index,
            kind,
            server_ms,
        });
    }

    fn emit_facts(&mut self, at_ms: f64, read_index: usize, facts: ChunkFacts) {
        let ChunkFacts { mut kinds, usage, server_ms, created_unix_s, filter, tool_names } = facts;
        if self.dialect == Dialect::JsonText && self.dropped_text_chars == 0 {
            // A stream of the whole text so far adds what follows it.
            for kind in &mut kinds {
                if let EventKind::Content(value) = kind {
                    let repeated = value.len() - dialect::json_text::new_text(value, &self.text).len();
                    self.resent_text_bytes += repeated;
                    value.drain(..repeated);
                }
            }
        }
        let facts = ChunkFacts { kinds: Vec::new(), usage, server_ms, created_unix_s, filter, tool_names };
        self.emit_kinds(at_ms, read_index, &facts, kinds);
    }

    /// Emits `kinds` with the usage, server time and creation time of `facts` (whose own `kinds` are
    /// not read: a recalled chunk's kinds differ from the remembered ones in their text).
    fn emit_kinds(&mut self, at_ms: f64, read_index: usize, facts: &ChunkFacts, kinds: impl IntoIterator<Item = EventKind>) {
        if self.created_unix_s.is_none() {
            self.created_unix_s = facts.created_unix_s;
        }
        if let Some(u) = &facts.usage {
            match &mut self.usage {
                Some(old) => old.merge(u),
                None => self.usage = Some(u.clone()),
            }
        }
        for name in &facts.tool_names {
            let name = truncate_chars(name, TOOL_NAME_CHARS);
            if self.tool_names.len() < TOOL_NAMES_KEPT && !self.tool_names.contains(&name) {
                self.tool_names.push(name);
            }
        }
        let content_before = self.content_event_count;
        for kind in kinds {
            self.emit(at_ms, read_index, kind, facts.server_ms);
        }
        self.filter_marks.count(facts.filter, self.content_event_count > content_before);
    }

    /// Takes the dialect a message revealed: any while none is known; while an SSE stream is read as
    /// `json-text` (a common text field), only a dialect of its own, which takes over.
    fn detected(&mut self, found: Option<Dialect>) {
        match found {
            Some(Dialect::JsonText) if self.dialect != Dialect::Unknown => {}
            Some(d) => self.dialect = d,
            None => {}
        }
    }

    fn malformed(&mut self, at_ms: f64, read_index: usize, payload: &str) {
        let example = truncate_chars(payload, MALFORMED_EXAMPLE_CHARS);
        self.emit(at_ms, read_index, EventKind::Malformed(example), None);
    }

    fn text_data(&mut self, at_ms: f64, read_index: usize, data: String) {
        let kind = if data.is_empty() {
            EventKind::Empty
        } else {
            EventKind::Content(data)
        };
        self.emit(at_ms, read_index, kind, None);
    }

    /// Handles one SSE item; with a `memo` (the fast path), a chat chunk shaped like an earlier one is
    /// read from it instead of being decoded to a `Value` (same facts: see [`crate::dialect::chunk_memo`]).
    fn sse_item(&mut self, at_ms: f64, read_index: usize, item: SseRef<'_>, memo: Option<&mut ChunkMemo>) {
        let (event, data) = match item {
            SseRef::Comment(_) => {
                self.count_message(read_index);
                self.emit(at_ms, read_index, EventKind::KeepAlive, None);
                return;
            }
            SseRef::Retry(ms) => {
                self.retry_ms = Some(ms);
                return;
            }
            SseRef::Event { event, data, .. } => (event, data),
        };
        self.count_message(read_index);
        if event == Some("error") {
            let msg = match classify_payload(data) {
                Payload::Object(v) => dialect::error_message(&v).unwrap_or_else(|| data.to_string()),
                _ if data.trim().is_empty() => "error event without data".to_string(),
                _ => data.to_string(),
            };
            self.emit(at_ms, read_index, EventKind::StreamError(msg), None);
            return;
        }
        if self.dialect == Dialect::SseText {
            // Replicate ends its text with `event: done` (data `{}`, or why it stopped): not text.
            if openai::is_done(data) || event == Some("done") {
                self.emit(at_ms, read_index, EventKind::Done, None);
            } else {
                self.text_data(at_ms, read_index, data.to_string());
            }
            return;
        }
        // Empty data carries nothing and decides nothing; whitespace is text unless the stream is JSON.
        if data.is_empty() || (self.dialect.is_json() && data.trim().is_empty()) {
            self.emit(at_ms, read_index, EventKind::Empty, None);
            return;
        }
        let mut memo = memo;
        if self.dialect == Dialect::OpenaiChat {
            if let Some(recalled) = memo.as_deref_mut().and_then(|m| m.recall(data)) {
                let facts = recalled.facts;
                self.emit_kinds(at_ms, read_index, facts, recalled.into_kinds());
                return;
            }
        }
        if self.dialect == Dialect::LangGraph && dialect::langgraph::is_end(event) {
            // LangGraph's end event; its data is `null`.
            self.emit(at_ms, read_index, EventKind::Done, None);
            return;
        }
        match dialect::classify_sse_payload(data, event) {
            Payload::Done => self.emit(at_ms, read_index, EventKind::Done, None),
            Payload::Object(v) => {
                if matches!(self.dialect, Dialect::Unknown | Dialect::JsonText) {
                    self.detected(dialect::detect_sse(&v, event));
                }
                let facts = if self.dialect == Dialect::LangGraph && dialect::langgraph::is_accumulated(event) {
                    let before = self.langgraph_seen.repeated_bytes;
                    let facts = dialect::langgraph::accumulated_facts(&v, event, &mut self.langgraph_seen);
                    self.resent_text_bytes += self.langgraph_seen.repeated_bytes - before;
                    facts
                } else {
                    dialect::sse_facts(self.dialect, &v, event)
                };
                if let (Some(m), Dialect::OpenaiChat) = (memo, self.dialect) {
                    m.learn(data, &facts);
                }
                self.emit_facts(at_ms, read_index, facts);
            }
            Payload::Other if self.dialect.is_json() => self.malformed(at_ms, read_index, data),
            Payload::Other => {
                if data.trim_start().starts_with('{') {
                    // Broken JSON: do not let it turn a JSON stream into a text stream.
                    self.malformed(at_ms, read_index, data);
                } else {
                    self.dialect = Dialect::SseText;
                    self.text_data(at_ms, read_index, data.to_string());
                }
            }
        }
    }

    /// One element of a streamed JSON array: read as an SSE event's data is (Gemini's chunks, whichever
    /// way they came).
    fn json_element(&mut self, at_ms: f64, read_index: usize, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        self.count_message(read_index);
        match classify_payload(text) {
            Payload::Object(v) => {
                if matches!(self.dialect, Dialect::Unknown | Dialect::JsonText) {
                    self.detected(dialect::detect_sse(&v, None));
                }
                let facts = dialect::sse_facts(self.dialect, &v, None);
                self.emit_facts(at_ms, read_index, facts);
            }
            Payload::Done | Payload::Other => self.malformed(at_ms, read_index, text),
        }
    }

    fn json_line(&mut self, at_ms: f64, read_index: usize, line: &str) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        // A JSON value written over several lines (a pretty-printed answer): its lines are gathered
        // until it closes, one message.
        if let Some((mut text, depth)) = self.pending_json.take() {
            text.push('\n');
            text.push_str(line);
            match crate::json::nesting_after(line, depth) {
                Some(0) => match classify_payload(&text) {
                    Payload::Object(v) => self.json_object_line(at_ms, read_index, &v),
                    _ => self.malformed(at_ms, read_index, &text),
                },
                Some(depth) if text.len() <= crate::wire::sse::MAX_EVENT_BYTES => self.pending_json = Some((text, depth)),
                _ => self.malformed(at_ms, read_index, &text),
            }
            return;
        }
        self.count_message(read_index);
        if let Some((code, payload)) = crate::wire::framing::stream_part(line) {
            if self.dialect == Dialect::Unknown {
                self.dialect = Dialect::AiSdk;
            }
            match crate::json::parse_value(payload) {
                Ok(v) => self.emit_facts(at_ms, read_index, dialect::ai_sdk::part_facts(code, &v)),
                Err(_) => self.malformed(at_ms, read_index, line),
            }
            return;
        }
        match classify_payload(line) {
            Payload::Done => self.emit(at_ms, read_index, EventKind::Done, None),
            Payload::Other => match crate::json::nesting_after(line, 0) {
                Some(depth @ 1..) if line.starts_with(['{', '[']) => self.pending_json = Some((line.to_string(), depth)),
                _ => self.malformed(at_ms, read_index, line),
            },
            Payload::Object(v) => self.json_object_line(at_ms, read_index, &v),
        }
    }

    /// One JSON object of a body of JSON lines (or of a value over several lines).
    fn json_object_line(&mut self, at_ms: f64, read_index: usize, v: &serde_json::Value) {
        // No takeover here: Ollama's lines are told by a `done` or a `response`, which a hand-written
        // line read as `json-text` may have too.
        if self.dialect == Dialect::Unknown {
            self.detected(dialect::detect_json_line(v));
        }
        let facts = dialect::json_line_facts(self.dialect, v);
        self.emit_facts(at_ms, read_index, facts);
    }

    /// The end of a body of JSON lines: a value still open is malformed (cut).
    fn end_json_lines(&mut self, at_ms: f64, read_index: usize) {
        if let Some((text, _)) = self.pending_json.take() {
            self.malformed(at_ms, read_index, &text);
        }
    }
}

/// The parser in use once the framing is known.
#[derive(Debug, Clone, Default)]
enum Decoder {
    #[default]
    Undecided,
    Sse(SseParser),
    Ndjson {
        lines: LineSplitter,
        replaced_utf8: usize,
        first_line_done: bool,
    },
    JsonArray {
        elements: ElementSplitter,
        replaced_utf8: usize,
    },
    Raw(Utf8Decoder),
}

/// A read held back until the framing is decided.
#[derive(Debug, Clone)]
struct HeldRead {
    at_ms: f64,
    read_index: usize,
    bytes: Vec<u8>,
}

/// Turns reads into events incrementally; see the module docs. `REFERENCE` is `false` (the default) for
/// the analyzer the page runs, `true` for the one without fast paths ([`Analyzer::new_reference`]): a
/// type parameter rather than a flag, so the page's wasm carries no code of the reference path.
#[derive(Debug, Clone, Default)]
pub struct Analyzer<const REFERENCE: bool = false> {
    detector: FramingDetector,
    held: Vec<HeldRead>,
    decoder: Decoder,
    last_read: Option<(f64, usize)>,
    out: Analysis,
    /// The shape of the last OpenAI chat chunk (the fast path).
    memo: ChunkMemo,
}

impl Analyzer {
    /// An analyzer for a response with this Content-Type header value.
    pub fn new(content_type: Option<&str>) -> Self {
        Self {
            detector: FramingDetector::new(content_type),
            ..Self::default()
        }
    }
}

impl Analyzer<true> {
    /// The same analyzer without its fast paths: SSE parsed to owned items line by line from a copy of
    /// every read, every chat chunk decoded to a `serde_json::Value`. Same results, slower: the reference
    /// the fast paths are tested and benchmarked against.
    pub fn new_reference(content_type: Option<&str>) -> Self {
        Self {
            detector: FramingDetector::new(content_type),
            ..Self::default()
        }
    }
}

impl<const REFERENCE: bool> Analyzer<REFERENCE> {
    /// How many chat chunks were read from the chunk memo (without a `Value`) so far.
    pub fn chunks_recalled(&self) -> usize {
        self.memo.recalls()
    }

    /// Analyzes one read (call once per read, in order; reads are numbered from 0). Ignored after
    /// [`Analyzer::finish`] or [`Analyzer::abort`].
    pub fn push(&mut self, at_ms: f64, bytes: &[u8]) {
        if self.out.finished {
            return;
        }
        let read_index = self.out.reads;
        self.out.reads += 1;
        self.out.first_read_ms.get_or_insert(at_ms);
        self.out.bytes += bytes.len();
        self.out.messages_per_read.push(0);
        self.last_read = Some((at_ms, read_index));
        if matches!(self.decoder, Decoder::Undecided) {
            self.held.push(HeldRead {
                at_ms,
                read_index,
                bytes: bytes.to_vec(),
            });
            if let Some(decision) = self.detector.push(bytes) {
                self.start(decision);
            }
        } else {
            self.feed(at_ms, read_index, bytes);
        }
    }

    /// Ends a stream that completed normally: decides the framing with what arrived, then flushes a final
    /// unterminated line or event (attributed to the last read, where its bytes arrived).
    pub fn finish(&mut self, at_ms: f64) {
        self.end(at_ms, true);
    }

    /// Ends a stream that broke off (time-out, network error, cancel): like [`Analyzer::finish`] but a
    /// partial last line or event is dropped, not parsed.
    pub fn abort(&mut self, at_ms: f64) {
        self.end(at_ms, false);
    }

    fn end(&mut self, at_ms: f64, flush: bool) {
        if self.out.finished {
            return;
        }
        if matches!(self.decoder, Decoder::Undecided) {
            if let Some(decision) = self.detector.finish() {
                self.start(decision);
            }
        }
        let (at_ms, read_index) = self.last_read.unwrap_or((at_ms, 0));
        if flush {
            match &mut self.decoder {
                Decoder::Undecided => {}
                Decoder::Sse(p) => {
                    let out = &mut self.out;
                    if REFERENCE {
                        for item in p.finish() {
                            out.sse_item(at_ms, read_index, item.as_sse_ref(), None);
                        }
                    } else {
                        let memo = &mut self.memo;
                        p.finish_with(|item| out.sse_item(at_ms, read_index, item, Some(&mut *memo)));
                    }
                }
                Decoder::Ndjson {
                    lines,
                    replaced_utf8,
                    first_line_done,
                } => {
                    if let Some(rest) = lines.take_rest() {
                        let line = ndjson_text(&rest, replaced_utf8, first_line_done);
                        self.out.json_line(at_ms, read_index, &line);
                    }
                    self.out.end_json_lines(at_ms, read_index);
                }
                Decoder::JsonArray { elements, replaced_utf8 } => {
                    if let Some(rest) = elements.take_rest() {
                        let (text, replaced) = decode_lossy(&rest);
                        *replaced_utf8 += replaced;
                        self.out.json_element(at_ms, read_index, &text);
                    }
                }
                Decoder::Raw(d) => {
                    let text = d.finish();
                    if !text.is_empty() {
                        self.out.count_message(read_index);
                        self.out.text_data(at_ms, read_index, text);
                    }
                }
            }
            self.sync_counters();
        }
        self.out.finished = true;
    }

    fn start(&mut self, decision: FramingDecision) {
        self.out.framing = Some(decision.framing);
        self.out.mislabelled = decision.mislabelled;
        self.decoder = match decision.framing {
            Framing::Sse => Decoder::Sse(SseParser::new()),
            Framing::Ndjson => Decoder::Ndjson {
                lines: LineSplitter::new(),
                replaced_utf8: 0,
                first_line_done: false,
            },
            Framing::JsonArray => Decoder::JsonArray { elements: ElementSplitter::new(), replaced_utf8: 0 },
            Framing::Raw => {
                self.out.dialect = Dialect::Raw;
                Decoder::Raw(Utf8Decoder::new())
            }
        };
        for held in std::mem::take(&mut self.held) {
            self.feed(held.at_ms, held.read_index, &held.bytes);
        }
    }

    fn feed(&mut self, at_ms: f64, read_index: usize, bytes: &[u8]) {
        match &mut self.decoder {
            Decoder::Undecided => {}
            Decoder::Sse(p) => {
                let out = &mut self.out;
                if REFERENCE {
                    for item in p.push(bytes) {
                        out.sse_item(at_ms, read_index, item.as_sse_ref(), None);
                    }
                } else {
                    let memo = &mut self.memo;
                    p.push_with(bytes, |item| out.sse_item(at_ms, read_index, item, Some(&mut *memo)));
                }
            }
            Decoder::Ndjson {
                lines,
                replaced_utf8,
                first_line_done,
            } => {
                lines.feed(bytes);
                while let Some(raw) = lines.next_line() {
                    let line = ndjson_text(raw, replaced_utf8, first_line_done);
                    self.out.json_line(at_ms, read_index, &line);
                }
            }
            Decoder::JsonArray { elements, replaced_utf8 } => {
                let out = &mut self.out;
                elements.feed(bytes, |element| {
                    let (text, replaced) = decode_lossy(element.bytes);
                    *replaced_utf8 += replaced;
                    out.json_element(at_ms, read_index, &text);
                });
            }
            Decoder::Raw(d) => {
                let text = d.push(bytes);
                if !text.is_empty() {
                    self.out.count_message(read_index);
                    self.out.text_data(at_ms, read_index, text);
                }
            }
        }
        self.sync_counters();
    }

    fn sync_counters(&mut self) {
        let (replaced, longest) = match &self.decoder {
            Decoder::Undecided => (0, 0),
            Decoder::Sse(p) => (p.replaced_utf8_sequences(), p.longest_line_bytes()),
            Decoder::Ndjson {
                lines,
                replaced_utf8,
                ..
            } => (*replaced_utf8, lines.longest_line_bytes()),
            Decoder::JsonArray { elements, replaced_utf8 } => (*replaced_utf8, elements.longest_element_bytes()),
            Decoder::Raw(d) => (d.replaced_sequences(), 0),
        };
        self.out.replaced_utf8_sequences = replaced;
        self.out.longest_line_bytes = longest;
        if let Decoder::Sse(p) = &self.decoder {
            self.out.longest_event_bytes = p.longest_event_bytes();
            self.out.cut_events = p.cut_events();
            self.out.discarded_data_lines = p.discarded_data_lines();
        }
    }

    /// Bytes held but not yet turned into events: reads waiting for the framing decision, the line still
    /// being received and an SSE event's data not yet dispatched (all bounded: see
    /// [`crate::wire::framing`], [`crate::wire::lines::MAX_LINE_BYTES`] and
    /// [`crate::wire::sse::MAX_EVENT_BYTES`]).
    pub fn pending_bytes(&self) -> usize {
        let held: usize = self.held.iter().map(|h| h.bytes.len()).sum();
        held + match &self.decoder {
            Decoder::Undecided | Decoder::Raw(_) => 0,
            Decoder::Sse(p) => p.buffered_bytes(),
            Decoder::Ndjson { lines, .. } => lines.pending_len_bytes(),
            Decoder::JsonArray { elements, .. } => elements.pending_len_bytes(),
        }
    }

    /// Everything extracted so far.
    pub fn analysis(&self) -> &Analysis {
        &self.out
    }

    /// Consumes the analyzer and returns what it extracted.
    pub fn into_analysis(self) -> Analysis {
        self.out
    }

    /// Token-level events so far, in arrival order.
    pub fn events(&self) -> &[StreamEvent] {
        &self.out.events
    }

    /// The answer text so far.
    pub fn text(&self) -> &str {
        &self.out.text
    }

    /// The reasoning text so far.
    pub fn reasoning_text(&self) -> &str {
        &self.out.reasoning_text
    }

    /// The framing, once decided.
    pub fn framing(&self) -> Option<Framing> {
        self.out.framing
    }

    /// The dialect detected so far (`Unknown` until a decisive message).
    pub fn dialect(&self) -> Dialect {
        self.out.dialect
    }
}

/// Decodes one JSON line, counting replaced UTF-8 and dropping a byte-order mark on the first line.
fn ndjson_text(raw: &[u8], replaced_utf8: &mut usize, first_line_done: &mut bool) -> String {
    let mut raw = raw;
    if !*first_line_done {
        *first_line_done = true;
        raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
    }
    let (text, replaced) = decode_lossy(raw);
    *replaced_utf8 += replaced;
    text.into_owned()
}

/// Runs the analyzer over a recorded trace: every read in order, then finish (when the trace ended
/// complete) or abort (any other end) at the trace's end time; an unfinished trace is left open.
pub fn analyze(trace: &Trace) -> Analysis {
    let mut analyzer = Analyzer::new(trace.header("content-type"));
    for read in &trace.reads {
        analyzer.push(read.at_ms, &read.bytes);
    }
    match &trace.end {
        Some(TraceEnd::Complete { at_ms }) => analyzer.finish(*at_ms),
        Some(other) => analyzer.abort(other.at_ms()),
        None => {}
    }
    analyzer.into_analysis()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SSE: Option<&str> = Some("text/event-stream");

    fn run(ct: Option<&str>, reads: &[(f64, &[u8])]) -> Analysis {
        let mut a = Analyzer::new(ct);
        for (at, bytes) in reads {
            a.push(*at, bytes);
        }
        a.finish(reads.last().map_or(0.0, |r| r.0) + 1.0);
        a.into_analysis()
    }

    fn kinds(a: &Analysis) -> Vec<&'static str> {
        a.events.iter().map(|e| e.kind.name()).collect()
    }

    #[test]
    fn tool_names_are_kept_once_each_few_and_short() {
        let call = |name: &str| {
            let delta = serde_json::json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":name,"arguments":"{}"}}]}}]});
            format!("data: {delta}\n\n")
        };
        let long = "n".repeat(100);
        let mut names: Vec<String> = vec!["search".into(), "search".into(), long.clone()];
        names.extend((0..10).map(|i| format!("tool_{i}")));
        let body: String = names.iter().map(|n| call(n)).collect();
        let a = run(SSE, &[(10.0, body.as_bytes())]);
        assert_eq!(a.tool_names.len(), TOOL_NAMES_KEPT, "{:?}", a.tool_names);
        assert_eq!(a.tool_names[..3], ["search".to_string(), "n".repeat(TOOL_NAME_CHARS), "tool_0".into()]);
        assert_eq!(a.tool_names.last().map(String::as_str), Some("tool_5"));
        assert_eq!(a.tool_arg_events, 13);
    }

    fn chunk(content: &str) -> String {
        format!(
            "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{}}}}}]}}\n\n",
            serde_json::Value::from(content)
        )
    }

    #[test]
    fn openai_stream_events_times_and_counters() {
        let role =
            "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
        let last =
            "data: {\"choices\":[{\"delta\":{\"content\":\"!\"},\"finish_reason\":\"stop\"}]}\n\n";
        let usage = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":3}}\n\ndata: [DONE]\n\n";
        let a = run(
            SSE,
            &[
                (10.0, b": ping\n\n"),
                (20.0, role.as_bytes()),
                (30.0, chunk("Hi").as_bytes()),
                (40.0, (chunk(" there") + last).as_bytes()),
                (50.0, usage.as_bytes()),
            ],
        );
        assert_eq!(a.framing, Some(Framing::Sse));
        assert_eq!(a.dialect, Dialect::OpenaiChat);
        assert_eq!(
            kinds(&a),
            [
                "role_only",
                "content",
                "content",
                "content",
                "finish",
                "usage",
                "done"
            ]
        );
        assert_eq!(a.text, "Hi there!");
        let content: Vec<(f64, usize)> = a
            .content_events()
            .map(|e| (e.at_ms, e.read_index))
            .collect();
        assert_eq!(content, vec![(30.0, 2), (40.0, 3), (40.0, 3)]);
        assert_eq!(a.messages_per_read, vec![1, 1, 1, 2, 2]);
        assert_eq!(a.messages, 7);
        assert_eq!(a.keepalive_comments, 1, "counted, not kept as an event");
        assert!(a.saw_done);
        assert_eq!(a.finish_reason, Some(StopReason::Stop));
        assert_eq!(a.usage.as_ref().and_then(|u| u.completion_tokens), Some(3));
        assert!(!a.mislabelled);
    }

    #[test]
    fn reasoning_text_is_kept_apart() {
        let r = "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"think\"}}]}\n\n";
        let a = run(SSE, &[(5.0, r.as_bytes()), (9.0, chunk("ok").as_bytes())]);
        assert_eq!(
            (a.reasoning_text.as_str(), a.text.as_str()),
            ("think", "ok")
        );
        assert_eq!(kinds(&a), ["reasoning", "content"]);
    }

    #[test]
    fn malformed_payload_in_openai_stream_is_counted_and_parsing_goes_on() {
        let long_bad = format!("data: {{\"choices\": [{}\n\n", "x".repeat(500));
        let body = chunk("a") + "data: not json\n\n" + &long_bad + &chunk("b");
        let a = run(SSE, &[(1.0, body.as_bytes())]);
        assert_eq!(kinds(&a), ["content", "malformed", "malformed", "content"]);
        assert_eq!(a.malformed_payloads, 2);
        assert_eq!(a.first_malformed.as_deref(), Some("not json"));
        match &a.events[2].kind {
            EventKind::Malformed(m) => assert_eq!(m.chars().count(), MALFORMED_EXAMPLE_CHARS),
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(a.text, "ab");
    }

    #[test]
    fn sse_text_dialect_each_data_is_content() {
        let a = run(
            SSE,
            &[
                (1.0, b"data: Hello\n\n"),
                (2.0, b"data:  world\n\ndata:\n\ndata: [DONE]\n\n"),
            ],
        );
        assert_eq!(a.dialect, Dialect::SseText);
        assert_eq!(a.text, "Hello world");
        assert_eq!(kinds(&a), ["content", "content", "done"]);
        assert_eq!(a.empty_messages, 1, "counted, not kept as an event");
    }

    #[test]
    fn empty_data_in_openai_stream_is_empty_not_malformed() {
        let body = chunk("a") + "data\n\ndata:  \n\n" + &chunk("b");
        let a = run(SSE, &[(1.0, body.as_bytes())]);
        assert_eq!(kinds(&a), ["content", "content"]);
        assert_eq!(a.empty_messages, 2, "counted, not kept as an event");
        assert_eq!(a.malformed_payloads, 0);
    }

    #[test]
    fn whitespace_token_first_makes_sse_text() {
        let a = run(SSE, &[(1.0, b"data:  \n\ndata: x\n\n")]);
        assert_eq!(a.dialect, Dialect::SseText);
        assert_eq!(a.text, " x");
    }

    #[test]
    fn error_event_type_is_a_stream_error() {
        let a = run(
            SSE,
            &[(
                1.0,
                b"event: error\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n",
            )],
        );
        assert_eq!(a.stream_errors, vec!["overloaded".to_string()]);
    }

    #[test]
    fn error_object_in_openai_stream() {
        let body = chunk("a")
            + "data: {\"error\":{\"message\":\"rate limited\",\"type\":\"requests\"}}\n\n";
        let a = run(SSE, &[(1.0, body.as_bytes())]);
        assert_eq!(
            a.stream_errors,
            vec!["rate limited (type: requests)".to_string()]
        );
    }

    #[test]
    fn ollama_ndjson() {
        let body = b"{\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"done\":false}\n\
{\"message\":{\"role\":\"assistant\",\"content\":\"!\"},\"done\":false}\r\n\
{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\",\"eval_count\":2}";
        let a = run(
            Some("application/x-ndjson"),
            &[(1.0, &body[..30]), (2.0, &body[30..])],
        );
        assert_eq!(a.framing, Some(Framing::Ndjson));
        assert_eq!(a.dialect, Dialect::Ollama);
        assert_eq!(a.text, "Hi!");
        assert_eq!(kinds(&a), ["content", "content", "finish", "usage"]);
        assert_eq!(a.finish_reason, Some(StopReason::Stop));
    }

    #[test]
    fn ndjson_malformed_line() {
        let a = run(
            None,
            &[(1.0, b"{\"response\":\"a\",\"done\":false}\n{broken\n\n")],
        );
        assert_eq!(kinds(&a), ["content", "malformed"]);
    }

    #[test]
    fn openai_chunks_as_json_lines() {
        let a = run(
            Some("application/json"),
            &[(1.0, b"{\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n")],
        );
        assert_eq!(a.dialect, Dialect::OpenaiChat);
        assert_eq!(a.text, "x");
    }

    #[test]
    fn raw_text_each_read_is_one_content_event() {
        let a = run(
            Some("text/plain"),
            &[
                (1.0, b"Hel"),
                (2.0, b"lo \xe4\xb8"),
                (3.0, b"\x96\xe7\x95\x8c"),
            ],
        );
        assert_eq!(a.framing, Some(Framing::Raw));
        assert_eq!(a.dialect, Dialect::Raw);
        assert_eq!(a.text, "Hello 世界");
        let at: Vec<f64> = a.content_events().map(|e| e.at_ms).collect();
        assert_eq!(at, vec![1.0, 2.0, 3.0]);
    }

    #[test]
    fn raw_text_under_event_stream_is_mislabelled() {
        let a = run(SSE, &[(1.0, b"Hello"), (2.0, b" world")]);
        assert!(a.mislabelled);
        assert_eq!(a.dialect, Dialect::Raw);
        assert_eq!(a.text, "Hello world");
    }

    #[test]
    fn held_reads_keep_their_own_times_when_replayed() {
        // "da" alone cannot be decided; once "ta: x" arrives, both reads replay with their own times.
        let a = run(SSE, &[(1.0, b"da"), (2.0, b"ta: x\n\n")]);
        assert_eq!(a.framing, Some(Framing::Sse));
        assert_eq!(a.events[0].at_ms, 2.0);
        let a = run(None, &[(1.0, b"\n"), (2.0, b"\nHi")]);
        assert_eq!(a.framing, Some(Framing::Raw));
        let at: Vec<f64> = a.content_events().map(|e| e.at_ms).collect();
        assert_eq!(at, vec![1.0, 2.0]);
    }

    #[test]
    fn undecided_prefix_is_decided_at_finish() {
        let a = run(SSE, &[(1.0, b"da")]);
        assert_eq!(a.framing, Some(Framing::Raw));
        assert_eq!(a.text, "da");
    }

    #[test]
    fn invalid_utf8_is_counted() {
        let a = run(SSE, &[(1.0, b"data: a\xff\n\n"), (2.0, b"data: b\n\n")]);
        assert_eq!(a.replaced_utf8_sequences, 1);
        assert_eq!(a.text, "a\u{FFFD}b");
    }

    #[test]
    fn abort_drops_partial_event_but_finish_flushes_it() {
        let mut a = Analyzer::new(SSE);
        a.push(1.0, chunk("a").as_bytes());
        a.push(
            2.0,
            b"data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}",
        );
        let mut b = a.clone();
        a.abort(3.0);
        assert_eq!(a.text(), "a");
        b.finish(3.0);
        assert_eq!(b.text(), "ab");
        assert_eq!(
            b.events().last().map(|e| (e.at_ms, e.read_index)),
            Some((2.0, 1))
        );
    }

    #[test]
    fn push_after_finish_is_ignored() {
        let mut a = Analyzer::new(SSE);
        a.push(1.0, chunk("a").as_bytes());
        a.finish(2.0);
        a.push(3.0, chunk("b").as_bytes());
        assert_eq!(a.text(), "a");
        assert_eq!(a.analysis().reads, 1);
    }

    #[test]
    fn broken_first_json_does_not_make_the_stream_text() {
        let body = String::from("data: {\"choices\":[\n\n") + &chunk("a");
        let a = run(SSE, &[(1.0, body.as_bytes())]);
        assert_eq!(a.dialect, Dialect::OpenaiChat);
        assert_eq!(a.text, "a");
        assert_eq!(a.malformed_payloads, 1);
    }

    #[test]
    fn empty_body_has_no_framing_and_no_events() {
        let a = run(SSE, &[]);
        assert_eq!(a.framing, None);
        assert_eq!(a.dialect, Dialect::Unknown);
        assert!(a.events.is_empty());
    }

    #[test]
    fn long_line_is_tracked() {
        let body = format!("data: {}\n\n", "y".repeat(70_000));
        let a = run(SSE, &[(1.0, body.as_bytes())]);
        assert_eq!(a.longest_line_bytes, 70_006);
    }

    /// Regression (issue 8): every keep-alive was kept as a ~176-byte event with a `Usage` inline.
    #[test]
    fn stream_event_stays_small() {
        let size = std::mem::size_of::<StreamEvent>();
        println!("size_of::<StreamEvent>() = {size} bytes");
        assert!(size <= 64, "StreamEvent is {size} bytes");
    }

    /// Regression (issue 8): a 4 MB keep-alive flood before the first token grew the analysis by one
    /// event per comment.
    #[test]
    fn keepalive_flood_is_counted_not_stored() {
        let comment = b": keep-alive\n\n";
        let n_comments = 4 * 1024 * 1024 / comment.len();
        let flood = comment.repeat(n_comments);
        let mut a = Analyzer::new(SSE);
        let mut at = 0.0;
        for read in flood.chunks(16 * 1024) {
            at += 1.0;
            a.push(at, read);
        }
        let events_after_flood = a.events().len();
        for i in 0..20 {
            a.push(at + 1.0 + i as f64, chunk("t").as_bytes());
        }
        a.push(at + 30.0, b"data: [DONE]\n\n");
        a.finish(at + 31.0);
        let a = a.into_analysis();
        assert_eq!(events_after_flood, 0, "no event per comment");
        assert_eq!(a.keepalive_comments, n_comments);
        assert_eq!(a.content_events().count(), 20);
        assert_eq!(a.events.len(), 21, "20 content events and [DONE], nothing per keep-alive");
        assert_eq!(a.messages, n_comments + 21);
    }

    /// Regression (issue 8): a 1 MB unterminated line grew the line buffer without limit; it must end
    /// as long_line with bounded memory and its true length.
    #[test]
    fn a_1_mb_unterminated_line_ends_as_long_line_with_bounded_memory() {
        let mut body = b"data: {\"choices\":[{\"delta\":{\"content\":\"".to_vec();
        body.extend(std::iter::repeat_n(b'x', 1_000_000));
        let mut a = Analyzer::new(SSE);
        for (i, read) in body.chunks(16 * 1024).enumerate() {
            a.push(i as f64, read);
            assert!(a.pending_bytes() <= crate::wire::lines::MAX_LINE_BYTES + 16 * 1024, "{}", a.pending_bytes());
        }
        a.finish(100.0);
        let analysis = a.into_analysis();
        assert_eq!(analysis.longest_line_bytes, body.len());
        let t = Trace::from_reads(200, "text/event-stream", 0.0, vec![(1.0, body.clone())], TraceEnd::Complete { at_ms: 2.0 });
        let report = crate::report::Report::from_analysis(&t, &analysis);
        assert!(report.has_finding(crate::findings::FindingCode::LongLine));
    }

    /// Regression: every stream error message was stored whole, however many the stream repeated.
    #[test]
    fn repeated_stream_errors_are_counted_and_a_few_kept() {
        let line = format!("{{\"error\":\"{}\"}}\n", "e".repeat(5000));
        let body = line.repeat(500);
        let a = run(Some("application/x-ndjson"), &[(1.0, body.as_bytes())]);
        assert_eq!(a.stream_error_count, 500);
        assert_eq!(a.stream_errors.len(), STREAM_ERRORS_KEPT);
        assert!(a.stream_errors.iter().all(|m| m.chars().count() == STREAM_ERROR_CHARS));
        assert!(a.events.iter().all(|e| match &e.kind {
            EventKind::StreamError(m) => m.chars().count() <= STREAM_ERROR_CHARS,
            _ => true,
        }));
    }

    /// Regression: a million `data:` lines with no blank line grew one event's data without limit; the
    /// event ends cut at MAX_EVENT_BYTES, counted, and reported as long_line.
    #[test]
    fn endless_event_is_cut_counted_and_reported_with_bounded_memory() {
        use crate::wire::sse::MAX_EVENT_BYTES;
        let lines = 1_000_000;
        let body = b"data: x\n".repeat(lines);
        let mut a = Analyzer::new(SSE);
        for (i, read) in body.chunks(16 * 1024).enumerate() {
            a.push(i as f64, read);
            assert!(a.pending_bytes() <= MAX_EVENT_BYTES + 16 * 1024, "{}", a.pending_bytes());
        }
        a.push(1000.0, b"\n");
        a.push(1001.0, b"data: [DONE]\n\n");
        a.finish(1002.0);
        let analysis = a.into_analysis();
        assert_eq!(analysis.dialect, Dialect::SseText);
        assert_eq!(analysis.content_events().count(), 1, "the cut event is still one content event");
        assert_eq!(analysis.content_events().next().map(|e| e.at_ms), Some(1000.0));
        assert_eq!(analysis.text.len(), MAX_EVENT_BYTES - 1);
        assert_eq!((analysis.cut_events, analysis.longest_event_bytes), (1, 2 * lines - 1));
        assert_eq!(analysis.discarded_data_lines, lines - MAX_EVENT_BYTES / 2);
        assert!(analysis.saw_done);
        let t = Trace::from_reads(200, "text/event-stream", 0.0, vec![(1.0, body)], TraceEnd::Complete { at_ms: 2.0 });
        let report = crate::report::Report::from_analysis(&t, &analysis);
        assert!(report.has_finding(crate::findings::FindingCode::LongLine));
    }

    /// Regression (issue 8): a long blank prefix kept every read held back (framing never decided).
    #[test]
    fn ten_mb_blank_prefix_decides_and_holds_little() {
        let mut a = Analyzer::new(SSE);
        let read = [b'\n'; 1024];
        for i in 0..10 * 1024 {
            a.push(i as f64, &read);
            assert!(a.pending_bytes() <= crate::wire::framing::BLANK_PREFIX_MAX_BYTES + 1024);
        }
        assert_eq!(a.framing(), Some(Framing::Sse));
        a.push(20_000.0, chunk("hi").as_bytes());
        a.finish(20_001.0);
        assert_eq!(a.text(), "hi");
    }
}
