//! Incremental Server-Sent Events parser over bytes, lenient per the WHATWG spec.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r` (also split across reads). Each complete line is decoded as
//! UTF-8 on its own, so a code point split across reads is fine; invalid bytes become U+FFFD and parsing
//! goes on (the count is kept). Fields: `data` (several lines joined with `\n`), `event`, `id`, `retry`;
//! unknown fields are ignored, a line without a colon is a field with an empty value, one space after the
//! colon is stripped, a leading byte-order mark is dropped. An event is dispatched on a blank line when it
//! has data; comment lines (`:` first) are reported so keep-alives can be counted.
//!
//! Two ways to read the result: [`SseParser::push`] returns owned [`SseItem`]s; [`SseParser::push_with`]
//! (with [`SseParser::finish_with`]) hands each item to a callback as a borrowed [`SseRef`]: the same
//! items, without an allocation per line or event (the analyzer's path). An event of one data line
//! whose blank line is in the same read is handed over straight from the read; other data is gathered in
//! one reused buffer.
//!
//! One deliberate difference from the spec: at the end of the stream, [`SseParser::finish`] handles a
//! final unterminated line and dispatches a pending event, so a server that omits the last blank line
//! still has its last event measured.
//!
//! Memory is bounded: a line is capped by the splitter ([`MAX_LINE_BYTES`]), and one event's data by
//! [`MAX_EVENT_BYTES`] (1 MiB). Past that, the rest of the event's data lines are counted and discarded,
//! and the event is delivered cut at the cap when its blank line (or the end) comes; the counts
//! ([`SseParser::cut_events`], [`SseParser::longest_event_bytes`], [`SseParser::discarded_data_lines`])
//! say what happened. (The bug this avoids: many `data:` lines, each under the line cap, with no blank
//! line between them grew the event's data without limit.)

use serde::{Deserialize, Serialize};

use std::borrow::Cow;

use super::lines::{Line, LineSplitter, MAX_LINE_BYTES};
use super::utf8::decode_lossy;

/// The most bytes of one event's data kept (1 MiB): twice [`MAX_LINE_BYTES`], so an event whose data
/// sits on one line the splitter kept whole (a large tool call, an image chunk) is never cut again, and a
/// JSON payload spread over several `data:` lines is kept whole up to that size. Real events carry a token
/// or a few; the parser then holds at most one line and one event's data (about 1.5 MiB) whatever the
/// stream sends.
pub const MAX_EVENT_BYTES: usize = 2 * MAX_LINE_BYTES;

/// One thing the parser found in the stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SseItem {
    /// A dispatched event (a blank line ended a block that had at least one `data` line).
    Event {
        /// The `event` field, `None` when absent or empty (the spec's default type `message`).
        event: Option<String>,
        /// The data lines joined with `\n`.
        data: String,
        /// The last event id in force (it persists across events per the spec), `None` when empty.
        id: Option<String>,
    },
    /// A comment line (`:` first), with the text after the colon (one leading space stripped).
    Comment(String),
    /// A valid `retry` field: the reconnection time the server asked for, in ms.
    Retry(u64),
}

impl SseItem {
    /// The item as borrowed [`SseRef`].
    pub fn as_sse_ref(&self) -> SseRef<'_> {
        match self {
            SseItem::Event { event, data, id } => {
                SseRef::Event { event: event.as_deref(), data, id: id.as_deref() }
            }
            SseItem::Comment(text) => SseRef::Comment(text),
            SseItem::Retry(ms) => SseRef::Retry(*ms),
        }
    }
}

/// An [`SseItem`] borrowed from the parser (the fast path, [`SseParser::push_with`]): valid for the
/// duration of the callback, no allocation per event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SseRef<'a> {
    /// A dispatched event; see [`SseItem::Event`].
    Event {
        /// The `event` field, `None` when absent or empty.
        event: Option<&'a str>,
        /// The data lines joined with `\n`.
        data: &'a str,
        /// The last event id in force, `None` when empty.
        id: Option<&'a str>,
    },
    /// A comment line, the text after the colon (one leading space stripped).
    Comment(&'a str),
    /// A valid `retry` field, in ms.
    Retry(u64),
}

