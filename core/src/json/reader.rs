//! A pull reader over JSON text: whitespace, strings, numbers, literals, containers one item at a time,
//! and a value skipped without being kept. It checks JSON's grammar as `serde_json` does (the same
//! escapes, the same control characters refused, no trailing commas) and never recurses: how deep a
//! caller goes is the caller's to bound.

use std::borrow::Cow;

use super::number::{read_number, scan_number, Num};

/// Where the text stopped being the JSON that was expected (its byte offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonError {
    /// The byte offset in the text.
    pub at: usize,
}

/// A position in JSON text (see the module docs).
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader { text, pos: 0 }
    }

    /// The byte offset reached.
    pub fn offset(&self) -> usize {
        self.pos
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn error<T>(&self) -> Result<T, JsonError> {
        Err(JsonError { at: self.pos })
    }

    /// The next byte that is not whitespace, not consumed; `None` at the end.
    pub fn peek(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.bytes().get(self.pos) {
            self.pos += 1;
        }
        self.bytes().get(self.pos).copied()
    }

    /// Consumes `byte` (after whitespace), or fails.
    fn eat(&mut self, byte: u8) -> Result<(), JsonError> {
        if self.peek() != Some(byte) {
            return self.error();
        }
        self.pos += 1;
        Ok(())
    }

    /// Whether only whitespace is left.
    pub fn end(&mut self) -> Result<(), JsonError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => self.error(),
        }
    }

    /// `null`, `true` or `false` (after whitespace).
    pub fn literal(&mut self, word: &str) -> Result<(), JsonError> {
        self.peek();
        if !self.bytes()[self.pos..].starts_with(word.as_bytes()) {
            return self.error();
        }
        self.pos += word.len();
        Ok(())
    }

    /// A number (after whitespace).
    pub fn number(&mut self) -> Result<Num, JsonError> {
        self.peek();
        let start = self.pos;
        read_number(self.bytes(), &mut self.pos).map_err(|_| JsonError { at: start })
    }

    /// A string (after whitespace, at its `"`): its text, borrowed when it has no escape.
    pub fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        self.eat(b'"')?;
        let start = self.pos;
        let plain = self.plain_run();
        if self.bytes().get(self.pos) == Some(&b'"') {
            self.pos += 1;
            return Ok(Cow::Borrowed(&self.text[start..start + plain]));
        }
        let mut out = String::from(&self.text[start..start + plain]);
        loop {
            match self.bytes().get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    out.push(self.escape()?);
                }
                _ => return self.error(),
            }
            let from = self.pos;
            let run = self.plain_run();
            out.push_str(&self.text[from..from + run]);
        }
    }

    /// Skips the bytes of a string that need no decoding, returning how many: up to a quote, a backslash,
    /// a control character or the end.
    fn plain_run(&mut self) -> usize {
        let rest = &self.bytes()[self.pos..];
        let run = rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(rest.len());
        self.pos += run;
        run
    }

    /// The character an escape stands for, after its backslash; a `\u` surrogate must be a valid pair.
    fn escape(&mut self) -> Result<char, JsonError> {
        let Some(&b) = self.bytes().get(self.pos) else { return self.error() };
        self.pos += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let n = self.hex4()?;
                let code = match n {
                    0xDC00..=0xDFFF => return self.error(),
                    0xD800..=0xDBFF => {
                        if !self.bytes()[self.pos..].starts_with(b"\\u") {
                            return self.error();
                        }
                        self.pos += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return self.error();
                        }
                        0x10000 + ((n - 0xD800) << 10) + (low - 0xDC00)
                    }
                    n => n,
                };
                match char::from_u32(code) {
                    Some(c) => c,
                    None => return self.error(),
                }
            }
            _ => return self.error(),
        })
    }

    /// Four hex digits.
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut n = 0;
        for _ in 0..4 {
            let Some(d) = self.bytes().get(self.pos).and_then(|&b| (b as char).to_digit(16)) else {
                return self.error();
            };
            n = n * 16 + d;
            self.pos += 1;
        }
        Ok(n)
    }

    /// Walks the array (`open` is `[`) or object (`{`) that starts here, after whitespace, up to its
    /// closing bracket, calling `each` once per item: for an object, `each` reads the item's key
    /// ([`Reader::key`]) and then its value.
    pub fn items(&mut self, open: u8, mut each: impl FnMut(&mut Self) -> Result<(), JsonError>) -> Result<(), JsonError> {
        self.eat(open)?;
        let close = if open == b'[' { b']' } else { b'}' };
        let mut first = true;
        while self.next_item(close, &mut first)? {
            each(self)?;
        }
        Ok(())
    }

    /// In an open array or object: whether another item follows (its comma consumed), or `false` with the
    /// closing bracket consumed. `first` is `true` before the first item and kept by the caller.
    fn next_item(&mut self, close: u8, first: &mut bool) -> Result<bool, JsonError> {
        match self.peek() {
            Some(b) if b == close => {
                self.pos += 1;
                Ok(false)
            }
            Some(b',') if !*first => {
                self.pos += 1;
                Ok(true)
            }
            Some(_) if *first => {
                *first = false;
                Ok(true)
            }
            _ => self.error(),
        }
    }

    /// An object item's key and the colon after it (in [`Reader::items`]'s `each`).
    pub fn key(&mut self) -> Result<Cow<'a, str>, JsonError> {
        let key = self.string()?;
        self.eat(b':')?;
        Ok(key)
    }

    /// Skips one value of any kind, checking its grammar, without recursion: nesting costs one byte of
    /// memory per level.
    pub fn skip_value(&mut self) -> Result<(), JsonError> {
        // The closing bracket of each open container, innermost last, with whether it has an item yet.
        let mut open: Vec<(u8, bool)> = Vec::new();
        loop {
            // One value, at the top level or as the next item of the innermost container.
            match self.peek() {
                Some(b'"') => {
                    self.string()?;
                }
                Some(b'n') => self.literal("null")?,
                Some(b't') => self.literal("true")?,
                Some(b'f') => self.literal("false")?,
                Some(b'-' | b'0'..=b'9') => {
                    let start = self.pos;
                    scan_number(self.bytes(), &mut self.pos).map_err(|_| JsonError { at: start })?;
                }
                Some(b @ (b'[' | b'{')) => {
                    self.pos += 1;
                    open.push((if b == b'[' { b']' } else { b'}' }, true));
                }
                _ => return self.error(),
            }
            // Then close what ends here, until an item follows or nothing is open.
            loop {
                let Some((close, first)) = open.last_mut() else { return Ok(()) };
                let close = *close;
                if self.next_item(close, first)? {
                    if close == b'}' {
                        self.key()?;
                    }
                    break;
                }
                open.pop();
            }
        }
    }
}
