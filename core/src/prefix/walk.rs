//! One pass over JSON text as written: every key, value and container with its byte range, in the text's
//! own key order (a parsed `serde_json::Value` would sort the keys, and a different key order *is* a
//! different prompt prefix).
//!
//! Cost: each byte is looked at once; the nesting is kept on a heap stack, never the call stack, so
//! `[` × 1,000,000 is an error at its end, not a stack overflow. Strict enough to tell JSON from plain text
//! (brackets, commas and colons must match the grammar, literals are `true` / `false` / `null`, numbers
//! are `-`, digits, `.`, `e`, `+`), lenient inside strings (raw control characters are kept).

use std::ops::{ControlFlow, Range};

/// A container kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Container {
    /// `{ … }`
    Object,
    /// `[ … ]`
    Array,
}

/// What the walker found, with byte ranges into the walked text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Event {
    /// A container opens at this byte (its path is the current path).
    Open(Container, usize),
    /// An object key, quotes included (the current path ends in it).
    Key(Range<usize>),
    /// A string (quotes included), number or literal (the current path is its own).
    Scalar { range: Range<usize>, string: bool },
    /// A container closed; its whole range, brackets included (the current path is its own again).
    Close(Container, Range<usize>),
}

/// The JSON text is not valid at this byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotJson {
    /// The byte where the grammar broke.
    pub at_byte: usize,
}

/// One open container.
#[derive(Debug, Clone)]
struct Frame {
    kind: Container,
    start: usize,
    /// Elements started so far (arrays).
    count: usize,
    /// The current key, quotes excluded (objects).
    key: Option<Range<usize>>,
}

/// Where the walk is: the open containers, outermost first.
pub(crate) struct Path<'a> {
    text: &'a str,
    frames: &'a [Frame],
}

/// Path segments shown before the rest is cut to `…`.
const MAX_PATH_SEGMENTS: usize = 16;
/// A key longer than this (characters) is shown cut.
const MAX_KEY_CHARS: usize = 48;

impl Path<'_> {
    /// How many containers are open.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// The key (raw, quotes excluded) of the object open at `level` (0: outermost), if it is an object
    /// with a current key.
    pub fn key_at(&self, level: usize) -> Option<&str> {
        let f = self.frames.get(level)?;
        f.key.clone().map(|k| &self.text[k])
    }

    /// The current element index of the array open at `level`, if it is an array with an element.
    pub fn index_at(&self, level: usize) -> Option<usize> {
        let f = self.frames.get(level)?;
        (f.kind == Container::Array && f.count > 0).then(|| f.count - 1)
    }

    /// The path as people read it: `messages[0].content`, `tools[2].function.name`, `["odd key"]`; at
    /// most 16 segments, keys cut at 48 characters.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (i, f) in self.frames.iter().enumerate() {
            if i == MAX_PATH_SEGMENTS {
                out.push('…');
                break;
            }
            match f.kind {
                Container::Array => {
                    if f.count > 0 {
                        out.push_str(&format!("[{}]", f.count - 1));
                    }
                }
                Container::Object => {
                    let Some(key) = f.key.clone().map(|k| &self.text[k]) else { continue };
                    let key = crate::text::truncate_chars(key, MAX_KEY_CHARS);
                    let plain = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'-');
                    if plain {
                        if !out.is_empty() {
                            out.push('.');
                        }
                        out.push_str(&key);
                    } else {
                        out.push_str(&format!("[\"{key}\"]"));
                    }
                }
            }
        }
        out
    }
}

/// What the walker expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Value,
    ValueOrClose,
    KeyOrClose,
    Key,
    Colon,
    CommaOrClose,
    Done,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The end (exclusive) of the string literal whose opening quote is at `start`, or `None` when it never
/// closes.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        let at = i + memchr::memchr2(b'"', b'\\', bytes.get(i..)?)?;
        if bytes[at] == b'"' {
            return Some(at + 1);
        }
        i = at + 2;
    }
}

