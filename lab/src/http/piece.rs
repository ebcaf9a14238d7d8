//! A piece of a response body: bytes, with long runs of padding kept as a count instead of bytes, so a
//! `pad` of 16 MiB per event costs no memory; written as one vectored write (see
//! [`crate::http::body::BodyWriter::send_piece`]).
//!
//! Writers hold at most one piece at a time: [`coalesce`] turns a stream of pieces (one per event)
//! into the pieces that are written, pulling the next event only when the current piece is not full.

/// The padding byte, as the `pad` JSON field carries it.
pub const PAD_BYTE: u8 = b'x';
/// Pads shorter than this are stored as bytes (a slice per tiny pad would cost more than the bytes).
const PAD_INLINE_MAX_BYTES: usize = 4096;
/// Length of the static run every long pad is written from.
const PAD_RUN_BYTES: usize = 64 * 1024;
/// The run of padding bytes long pads point into.
static PAD_RUN: [u8; PAD_RUN_BYTES] = [PAD_BYTE; PAD_RUN_BYTES];

/// Bytes with runs of padding; see the module docs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Piece {
    parts: Vec<Part>,
    len_bytes: usize,
    held_bytes: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Bytes(Vec<u8>),
    Pad(usize),
}

impl From<Vec<u8>> for Piece {
    fn from(bytes: Vec<u8>) -> Self {
        let mut piece = Piece::new();
        piece.len_bytes = bytes.len();
        piece.held_bytes = bytes.len();
        if !bytes.is_empty() {
            piece.parts.push(Part::Bytes(bytes));
        }
        piece
    }
}

impl Piece {
    /// An empty piece.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `bytes`.
    pub fn push(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.len_bytes += bytes.len();
        self.held_bytes += bytes.len();
        match self.parts.last_mut() {
            Some(Part::Bytes(last)) => last.extend_from_slice(bytes),
            _ => self.parts.push(Part::Bytes(bytes.to_vec())),
        }
    }

    /// Appends `len_bytes` padding bytes ([`PAD_BYTE`]); long runs take no memory.
    pub fn push_pad(&mut self, len_bytes: usize) {
        if len_bytes < PAD_INLINE_MAX_BYTES {
            self.push(&PAD_RUN[..len_bytes]);
            return;
        }
        self.len_bytes += len_bytes;
        match self.parts.last_mut() {
            Some(Part::Pad(last)) => *last += len_bytes,
            _ => self.parts.push(Part::Pad(len_bytes)),
        }
    }

    /// Appends all of `other`.
    pub fn append(&mut self, other: &Piece) {
        for part in &other.parts {
            match part {
                Part::Bytes(bytes) => self.push(bytes),
                Part::Pad(len_bytes) => self.push_pad(*len_bytes),
            }
        }
    }

    /// Length in bytes on the wire.
    pub fn len_bytes(&self) -> usize {
        self.len_bytes
    }

    /// Bytes actually held in memory (long pads are not).
    pub fn held_bytes(&self) -> usize {
        self.held_bytes
    }

    /// Says whether the piece has no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.len_bytes == 0
    }

    /// Empties the piece.
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// The bytes in order, as slices (long pads as slices of a static run).
    pub fn slices(&self) -> impl Iterator<Item = &[u8]> {
        self.parts.iter().flat_map(|part| {
            let (bytes, pad): (&[u8], usize) = match part {
                Part::Bytes(bytes) => (bytes, 0),
                Part::Pad(len_bytes) => (&[], *len_bytes),
            };
            let runs = (0..pad.div_ceil(PAD_RUN_BYTES)).map(move |run| {
                let len = (pad - run * PAD_RUN_BYTES).min(PAD_RUN_BYTES);
                &PAD_RUN[..len]
            });
            std::iter::once(bytes).filter(|b| !b.is_empty()).chain(runs)
        })
    }

    /// All bytes in one vector (for small pieces and tests: this does hold the padding).
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len_bytes);
        for slice in self.slices() {
            out.extend_from_slice(slice);
        }
        out
    }

    /// Position of the first byte (padding included) for which `matches` is true.
    pub fn position(&self, matches: impl Fn(u8) -> bool) -> Option<usize> {
        let mut offset = 0;
        for part in &self.parts {
            match part {
                Part::Bytes(bytes) => {
                    if let Some(at) = bytes.iter().position(|&b| matches(b)) {
                        return Some(offset + at);
                    }
                    offset += bytes.len();
                }
                Part::Pad(len_bytes) => {
                    if matches(PAD_BYTE) {
                        return Some(offset);
                    }
                    offset += len_bytes;
                }
            }
        }
        None
    }

    /// The first `at` bytes and the rest, as two pieces.
    pub fn split_at(&self, at: usize) -> (Piece, Piece) {
        let (mut head, mut tail) = (Piece::new(), Piece::new());
        let mut offset = 0;
        for part in &self.parts {
            let len = match part {
                Part::Bytes(bytes) => bytes.len(),
                Part::Pad(len_bytes) => *len_bytes,
            };
            let cut = at.saturating_sub(offset).min(len);
            match part {
                Part::Bytes(bytes) => {
                    head.push(&bytes[..cut]);
                    tail.push(&bytes[cut..]);
                }
                Part::Pad(len_bytes) => {
                    head.push_pad(cut);
                    tail.push_pad(len_bytes - cut);
                }
            }
            offset += len;
        }
        (head, tail)
    }

    /// Replaces the first occurrence of `needle` inside one run of stored bytes; says whether it did.
    pub fn replace_first(&mut self, needle: &[u8], replacement: &[u8]) -> bool {
        for part in &mut self.parts {
            let Part::Bytes(bytes) = part else { continue };
            let Some(at) = bytes.windows(needle.len()).position(|w| w == needle) else {
                continue;
            };
            bytes.splice(at..at + needle.len(), replacement.iter().copied());
            self.len_bytes = self.len_bytes - needle.len() + replacement.len();
            self.held_bytes = self.held_bytes - needle.len() + replacement.len();
            return true;
        }
        false
    }
}

