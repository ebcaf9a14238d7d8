//! `slots`: where a stream waits for its slot, and the clock it runs on once it has one.
//!
//! Every mode opens its body through [`Queue::open`]: the head goes out at once (with
//! `X-Lab-Queue-Position` when the request named `slots`), then the stream waits for a slot in FIFO
//! order, watching the client; its clock ([`ChunkWriter::start`]: the role chunk, `first_ms`, the
//! cadence and `server_ms`) then starts when the slot was obtained. The [`Turn`] holds the slot until
//! the mode returns: after the last byte, or when a write failed because the client left. Modes whose
//! head can only go out at the end (`collect`, `"stream": false`) wait before anything
//! ([`Queue::wait`]). Without `slots` nothing waits and the clock is the request's.

use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;

use crate::http::body::{BodyWriter, Framing};
use crate::http::socket::Socket;
use crate::scenarios::chunks::ChunkWriter;
use crate::scenarios::settings::StreamSettings;
use crate::scenarios::slots::Ticket;

/// The response header that says where the request stood in its pool's queue when it arrived.
pub(super) const QUEUE_POSITION_HEADER: &str = "X-Lab-Queue-Position";

/// A request's place in a `slots` queue, or none.
#[derive(Debug)]
pub(crate) struct Queue {
    ticket: Option<Ticket>,
}

/// A stream's turn: the chunk writer on the stream's clock, the response's headers, and the slot,
/// held while this lives.
#[derive(Debug)]
pub(super) struct Turn {
    /// The chunk writer whose `start` is when the stream got its slot (the request's time without
    /// `slots`).
    pub chunks: ChunkWriter,
    /// The response's headers besides the framing ones ([`Queue::headers`]).
    pub headers: Vec<(&'static str, String)>,
    _slot: Option<OwnedSemaphorePermit>,
}

impl Queue {
    /// No queue: served at once.
    pub fn none() -> Self {
        Self { ticket: None }
    }

    /// A place in a queue.
    pub fn with(ticket: Ticket) -> Self {
        Self {
            ticket: Some(ticket),
        }
    }

    /// The headers of a response: the settings' own, plus the queue position with `slots`.
    pub fn headers(&self, settings: &StreamSettings) -> Vec<(&'static str, String)> {
        let mut headers = settings.extra_headers();
        if let Some(ticket) = &self.ticket {
            headers.push((QUEUE_POSITION_HEADER, ticket.position.to_string()));
        }
        headers
    }

    /// Sends the head (`status` 200, `content_type`, [`Queue::headers`]), then waits for the slot;
    /// `None` when the client left while waiting (nothing more to send).
    pub async fn open<'a>(
        self,
        socket: &'a mut Socket,
        framing: Framing,
        content_type: &str,
        settings: &StreamSettings,
        chunks: &ChunkWriter,
    ) -> std::io::Result<Option<(BodyWriter<'a>, Turn)>> {
        let headers = self.headers(settings);
        let mut body = BodyWriter::start(socket, framing, 200, content_type, &headers).await?;
        let turn = self.turn(body.client_gone(), headers, chunks).await;
        Ok(turn.map(|turn| (body, turn)))
    }

    /// Waits for the slot before anything is sent; `None` when the client left while waiting.
    pub async fn wait(
        self,
        socket: &mut Socket,
        settings: &StreamSettings,
        chunks: &ChunkWriter,
    ) -> Option<Turn> {
        let headers = self.headers(settings);
        self.turn(socket.client_gone(), headers, chunks).await
    }

    async fn turn(
        self,
        client_gone: impl std::future::Future<Output = ()>,
        headers: Vec<(&'static str, String)>,
        chunks: &ChunkWriter,
    ) -> Option<Turn> {
        let Some(ticket) = self.ticket else {
            let chunks = chunks.clone();
            return Some(Turn { chunks, headers, _slot: None });
        };
        let slot = ticket.wait(client_gone).await?;
        let mut chunks = chunks.clone();
        chunks.start = Instant::now();
        Some(Turn { chunks, headers, _slot: Some(slot) })
    }
}
