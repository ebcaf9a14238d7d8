//! A memo of an OpenAI chat chunk's shape: a chunk that differs from the last one only in its text is
//! read without decoding it to a `serde_json::Value` (the analyzer's fast path).
//!
//! The chunks of one stream repeat everything but the token:
//! `{"id":"chatcmpl-…","object":"chat.completion.chunk","created":…,"model":…,"choices":[{"index":0,`
//! `"delta":{"content":"` TOKEN `"},"finish_reason":null}]}`. When a chunk read the full way
//! ([`super::openai::chunk_facts`]) carried text, [`ChunkMemo::learn`] finds the JSON string literal that
//! holds it and keeps the bytes before it (the prefix, up to its opening quote), the bytes from its closing
//! quote on (the suffix) and the chunk's facts. A later chunk made of the same prefix, one complete string
//! literal and the same suffix has the same facts with its own text ([`ChunkMemo::recall`]): the JSON
//! around the literal is byte for byte the same, so it parses to the same tree with only that string
//! changed, and the string is decoded by the reader the full way uses ([`crate::json`]: the same escapes,
//! the same errors).
//!
//! Learning is checked, not assumed: the chunk is read again the full way with the literal replaced by two
//! probe texts, and the memo is kept only when each probe comes out as the text in the same place with
//! every other fact unchanged. That rules out a literal that is a key, a field read for something else, or
//! a value that a duplicate key overrides. A chunk whose text would be empty, that does not match, or whose
//! literal does not decode takes the full path, so what the analyzer reports never depends on the memo.
//! A stream whose chunks also differ elsewhere (a per-chunk timestamp or padding field) would learn on
//! every chunk: after [`MAX_LEARNS_WITHOUT_RECALL`] learns with no recall between them, the memo stops
//! learning (the cost is then one failed prefix comparison per chunk).
//!
//! Cost of a recall: two byte comparisons (prefix and suffix) and the decoding of one string literal;
//! no allocation when the text has no escapes.

use std::borrow::Cow;

use super::{classify_payload, openai, ChunkFacts, EventKind, Payload};

/// Learns in a row with no recall between them after which the memo stops learning (8): a stream whose
/// chunks never repeat their shape pays for at most this many extra learns.
pub const MAX_LEARNS_WITHOUT_RECALL: usize = 8;

/// Two texts a learned literal is replaced with to check that the literal is the text (see the module
/// docs); two, so that no constant elsewhere in the chunk can equal both.
/// Each with the body of its JSON string literal (what goes between the quotes; a test checks it is what
/// serde_json writes).
const PROBES: [(&str, &str); 2] =
    [("\u{1F9EA}memo probe one", "\u{1F9EA}memo probe one"), ("memo\nprobe \"two\"", r#"memo\nprobe \"two\""#)];

/// The remembered shape: the chunk around its text literal and its facts.
#[derive(Debug, Clone, PartialEq)]
struct Shape {
    /// The chunk up to and including the literal's opening quote.
    prefix: String,
    /// The chunk from the literal's closing quote to its end.
    suffix: String,
    /// The chunk's facts; `kinds[slot]` is the text ([`EventKind::Content`], [`EventKind::Reasoning`] or
    /// [`EventKind::ToolArgs`]).
    facts: ChunkFacts,
    /// Where the text is in `facts.kinds`.
    slot: usize,
}

/// The memo of one stream (see the module docs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChunkMemo {
    shape: Option<Shape>,
    /// Learns since the last recall.
    learns_without_recall: usize,
    /// Chunks read from the memo so far.
    recalls: usize,
}

/// A chunk read from the memo: the remembered facts with this chunk's text in their text slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Recalled<'a> {
    /// The remembered facts (their text slot holds the text of the chunk they were learned from).
    pub facts: &'a ChunkFacts,
    /// Where the text goes in `facts.kinds`.
    pub slot: usize,
    /// This chunk's text (never empty).
    pub text: Cow<'a, str>,
}

impl<'a> Recalled<'a> {
    /// This chunk's event kinds, in order: the remembered ones with this chunk's text in the text slot.
    pub fn into_kinds(self) -> impl Iterator<Item = EventKind> + 'a {
        let mut text = Some(self.text);
        let slot = self.slot;
        self.facts.kinds.iter().enumerate().map(move |(i, kind)| match text.take() {
            Some(t) if i == slot => with_text(kind, t.into_owned()),
            t => {
                text = t;
                kind.clone()
            }
        })
    }
}

impl ChunkMemo {
    /// A memo that knows no shape yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many chunks were read from the memo so far.
    pub fn recalls(&self) -> usize {
        self.recalls
    }

    /// The facts of `data` (the data of an SSE event of an OpenAI chat stream, not `[DONE]`) when it has
    /// the remembered shape and non-empty text; `None` means: read it the full way.
    pub fn recall<'a>(&'a mut self, data: &'a str) -> Option<Recalled<'a>> {
        let shape = self.shape.as_ref()?;
        let (p, s) = (shape.prefix.len(), shape.suffix.len());
        if data.len() <= p + s || !data.ends_with(shape.suffix.as_str()) || !data.starts_with(shape.prefix.as_str()) {
            return None;
        }
        // The literal, quotes included: the prefix's last byte to the suffix's first.
        let text = decode_literal(&data[p - 1..data.len() - s + 1])?;
        if text.is_empty() {
            return None;
        }
        self.learns_without_recall = 0;
        self.recalls += 1;
        Some(Recalled { facts: &shape.facts, slot: shape.slot, text })
    }

