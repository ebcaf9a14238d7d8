//! The response body's framing removed, read by read: HTTP/1.1 chunked, `Content-Length`, or until close.
//!
//! Cost: each byte is looked at once; a chunk-size line is the only thing buffered.

/// Removes the body's framing, read by read.
#[derive(Debug)]
pub(crate) enum BodyDecoder {
    /// `Transfer-Encoding: chunked`.
    Chunked(ChunkState),
    /// `Content-Length`: this many bytes left.
    Length(usize),
    /// Neither: the body ends when the connection closes.
    UntilClose,
}

/// Where a chunked body is.
#[derive(Debug)]
pub(crate) enum ChunkState {
    /// Reading a chunk-size line.
    Size(Vec<u8>),
    /// This many data bytes left in the chunk.
    Data(usize),
    /// This many bytes of the CRLF after the data left.
    DataEnd(u8),
    /// The last chunk was seen.
    Done,
}

impl BodyDecoder {
    /// A decoder for a chunked body.
    pub(crate) fn chunked() -> Self {
        BodyDecoder::Chunked(ChunkState::Size(Vec::new()))
    }

    /// Appends the body bytes in `input` (framing removed) to `out`.
    pub(crate) fn feed(&mut self, mut input: &[u8], out: &mut Vec<u8>) {
        match self {
            BodyDecoder::UntilClose => out.extend_from_slice(input),
            BodyDecoder::Length(left) => {
                let take = input.len().min(*left);
                out.extend_from_slice(&input[..take]);
                *left -= take;
            }
            BodyDecoder::Chunked(state) => {
                while !input.is_empty() {
                    match state {
                        ChunkState::Size(line) => match input.iter().position(|&b| b == b'\n') {
                            Some(i) => {
                                line.extend_from_slice(&input[..i]);
                                input = &input[i + 1..];
                                let text = String::from_utf8_lossy(line);
                                let hex = text.trim().split(';').next().unwrap_or("").trim();
                                let size = usize::from_str_radix(hex, 16).unwrap_or(0);
                                *state = if size == 0 { ChunkState::Done } else { ChunkState::Data(size) };
                            }
                            None => {
                                line.extend_from_slice(input);
                                input = &[];
                            }
                        },
                        ChunkState::Data(left) => {
                            let take = input.len().min(*left);
                            out.extend_from_slice(&input[..take]);
                            input = &input[take..];
                            *left -= take;
                            if *left == 0 {
                                *state = ChunkState::DataEnd(2);
                            }
                        }
                        ChunkState::DataEnd(left) => {
                            input = &input[1..];
                            *left -= 1;
                            if *left == 0 {
                                *state = ChunkState::Size(Vec::new());
                            }
                        }
                        ChunkState::Done => input = &[],
                    }
                }
            }
        }
    }

    /// The body is complete (the last chunk, or `Content-Length` bytes, were seen).
    pub(crate) fn done(&self) -> bool {
        matches!(self, BodyDecoder::Chunked(ChunkState::Done) | BodyDecoder::Length(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_bodies_decode_at_every_cut() {
        let wire: &[u8] = b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n";
        for cut in 0..wire.len() {
            let mut decoder = BodyDecoder::chunked();
            let mut out = Vec::new();
            decoder.feed(&wire[..cut], &mut out);
            decoder.feed(&wire[cut..], &mut out);
            assert_eq!(out, b"hello world", "cut at {cut}");
            assert!(decoder.done());
        }
    }
}
