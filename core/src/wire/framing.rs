//! Deciding how a response body is framed (SSE, JSON lines or raw text) from its Content-Type and its
//! first bytes.
//!
//! The body decides, the header only qualifies: a body that starts with an SSE field line is SSE, one
//! whose first non-blank byte is `{` is JSON lines, and so is one whose first line is a stream part of the
//! AI SDK 4 data stream protocol (`0:"text"`, `f:{…}`: a part code, a colon, JSON; [`stream_part`]);
//! one that starts with `[` then `{` is a streamed JSON array; anything else is raw text. When the Content-Type
//! disagrees with the body (plain text streamed as `text/event-stream`, or SSE sent under another type)
//! the decision is marked `mislabelled`. Detection waits while the first bytes are still ambiguous (for
//! example `da`, which may become `data:`), so the decision never depends on how the body was split into
//! reads. Detection is incremental ([`FramingDetector`]): each byte is looked at once however the body
//! is split, and a blank prefix longer than [`BLANK_PREFIX_MAX_BYTES`] decides by the Content-Type (the
//! bug this avoids: the whole prefix was rescanned on every read, and a blank prefix never decided).

use serde::{Deserialize, Serialize};

/// How the body is framed into messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Framing {
    /// Server-Sent Events (`data:` lines, blank line between events).
    Sse,
    /// One JSON value per line (Ollama, `application/x-ndjson`, `application/jsonl`; Cohere v1,
    /// `application/stream+json`).
    Ndjson,
    /// A JSON array streamed element by element (Gemini's `streamGenerateContent` without `alt=sse`).
    JsonArray,
    /// Anything else: the bytes are text as they arrive.
    Raw,
}

impl Framing {
    /// Every framing.
    pub const ALL: [Framing; 4] = [Framing::Sse, Framing::Ndjson, Framing::JsonArray, Framing::Raw];

    /// The lower-case name used in reports (`sse`, `ndjson`, `json-array`, `raw`).
    pub fn as_str(self) -> &'static str {
        match self {
            Framing::Sse => "sse",
            Framing::Ndjson => "ndjson",
            Framing::JsonArray => "json-array",
            Framing::Raw => "raw",
        }
    }
}

serde_by_name!(Framing => as_str);

/// The outcome of framing detection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FramingDecision {
    /// The framing the body actually uses.
    pub framing: Framing,
    /// The Content-Type says otherwise: `text/event-stream` on a body that is not SSE, or an SSE body
    /// under another declared type.
    pub mislabelled: bool,
}

/// The SSE field names that may start an SSE body.
const SSE_FIELDS: [&str; 4] = ["data", "event", "id", "retry"];
/// A UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";
/// Whether `b` is a part code of the AI SDK's data stream protocol (`0`-`9`, `a`-`z`).
fn is_part_code(b: u8) -> bool {
    b.is_ascii_digit() || b.is_ascii_lowercase()
}

/// A line of the AI SDK 4 data stream protocol split into its part code and its JSON (`0:"Hi"` →
/// `(b'0', "\"Hi\"")`), or `None` when the line is not one (a JSON line starts with `{`).
pub fn stream_part(line: &str) -> Option<(u8, &str)> {
    let b = line.as_bytes();
    (b.len() >= 3 && is_part_code(b[0]) && b[1] == b':' && matches!(b[2], b'"' | b'{' | b'[')).then(|| (b[0], &line[2..]))
}

/// How many bytes of an unterminated first line are enough to decide.
const ENOUGH_BYTES: usize = 16;

/// The media type of a Content-Type value, lower-cased, without parameters (`text/event-stream`).
pub fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether a Content-Type value declares SSE (`text/event-stream`).
pub fn is_event_stream(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|ct| media_type(ct) == "text/event-stream")
}

/// How many bytes of a blank prefix (line endings and whitespace only) are read before deciding
/// anyway (64 KiB): then the Content-Type decides (`text/event-stream` → SSE, a JSON-lines or JSON type
/// → JSON lines, anything else → raw text). No real stream pads its start that much, and deciding keeps
/// the reads held back for detection bounded.
pub const BLANK_PREFIX_MAX_BYTES: usize = 64 * 1024;

/// Where the detector is in the body's first bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
enum State {
    /// Matching a leading byte-order mark (`bom_len` bytes of it so far).
    #[default]
    Bom,
    /// Skipping leading line endings.
    LineEnds,
    /// In the first line (after the line endings): it may start with an SSE field.
    FirstLine,
    /// The first line is not SSE and everything so far is whitespace: waiting for the first
    /// non-whitespace byte (`{` → JSON lines, anything else → raw text).
    Whitespace,
    /// The body starts with `[`: waiting for the next non-whitespace byte (`{` → a JSON array of
    /// objects, anything else → raw text).
    Bracket,
}

