//! `content_length=1`: the timed stream, but with a `Content-Length` declared up front.
//!
//! The length comes from a dry run: every write is rendered once and only its length kept (long
//! padding is counted, never materialized), then the head goes out and each write is rendered again
//! at its deadline and sent. So every `server_ms` is the event's scheduled time rather than its send
//! time (the stamps must not change the length); with `batch` the content events of a write are
//! stamped with the write's scheduled time. Nothing but the write being sent is held in memory.

use super::batch::{self, Write};
use super::group::send_group;
use super::plan::plan;
use super::queue::Queue;
use super::split::Split;
use super::{sleep_until_ms, SSE};
use crate::http::body::Framing;
use crate::http::piece::Piece;
use crate::http::socket::Socket;
use crate::scenarios::chunks::{ChunkWriter, Event};
use crate::scenarios::settings::StreamSettings;

/// Sends the head with `Content-Length`, then each event at its deadline, one write each.
pub(super) async fn stream(
    socket: &mut Socket,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
    queue: Queue,
) -> std::io::Result<()> {
    let writes = || {
        let planned = plan(settings, settings.content_events(), true);
        let items = planned.map(|item| (item.at_ms, item.event));
        batch::writes(items, settings.batch, |event| matches!(event, Event::Content(_)))
    };
    let len_bytes = writes()
        .flat_map(|write| rendered(chunks, write))
        .map(|piece| piece.len_bytes())
        .sum();
    let framing = Framing::Length(len_bytes);
    // The stamps are times on the stream's clock, so the length holds whenever the slot comes.
    let Some((mut body, turn)) = queue.open(socket, framing, SSE, settings, chunks).await? else {
        return Ok(());
    };
    let chunks = &turn.chunks;
    let split = Split::of(settings);
    for write in writes() {
        sleep_until_ms(chunks.start, write.at_ms).await;
        send_group(&mut body, rendered(chunks, write), split).await?;
    }
    body.finish().await
}

/// The events of `write`, each rendered when pulled, stamped with the write's scheduled time.
fn rendered(chunks: &ChunkWriter, write: Write<Event>) -> impl Iterator<Item = Piece> + '_ {
    let at_ms = write.at_ms;
    write
        .items
        .into_iter()
        .map(move |event| chunks.sse_at(&event, at_ms))
}
