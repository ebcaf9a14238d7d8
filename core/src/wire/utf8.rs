//! Lossy UTF-8 decoding that counts what it replaced, whole-buffer and incremental.
//!
//! Every invalid sequence becomes one U+FFFD (the same rule as `String::from_utf8_lossy`) and decoding
//! goes on: one bad byte never holds back the text after it (the eventsource-stream bug). The
//! incremental decoder only holds back an incomplete code point at the very end of a read (at most
//! three bytes), so a code point split across reads decodes as if it had arrived in one piece.

use std::borrow::Cow;

/// The replacement character written for each invalid sequence.
pub const REPLACEMENT: char = '\u{FFFD}';

/// Decodes complete bytes, replacing each invalid sequence with U+FFFD; returns the text and the number
/// of sequences replaced.
pub fn decode_lossy(bytes: &[u8]) -> (Cow<'_, str>, usize) {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(s), 0);
    }
    let mut out = String::with_capacity(bytes.len() + 2);
    let mut replaced = 0;
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            out.push(REPLACEMENT);
            replaced += 1;
        }
    }
    (Cow::Owned(out), replaced)
}

/// Decodes a byte stream read by read, carrying an incomplete code point over to the next read.
#[derive(Debug, Default, Clone)]
pub struct Utf8Decoder {
    /// The start of a code point whose remaining bytes have not arrived yet (at most 3 bytes).
    pending: Vec<u8>,
    /// How many invalid sequences were replaced so far.
    replaced: usize,
}

impl Utf8Decoder {
    /// A decoder with nothing pending.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes the bytes of one read; an incomplete code point at its end is kept for the next read.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        let joined;
        let mut rest: &[u8] = if self.pending.is_empty() {
            bytes
        } else {
            let mut v = std::mem::take(&mut self.pending);
            v.extend_from_slice(bytes);
            joined = v;
            &joined
        };
        let mut out = String::with_capacity(rest.len());
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    out.push_str(s);
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                    match e.error_len() {
                        Some(len) => {
                            out.push(REPLACEMENT);
                            self.replaced += 1;
                            rest = &after[len..];
                        }
                        None => {
                            self.pending.extend_from_slice(after);
                            break;
                        }
                    }
                }
            }
        }
        out
    }

    /// Ends the stream: an incomplete code point still pending becomes one U+FFFD.
    pub fn finish(&mut self) -> String {
        if self.pending.is_empty() {
            String::new()
        } else {
            self.pending.clear();
            self.replaced += 1;
            REPLACEMENT.to_string()
        }
    }

    /// How many invalid sequences were replaced so far.
    pub fn replaced_sequences(&self) -> usize {
        self.replaced
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_text_is_borrowed_and_nothing_replaced() {
        let (s, n) = decode_lossy("héllo".as_bytes());
        assert!(matches!(s, Cow::Borrowed(_)));
        assert_eq!((s.as_ref(), n), ("héllo", 0));
    }

    #[test]
    fn each_invalid_sequence_is_one_replacement() {
        let (s, n) = decode_lossy(b"a\xffb\xf0\x9fc");
        assert_eq!(s, "a\u{FFFD}b\u{FFFD}c");
        assert_eq!(n, 2);
    }

    #[test]
    fn code_point_split_across_reads_decodes_whole() {
        let bytes = "日本🎉".as_bytes();
        for cut in 0..=bytes.len() {
            let mut d = Utf8Decoder::new();
            let mut s = d.push(&bytes[..cut]);
            s.push_str(&d.push(&bytes[cut..]));
            s.push_str(&d.finish());
            assert_eq!(s, "日本🎉", "cut at {cut}");
            assert_eq!(d.replaced_sequences(), 0);
        }
    }

    #[test]
    fn invalid_byte_does_not_hold_back_later_text() {
        let mut d = Utf8Decoder::new();
        assert_eq!(d.push(b"ok \xff then"), "ok \u{FFFD} then");
        assert_eq!(d.push(b" more"), " more");
        assert_eq!(d.replaced_sequences(), 1);
    }

    #[test]
    fn truncated_code_point_at_end_of_stream_is_one_replacement() {
        let mut d = Utf8Decoder::new();
        assert_eq!(d.push(b"x\xe6\x97"), "x");
        assert_eq!(d.finish(), "\u{FFFD}");
        assert_eq!(d.replaced_sequences(), 1);
    }

    #[test]
    fn incremental_matches_lossy_for_broken_sequence_split() {
        let bytes = b"\xf0\x9fA\xe2\x82";
        let (whole, n) = decode_lossy(bytes);
        let mut d = Utf8Decoder::new();
        let mut s = d.push(&bytes[..1]);
        s.push_str(&d.push(&bytes[1..]));
        s.push_str(&d.finish());
        assert_eq!(s, whole);
        assert_eq!(d.replaced_sequences(), n);
    }
}