    /// Learns the shape of `data`, a chunk just read the full way to `facts` (see the module docs); keeps
    /// the memo as it was when the chunk carries no text or no literal passes the check.
    pub fn learn(&mut self, data: &str, facts: &ChunkFacts) {
        if self.learns_without_recall >= MAX_LEARNS_WITHOUT_RECALL {
            return;
        }
        let mut texts = facts.kinds.iter().enumerate().filter_map(|(i, k)| text_of(k).map(|t| (i, t)));
        let (Some((slot, text)), None) = (texts.next(), texts.next()) else {
            return;
        };
        self.learns_without_recall += 1;
        for (open, close) in string_literals(data) {
            if decode_literal(&data[open..=close]).as_deref() != Some(text) {
                continue;
            }
            let (prefix, suffix) = (&data[..=open], &data[close..]);
            let probes_pass = PROBES.iter().all(|&(probe, literal_body)| {
                let probed = format!("{prefix}{literal_body}{suffix}");
                let mut expected = facts.clone();
                expected.kinds[slot] = with_text(&facts.kinds[slot], probe.to_string());
                full_facts(&probed).as_ref() == Some(&expected)
            });
            if probes_pass {
                self.shape = Some(Shape {
                    prefix: prefix.to_string(),
                    suffix: suffix.to_string(),
                    facts: facts.clone(),
                    slot,
                });
                return;
            }
        }
    }
}

/// The facts of a chat chunk read the full way, or `None` when it is not a JSON object.
fn full_facts(data: &str) -> Option<ChunkFacts> {
    match classify_payload(data) {
        Payload::Object(v) => Some(openai::chunk_facts(&v)),
        _ => None,
    }
}

/// The text an event kind carries, when it is answer or reasoning text.
fn text_of(kind: &EventKind) -> Option<&str> {
    match kind {
        EventKind::Content(t) | EventKind::Reasoning(t) | EventKind::ToolArgs(t) => Some(t),
        _ => None,
    }
}

/// The same text kind (`Content`, `Reasoning` or `ToolArgs`) with another text.
fn with_text(kind: &EventKind, text: String) -> EventKind {
    match kind {
        EventKind::Reasoning(_) => EventKind::Reasoning(text),
        EventKind::ToolArgs(_) => EventKind::ToolArgs(text),
        _ => EventKind::Content(text),
    }
}

/// The byte ranges (opening quote, closing quote) of the string literals of a JSON text, keys included,
/// in order. Outside a string JSON has no quote, so a quote starts a literal and the first quote not
/// escaped by a backslash ends it.
fn string_literals(json: &str) -> Vec<(usize, usize)> {
    let bytes = json.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(open) = memchr::memchr(b'"', &bytes[i..]).map(|o| i + o) {
        let mut j = open + 1;
        loop {
            match memchr::memchr2(b'"', b'\\', &bytes[j..]) {
                None => return out,
                Some(k) if bytes[j + k] == b'\\' => j += k + 2,
                Some(k) => {
                    out.push((open, j + k));
                    i = j + k + 1;
                    break;
                }
            }
            if j >= bytes.len() {
                return out;
            }
        }
    }
    out
}