/// The end (exclusive) of the number or literal starting at `start`, or `None` when it is neither.
fn bare_end(bytes: &[u8], start: usize) -> Option<usize> {
    let len = bytes[start..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.'))
        .count();
    let token = &bytes[start..start + len];
    let number = matches!(token.first(), Some(b'-' | b'0'..=b'9'))
        && token.iter().all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
    (number || matches!(token, b"true" | b"false" | b"null")).then_some(start + len)
}

/// Walks `text` as one JSON value, calling `visit` with each event and the path where it happened; stops
/// early when `visit` says `Break`. Errors at the byte where the text stops being JSON (trailing text
/// after the value included).
pub(crate) fn walk(text: &str, mut visit: impl FnMut(&Event, &Path) -> ControlFlow<()>) -> Result<(), NotJson> {
    let bytes = text.as_bytes();
    let mut frames: Vec<Frame> = Vec::new();
    let mut expect = Expect::Value;
    let mut i = 0;
    macro_rules! emit {
        ($event:expr) => {
            if visit(&$event, &Path { text, frames: &frames }).is_break() {
                return Ok(());
            }
        };
    }
    while i < bytes.len() {
        let b = bytes[i];
        if is_space(b) {
            i += 1;
            continue;
        }
        let err = Err(NotJson { at_byte: i });
        match expect {
            Expect::Done => return err,
            Expect::Colon => {
                if b != b':' {
                    return err;
                }
                expect = Expect::Value;
                i += 1;
            }
            Expect::KeyOrClose | Expect::Key => {
                if b == b'}' && expect == Expect::KeyOrClose {
                    let f = frames.pop().expect("an open object");
                    emit!(Event::Close(Container::Object, f.start..i + 1));
                    expect = if frames.is_empty() { Expect::Done } else { Expect::CommaOrClose };
                    i += 1;
                    continue;
                }
                if b != b'"' {
                    return err;
                }
                let Some(end) = string_end(bytes, i) else { return err };
                if let Some(f) = frames.last_mut() {
                    f.key = Some(i + 1..end - 1);
                }
                emit!(Event::Key(i..end));
                expect = Expect::Colon;
                i = end;
            }
            Expect::CommaOrClose => {
                let Some(f) = frames.last() else { return err };
                match (b, f.kind) {
                    (b',', Container::Object) => expect = Expect::Key,
                    (b',', Container::Array) => expect = Expect::Value,
                    (b'}', Container::Object) | (b']', Container::Array) => {
                        let f = frames.pop().expect("an open container");
                        emit!(Event::Close(f.kind, f.start..i + 1));
                        expect = if frames.is_empty() { Expect::Done } else { Expect::CommaOrClose };
                    }
                    _ => return err,
                }
                i += 1;
            }
            Expect::Value | Expect::ValueOrClose => {
                if b == b']' && expect == Expect::ValueOrClose {
                    let f = frames.pop().expect("an open array");
                    emit!(Event::Close(Container::Array, f.start..i + 1));
                    expect = if frames.is_empty() { Expect::Done } else { Expect::CommaOrClose };
                    i += 1;
                    continue;
                }
                if let Some(f) = frames.last_mut().filter(|f| f.kind == Container::Array) {
                    f.count += 1;
                }
                match b {
                    b'{' | b'[' => {
                        let kind = if b == b'{' { Container::Object } else { Container::Array };
                        emit!(Event::Open(kind, i));
                        frames.push(Frame { kind, start: i, count: 0, key: None });
                        expect = if kind == Container::Object { Expect::KeyOrClose } else { Expect::ValueOrClose };
                        i += 1;
                    }
                    b'"' => {
                        let Some(end) = string_end(bytes, i) else { return err };
                        emit!(Event::Scalar { range: i..end, string: true });
                        expect = if frames.is_empty() { Expect::Done } else { Expect::CommaOrClose };
                        i = end;
                    }
                    _ => {
                        let Some(end) = bare_end(bytes, i) else { return err };
                        emit!(Event::Scalar { range: i..end, string: false });
                        expect = if frames.is_empty() { Expect::Done } else { Expect::CommaOrClose };
                        i = end;
                    }
                }
            }
        }
    }
    if expect == Expect::Done {
        Ok(())
    } else {
        Err(NotJson { at_byte: bytes.len() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every event as `(kind, path, text)`.
    fn events(text: &str) -> Result<Vec<(String, String, String)>, NotJson> {
        let mut out = Vec::new();
        walk(text, |e, p| {
            let (kind, range) = match e {
                Event::Open(c, _) => (format!("open {c:?}"), 0..0),
                Event::Key(r) => ("key".into(), r.clone()),
                Event::Scalar { range, .. } => ("scalar".into(), range.clone()),
                Event::Close(c, r) => (format!("close {c:?}"), r.clone()),
            };
            out.push((kind, p.render(), text[range].to_string()));
            ControlFlow::Continue(())
        })?;
        Ok(out)
    }

    #[test]
    fn paths_follow_the_text_in_its_own_key_order() {
        let e = events(r#"{"z": 1, "messages": [{"role": "system", "content": "a\"b"}], "a b": [true, null]}"#).unwrap();
        let shown: Vec<(&str, &str)> = e.iter().filter(|e| e.0 == "scalar").map(|e| (e.1.as_str(), e.2.as_str())).collect();
        assert_eq!(
            shown,
            [
                ("z", "1"),
                ("messages[0].role", "\"system\""),
                ("messages[0].content", "\"a\\\"b\""),
                ("[\"a b\"][0]", "true"),
                ("[\"a b\"][1]", "null")
            ]
        );
        let closes: Vec<&str> = e.iter().filter(|e| e.0.starts_with("close")).map(|e| e.1.as_str()).collect();
        assert_eq!(closes, ["messages[0]", "messages", "[\"a b\"]", ""]);
    }

    #[test]
    fn plain_text_and_broken_json_are_not_json() {
        for (text, at) in [("hello", 0), ("{\"a\":1", 6), ("{\"a\" 1}", 5), ("[1,]", 3), ("{} x", 3), ("\"open", 0), ("[tru]", 1)] {
            assert_eq!(events(text).unwrap_err(), NotJson { at_byte: at }, "{text}");
        }
        assert!(events(" [ ] ").is_ok());
        assert!(events("-1.5e+3").is_ok());
    }

    /// Regression guard: nesting lives on the heap, so a million open brackets is an error, not a crash.
    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let deep = "[".repeat(1_000_000);
        assert_eq!(walk(&deep, |_, _| ControlFlow::Continue(())), Err(NotJson { at_byte: 1_000_000 }));
        let closed = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let mut longest = 0;
        walk(&closed, |_, p| {
            longest = longest.max(p.render().len());
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(longest < 200, "the path is cut: {longest}");
    }
}
