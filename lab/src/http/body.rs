//! Streamed response bodies: chunked (HTTP/1.1), close-delimited (HTTP/1.0) or with a `Content-Length`
//! declared up front; one write per piece (a piece longer than
//! [`crate::http::socket::MAX_WRITE_BYTES`] leaves in several writes back to back). A body is never
//! held whole: callers send it piece by piece, and a `Content-Length` body that does not add up to
//! its declared length is an error (the connection is then reset) rather than a lie.

use crate::http::piece::Piece;
use crate::http::request::Version;
use crate::http::response;
use crate::http::socket::Socket;

/// How a streamed body is delimited on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `Transfer-Encoding: chunked`; each piece is one chunk.
    Chunked,
    /// No length at all: the body ends when the server closes the connection (HTTP/1.0 clients).
    CloseDelimited,
    /// `Content-Length` of this many bytes, sent before the body; pieces go out as they are.
    Length(usize),
}

impl Framing {
    /// Picks the framing a client of `version` understands.
    pub fn for_version(version: Version) -> Self {
        match version {
            Version::Http11 => Self::Chunked,
            Version::Http10 => Self::CloseDelimited,
        }
    }
}

/// How a streamed response leaves its connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Closed in order: the write side is shut down (FIN) after whatever the body sent.
    Close,
    /// Reset mid-body: `SO_LINGER` 0 and closed without a shutdown, so the client gets a TCP RST, as
    /// from a crashed backend or a killed proxy.
    Reset,
}

/// Writes a streamed body; the connection is closed after it.
pub struct BodyWriter<'a> {
    socket: &'a mut Socket,
    framing: Framing,
    sent_bytes: usize,
}

impl<'a> BodyWriter<'a> {
    /// Sends the head (`status`, `content_type`, `Cache-Control: no-cache`, `Connection: close`, then
    /// `extra`) and returns a writer for the body.
    pub async fn start(
        socket: &'a mut Socket,
        framing: Framing,
        status: u16,
        content_type: &str,
        extra: &[(&'static str, String)],
    ) -> std::io::Result<BodyWriter<'a>> {
        let mut headers = vec![
            ("Content-Type", content_type.to_string()),
            ("Cache-Control", "no-cache".to_string()),
            ("Connection", "close".to_string()),
        ];
        match framing {
            Framing::Chunked => headers.push(("Transfer-Encoding", "chunked".to_string())),
            Framing::Length(len_bytes) => headers.push(("Content-Length", len_bytes.to_string())),
            Framing::CloseDelimited => {}
        }
        headers.extend(extra.iter().cloned());
        socket.write_all(&response::head(status, &headers)).await?;
        Ok(Self {
            socket,
            framing,
            sent_bytes: 0,
        })
    }

    /// Sends `bytes` with a single write (for chunked framing: size line, data and CRLF together).
    pub async fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.send_slices(&[bytes]).await
    }

    /// Sends `piece` as one chunk in a single vectored write (long pads are never copied).
    pub async fn send_piece(&mut self, piece: &Piece) -> std::io::Result<()> {
        let slices: Vec<&[u8]> = piece.slices().collect();
        self.send_slices(&slices).await
    }

    async fn send_slices(&mut self, slices: &[&[u8]]) -> std::io::Result<()> {
        let len_bytes: usize = slices.iter().map(|s| s.len()).sum();
        if len_bytes == 0 {
            // An empty chunk would end a chunked body.
            return Ok(());
        }
        self.sent_bytes += len_bytes;
        if let Framing::Length(declared) = self.framing {
            if self.sent_bytes > declared {
                return Err(length_mismatch(declared, self.sent_bytes));
            }
        }
        match self.framing {
            Framing::Chunked => {
                let size_line = format!("{len_bytes:x}\r\n");
                let mut framed = Vec::with_capacity(slices.len() + 2);
                framed.push(size_line.as_bytes());
                framed.extend_from_slice(slices);
                framed.push(b"\r\n");
                self.socket.write_all_slices(&framed).await
            }
            Framing::CloseDelimited | Framing::Length(_) => {
                self.socket.write_all_slices(slices).await
            }
        }
    }

    /// Ends the body properly (terminating chunk) and shuts the write side down; a `Content-Length`
    /// body that fell short is an error instead.
    pub async fn finish(self) -> std::io::Result<()> {
        match self.framing {
            Framing::Chunked => self.socket.write_all(b"0\r\n\r\n").await?,
            Framing::Length(declared) if declared != self.sent_bytes => {
                return Err(length_mismatch(declared, self.sent_bytes))
            }
            Framing::Length(_) | Framing::CloseDelimited => {}
        }
        self.socket.shutdown().await
    }

    /// Waits until the client closes its side; stray bytes it sends are ignored.
    pub async fn client_gone(&mut self) {
        self.socket.client_gone().await
    }
}

/// The error for a body whose bytes do not add up to its declared `Content-Length`.
fn length_mismatch(declared: usize, sent_bytes: usize) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("body of {sent_bytes} bytes under Content-Length: {declared}"),
    )
}

/// Frames `data` as one HTTP/1.1 chunk.
pub fn chunk(data: &[u8]) -> Vec<u8> {
    let mut out = format!("{:x}\r\n", data.len()).into_bytes();
    out.reserve(data.len() + 2);
    out.extend_from_slice(data);
    out.extend_from_slice(b"\r\n");
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn chunk_is_size_line_data_crlf() {
        assert_eq!(super::chunk(b"data: x\n\n"), b"9\r\ndata: x\n\n\r\n");
    }
}