/// Decides the framing from the Content-Type and the body's first bytes, incrementally: each byte is
/// looked at once (linear total time whatever the reads' sizes), a handful of bytes of the first line is
/// kept, and a blank prefix longer than [`BLANK_PREFIX_MAX_BYTES`] decides by the Content-Type.
#[derive(Debug, Clone, Default)]
pub struct FramingDetector {
    content_type: Option<String>,
    declared_sse: bool,
    decision: Option<FramingDecision>,
    state: State,
    bom_len: usize,
    /// The first bytes of the first line (at most [`FIRST_LINE_KEPT`]).
    line: Vec<u8>,
    /// The first non-whitespace byte after the leading line endings, once seen.
    first_non_ws: Option<u8>,
    /// Bytes of blank prefix (line endings and whitespace) so far.
    blank_bytes: usize,
    /// Whether any byte arrived.
    seen_any: bool,
    /// Bytes looked at in total (each at most once, plus at most a partial BOM again).
    examined: u64,
}

/// Bytes of the first line kept: enough for the longest field name and its colon (`retry:`).
const FIRST_LINE_KEPT: usize = 8;

/// What the first line says so far.
enum Answer {
    Yes,
    No,
    Wait,
    /// A data stream part (read as JSON lines).
    Part,
}

impl FramingDetector {
    /// A detector for a response with this Content-Type header value.
    pub fn new(content_type: Option<&str>) -> Self {
        Self {
            content_type: content_type.map(str::to_string),
            declared_sse: is_event_stream(content_type),
            ..Self::default()
        }
    }

    fn decide(&mut self, framing: Framing) -> Option<FramingDecision> {
        let ct = self.content_type.as_deref();
        let mislabelled = match framing {
            Framing::Sse => ct.is_some_and(|ct| !ct.trim().is_empty()) && !self.declared_sse,
            _ => self.declared_sse,
        };
        self.decision = Some(FramingDecision { framing, mislabelled });
        self.line = Vec::new();
        self.decision
    }

    /// What the Content-Type alone says (for a long blank prefix).
    fn declared(&self) -> Framing {
        let media = self.content_type.as_deref().map(media_type).unwrap_or_default();
        if self.declared_sse {
            Framing::Sse
        } else if matches!(
            media.as_str(),
            "application/x-ndjson"
                | "application/ndjson"
                | "application/jsonl"
                | "application/x-jsonlines"
                | "application/stream+json"
                | "application/json"
        ) {
            Framing::Ndjson
        } else {
            Framing::Raw
        }
    }

    fn blank(&mut self) -> Option<FramingDecision> {
        self.blank_bytes += 1;
        if self.blank_bytes >= BLANK_PREFIX_MAX_BYTES {
            let f = self.declared();
            return self.decide(f);
        }
        None
    }

    /// Whether the first line so far starts with an SSE field (see the module docs).
    fn first_line(&self, complete: bool) -> Answer {
        let line = &self.line;
        if line.first() == Some(&b':') {
            return Answer::Yes;
        }
        if let Some(colon) = line.iter().position(|&b| b == b':') {
            let name = &line[..colon];
            if SSE_FIELDS.iter().any(|f| f.as_bytes() == name) {
                return Answer::Yes;
            }
            return match (name, line.get(colon + 1)) {
                ([code], Some(b'"' | b'{' | b'[')) if is_part_code(*code) => Answer::Part,
                ([code], None) if is_part_code(*code) && !complete => Answer::Wait,
                _ => Answer::No,
            };
        }
        if complete {
            // A bare field name on its own line is valid SSE, but only trusted under the SSE media type.
            let bare = SSE_FIELDS.iter().any(|f| f.as_bytes() == &line[..]);
            return if bare && self.declared_sse { Answer::Yes } else { Answer::No };
        }
        let could_be_field = SSE_FIELDS.iter().any(|f| f.as_bytes().starts_with(line));
        let could_be_part = matches!(line[..], [code] if is_part_code(code));
        if (could_be_field || could_be_part) && line.len() < ENOUGH_BYTES {
            Answer::Wait
        } else {
            Answer::No
        }
    }

    /// The first line is not SSE: JSON lines if the first non-whitespace byte is `{`, maybe a JSON array
    /// if it is `[`, raw text if it is anything else, else keep looking.
    fn not_sse(&mut self) -> Option<FramingDecision> {
        match self.first_non_ws {
            Some(b'{') => self.decide(Framing::Ndjson),
            Some(b'[') => {
                self.state = State::Bracket;
                None
            }
            Some(_) => self.decide(Framing::Raw),
            None => {
                self.state = State::Whitespace;
                None
            }
        }
    }

