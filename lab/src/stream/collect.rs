//! Modes that answer only after the whole generation time: `collect` and `"stream": false`.

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use super::{sleep_until_ms, SSE};
use crate::chunks::{ChunkWriter, Event};
use crate::passage::{text_of, token_text};
use crate::response::Fixed;
use crate::settings::StreamSettings;

/// A collect-then-return backend: the complete SSE body at once, with a `Content-Length`.
pub(super) async fn collect(
    socket: &mut TcpStream,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
) -> std::io::Result<()> {
    sleep_until_ms(chunks.start, settings.generation_ms()).await;
    let mut events = Vec::new();
    if settings.role_first {
        events.extend(chunks.sse(&Event::Role));
    }
    for index in 0..settings.tokens {
        events.extend(chunks.sse(&Event::Content(token_text(index))));
    }
    events.extend(chunks.sse(&Event::Finish));
    if settings.usage {
        events.extend(chunks.sse(&Event::Usage));
    }
    events.extend(chunks.sse(&Event::Done));
    Fixed::new(200, SSE, events)
        .with_header("Cache-Control", "no-cache")
        .write(socket, false, false)
        .await?;
    socket.shutdown().await
}

/// A non-streaming `chat.completion` JSON after the whole generation time.
pub(super) async fn completion_json(
    socket: &mut TcpStream,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
) -> std::io::Result<()> {
    sleep_until_ms(chunks.start, settings.generation_ms()).await;
    let completion = chunks.completion(&text_of(settings.tokens));
    Fixed::new(200, "application/json", completion)
        .write(socket, false, false)
        .await?;
    socket.shutdown().await
}