/// Decodes one JSON string literal (quotes included) exactly as the full way decodes it inside a document:
/// borrowed when it has no escapes (then it is its own text), `None` when it is not one complete valid
/// literal.
fn decode_literal(literal: &str) -> Option<Cow<'_, str>> {
    // Most tokens have no escape: the literal's body is its text when it holds no quote, no backslash
    // and no control character (the bytes JSON does not allow unescaped). Kept beside the reader's own
    // borrowed path on purpose: on this hot path it is faster (analysis of 1,500 B reads, bench-parser:
    // 2.2-2.4 GB/s with it, 1.6-2.0 GB/s calling `json::decode_string_literal` for every token).
    let body = literal.strip_prefix('"').and_then(|l| l.strip_suffix('"'))?;
    if body.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        return Some(Cow::Borrowed(body));
    }
    crate::json::decode_string_literal(literal).map(Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROLE: &str = r#"{"id":"c1","object":"chat.completion.chunk","created":7,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#;

    fn chunk(text_literal: &str) -> String {
        format!(
            r#"{{"id":"c1","object":"chat.completion.chunk","created":7,"choices":[{{"index":0,"delta":{{"content":"{text_literal}"}},"finish_reason":null}}]}}"#
        )
    }

    fn learned(data: &str) -> ChunkMemo {
        let mut memo = ChunkMemo::new();
        memo.learn(data, &full_facts(data).unwrap());
        memo
    }

    fn recalled(memo: &mut ChunkMemo, data: &str) -> Option<ChunkFacts> {
        let r = memo.recall(data)?;
        let kinds = r.clone().into_kinds().collect();
        Some(ChunkFacts { kinds, ..r.facts.clone() })
    }

    #[test]
    fn a_chunk_of_the_same_shape_is_recalled_with_its_own_text() {
        let mut memo = learned(&chunk("Hello"));
        for literal in [" world", "caf\\u00e9", "a\\\"b", "\\n\\n", "你好", "\\ud83d\\ude00"] {
            let data = chunk(literal);
            assert_eq!(recalled(&mut memo, &data), full_facts(&data), "{literal}");
        }
        assert_eq!(memo.recalls(), 6);
        // No escape: the text is borrowed from the data.
        let data = chunk("plain");
        assert!(matches!(memo.recall(&data).map(|r| r.text), Some(Cow::Borrowed("plain"))));
    }

    #[test]
    fn empty_text_other_shapes_and_bad_literals_take_the_full_path() {
        let mut memo = learned(&chunk("Hello"));
        let misses = [
            chunk(""),
            ROLE.to_string(),
            chunk("x").replace("\"created\":7", "\"created\":8"),
            chunk("x") + " ",
            chunk("a\"b"),
            chunk("a\\"),
            chunk("\\ud800"),
            chunk("tab\there"),
            "[DONE]".to_string(),
        ];
        for data in misses {
            assert!(memo.recall(&data).is_none(), "{data}");
        }
        assert_eq!(memo.recalls(), 0);
    }

    #[test]
    fn nothing_is_learned_from_a_chunk_without_text() {
        let memo = learned(ROLE);
        assert_eq!(memo, ChunkMemo::new());
    }

    #[test]
    fn a_text_a_duplicate_key_overrides_is_not_learned() {
        // serde_json keeps the last of duplicate keys: the first "content" is not the text.
        let data = r#"{"choices":[{"delta":{"content":"x","content":"x"}}]}"#;
        let mut memo = learned(data);
        let other = r#"{"choices":[{"delta":{"content":"x","content":"y"}}]}"#;
        match memo.recall(other) {
            None => {}
            Some(r) => assert_eq!(r.text, "y", "only the last literal may be learned"),
        }
        let first_differs = r#"{"choices":[{"delta":{"content":"z","content":"x"}}]}"#;
        assert!(memo.recall(first_differs).is_none());
    }

    #[test]
    fn a_key_equal_to_the_text_is_not_the_literal() {
        let data = r#"{"choices":[{"delta":{"content":"content"}}]}"#;
        let mut memo = learned(data);
        let other = r#"{"choices":[{"delta":{"content":"other"}}]}"#;
        assert_eq!(recalled(&mut memo, other), full_facts(other));
    }

    #[test]
    fn reasoning_finish_and_usage_around_the_text_are_kept() {
        let data = r#"{"choices":[{"delta":{"reasoning_content":"think"},"finish_reason":"length"}],"usage":{"prompt_tokens":1,"completion_tokens":2},"server_ms":4.5}"#;
        let mut memo = learned(data);
        let other = data.replace("think", "more");
        let facts = recalled(&mut memo, &other).expect("recalled");
        assert_eq!(Some(facts.clone()), full_facts(&other));
        assert_eq!(facts.kinds[0], EventKind::Reasoning("more".into()));
    }

    #[test]
    fn learning_stops_when_the_shape_never_repeats() {
        let mut memo = ChunkMemo::new();
        for i in 0..MAX_LEARNS_WITHOUT_RECALL + 3 {
            let data = chunk("t").replace("\"created\":7", &format!("\"created\":{i}"));
            assert!(memo.recall(&data).is_none());
            memo.learn(&data, &full_facts(&data).unwrap());
        }
        let last_learned = chunk("t").replace("\"created\":7", &format!("\"created\":{}", MAX_LEARNS_WITHOUT_RECALL - 1));
        assert!(memo.recall(&last_learned).is_some(), "the last shape learned is kept");
    }

    #[test]
    fn literals_decode_as_serde_json_decodes_them() {
        let literals = [
            r#""""#, r#""a""#, r#""caf\u00e9""#, r#""\ud83d\ude00""#, r#""\ud800""#, r#""a\"b""#, r#""a"b""#,
            r#""\\""#, r#""\""#, "\"tab\there\"", "\"\u{7f}\"", r#""\/""#, r#""\x""#, r#""é 日本""#, r#"""#, "",
        ];
        for l in literals {
            let expected = serde_json::from_str::<String>(l).ok();
            assert_eq!(decode_literal(l).map(Cow::into_owned), expected, "{l}");
        }
    }

    #[test]
    fn each_probe_s_literal_is_the_one_serde_json_writes() {
        for (probe, literal_body) in PROBES {
            assert_eq!(format!("\"{literal_body}\""), serde_json::to_string(probe).unwrap());
        }
    }

    #[test]
    fn string_literals_skip_escaped_quotes() {
        let json = r#"{"a":"x\"y","b\\":"c"}"#;
        let found: Vec<&str> = string_literals(json).into_iter().map(|(o, c)| &json[o..=c]).collect();
        assert_eq!(found, [r#""a""#, r#""x\"y""#, r#""b\\""#, r#""c""#]);
    }
}
