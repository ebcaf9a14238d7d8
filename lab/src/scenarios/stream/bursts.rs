//! `mode=bursts`: what a buffering proxy does to a healthy stream.
//!
//! Events are generated at their deadlines (and stamped then) but held; everything held leaves in ONE
//! write at every multiple of `burst_every_ms` after the request and/or as soon as `burst_bytes` are
//! held. Whatever is left goes out when the generation ends. Like a real proxy's buffer, the hold is
//! bounded: past [`super::group::MAX_HELD_BYTES`] of rendered events in memory (long padding does not
//! count, it is never held) the burst leaves early.

use super::group::MAX_HELD_BYTES;
use super::plan::plan;
use super::queue::Queue;
use super::{sleep_until_ms, SSE};
use crate::http::body::{BodyWriter, Framing};
use crate::http::piece::Piece;
use crate::http::socket::Socket;
use crate::scenarios::chunks::ChunkWriter;
use crate::scenarios::settings::StreamSettings;

/// Sends the head at once, then the events in bursts.
pub(super) async fn bursts(
    socket: &mut Socket,
    framing: Framing,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
    queue: Queue,
) -> std::io::Result<()> {
    let Some((mut body, turn)) = queue.open(socket, framing, SSE, settings, chunks).await? else {
        return Ok(());
    };
    let chunks = &turn.chunks;
    let every_ms = settings.bursts.every_ms.map(|ms| ms as f64);
    let mut next_release_ms = every_ms;
    let mut held = Piece::new();
    for item in plan(settings, settings.content_events(), true) {
        while let (Some(release_ms), Some(period_ms)) = (next_release_ms, every_ms) {
            if release_ms >= item.at_ms {
                break;
            }
            sleep_until_ms(chunks.start, release_ms).await;
            release(&mut body, &mut held).await?;
            next_release_ms = Some(release_ms + period_ms);
        }
        sleep_until_ms(chunks.start, item.at_ms).await;
        held.append(&chunks.sse(&item.event));
        let enough = settings
            .bursts
            .bytes
            .is_some_and(|limit| held.len_bytes() >= limit);
        if enough || held.held_bytes() >= MAX_HELD_BYTES {
            release(&mut body, &mut held).await?;
        }
    }
    release(&mut body, &mut held).await?;
    body.finish().await
}

/// Writes everything held in one write (nothing when nothing is held).
async fn release(body: &mut BodyWriter<'_>, held: &mut Piece) -> std::io::Result<()> {
    body.send_piece(held).await?;
    held.clear();
    Ok(())
}