    /// One byte of content (after any BOM).
    fn content_byte(&mut self, b: u8) -> Option<FramingDecision> {
        match self.state {
            State::Bom | State::LineEnds => {
                if b == b'\r' || b == b'\n' {
                    self.state = State::LineEnds;
                    return self.blank();
                }
                self.state = State::FirstLine;
                self.first_line_byte(b)
            }
            State::FirstLine => self.first_line_byte(b),
            State::Whitespace => {
                if b.is_ascii_whitespace() {
                    self.blank()
                } else if b == b'[' {
                    self.state = State::Bracket;
                    None
                } else {
                    self.decide(if b == b'{' { Framing::Ndjson } else { Framing::Raw })
                }
            }
            State::Bracket => {
                if b.is_ascii_whitespace() {
                    self.blank()
                } else {
                    self.decide(if b == b'{' { Framing::JsonArray } else { Framing::Raw })
                }
            }
        }
    }

    fn first_line_byte(&mut self, b: u8) -> Option<FramingDecision> {
        if self.first_non_ws.is_none() && !b.is_ascii_whitespace() {
            self.first_non_ws = Some(b);
        }
        let complete = b == b'\r' || b == b'\n';
        if !complete && self.line.len() < FIRST_LINE_KEPT {
            self.line.push(b);
        }
        if b.is_ascii_whitespace() {
            if let Some(d) = self.blank() {
                return Some(d);
            }
        }
        match self.first_line(complete) {
            Answer::Yes => self.decide(Framing::Sse),
            Answer::Part => self.decide(Framing::Ndjson),
            Answer::No => self.not_sse(),
            Answer::Wait => None,
        }
    }

    /// Adds the bytes of one read; returns the decision once there is one.
    pub fn push(&mut self, bytes: &[u8]) -> Option<FramingDecision> {
        for &b in bytes {
            if self.decision.is_some() {
                break;
            }
            self.examined += 1;
            self.seen_any = true;
            if self.state == State::Bom {
                if b == BOM[self.bom_len] {
                    self.bom_len += 1;
                    if self.bom_len == BOM.len() {
                        self.state = State::LineEnds;
                    }
                    continue;
                }
                // Not a BOM after all: its bytes so far are content.
                let partial = std::mem::take(&mut self.bom_len);
                self.state = State::LineEnds;
                for &x in &BOM[..partial] {
                    if self.content_byte(x).is_some() {
                        return self.decision;
                    }
                }
            }
            self.content_byte(b);
        }
        self.decision
    }

    /// Ends the body: decides with whatever arrived (`None` only when no byte arrived at all).
    pub fn finish(&mut self) -> Option<FramingDecision> {
        if self.decision.is_some() || !self.seen_any {
            return self.decision;
        }
        if self.state == State::Bom {
            // A partial BOM at the very end is content.
            let partial = std::mem::take(&mut self.bom_len);
            self.state = State::LineEnds;
            for &x in &BOM[..partial] {
                if self.content_byte(x).is_some() {
                    return self.decision;
                }
            }
        }
        match self.state {
            State::Bom | State::LineEnds => {
                let f = if self.declared_sse { Framing::Sse } else { Framing::Raw };
                self.decide(f)
            }
            State::FirstLine => match self.first_line(true) {
                Answer::Yes => self.decide(Framing::Sse),
                Answer::Part => self.decide(Framing::Ndjson),
                _ => {
                    let f = if self.first_non_ws == Some(b'{') { Framing::Ndjson } else { Framing::Raw };
                    self.decide(f)
                }
            },
            State::Whitespace | State::Bracket => self.decide(Framing::Raw),
        }
    }

    /// The decision so far.
    pub fn decision(&self) -> Option<FramingDecision> {
        self.decision
    }

    /// How many bytes the detector looked at in total: at most the bytes pushed (plus a partial BOM
    /// looked at twice), and no more than it took to decide.
    pub fn bytes_examined(&self) -> u64 {
        self.examined
    }
}

