//! A client connection whose every write has a deadline: a write of at most [`MAX_WRITE_BYTES`] must
//! finish within the write time-out ([`crate::Limits::write_timeout_ms`]) or it fails with
//! `TimedOut` (and the connection is then reset), so a client that stops reading cannot pin a task.
//!
//! Longer data leaves as several writes back to back, each with its own deadline: on the wire that is
//! the same thing (the kernel never takes more than its socket buffer at once), and a slow client that
//! keeps reading is never cut off for a large body. Data given as several slices (an HTTP chunk's size
//! line, its data and its CRLF) goes out in one vectored write, so a small event still leaves in one
//! segment on a `TCP_NODELAY` socket.

use std::io::{ErrorKind, IoSlice};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest write that gets one write time-out: 1 MiB, so a client must take at least 1 MiB per
/// write time-out (35 KB/s with the default 30 s) while a large body leaves.
pub const MAX_WRITE_BYTES: usize = 1024 * 1024;
/// Most slices handed to one `writev` (Linux takes at most 1,024).
const MAX_SLICES_PER_CALL: usize = 256;

/// A connection to a client, with the write time-out applied to every write.
#[derive(Debug)]
pub struct Socket {
    stream: TcpStream,
    write_timeout: Duration,
}

impl Socket {
    /// Wraps an accepted stream; each write of at most [`MAX_WRITE_BYTES`] gets `write_timeout`.
    pub fn new(stream: TcpStream, write_timeout: Duration) -> Self {
        Self {
            stream,
            write_timeout,
        }
    }

    /// Writes all of `bytes`, in writes of at most [`MAX_WRITE_BYTES`], each within the time-out.
    pub async fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.write_all_slices(&[bytes]).await
    }

    /// Writes the concatenation of `slices` (vectored), in writes of at most [`MAX_WRITE_BYTES`], each
    /// within the time-out.
    pub async fn write_all_slices(&mut self, slices: &[&[u8]]) -> std::io::Result<()> {
        let len_bytes: usize = slices.iter().map(|s| s.len()).sum();
        if len_bytes <= MAX_WRITE_BYTES {
            // The usual case (an event, a response): one write, no windows to build.
            return self.write_window(slices).await;
        }
        for window in windows(slices, MAX_WRITE_BYTES) {
            self.write_window(&window).await?;
        }
        Ok(())
    }

    /// Writes one window of slices within the write time-out.
    async fn write_window(&mut self, window: &[&[u8]]) -> std::io::Result<()> {
        let write = write_vectored_all(&mut self.stream, window);
        match tokio::time::timeout(self.write_timeout, write).await {
            Ok(result) => result,
            Err(_) => Err(std::io::Error::new(
                ErrorKind::TimedOut,
                "the client took no data for the write time-out",
            )),
        }
    }

    /// Shuts the write side down (FIN after what was written), within the write time-out.
    pub async fn shutdown(&mut self) -> std::io::Result<()> {
        match tokio::time::timeout(self.write_timeout, self.stream.shutdown()).await {
            Ok(result) => result,
            Err(_) => Err(ErrorKind::TimedOut.into()),
        }
    }

    /// Reads what the client sent, as [`AsyncReadExt::read`] does (`Ok(0)`: the client closed).
    pub async fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        self.stream.read(buffer).await
    }

    /// Waits until the client closes its side (or the connection fails); stray bytes it sends are
    /// ignored.
    pub async fn client_gone(&mut self) {
        let mut scratch = [0u8; 1024];
        loop {
            match self.stream.read(&mut scratch).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    }

    /// Sets `SO_LINGER` to 0: when dropped, the connection is reset (RST) instead of closed (FIN), and
    /// the kernel drops whatever the client did not read.
    pub fn set_zero_linger(&self) {
        // Without it the drop still closes the connection, in order.
        let _ = self.stream.set_zero_linger();
    }
}

