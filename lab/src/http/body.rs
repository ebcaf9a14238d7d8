//! Streamed response bodies: chunked (HTTP/1.1), close-delimited (HTTP/1.0) or with a `Content-Length`
//! declared up front; one write per piece.

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::http::request::Version;
use crate::http::response;

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
    socket: &'a mut TcpStream,
    framing: Framing,
}

impl<'a> BodyWriter<'a> {
    /// Sends the head (`status`, `content_type`, `Cache-Control: no-cache`, `Connection: close`, then
    /// `extra`) and returns a writer for the body.
    pub async fn start(
        socket: &'a mut TcpStream,
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
        Ok(Self { socket, framing })
    }

    /// Sends `piece` with a single `write_all` (for chunked framing: size line, data and CRLF together).
    pub async fn send(&mut self, piece: &[u8]) -> std::io::Result<()> {
        if piece.is_empty() {
            // An empty chunk would end a chunked body.
            return Ok(());
        }
        match self.framing {
            Framing::Chunked => self.socket.write_all(&chunk(piece)).await,
            Framing::CloseDelimited | Framing::Length(_) => self.socket.write_all(piece).await,
        }
    }

    /// Ends the body properly (terminating chunk) and shuts the write side down.
    pub async fn finish(self) -> std::io::Result<()> {
        if self.framing == Framing::Chunked {
            self.socket.write_all(b"0\r\n\r\n").await?;
        }
        self.socket.shutdown().await
    }

    /// Waits until the client closes its side; stray bytes it sends are ignored.
    pub async fn client_gone(&mut self) {
        use tokio::io::AsyncReadExt;
        let mut scratch = [0u8; 1024];
        loop {
            match self.socket.read(&mut scratch).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    }
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
