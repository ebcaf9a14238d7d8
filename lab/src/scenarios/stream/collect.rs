//! Modes that answer only after the whole generation time: `collect` and `"stream": false`.

use super::plan::plan;
use super::{sleep_until_ms, SSE};
use crate::http::socket::Socket;
use crate::scenarios::chunks::ChunkWriter;
use crate::scenarios::passage::text_of;
use crate::http::response::Fixed;
use crate::scenarios::settings::StreamSettings;

/// A collect-then-return backend: the complete SSE body at once, with a `Content-Length`.
pub(super) async fn collect(
    socket: &mut Socket,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
) -> std::io::Result<()> {
    sleep_until_ms(chunks.start, settings.generation_ms()).await;
    let events: Vec<u8> = plan(settings, settings.content_events(), true)
        .iter()
        .flat_map(|item| chunks.sse(&item.event))
        .collect();
    let mut response = Fixed::new(200, SSE, events).with_header("Cache-Control", "no-cache");
    response.headers.extend(settings.extra_headers());
    response.write(socket, false, false).await?;
    socket.shutdown().await
}

/// A non-streaming `chat.completion` JSON after the whole generation time.
pub(super) async fn completion_json(
    socket: &mut Socket,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
) -> std::io::Result<()> {
    sleep_until_ms(chunks.start, settings.generation_ms()).await;
    let completion = chunks.completion(&text_of(settings.tokens));
    let mut response = Fixed::new(200, "application/json", completion);
    response.headers.extend(settings.extra_headers());
    response.write(socket, false, false).await?;
    socket.shutdown().await
}
