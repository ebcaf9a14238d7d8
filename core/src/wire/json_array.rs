//! Splitting a streamed JSON array into its elements as they arrive: what Gemini's and Vertex AI's
//! `streamGenerateContent` send without `?alt=sse` (`[{…}\n,\r\n{…}\n]`, each chunk a pretty-printed
//! object, under `application/json`).
//!
//! Each byte is looked at once, whatever the reads' sizes: the splitter tracks the nesting depth and
//! whether it is inside a string (and after a backslash there), so braces inside strings do not count.
//! An element is handed over when its last byte arrives (a closing brace or bracket back at the
//! array's level; a bare number, `true`, `false` or `null` at the next comma, bracket or space). Memory
//! is bounded as for lines ([`crate::wire::lines::MAX_LINE_BYTES`]): of an element still being received
//! at most that much is kept, the rest is counted and dropped, and the element is handed over cut (its
//! JSON then fails to parse and is reported as malformed, with its true length).

use super::lines::MAX_LINE_BYTES;

/// One element of the array, complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element<'a> {
    /// The element's bytes (at most [`MAX_LINE_BYTES`]).
    pub bytes: &'a [u8],
    /// Its true length, bytes dropped past the bound included.
    pub len_bytes: usize,
}

/// Splits a streamed JSON array into its elements; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct ElementSplitter {
    /// The bytes of the element being received (at most [`MAX_LINE_BYTES`]).
    buf: Vec<u8>,
    /// Bytes of the current element dropped past the bound.
    dropped: usize,
    /// An element is being received.
    in_element: bool,
    /// Nesting depth inside the current element.
    depth: usize,
    /// Inside a string of the current element.
    in_string: bool,
    /// The last byte was a backslash inside a string.
    escaped: bool,
    /// The array's opening bracket was seen.
    opened: bool,
    /// The longest element so far.
    longest_bytes: usize,
}

impl ElementSplitter {
    /// A splitter with nothing received.
    pub fn new() -> Self {
        Self::default()
    }

    fn keep(&mut self, b: u8) {
        if self.buf.len() < MAX_LINE_BYTES {
            self.buf.push(b);
        } else {
            self.dropped += 1;
        }
    }

    fn hand_over(&mut self, on_element: &mut impl FnMut(Element<'_>)) {
        let len_bytes = self.buf.len() + self.dropped;
        self.longest_bytes = self.longest_bytes.max(len_bytes);
        on_element(Element { bytes: &self.buf, len_bytes });
        self.buf.clear();
        self.dropped = 0;
        self.in_element = false;
    }

    /// Adds the bytes of one read, handing each element completed in it to `on_element`, in order.
    pub fn feed(&mut self, bytes: &[u8], mut on_element: impl FnMut(Element<'_>)) {
        for &b in bytes {
            if !self.in_element {
                match b {
                    b'[' if !self.opened => self.opened = true,
                    // A byte-order mark before the array.
                    0xEF | 0xBB | 0xBF if !self.opened => {}
                    b',' | b']' => {}
                    _ if b.is_ascii_whitespace() => {}
                    _ => {
                        self.in_element = true;
                        self.depth = 0;
                        self.in_string = false;
                        self.escaped = false;
                        self.element_byte(b, &mut on_element);
                    }
                }
            } else {
                self.element_byte(b, &mut on_element);
            }
        }
    }

    fn element_byte(&mut self, b: u8, on_element: &mut impl FnMut(Element<'_>)) {
        if self.in_string {
            self.keep(b);
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.depth == 0 {
                    self.hand_over(on_element);
                }
            }
            return;
        }
        match b {
            b'"' => {
                self.keep(b);
                self.in_string = true;
            }
            b'{' | b'[' => {
                self.keep(b);
                self.depth += 1;
            }
            b'}' | b']' if self.depth > 0 => {
                self.keep(b);
                self.depth -= 1;
                if self.depth == 0 {
                    self.hand_over(on_element);
                }
            }
            // A bare value (a number, `true`, `false`, `null`) ends where the next element or the array does.
            b',' | b']' | b'}' if self.depth == 0 => self.hand_over(on_element),
            _ if self.depth == 0 && b.is_ascii_whitespace() => self.hand_over(on_element),
            _ => self.keep(b),
        }
    }

    /// The element still being received when the body ends, if any (cut: its JSON is incomplete).
    pub fn take_rest(&mut self) -> Option<Vec<u8>> {
        if !self.in_element || self.buf.is_empty() {
            return None;
        }
        self.longest_bytes = self.longest_bytes.max(self.buf.len() + self.dropped);
        self.in_element = false;
        self.dropped = 0;
        Some(std::mem::take(&mut self.buf))
    }

    /// The longest element so far, in bytes (its true length).
    pub fn longest_element_bytes(&self) -> usize {
        self.longest_bytes
    }

    /// Bytes of the element still being received, kept.
    pub fn pending_len_bytes(&self) -> usize {
        self.buf.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elements(reads: &[&[u8]]) -> Vec<String> {
        let mut s = ElementSplitter::new();
        let mut out = Vec::new();
        for r in reads {
            s.feed(r, |e| out.push(String::from_utf8(e.bytes.to_vec()).unwrap()));
        }
        out
    }

    #[test]
    fn pretty_printed_objects_split_however_the_reads_fall() {
        let body = b"[{\n  \"candidates\": [{\"content\": {\"parts\": [{\"text\": \"a } ] \\\" {\"}]}}]\n}\n,\r\n{\n  \"usageMetadata\": {\"promptTokenCount\": 3}\n}\n]";
        let whole = elements(&[body]);
        assert_eq!(whole.len(), 2);
        assert!(whole[0].starts_with("{\n  \"candidates\"") && whole[0].ends_with('}'));
        assert_eq!(serde_json::from_str::<serde_json::Value>(&whole[0]).unwrap()["candidates"][0]["content"]["parts"][0]["text"], "a } ] \" {");
        for size in [1, 2, 3, 7, 16] {
            let reads: Vec<&[u8]> = body.chunks(size).collect();
            assert_eq!(elements(&reads), whole, "reads of {size} bytes");
        }
    }

    #[test]
    fn bare_values_and_the_unfinished_rest() {
        assert_eq!(elements(&[b"[1, true,\"x\",null]"]), ["1", "true", "\"x\"", "null"]);
        let mut s = ElementSplitter::new();
        s.feed(b"[{\"a\": 1},{\"b\": ", |_| {});
        assert_eq!(s.pending_len_bytes(), 6);
        assert_eq!(s.take_rest().as_deref(), Some(&b"{\"b\": "[..]));
        assert_eq!(s.take_rest(), None);
    }

    #[test]
    fn memory_is_bounded_and_the_true_length_kept() {
        let mut s = ElementSplitter::new();
        let mut lens = Vec::new();
        s.feed(b"[\"", |_| {});
        let chunk = vec![b'x'; 64 * 1024];
        for _ in 0..16 {
            s.feed(&chunk, |_| {});
        }
        assert!(s.pending_len_bytes() <= MAX_LINE_BYTES);
        s.feed(b"\"]", |e| lens.push((e.bytes.len(), e.len_bytes)));
        assert_eq!(lens, [(MAX_LINE_BYTES, 16 * 64 * 1024 + 2)]);
        assert_eq!(s.longest_element_bytes(), 16 * 64 * 1024 + 2);
    }
}
