//! Modes that answer only after the whole generation time: `collect` and `"stream": false`.
//!
//! Neither builds its body in memory: after the wait, the length is found by a dry run (each event
//! rendered and only its length kept; long padding is counted, never materialized), then the head
//! with that `Content-Length` goes out and the events are rendered again and written back to back in
//! writes of about [`COLLECT_WRITE_BYTES`]. Every event carries the same `server_ms`, the moment the
//! wait ended (the dry run and the writes must agree on every byte).

use super::plan::plan;
use super::queue::Queue;
use super::{sleep_until_ms, SSE};
use crate::http::body::{BodyWriter, Framing};
use crate::http::piece::{coalesce, Piece};
use crate::http::socket::Socket;
use crate::scenarios::chunks::{escaped, ChunkWriter};
use crate::scenarios::passage::token_text;
use crate::scenarios::settings::StreamSettings;

/// Size of the writes a collected body leaves in: 64 KiB, what one loopback segment carries, so the
/// whole body still arrives "at once" while the lab holds one write's worth of it.
pub const COLLECT_WRITE_BYTES: usize = 64 * 1024;

/// A collect-then-return backend: the complete SSE body at once, with a `Content-Length`.
pub(super) async fn collect(
    socket: &mut Socket,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
    queue: Queue,
) -> std::io::Result<()> {
    let Some(turn) = queue.wait(socket, settings, chunks).await else {
        return Ok(());
    };
    let chunks = &turn.chunks;
    sleep_until_ms(chunks.start, settings.generation_ms()).await;
    let server_ms = chunks.server_ms();
    let events = || {
        plan(settings, settings.content_events(), true)
            .map(move |item| chunks.sse_at(&item.event, server_ms))
    };
    let len_bytes = events().map(|event| event.len_bytes()).sum();
    let extra = &turn.headers;
    let mut body = BodyWriter::start(socket, Framing::Length(len_bytes), 200, SSE, extra).await?;
    send_coalesced(&mut body, events()).await?;
    body.finish().await
}

/// A non-streaming `chat.completion` JSON after the whole generation time; the message's text is
/// written a token at a time between the JSON before and after it.
pub(super) async fn completion_json(
    socket: &mut Socket,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
    queue: Queue,
) -> std::io::Result<()> {
    let Some(turn) = queue.wait(socket, settings, chunks).await else {
        return Ok(());
    };
    let chunks = &turn.chunks;
    sleep_until_ms(chunks.start, settings.generation_ms()).await;
    let (before, after) = chunks.completion_around(chunks.server_ms());
    let parts = || {
        let text = (0..settings.tokens).map(|index| escaped(&token_text(index)).into_bytes());
        std::iter::once(before.clone().into_bytes())
            .chain(text)
            .chain(std::iter::once(after.clone().into_bytes()))
            .map(Piece::from)
    };
    let len_bytes = parts().map(|part| part.len_bytes()).sum();
    let framing = Framing::Length(len_bytes);
    let extra = &turn.headers;
    let mut body = BodyWriter::start(socket, framing, 200, "application/json", extra).await?;
    send_coalesced(&mut body, parts()).await?;
    body.finish().await
}

/// Writes `pieces` back to back, merged into writes of about [`COLLECT_WRITE_BYTES`].
async fn send_coalesced(
    body: &mut BodyWriter<'_>,
    pieces: impl Iterator<Item = Piece>,
) -> std::io::Result<()> {
    for write in coalesce(pieces, |piece| piece.len_bytes() >= COLLECT_WRITE_BYTES) {
        body.send_piece(&write).await?;
    }
    Ok(())
}