/// Merges `pieces` in order into the pieces to write: each is closed as soon as `full` says so (and
/// the last holds what is left). Lazy: the next input piece is pulled only while the current output
/// piece is not full, so a writer holds one output piece and one input piece at most.
pub fn coalesce<I, F>(pieces: I, full: F) -> impl Iterator<Item = Piece>
where
    I: IntoIterator<Item = Piece>,
    F: Fn(&Piece) -> bool,
{
    let mut pieces = pieces.into_iter();
    std::iter::from_fn(move || {
        let mut out = Piece::new();
        for piece in pieces.by_ref() {
            out.append(&piece);
            if full(&out) {
                break;
            }
        }
        (!out.is_empty()).then_some(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Piece {
        let mut piece = Piece::from(b"data: {\"pad\":\"".to_vec());
        piece.push_pad(200_000);
        piece.push(b"\"}\n\n");
        piece
    }

    #[test]
    fn long_pads_take_no_memory_and_come_out_whole() {
        let piece = sample();
        assert_eq!(piece.len_bytes(), 14 + 200_000 + 4);
        assert_eq!(piece.held_bytes(), 14 + 4);
        let bytes = piece.to_vec();
        assert_eq!(bytes.len(), piece.len_bytes());
        assert!(bytes[14..200_014].iter().all(|&b| b == PAD_BYTE));
        assert!(bytes.ends_with(b"\"}\n\n"));
        assert!(piece
            .slices()
            .all(|s| !s.is_empty() && s.len() <= PAD_RUN_BYTES));
        let mut short = Piece::new();
        short.push(b"a");
        short.push_pad(3);
        short.push(b"b");
        assert_eq!((short.to_vec(), short.held_bytes()), (b"axxxb".to_vec(), 5));
        assert_eq!(short.slices().count(), 1, "short pads are stored as bytes");
    }

    #[test]
    fn split_and_search_see_the_padding_as_bytes() {
        let piece = sample();
        let whole = piece.to_vec();
        for at in [
            0,
            1,
            14,
            15,
            100_000,
            200_014,
            200_017,
            whole.len(),
            whole.len() + 9,
        ] {
            let (head, tail) = piece.split_at(at);
            let mut joined = head.to_vec();
            joined.extend(tail.to_vec());
            assert_eq!(joined, whole, "split at {at}");
            assert_eq!(head.len_bytes(), at.min(whole.len()));
        }
        assert_eq!(piece.position(|b| b == b'x'), Some(14));
        assert_eq!(piece.position(|b| b == b'}'), Some(200_015));
        assert_eq!(piece.position(|b| b >= 0xC0), None);
        let mut marked = Piece::from(b"a@M@b".to_vec());
        assert!(marked.replace_first(b"@M@", &[0xff, 0xfe]));
        assert_eq!(
            (marked.to_vec(), marked.len_bytes()),
            (vec![b'a', 0xff, 0xfe, b'b'], 4)
        );
        assert!(!marked.replace_first(b"@M@", b""));
    }

    #[test]
    fn coalesce_holds_one_piece_and_pulls_no_further_than_it_needs() {
        use std::cell::Cell;
        let pulled = Cell::new(0usize);
        let events = (0..1000).map(|_| {
            pulled.set(pulled.get() + 1);
            sample()
        });
        let event_len = sample().len_bytes();
        let mut written = 0;
        let mut pieces = 0;
        for piece in coalesce(events, |p| p.len_bytes() >= 64 * 1024) {
            pieces += 1;
            written += piece.len_bytes();
            assert!(
                piece.len_bytes() < 64 * 1024 + event_len,
                "one piece at most"
            );
            assert!(piece.held_bytes() <= 18, "padding is never held");
            assert_eq!(
                pulled.get() * event_len,
                written,
                "no event pulled ahead of its piece"
            );
        }
        assert_eq!((pieces, written), (1000, 1000 * event_len));
        let small = (0..10).map(|i| Piece::from(vec![i; 100]));
        let merged: Vec<Piece> = coalesce(small, |p| p.len_bytes() >= 250).collect();
        let sizes: Vec<usize> = merged.iter().map(Piece::len_bytes).collect();
        assert_eq!(sizes, [300, 300, 300, 100]);
        assert_eq!(coalesce(Vec::new(), |_| true).count(), 0);
    }
}
