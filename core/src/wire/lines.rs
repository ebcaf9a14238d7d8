//! Byte-level line splitting shared by the SSE and NDJSON parsers.
//!
//! A line ends at `\n`, `\r\n` or a lone `\r`, also when the `\r` ends one read and the `\n` starts the
//! next. The splitter keeps a scan position, so a very long line that arrives in many reads is scanned
//! once in total (linear time), never rescanned from its start.
//!
//! Memory is bounded: of a line still being received, at most [`MAX_LINE_BYTES`] (512 KiB) are kept;
//! the rest, up to the next line end, is discarded but counted, so the line is returned cut at 512 KiB
//! (on a character boundary) while [`LineSplitter::longest_line_bytes`] still reports its true length.
//! (The bug this avoids: an unterminated line grew without limit, one read after the other.)
//!
//! Line ends are found with `memchr2` (`\n` or `\r`, several bytes per step) rather than a byte loop;
//! whether a `\r` is followed by `\n`, in this read or the next, is decided on the byte found.
//!
//! Two ways to use it, with the same lines and counters: [`LineSplitter::feed`] then
//! [`LineSplitter::next_line`] (every byte is copied into the buffer first), or
//! [`LineSplitter::feed_lines`] with a callback (the fast path: a line that lies within one read is
//! handed over borrowed from the read, with its text when the read's complete lines are valid UTF-8, checked
//! in one pass per read; only the unterminated rest of a read is copied).

use memchr::memchr2;

/// The most bytes of one line kept (512 KiB): eight times the 64 KiB at which a line is reported as long,
/// so every line a real stream sends (a token or a few per event, a large tool call) is kept whole.
pub const MAX_LINE_BYTES: usize = 512 * 1024;

/// One complete line from [`LineSplitter::feed_lines`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line's bytes, terminator excluded.
    pub bytes: &'a [u8],
    /// The same bytes as text when they are already known to be valid UTF-8 (a line that lies within
    /// one read); `None` when they were not checked (a line split across reads) or are not valid.
    pub text: Option<&'a str>,
    /// The next line is empty and complete in the same read (in SSE: this line ends an event).
    pub next_is_empty: bool,
}

/// Splits a byte stream into lines incrementally; feed bytes with [`LineSplitter::feed`], then drain
/// complete lines with [`LineSplitter::next_line`].
#[derive(Debug, Default, Clone)]
pub struct LineSplitter {
    /// Bytes not yet returned as a line (the start of `buf` up to `start` is already consumed).
    buf: Vec<u8>,
    /// Where the current (incomplete) line starts in `buf`.
    start: usize,
    /// Where to resume looking for a line terminator in `buf`.
    scan_pos: usize,
    /// The last line ended at a `\r` that was the last byte seen: a `\n` that comes next is part of it.
    cr_pending: bool,
    /// Length of the longest complete line so far, terminator excluded.
    longest_line_bytes: usize,
    /// Bytes of the current line discarded past [`MAX_LINE_BYTES`].
    line_dropped: usize,
    /// The current line passed [`MAX_LINE_BYTES`]: bytes are discarded until the next line end.
    discarding: bool,
}

