//! Deciding how a response body is framed (SSE, JSON lines or raw text) from its Content-Type and its
//! first bytes.
//!
//! The body decides, the header only qualifies: a body that starts with an SSE field line is SSE, one
//! whose first non-blank byte is `{` is JSON lines, anything else is raw text. When the Content-Type
//! disagrees with the body (plain text streamed as `text/event-stream`, or SSE sent under another type)
//! the decision is marked `mislabelled`. Detection waits while the first bytes are still ambiguous (for
//! example `da`, which may become `data:`), so the decision never depends on how the body was split into
//! reads.

use serde::{Deserialize, Serialize};

/// How the body is framed into messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Framing {
    /// Server-Sent Events (`data:` lines, blank line between events).
    Sse,
    /// One JSON value per line (Ollama, `application/x-ndjson`, `application/jsonl`).
    Ndjson,
    /// Anything else: the bytes are text as they arrive.
    Raw,
}

impl Framing {
    /// The lower-case name used in reports (`sse`, `ndjson`, `raw`).
    pub fn as_str(self) -> &'static str {
        match self {
            Framing::Sse => "sse",
            Framing::Ndjson => "ndjson",
            Framing::Raw => "raw",
        }
    }
}

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

enum Answer {
    Yes,
    No,
    Wait,
}

/// Decides the framing from the Content-Type and the body's first bytes; `None` means "not enough
/// bytes yet" (never returned once `at_end` is true and at least one byte arrived).
pub fn detect(content_type: Option<&str>, prefix: &[u8], at_end: bool) -> Option<FramingDecision> {
    let declared_sse = is_event_stream(content_type);
    let decide = |framing: Framing| {
        let mislabelled = match framing {
            Framing::Sse => content_type.is_some_and(|ct| !ct.trim().is_empty()) && !declared_sse,
            _ => declared_sse,
        };
        Some(FramingDecision {
            framing,
            mislabelled,
        })
    };
    if prefix.is_empty() {
        return None;
    }
    let mut p = prefix;
    if let Some(rest) = p.strip_prefix(BOM) {
        p = rest;
    } else if BOM.starts_with(p) && !at_end {
        return None;
    }
    let start = p
        .iter()
        .position(|&b| b != b'\r' && b != b'\n')
        .unwrap_or(p.len());
    let p = &p[start..];
    if p.is_empty() {
        return if at_end {
            decide(if declared_sse {
                Framing::Sse
            } else {
                Framing::Raw
            })
        } else {
            None
        };
    }
    match sse_first_line(p, at_end, declared_sse) {
        Answer::Yes => return decide(Framing::Sse),
        Answer::Wait => return None,
        Answer::No => {}
    }
    let json_start = p.iter().position(|b| !b.is_ascii_whitespace());
    match json_start {
        Some(i) if p[i] == b'{' => decide(Framing::Ndjson),
        Some(_) => decide(Framing::Raw),
        None if at_end => decide(Framing::Raw),
        None => None,
    }
}

/// Whether `p` (non-empty, no leading line ending) starts with an SSE field line.
fn sse_first_line(p: &[u8], at_end: bool, declared_sse: bool) -> Answer {
    if p[0] == b':' {
        return Answer::Yes;
    }
    let line_end = p.iter().position(|&b| b == b'\r' || b == b'\n');
    let line = &p[..line_end.unwrap_or(p.len())];
    let complete = line_end.is_some() || at_end;
    if let Some(colon) = line.iter().position(|&b| b == b':') {
        let name = &line[..colon];
        return if SSE_FIELDS.iter().any(|f| f.as_bytes() == name) {
            Answer::Yes
        } else {
            Answer::No
        };
    }
    if complete {
        // A bare field name on its own line is valid SSE, but only trusted under the SSE media type.
        let bare = SSE_FIELDS.iter().any(|f| f.as_bytes() == line);
        return if bare && declared_sse {
            Answer::Yes
        } else {
            Answer::No
        };
    }
    let could_be_field = SSE_FIELDS.iter().any(|f| f.as_bytes().starts_with(line));
    if could_be_field && line.len() < ENOUGH_BYTES {
        Answer::Wait
    } else {
        Answer::No
    }
}

/// Accumulates the first bytes of a body until [`detect`] can decide.
#[derive(Debug, Clone, Default)]
pub struct FramingDetector {
    content_type: Option<String>,
    prefix: Vec<u8>,
    decision: Option<FramingDecision>,
}

impl FramingDetector {
    /// A detector for a response with this Content-Type header value.
    pub fn new(content_type: Option<&str>) -> Self {
        Self {
            content_type: content_type.map(str::to_string),
            prefix: Vec::new(),
            decision: None,
        }
    }

    /// Adds the bytes of one read; returns the decision once there is one.
    pub fn push(&mut self, bytes: &[u8]) -> Option<FramingDecision> {
        if self.decision.is_none() {
            self.prefix.extend_from_slice(bytes);
            self.decision = detect(self.content_type.as_deref(), &self.prefix, false);
            if self.decision.is_some() {
                self.prefix = Vec::new();
            }
        }
        self.decision
    }

    /// Ends the body: decides with whatever arrived (`None` only when no byte arrived at all).
    pub fn finish(&mut self) -> Option<FramingDecision> {
        if self.decision.is_none() {
            self.decision = detect(self.content_type.as_deref(), &self.prefix, true);
            self.prefix = Vec::new();
        }
        self.decision
    }

    /// The decision so far.
    pub fn decision(&self) -> Option<FramingDecision> {
        self.decision
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
}