impl SseRef<'_> {
    /// The owned item with the same contents.
    pub fn to_item(&self) -> SseItem {
        match *self {
            SseRef::Event { event, data, id } => SseItem::Event {
                event: event.map(str::to_string),
                data: data.to_string(),
                id: id.map(str::to_string),
            },
            SseRef::Comment(text) => SseItem::Comment(text.to_string()),
            SseRef::Retry(ms) => SseItem::Retry(ms),
        }
    }
}

/// Data capacity kept for the next event after a dispatch (64 KiB): the buffer is reused, so events of
/// ordinary size allocate nothing, while one huge event does not keep its megabyte.
const DATA_CAPACITY_KEPT: usize = 64 * 1024;

/// The event being assembled from field lines.
#[derive(Debug, Default, Clone)]
struct EventState {
    /// The event's data so far (at most [`MAX_EVENT_BYTES`]).
    data: String,
    has_data: bool,
    /// Bytes of the current event's data (joining `\n`s included) discarded past [`MAX_EVENT_BYTES`].
    event_dropped: usize,
    event_type: String,
    last_event_id: String,
    replaced_utf8: usize,
    first_line_done: bool,
    /// Events delivered cut at [`MAX_EVENT_BYTES`].
    cut_events: usize,
    /// Data lines not kept whole (cut or discarded) past [`MAX_EVENT_BYTES`], over the whole stream.
    discarded_data_lines: usize,
    /// The largest dispatched event's data in bytes, discarded bytes included.
    longest_event_bytes: usize,
}

impl EventState {
    /// Handles one line: its bytes, its text when already checked, and whether the line after it is an
    /// empty line in the same read (see [`Line`]).
    fn line(&mut self, raw: &[u8], text: Option<&str>, ends_event: bool, out: &mut dyn FnMut(SseRef<'_>)) {
        let (mut raw, mut text) = (raw, text);
        if !self.first_line_done {
            self.first_line_done = true;
            if let Some(rest) = raw.strip_prefix(b"\xEF\xBB\xBF") {
                raw = rest;
                text = text.map(|t| &t[3..]);
            }
        }
        if raw.is_empty() {
            self.dispatch(out);
            return;
        }
        if let Some(value) = raw.strip_prefix(b"data:") {
            // The common line, without looking for the colon or matching the name.
            let skip = if value.first() == Some(&b' ') { 6 } else { 5 };
            let value = self.decode(&raw[skip..], text.map(|t| &t[skip..]));
            if ends_event && !self.has_data && value.len() <= MAX_EVENT_BYTES {
                // A one-line event whose blank line follows in this read: dispatched now, its data
                // borrowed, not copied (the blank line then has nothing to dispatch).
                self.longest_event_bytes = self.longest_event_bytes.max(value.len());
                out(SseRef::Event {
                    event: non_empty(&self.event_type),
                    data: &value,
                    id: non_empty(&self.last_event_id),
                });
                self.event_type.clear();
                return;
            }
            self.data_line(&value);
            return;
        }
        let line = self.decode(raw, text);
        let line: &str = &line;
        if let Some(comment) = line.strip_prefix(':') {
            out(SseRef::Comment(strip_one_space(comment)));
            return;
        }
        let (name, value) = match line.find(':') {
            Some(i) => (&line[..i], strip_one_space(&line[i + 1..])),
            None => (line, ""),
        };
        match name {
            "data" => self.data_line(value),
            "event" => value.clone_into(&mut self.event_type),
            "id" if !value.contains('\0') => value.clone_into(&mut self.last_event_id),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                if let Ok(ms) = value.parse::<u64>() {
                    out(SseRef::Retry(ms));
                }
            }
            _ => {}
        }
    }
    /// The text of a line (or part of one): `text` when already checked, else the bytes decoded lossily
    /// (invalid sequences counted).
    fn decode<'a>(&mut self, raw: &'a [u8], text: Option<&'a str>) -> Cow<'a, str> {
        if let Some(t) = text {
            return Cow::Borrowed(t);
        }
        let (decoded, replaced) = decode_lossy(raw);
        self.replaced_utf8 += replaced;
        decoded
    }