/// Splits the concatenation of `slices` into windows of at most `max_bytes` (empty slices dropped).
fn windows<'a>(slices: &[&'a [u8]], max_bytes: usize) -> Vec<Vec<&'a [u8]>> {
    let mut out = Vec::new();
    let mut window: Vec<&'a [u8]> = Vec::new();
    let mut window_bytes = 0;
    for slice in slices {
        let mut rest: &'a [u8] = slice;
        while !rest.is_empty() {
            let take = rest.len().min(max_bytes - window_bytes);
            window.push(&rest[..take]);
            window_bytes += take;
            rest = &rest[take..];
            if window_bytes == max_bytes {
                out.push(std::mem::take(&mut window));
                window_bytes = 0;
            }
        }
    }
    if !window.is_empty() {
        out.push(window);
    }
    out
}

/// Writes every byte of `slices`, vectored, however many calls it takes.
async fn write_vectored_all(stream: &mut TcpStream, slices: &[&[u8]]) -> std::io::Result<()> {
    let mut index = 0;
    let mut offset = 0;
    loop {
        // Past what is written and any empty slices (a vectored write of nothing returns 0).
        while index < slices.len() && offset == slices[index].len() {
            index += 1;
            offset = 0;
        }
        if index == slices.len() {
            return Ok(());
        }
        let first = &slices[index][offset..];
        let rest = slices[index + 1..].iter().take(MAX_SLICES_PER_CALL - 1);
        let batch: Vec<IoSlice<'_>> = std::iter::once(first)
            .chain(rest.copied())
            .map(IoSlice::new)
            .collect();
        let mut written = stream.write_vectored(&batch).await?;
        if written == 0 {
            return Err(ErrorKind::WriteZero.into());
        }
        while written > 0 {
            let left_in_slice = slices[index].len() - offset;
            if written >= left_in_slice {
                written -= left_in_slice;
                index += 1;
                offset = 0;
            } else {
                offset += written;
                written = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cut_at_the_limit_and_keep_every_byte_in_order() {
        let data: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
        let slices: Vec<&[u8]> = vec![&data[..3], &[], &data[3..4_000], &data[4_000..]];
        let cut = windows(&slices, 1024);
        assert!(cut
            .iter()
            .all(|w| w.iter().map(|s| s.len()).sum::<usize>() <= 1024));
        assert!(cut.iter().flatten().all(|s| !s.is_empty()));
        assert_eq!(cut.len(), 10);
        let joined: Vec<u8> = cut
            .iter()
            .flatten()
            .flat_map(|s| s.iter().copied())
            .collect();
        assert_eq!(joined, data);
        assert!(windows(&[], 8).is_empty());
    }

    #[tokio::test]
    async fn every_slice_arrives_in_order_empties_many_slices_and_windows_alike() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let big: Vec<u8> = (0..3 * MAX_WRITE_BYTES).map(|i| (i % 251) as u8).collect();
        let small: Vec<Vec<u8>> = (0..1000).map(|i| vec![(i % 256) as u8; i % 3]).collect();
        let mut slices: Vec<&[u8]> = vec![&[]];
        slices.extend(small.iter().map(Vec::as_slice));
        slices.push(&big);
        slices.push(&[]);
        let expected: Vec<u8> = slices.concat();
        let reader = tokio::spawn(async move {
            let (mut stream, _) = listener.accept().await.unwrap();
            let mut received = Vec::new();
            stream.read_to_end(&mut received).await.unwrap();
            received
        });
        let stream = TcpStream::connect(addr).await.unwrap();
        let mut socket = Socket::new(stream, Duration::from_secs(10));
        socket.write_all_slices(&slices).await.unwrap();
        socket.write_all_slices(&[&[], &[]]).await.unwrap();
        socket.write_all(b"end").await.unwrap();
        socket.shutdown().await.unwrap();
        let mut expected = expected;
        expected.extend_from_slice(b"end");
        assert!(
            reader.await.unwrap() == expected,
            "bytes lost or out of order"
        );
    }
}
