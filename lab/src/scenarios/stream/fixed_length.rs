//! `content_length=1`: the timed stream, but with a `Content-Length` declared up front.
//!
//! The whole body is rendered before the head is sent, so every `server_ms` is the event's scheduled
//! time rather than its send time (the stamps must not change the length); with `batch` the content
//! events of a write are stamped with the write's scheduled time.

use super::batch;
use super::plan::plan;
use super::split::{send_event, Split};
use super::{sleep_until_ms, SSE};
use crate::http::socket::Socket;
use crate::http::body::{BodyWriter, Framing};
use crate::scenarios::chunks::{ChunkWriter, Event};
use crate::scenarios::settings::StreamSettings;

/// Sends the head with `Content-Length`, then each event at its deadline, one write each.
pub(super) async fn stream(
    socket: &mut Socket,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
) -> std::io::Result<()> {
    let planned = plan(settings, settings.content_events(), true)
        .into_iter()
        .map(|item| (item.at_ms, item.event));
    let is_content = |event: &Event| matches!(event, Event::Content(_));
    let pieces: Vec<(f64, Vec<u8>)> = batch::writes(planned, settings.batch, is_content)
        .into_iter()
        .map(|write| {
            let at_ms = write.at_ms;
            let bytes = write
                .items
                .iter()
                .flat_map(|event| chunks.sse_at(event, at_ms));
            (at_ms, bytes.collect())
        })
        .collect();
    let len_bytes = pieces.iter().map(|(_, bytes)| bytes.len()).sum();
    let framing = Framing::Length(len_bytes);
    let mut body = BodyWriter::start(socket, framing, 200, SSE, &settings.extra_headers()).await?;
    let split = Split::of(settings);
    for (at_ms, bytes) in &pieces {
        sleep_until_ms(chunks.start, *at_ms).await;
        send_event(&mut body, bytes, split).await?;
    }
    body.finish().await
}