    /// Appends one `data` value, keeping at most [`MAX_EVENT_BYTES`] of the event's data (cut on a
    /// character boundary) and counting the rest.
    fn data_line(&mut self, value: &str) {
        let joiner = if self.has_data { "\n" } else { "" };
        self.has_data = true;
        if self.event_dropped == 0 && self.data.len() + joiner.len() + value.len() <= MAX_EVENT_BYTES {
            self.data.push_str(joiner);
            self.data.push_str(value);
            return;
        }
        let mut kept = 0;
        if self.event_dropped == 0 {
            let room = MAX_EVENT_BYTES - self.data.len();
            if room > joiner.len() {
                kept = room - joiner.len();
                while !value.is_char_boundary(kept) {
                    kept -= 1;
                }
                self.data.push_str(joiner);
                self.data.push_str(&value[..kept]);
                kept += joiner.len();
            }
        }
        self.event_dropped += joiner.len() + value.len() - kept;
        self.discarded_data_lines += 1;
    }

    /// The current event's data length in bytes, discarded bytes included.
    fn event_len_bytes(&self) -> usize {
        self.data.len() + self.event_dropped
    }

    fn dispatch(&mut self, out: &mut dyn FnMut(SseRef<'_>)) {
        if !self.has_data {
            self.event_type.clear();
            return;
        }
        self.has_data = false;
        self.longest_event_bytes = self.longest_event_bytes.max(self.event_len_bytes());
        if std::mem::take(&mut self.event_dropped) > 0 {
            self.cut_events += 1;
        }
        out(SseRef::Event {
            event: non_empty(&self.event_type),
            data: &self.data,
            id: non_empty(&self.last_event_id),
        });
        self.event_type.clear();
        self.data.clear();
        if self.data.capacity() > DATA_CAPACITY_KEPT {
            self.data = String::new();
        }
    }
}

fn strip_one_space(s: &str) -> &str {
    s.strip_prefix(' ').unwrap_or(s)
}

fn non_empty(s: &str) -> Option<&str> {
    Some(s).filter(|s| !s.is_empty())
}

/// Parses an SSE byte stream read by read.
#[derive(Debug, Default, Clone)]
pub struct SseParser {
    lines: LineSplitter,
    state: EventState,
}

impl SseParser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses the bytes of one read and returns what they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<SseItem> {
        let mut out = Vec::new();
        let mut sink = |item: SseRef<'_>| out.push(item.to_item());
        self.lines.feed(bytes);
        while let Some(line) = self.lines.next_line() {
            self.state.line(line, None, false, &mut sink);
        }
        out
    }