/// Decides the framing from the Content-Type and the body's first bytes; `None` means "not enough
/// bytes yet" (never returned once `at_end` is true and at least one byte arrived).
pub fn detect(content_type: Option<&str>, prefix: &[u8], at_end: bool) -> Option<FramingDecision> {
    let mut d = FramingDetector::new(content_type);
    d.push(prefix);
    if at_end {
        d.finish()
    } else {
        d.decision()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SSE: Option<&str> = Some("text/event-stream; charset=utf-8");

    fn framing(ct: Option<&str>, body: &[u8]) -> Option<(Framing, bool)> {
        detect(ct, body, true).map(|d| (d.framing, d.mislabelled))
    }

    #[test]
    fn sse_field_lines_are_sse() {
        for body in [
            &b"data: {}\n\n"[..],
            b"event: x\n",
            b"id: 1\n",
            b"retry: 10\n",
            b": ping\n\n",
            b"data:x",
        ] {
            assert_eq!(framing(SSE, body), Some((Framing::Sse, false)), "{body:?}");
        }
    }

    #[test]
    fn leading_bom_and_blank_lines_are_skipped() {
        assert_eq!(
            framing(SSE, b"\xEF\xBB\xBF\r\n\ndata: a\n"),
            Some((Framing::Sse, false))
        );
        assert_eq!(framing(SSE, b"\n\n: ping\n"), Some((Framing::Sse, false)));
    }

    #[test]
    fn bom_after_blank_lines_is_not_a_bom() {
        assert_eq!(
            framing(SSE, b"\r\n\n\xEF\xBB\xBFdata: a\n"),
            Some((Framing::Raw, true))
        );
    }

    #[test]
    fn bare_data_line_is_sse_under_event_stream() {
        assert_eq!(framing(SSE, b"data\n\n"), Some((Framing::Sse, false)));
        assert_eq!(
            framing(Some("text/plain"), b"data\n\n"),
            Some((Framing::Raw, false))
        );
    }

    #[test]
    fn split_field_name_waits_for_more_bytes() {
        assert_eq!(detect(SSE, b"da", false), None);
        assert_eq!(
            detect(SSE, b"data: x", false).map(|d| d.framing),
            Some(Framing::Sse)
        );
        let mut d = FramingDetector::new(SSE);
        assert_eq!(d.push(b"da"), None);
        assert_eq!(d.push(b"ta: x").map(|d| d.framing), Some(Framing::Sse));
    }

    #[test]
    fn partial_bom_waits() {
        assert_eq!(detect(SSE, b"\xEF\xBB", false), None);
        assert_eq!(
            detect(SSE, b"\xEF\xBB\xBFdata:", false).map(|d| d.framing),
            Some(Framing::Sse)
        );
    }

    #[test]
    fn field_prefix_at_end_of_stream_is_raw() {
        assert_eq!(framing(SSE, b"da"), Some((Framing::Raw, true)));
    }

    #[test]
    fn plain_text_under_event_stream_is_raw_and_mislabelled() {
        assert_eq!(
            detect(SSE, b"Hello", false),
            Some(FramingDecision {
                framing: Framing::Raw,
                mislabelled: true
            })
        );
        assert_eq!(
            framing(SSE, b"database is down\n"),
            Some((Framing::Raw, true))
        );
    }

    #[test]
    fn plain_text_is_raw() {
        assert_eq!(
            framing(Some("text/plain"), b"Hello world"),
            Some((Framing::Raw, false))
        );
        assert_eq!(framing(None, b"Hello"), Some((Framing::Raw, false)));
    }

    #[test]
    fn data_stream_parts_are_json_lines_however_split() {
        let body = b"f:{\"messageId\":\"m\"}\n0:\"Hi\"\nd:{\"finishReason\":\"stop\"}\n";
        for ct in [Some("text/plain; charset=utf-8"), None] {
            assert_eq!(framing(ct, body), Some((Framing::Ndjson, false)));
            let mut d = FramingDetector::new(ct);
            // `f` and `f:` could still be either: no decision until the byte after the colon.
            assert_eq!((d.push(b"f"), d.push(b":")), (None, None));
            assert_eq!(d.push(b"{").map(|d| d.framing), Some(Framing::Ndjson));
        }
        assert_eq!(framing(None, b"0:\"Hi\"\n"), Some((Framing::Ndjson, false)));
        // Text that only looks like a part code is still text.
        for text in [&b"a: b"[..], b"A:\"x\"", b"ab:\"x\"", b"f:", b"f"] {
            assert_eq!(framing(Some("text/plain"), text), Some((Framing::Raw, false)), "{}", String::from_utf8_lossy(text));
        }
        assert_eq!(stream_part("0:\"Hi\""), Some((b'0', "\"Hi\"")));
        assert_eq!(stream_part("{\"a\":1}"), None);
        assert_eq!(stream_part("0:"), None);
    }

    #[test]
    fn names_are_the_serde_names() {
        for f in [Framing::Sse, Framing::Ndjson, Framing::JsonArray, Framing::Raw] {
            assert_eq!(serde_json::to_value(f).unwrap(), f.as_str());
            assert_eq!(serde_json::from_value::<Framing>(serde_json::to_value(f).unwrap()).unwrap(), f);
        }
    }

    #[test]
    fn an_array_of_objects_is_a_json_array_and_other_brackets_text() {
        let body = b"[{\n  \"candidates\": []\n}\n,\r\n{}\n]";
        assert_eq!(framing(Some("application/json; charset=UTF-8"), body), Some((Framing::JsonArray, false)));
        assert_eq!(framing(None, b" \r\n[ \n {}]"), Some((Framing::JsonArray, false)));
        let mut d = FramingDetector::new(None);
        assert_eq!((d.push(b"["), d.push(b"\r\n  ")), (None, None));
        assert_eq!(d.push(b"{").map(|d| d.framing), Some(Framing::JsonArray));
        for text in [&b"[Thinking] yes"[..], b"[1, 2]", b"["] {
            assert_eq!(framing(Some("text/plain"), text), Some((Framing::Raw, false)), "{}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn json_lines_are_ndjson() {
        for ct in [
            Some("application/x-ndjson"),
            Some("application/jsonl"),
            Some("application/json"),
            None,
        ] {
            assert_eq!(
                framing(ct, b"{\"response\":\"a\"}\n{\"response\":\"b\"}\n"),
                Some((Framing::Ndjson, false))
            );
        }
        assert_eq!(
            detect(None, b"  \n {", false).map(|d| d.framing),
            Some(Framing::Ndjson)
        );
    }

    #[test]
    fn json_under_event_stream_is_mislabelled() {
        assert_eq!(framing(SSE, b"{\"a\":1}\n"), Some((Framing::Ndjson, true)));
    }

    #[test]
    fn sse_under_other_content_type_is_sse_and_mislabelled() {
        assert_eq!(
            framing(Some("application/json"), b"data: {}\n\n"),
            Some((Framing::Sse, true))
        );
        assert_eq!(framing(None, b"data: {}\n\n"), Some((Framing::Sse, false)));
    }

    #[test]
    fn whitespace_only_waits_then_decides_at_end() {
        assert_eq!(detect(None, b"\n\n  ", false), None);
        assert_eq!(framing(None, b"\n\n  "), Some((Framing::Raw, false)));
        assert_eq!(framing(SSE, b"\n\n"), Some((Framing::Sse, false)));
    }

    #[test]
    fn empty_body_has_no_framing() {
        assert_eq!(detect(SSE, b"", true), None);
        assert_eq!(FramingDetector::new(SSE).finish(), None);
    }

    #[test]
    fn sixteen_bytes_without_colon_is_enough() {
        assert_eq!(
            detect(SSE, b"dataaaaaaaaaaaaaaaaa", false).map(|d| d.framing),
            Some(Framing::Raw)
        );
    }

    /// Regression (issue 8): the detector rescanned the whole prefix on every read (quadratic) and never
    /// decided on a blank prefix.
    #[test]
    fn ten_mb_blank_prefix_in_1_kb_reads_is_linear_work_and_decides() {
        for (ct, framing) in [(SSE, Framing::Sse), (Some("application/x-ndjson"), Framing::Ndjson), (None, Framing::Raw)] {
            let mut d = FramingDetector::new(ct);
            let read = [b'\n'; 1024];
            let mut pushed = 0u64;
            let mut decided = None;
            for _ in 0..10 * 1024 {
                pushed += read.len() as u64;
                decided = d.push(&read);
                assert!(d.bytes_examined() <= pushed, "each byte looked at once at most");
            }
            assert_eq!(decided.map(|d| d.framing), Some(framing), "{ct:?}");
            assert_eq!(d.bytes_examined(), BLANK_PREFIX_MAX_BYTES as u64, "no byte looked at after the decision");
        }
        // Spaces and tabs after the line endings count as blank too.
        let mut d = FramingDetector::new(None);
        d.push(b"\n\n");
        for _ in 0..1024 {
            d.push(&[b' '; 1024]);
        }
        assert_eq!(d.decision().map(|d| d.framing), Some(Framing::Raw));
        assert!(d.bytes_examined() <= BLANK_PREFIX_MAX_BYTES as u64);
    }

    #[test]
    fn detection_is_linear_for_a_long_first_line_split_in_one_byte_reads() {
        let mut d = FramingDetector::new(None);
        let body = b"   \n  \t {\"response\":\"a\"}\n";
        for b in body.iter() {
            d.push(std::slice::from_ref(b));
        }
        assert_eq!(d.decision().map(|d| d.framing), Some(Framing::Ndjson));
        assert!(d.bytes_examined() <= body.len() as u64);
    }
}
