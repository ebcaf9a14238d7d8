//! Byte-level line splitting shared by the SSE and NDJSON parsers.
//!
//! A line ends at `\n`, `\r\n` or a lone `\r`, also when the `\r` ends one read and the `\n` starts the
//! next. The splitter keeps a scan position, so a very long line that arrives in many reads is scanned
//! once in total (linear time), never rescanned from its start.

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
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete line (terminator excluded), or `None` until more bytes are fed.
    pub fn next_line(&mut self) -> Option<&[u8]> {
        let rel = self.buf[self.scan_pos..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r');
        let Some(rel) = rel else {
            self.scan_pos = self.buf.len();
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
        self.longest_line_bytes = self.longest_line_bytes.max(end - line_start);
        Some(&self.buf[line_start..end])
    }

    /// Takes the unterminated rest at the end of the stream, if any bytes are left.
    pub fn take_rest(&mut self) -> Option<Vec<u8>> {
        let rest = self.buf.split_off(self.start);
        self.buf.clear();
        self.start = 0;
        self.scan_pos = 0;
        self.cr_pending = false;
        if rest.is_empty() {
            None
        } else {
            self.longest_line_bytes = self.longest_line_bytes.max(rest.len());
            Some(rest)
        }
    }

    /// Length in bytes of the longest line seen so far, counting the line still being received.
    pub fn longest_line_bytes(&self) -> usize {
        self.longest_line_bytes.max(self.buf.len() - self.start)
    }

    /// Bytes held for the line still being received.
    pub fn pending_len_bytes(&self) -> usize {
        self.buf.len() - self.start
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
}