impl LineSplitter {
    /// A splitter with nothing buffered.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends the bytes of one read.
    pub fn feed(&mut self, bytes: &[u8]) {
        let mut bytes = bytes;
        if self.cr_pending && !bytes.is_empty() {
            self.cr_pending = false;
            if bytes[0] == b'\n' {
                bytes = &bytes[1..];
            }
        }
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.scan_pos -= self.start;
            self.start = 0;
        }
        if self.discarding {
            match memchr2(b'\n', b'\r', bytes) {
                None => {
                    self.line_dropped += bytes.len();
                    return;
                }
                Some(i) => {
                    self.line_dropped += i;
                    self.discarding = false;
                    bytes = &bytes[i..];
                }
            }
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Splits the bytes of one read and calls `on_line` with each line they complete, in order: the same
    /// lines, cuts and counters as [`LineSplitter::feed`] followed by [`LineSplitter::next_line`] until
    /// `None`, without copying a line that lies within this read. Those lines are checked as UTF-8
    /// together, once per read (one pass over memory, not one per line), and come with their text when
    /// valid (see [`Line`]).
    pub fn feed_lines(&mut self, bytes: &[u8], mut on_line: impl FnMut(Line<'_>)) {
        // Lines of an earlier `feed` not yet taken come first (none when only this method is used: then
        // everything buffered has been scanned).
        if self.scan_pos < self.buf.len() {
            while let Some(line) = self.next_line() {
                on_line(Line { bytes: line, text: None, next_is_empty: false });
            }
        }
        let mut rest = bytes;
        if self.cr_pending && !rest.is_empty() {
            self.cr_pending = false;
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
        }
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        if self.discarding {
            match memchr2(b'\n', b'\r', rest) {
                None => {
                    self.line_dropped += rest.len();
                    return;
                }
                Some(i) => {
                    self.line_dropped += i;
                    self.discarding = false;
                    rest = &rest[i..];
                }
            }
        }
        if !self.buf.is_empty() {
            // The line in progress ends at this read's first line end, if any.
            let Some(end) = line_end(rest) else {
                self.keep(rest);
                return;
            };
            let next = self.after_line_end(rest, end);
            self.buf.extend_from_slice(&rest[..end]);
            self.line_ended(self.buf.len());
            let next_is_empty = matches!(rest.get(next), Some(b'\n' | b'\r'));
            on_line(Line { bytes: &self.buf, text: None, next_is_empty });
            self.buf.clear();
            rest = &rest[next..];
        }
        // A short rest holds a blank line or two and the start of a line that continues in the next
        // read (checked again once complete): not worth a pass of its own.
        let text = if rest.len() >= READ_CHECK_MIN_BYTES { valid_prefix(rest) } else { "" };
        let mut pos = 0;
        while let Some(end) = line_end(&rest[pos..]).map(|e| pos + e) {
            let next = self.after_line_end(rest, end);
            self.line_ended(end - pos);
            // Line ends are ASCII, so `pos` and `end` are character boundaries of the checked text.
            let line_text = if end <= text.len() { Some(&text[pos..end]) } else { None };
            let next_is_empty = matches!(rest.get(next), Some(b'\n' | b'\r'));
            on_line(Line { bytes: &rest[pos..end], text: line_text, next_is_empty });
            pos = next;
        }
        self.keep(&rest[pos..]);
    }

    /// Where the line ending at `bytes[end]` (a `\n` or `\r`) is followed by the next line; a `\r` that
    /// is the last byte may be the first half of a CRLF split across reads.
    fn after_line_end(&mut self, bytes: &[u8], end: usize) -> usize {
        if bytes[end] == b'\n' {
            return end + 1;
        }
        match bytes.get(end + 1) {
            Some(b'\n') => end + 2,
            Some(_) => end + 1,
            None => {
                self.cr_pending = true;
                end + 1
            }
        }
    }

    /// Counts a complete line of `len` bytes (plus what was discarded of it).
    fn line_ended(&mut self, len: usize) {
        self.longest_line_bytes = self.longest_line_bytes.max(len + self.line_dropped);
        self.line_dropped = 0;
    }

    /// Keeps the unterminated rest of a read as the line in progress (cut at [`MAX_LINE_BYTES`]).
    fn keep(&mut self, rest: &[u8]) {
        self.buf.extend_from_slice(rest);
        self.scan_pos = self.buf.len();
        self.cap_pending_line();
    }

    /// The next complete line (terminator excluded), or `None` until more bytes are fed.
    pub fn next_line(&mut self) -> Option<&[u8]> {
        let rel = memchr2(b'\n', b'\r', &self.buf[self.scan_pos..]);
        let Some(rel) = rel else {
            self.scan_pos = self.buf.len();
            self.cap_pending_line();
            return None;
        };
        let end = self.scan_pos + rel;
        let next = if self.buf[end] == b'\r' {
            match self.buf.get(end + 1) {
                Some(b'\n') => end + 2,
                Some(_) => end + 1,
                None => {
                    self.cr_pending = true;
                    end + 1
                }
            }
        } else {
            end + 1
        };
        let line_start = self.start;
        self.start = next;
        self.scan_pos = next;
        self.longest_line_bytes = self.longest_line_bytes.max(end - line_start + self.line_dropped);
        self.line_dropped = 0;
        Some(&self.buf[line_start..end])
    }

    /// Cuts the line being received to [`MAX_LINE_BYTES`] (back to a character boundary) and starts
    /// discarding, once it is longer.
    fn cap_pending_line(&mut self) {
        let pending = self.buf.len() - self.start;
        if pending <= MAX_LINE_BYTES {
            return;
        }
        let mut keep = MAX_LINE_BYTES;
        while keep > 0 && self.buf[self.start + keep] & 0xC0 == 0x80 {
            keep -= 1;
        }
        self.line_dropped += pending - keep;
        self.buf.truncate(self.start + keep);
        self.buf.shrink_to(MAX_LINE_BYTES);
        self.scan_pos = self.buf.len();
        self.discarding = true;
    }

    /// Takes the unterminated rest at the end of the stream, if any bytes are left.
    pub fn take_rest(&mut self) -> Option<Vec<u8>> {
        let rest = self.buf.split_off(self.start);
        self.buf.clear();
        self.start = 0;
        self.scan_pos = 0;
        self.cr_pending = false;
        self.discarding = false;
        let dropped = std::mem::take(&mut self.line_dropped);
        if rest.is_empty() {
            None
        } else {
            self.longest_line_bytes = self.longest_line_bytes.max(rest.len() + dropped);
            Some(rest)
        }
    }

    /// Length in bytes of the longest line seen so far (its true length, discarded bytes included),
    /// counting the line still being received.
    pub fn longest_line_bytes(&self) -> usize {
        self.longest_line_bytes.max(self.buf.len() - self.start + self.line_dropped)
    }

    /// Bytes held for the line still being received.
    pub fn pending_len_bytes(&self) -> usize {
        self.buf.len() - self.start
    }
}

/// Reads (after a line completed from earlier reads) shorter than this (256 B) are not checked as UTF-8 as
/// a whole by [`LineSplitter::feed_lines`]: their lines are checked one by one by the caller.
const READ_CHECK_MIN_BYTES: usize = 256;

/// The longest valid UTF-8 start of `bytes`, as text: all of it in the common case, in one forward pass
/// (which also brings the read into the cache for the line search); a second pass over the valid part
/// only when the read ends inside a character or holds invalid bytes.
fn valid_prefix(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    }
}

/// Where the first `\n` or `\r` is: a blank line (the end of every SSE event) is decided on its first
/// byte, a longer one with `memchr2`.
#[inline]
fn line_end(bytes: &[u8]) -> Option<usize> {
    match bytes.first() {
        None => None,
        Some(b'\n' | b'\r') => Some(0),
        Some(_) => memchr2(b'\n', b'\r', &bytes[1..]).map(|i| i + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(reads: &[&[u8]]) -> (Vec<Vec<u8>>, Option<Vec<u8>>) {
        let mut s = LineSplitter::new();
        let mut out = Vec::new();
        for r in reads {
            s.feed(r);
            while let Some(l) = s.next_line() {
                out.push(l.to_vec());
            }
        }
        (out, s.take_rest())
    }

    #[test]
    fn feed_lines_after_feed_first_hands_over_the_lines_not_yet_taken() {
        let mut s = LineSplitter::new();
        s.feed(b"a\r\nb\rc");
        assert_eq!(s.next_line(), Some(&b"a"[..]));
        let mut lines = Vec::new();
        s.feed_lines(b"d\ne\n", |l| {
            assert!(l.text.is_none_or(|t| t.as_bytes() == l.bytes));
            lines.push(l.bytes.to_vec());
        });
        assert_eq!(lines, [b"b".to_vec(), b"cd".to_vec(), b"e".to_vec()]);
        assert_eq!(s.take_rest(), None);
    }

    #[test]
    fn lines_within_a_long_read_come_with_their_text_and_whether_an_empty_line_follows() {
        let mut s = LineSplitter::new();
        let mut read = format!("data: {}\n\ndata: é\r\nx\n", "y".repeat(300)).into_bytes();
        read.extend_from_slice(b"\xff\nlast\r");
        let mut lines = Vec::new();
        s.feed_lines(&read, |l| lines.push((l.bytes.len(), l.text.is_some(), l.next_is_empty)));
        // The invalid byte's line and the lines after it are not handed as text.
        assert_eq!(lines, [(306, true, true), (0, true, false), (8, true, false), (1, true, false), (1, false, false), (4, false, false)]);
    }

    #[test]
    fn every_line_ending_splits() {
        let (lines, rest) = split(&[b"a\nb\r\nc\rd"]);
        assert_eq!(lines, vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
        assert_eq!(rest, Some(b"d".to_vec()));
    }

    #[test]
    fn cr_at_end_of_read_then_lf_is_one_line_ending() {
        let (lines, rest) = split(&[b"a\r", b"\nb\n"]);
        assert_eq!(lines, vec![b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(rest, None);
    }

    #[test]
    fn cr_at_end_of_read_then_empty_read_then_lf_is_one_line_ending() {
        let (lines, _) = split(&[b"a\r", b"", b"\n", b"b\n"]);
        assert_eq!(lines, vec![b"a".to_vec(), b"b".to_vec()]);
    }

    #[test]
    fn two_crs_are_two_line_endings() {
        let (lines, _) = split(&[b"a\r", b"\r", b"b\n"]);
        assert_eq!(lines, vec![b"a".to_vec(), b"".to_vec(), b"b".to_vec()]);
    }

    #[test]
    fn longest_line_counts_pending_and_complete_lines() {
        let mut s = LineSplitter::new();
        s.feed(b"abc\nde");
        while s.next_line().is_some() {}
        assert_eq!(s.longest_line_bytes(), 3);
        s.feed(b"fgh");
        while s.next_line().is_some() {}
        assert_eq!(s.longest_line_bytes(), 5);
        assert_eq!(s.pending_len_bytes(), 5);
    }

    /// Regression (issue 8): an unterminated line grew without limit.
    #[test]
    fn a_1_mib_unterminated_line_stays_bounded_and_keeps_its_true_length() {
        let mut s = LineSplitter::new();
        let mut line = b"data: ".to_vec();
        line.extend(std::iter::repeat_n(b'x', 1024 * 1024));
        for read in line.chunks(16 * 1024) {
            s.feed(read);
            assert!(s.next_line().is_none());
            assert!(s.pending_len_bytes() <= MAX_LINE_BYTES, "{}", s.pending_len_bytes());
            assert!(s.buf.capacity() <= MAX_LINE_BYTES + 16 * 1024, "{}", s.buf.capacity());
        }
        assert_eq!(s.longest_line_bytes(), line.len());
        let rest = s.take_rest().unwrap();
        assert_eq!(rest.len(), MAX_LINE_BYTES);
        assert_eq!(s.longest_line_bytes(), line.len());
    }

    #[test]
    fn a_long_line_is_cut_then_the_next_lines_come_whole() {
        let mut long = vec![b'y'; MAX_LINE_BYTES + 5000];
        long.extend_from_slice("é\r\nnext\n".as_bytes());
        let (lines, rest) = split(&long.chunks(4096).collect::<Vec<_>>());
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), MAX_LINE_BYTES);
        assert_eq!(lines[1], b"next".to_vec());
        // A line whose end arrives in the same read is returned whole (bounded by the read itself).
        assert_eq!(rest, None);
        let mut s = LineSplitter::new();
        s.feed(&long);
        while s.next_line().is_some() {}
        assert_eq!(s.longest_line_bytes(), MAX_LINE_BYTES + 5002);
    }

    #[test]
    fn a_cut_never_splits_a_character() {
        let mut s = LineSplitter::new();
        let mut long = vec![b'a'; MAX_LINE_BYTES - 1];
        long.extend_from_slice("€€".as_bytes());
        s.feed(&long);
        assert!(s.next_line().is_none());
        let rest = s.take_rest().unwrap();
        assert_eq!(rest.len(), MAX_LINE_BYTES - 1);
        assert!(std::str::from_utf8(&rest).is_ok());
    }
}