    /// Parses the bytes of one read and calls `on_item` with each thing they completed, borrowed (the
    /// fast path: no allocation per line or event): the same items, in the same order, as
    /// [`SseParser::push`].
    pub fn push_with(&mut self, bytes: &[u8], mut on_item: impl FnMut(SseRef<'_>)) {
        self.push_dyn(bytes, &mut on_item);
    }

    /// [`SseParser::push_with`] behind one dynamic call per item, so the parser's code is not copied for
    /// every caller (the page's wasm size).
    fn push_dyn(&mut self, bytes: &[u8], on_item: &mut dyn FnMut(SseRef<'_>)) {
        let state = &mut self.state;
        self.lines.feed_lines(bytes, |line: Line<'_>| state.line(line.bytes, line.text, line.next_is_empty, on_item));
    }

    /// Ends the stream: handles a final unterminated line and dispatches a pending event.
    pub fn finish(&mut self) -> Vec<SseItem> {
        let mut out = Vec::new();
        self.finish_with(|item| out.push(item.to_item()));
        out
    }

    /// Ends the stream like [`SseParser::finish`], calling `on_item` with what it completes, borrowed.
    pub fn finish_with(&mut self, mut on_item: impl FnMut(SseRef<'_>)) {
        self.finish_dyn(&mut on_item);
    }

    fn finish_dyn(&mut self, on_item: &mut dyn FnMut(SseRef<'_>)) {
        if let Some(rest) = self.lines.take_rest() {
            self.state.line(&rest, None, false, on_item);
        }
        self.state.dispatch(on_item);
    }

    /// Length in bytes of the longest line so far (terminator excluded, the line in progress included).
    pub fn longest_line_bytes(&self) -> usize {
        self.lines.longest_line_bytes()
    }

    /// Bytes held for the line still being received (at most [`MAX_LINE_BYTES`]).
    pub fn pending_len_bytes(&self) -> usize {
        self.lines.pending_len_bytes()
    }

    /// Bytes held in total: the line still being received and the data of the event not yet dispatched
    /// (at most [`MAX_LINE_BYTES`] + [`MAX_EVENT_BYTES`], plus a line that arrived whole in one read).
    pub fn buffered_bytes(&self) -> usize {
        self.lines.pending_len_bytes() + self.state.data.len() + self.state.event_type.len()
    }

    /// How many events were delivered cut at [`MAX_EVENT_BYTES`] so far.
    pub fn cut_events(&self) -> usize {
        self.state.cut_events
    }

    /// How many data lines were cut or discarded past [`MAX_EVENT_BYTES`] so far.
    pub fn discarded_data_lines(&self) -> usize {
        self.state.discarded_data_lines
    }

    /// The largest event's data in bytes (its true length, discarded bytes included), counting the event
    /// still being received.
    pub fn longest_event_bytes(&self) -> usize {
        let pending = if self.state.has_data { self.state.event_len_bytes() } else { 0 };
        self.state.longest_event_bytes.max(pending)
    }

    /// How many invalid UTF-8 sequences were replaced with U+FFFD so far.
    pub fn replaced_utf8_sequences(&self) -> usize {
        self.state.replaced_utf8
    }

    /// The last event id set by the stream, if any.
    pub fn last_event_id(&self) -> Option<&str> {
        Some(self.state.last_event_id.as_str()).filter(|s| !s.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(data: &str) -> SseItem {
        SseItem::Event {
            event: None,
            data: data.into(),
            id: None,
        }
    }

    fn parse(reads: &[&[u8]]) -> Vec<SseItem> {
        let mut p = SseParser::new();
        let mut out = Vec::new();
        for r in reads {
            out.extend(p.push(r));
        }
        out.extend(p.finish());
        out
    }

    #[test]
    fn lf_line_endings() {
        assert_eq!(parse(&[b"data: a\n\ndata: b\n\n"]), vec![ev("a"), ev("b")]);
    }

    #[test]
    fn crlf_line_endings() {
        assert_eq!(
            parse(&[b"data: a\r\n\r\ndata: b\r\n\r\n"]),
            vec![ev("a"), ev("b")]
        );
    }

    #[test]
    fn lone_cr_line_endings() {
        assert_eq!(parse(&[b"data: a\r\rdata: b\r\r"]), vec![ev("a"), ev("b")]);
    }

    #[test]
    fn mixed_line_endings() {
        assert_eq!(
            parse(&[b"data: a\r\n\ndata: b\r\rdata: c\n\r\n"]),
            vec![ev("a"), ev("b"), ev("c")]
        );
    }

    #[test]
    fn cr_at_end_of_read_then_lf_is_one_line_ending() {
        // "data: a\r" + "\ndata: b\n\n": if the LF were a second line ending, the blank line would
        // dispatch "a" alone and "b" would be a separate event; correctly, a and b form one event.
        let mut p = SseParser::new();
        assert!(p.push(b"data: a\r").is_empty());
        assert!(p.push(b"\ndata: b\n").is_empty());
        assert_eq!(p.push(b"\n"), vec![ev("a\nb")]);
    }

    #[test]
    fn crlf_split_between_every_pair_of_reads() {
        let stream = b"data: x\r\ndata: y\r\n\r\n";
        for cut in 0..=stream.len() {
            assert_eq!(
                parse(&[&stream[..cut], &stream[cut..]]),
                vec![ev("x\ny")],
                "cut {cut}"
            );
        }
    }

    #[test]
    fn multi_line_data_joined_with_lf() {
        assert_eq!(
            parse(&[b"data: one\ndata: two\ndata:three\n\n"]),
            vec![ev("one\ntwo\nthree")]
        );
    }

    #[test]
    fn comments_are_reported() {
        assert_eq!(
            parse(&[b": keep-alive\n:\n:x\ndata: a\n\n"]),
            vec![
                SseItem::Comment("keep-alive".into()),
                SseItem::Comment(String::new()),
                SseItem::Comment("x".into()),
                ev("a")
            ]
        );
    }

    #[test]
    fn event_id_and_retry_fields() {
        let items = parse(&[b"event: delta\nid: 7\nretry: 1500\ndata: a\n\ndata: b\n\n"]);
        assert_eq!(
            items,
            vec![
                SseItem::Retry(1500),
                SseItem::Event {
                    event: Some("delta".into()),
                    data: "a".into(),
                    id: Some("7".into())
                },
                // The event type resets after dispatch; the last event id persists.
                SseItem::Event {
                    event: None,
                    data: "b".into(),
                    id: Some("7".into())
                },
            ]
        );
    }

    #[test]
    fn invalid_retry_is_ignored() {
        assert_eq!(
            parse(&[b"retry: 12a\nretry:\nretry: -1\ndata: a\n\n"]),
            vec![ev("a")]
        );
    }

    #[test]
    fn id_with_nul_is_ignored_and_empty_id_resets() {
        let items = parse(&[b"id: 1\ndata: a\n\nid: x\0y\ndata: b\n\nid\ndata: c\n\n"]);
        let ids: Vec<_> = items
            .iter()
            .map(|i| match i {
                SseItem::Event { id, .. } => id.clone(),
                _ => panic!("unexpected {i:?}"),
            })
            .collect();
        assert_eq!(ids, vec![Some("1".into()), Some("1".into()), None]);
    }

    #[test]
    fn unknown_fields_are_ignored() {
        assert_eq!(
            parse(&[b"foo: bar\nDATA: no\ndata: a\nbaz\n\n"]),
            vec![ev("a")]
        );
    }

    #[test]
    fn bare_data_line_is_empty_value() {
        assert_eq!(parse(&[b"data\n\n"]), vec![ev("")]);
        assert_eq!(parse(&[b"data\ndata\n\n"]), vec![ev("\n")]);
    }

    #[test]
    fn only_one_leading_space_is_stripped() {
        assert_eq!(parse(&[b"data:  two\n\n"]), vec![ev(" two")]);
        assert_eq!(parse(&[b"data:no space\n\n"]), vec![ev("no space")]);
    }

    #[test]
    fn value_may_contain_colons() {
        assert_eq!(parse(&[b"data: {\"a\":1}\n\n"]), vec![ev("{\"a\":1}")]);
    }

    #[test]
    fn event_without_data_is_not_dispatched() {
        assert_eq!(parse(&[b"event: ping\n\nid: 3\n\ndata: a\n\n"]).len(), 1);
    }

    #[test]
    fn blank_lines_alone_dispatch_nothing() {
        assert!(parse(&[b"\n\n\r\n\r\r\n"]).is_empty());
    }

    #[test]
    fn leading_bom_is_dropped_even_when_split() {
        let stream = b"\xEF\xBB\xBFdata: a\n\n";
        for cut in 0..=stream.len() {
            let mut p = SseParser::new();
            let mut items = p.push(&stream[..cut]);
            items.extend(p.push(&stream[cut..]));
            assert_eq!(items, vec![ev("a")], "cut {cut}");
            assert_eq!(p.replaced_utf8_sequences(), 0);
        }
    }

    #[test]
    fn utf8_code_point_split_across_pushes() {
        let stream = "data: 你好🎉\n\n".as_bytes();
        for cut in 0..=stream.len() {
            let mut p = SseParser::new();
            let mut items = p.push(&stream[..cut]);
            items.extend(p.push(&stream[cut..]));
            assert_eq!(items, vec![ev("你好🎉")], "cut {cut}");
            assert_eq!(p.replaced_utf8_sequences(), 0);
        }
    }

    #[test]
    fn invalid_utf8_is_replaced_and_later_text_still_arrives() {
        let mut p = SseParser::new();
        assert_eq!(p.push(b"data: a\xffb\n\n"), vec![ev("a\u{FFFD}b")]);
        assert_eq!(p.push(b"data: later\n\n"), vec![ev("later")]);
        assert_eq!(
            p.push(b"data: \xc3\x28 \xed\xa0\x80\n\n"),
            vec![ev("\u{FFFD}( \u{FFFD}\u{FFFD}\u{FFFD}")]
        );
        assert_eq!(p.replaced_utf8_sequences(), 5);
    }

    #[test]
    fn one_megabyte_line_in_many_reads() {
        let payload = "x".repeat(1 << 20);
        let stream = format!("data: {payload}\n\n");
        let mut p = SseParser::new();
        let mut items = Vec::new();
        for chunk in stream.as_bytes().chunks(1000) {
            items.extend(p.push(chunk));
        }
        assert_eq!(items.len(), 1);
        match &items[0] {
            // The line is kept up to MAX_LINE_BYTES (its "data: " prefix included), the rest counted.
            SseItem::Event { data, .. } => assert_eq!(data.len(), super::super::lines::MAX_LINE_BYTES - 6),
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(p.longest_line_bytes(), (1 << 20) + 6);
    }

    /// Regression: many `data:` lines with no blank line grew one event's data without limit (each line
    /// was under the line cap). A million `data: x` lines (2 MB of data in 8 MB of input) stay bounded.
    #[test]
    fn a_million_data_lines_without_a_blank_line_stay_bounded() {
        let lines = 1_000_000;
        let stream = b"data: x\n".repeat(lines);
        let mut p = SseParser::new();
        for read in stream.chunks(16 * 1024) {
            assert!(p.push(read).is_empty());
            assert!(p.buffered_bytes() <= MAX_EVENT_BYTES + 16 * 1024, "{}", p.buffered_bytes());
        }
        assert!(p.state.data.capacity() <= 2 * MAX_EVENT_BYTES, "{}", p.state.data.capacity());
        assert_eq!(p.longest_event_bytes(), 2 * lines - 1, "the true length, discarded lines included");
        let items = p.push(b"\n");
        let [SseItem::Event { data, .. }] = &items[..] else { panic!("{items:?}") };
        // 524,288 values of "x" joined by "\n" fill the cap but one byte; the next "\nx" does not fit.
        assert_eq!(data.len(), MAX_EVENT_BYTES - 1);
        assert!(data.starts_with("x\nx\n") && data.ends_with("\nx"), "cut after a whole value");
        assert_eq!((p.cut_events(), p.discarded_data_lines()), (1, lines - MAX_EVENT_BYTES / 2));
        assert_eq!(p.longest_event_bytes(), 2 * lines - 1);
        assert_eq!(p.buffered_bytes(), 0);
        // The next event is whole again.
        assert_eq!(p.push(b"data: after\n\n"), vec![ev("after")]);
        assert_eq!(p.cut_events(), 1);
    }

    #[test]
    fn a_hundred_thousand_data_lines_fit_in_one_event() {
        let stream = b"data: x\n".repeat(100_000);
        let mut p = SseParser::new();
        for read in stream.chunks(4096) {
            p.push(read);
        }
        assert!(p.buffered_bytes() <= 200_000, "{}", p.buffered_bytes());
        let items = p.finish();
        let [SseItem::Event { data, .. }] = &items[..] else { panic!("{items:?}") };
        assert_eq!(data.len(), 199_999);
        assert_eq!((p.cut_events(), p.discarded_data_lines()), (0, 0));
    }

    #[test]
    fn an_event_is_cut_on_a_character_boundary_and_delivered_at_the_end_too() {
        let big = "é".repeat(MAX_LINE_BYTES / 2 - 8);
        let mut stream = String::new();
        for _ in 0..4 {
            stream += &format!("data: {big}\n");
        }
        let mut p = SseParser::new();
        for read in stream.as_bytes().chunks(1000) {
            p.push(read);
        }
        let items = p.finish();
        let [SseItem::Event { data, .. }] = &items[..] else { panic!("{items:?}") };
        assert!(data.len() <= MAX_EVENT_BYTES && data.len() > MAX_EVENT_BYTES - 4, "{}", data.len());
        assert_eq!(p.cut_events(), 1);
        assert_eq!(p.discarded_data_lines(), 2, "the third line is cut, the fourth discarded");
        assert_eq!(p.longest_event_bytes(), 4 * big.len() + 3);
    }

    #[test]
    fn longest_line_counts_line_in_progress() {
        let mut p = SseParser::new();
        p.push(b"data: short\n\ndata: 0123456789");
        assert_eq!(p.longest_line_bytes(), 16);
    }

    #[test]
    fn finish_flushes_unterminated_line_and_pending_event() {
        assert_eq!(
            parse(&[b"data: a\n\ndata: [DONE]"]),
            vec![ev("a"), ev("[DONE]")]
        );
        assert_eq!(parse(&[b"data: a\n"]), vec![ev("a")]);
        assert_eq!(parse(&[b": tail"]), vec![SseItem::Comment("tail".into())]);
    }

    #[test]
    fn done_marker_is_plain_data_to_the_parser() {
        assert_eq!(parse(&[b"data: [DONE]\n\n"]), vec![ev("[DONE]")]);
    }

    #[test]
    fn garbage_never_panics() {
        let junk: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        let mut p = SseParser::new();
        for c in junk.chunks(7) {
            p.push(c);
        }
        p.finish();
    }
}
