//! Modes that send events at their deadlines, one event per write: `stream` (with its keep-alive flood
//! and never-ending line, see [`super::flood`], its content events `batch` at a time, see
//! [`super::batch`], and its `reset_after` ending), `raw` and `stall`.

use std::time::Duration;

use super::batch;
use super::flood;
use super::group::send_group;
use super::plan::{plan, Planned};
use super::queue::Queue;
use super::split::{send_event, Split};
use super::{sleep_until_ms, SSE};
use crate::http::body::{BodyWriter, Ending, Framing};
use crate::http::piece::Piece;
use crate::http::socket::Socket;
use crate::scenarios::chunks::{ChunkWriter, Event};
use crate::scenarios::settings::StreamSettings;

/// How long a stalled stream holds the connection when the client does not give up.
const STALL_HOLD: Duration = Duration::from_secs(120);

/// A healthy stream: role, the content events at their deadlines (`batch` per write), finish, usage,
/// `[DONE]`. With `keepalive_bytes` the comments follow the role chunk at once; with `long_line_bytes`
/// the never-ending line takes the place of finish, usage and `[DONE]`, one cadence after the last
/// content event; with `reset_after` only that many content events leave and, when the next one would
/// be due, the connection is reset instead of finished.
pub(super) async fn stream(
    socket: &mut Socket,
    framing: Framing,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
    queue: Queue,
) -> std::io::Result<Ending> {
    let Some((mut body, turn)) = queue.open(socket, framing, SSE, settings, chunks).await? else {
        return Ok(Ending::Close);
    };
    let chunks = &turn.chunks;
    let events = settings.content_events();
    let sent_events = settings.reset_after.map_or(events, |n| n.min(events));
    let long_line = settings.long_line_bytes > 0;
    let tail = !long_line && settings.reset_after.is_none();
    let mut planned = plan(settings, sent_events, tail);
    let split = Split::of(settings);
    let lead: Vec<Planned> = planned
        .by_ref()
        .take(usize::from(settings.role_first))
        .collect();
    send_planned(&mut body, lead.into_iter(), split, chunks, 1).await?;
    if settings.keepalive_bytes > 0 {
        flood::keepalive(&mut body, settings.keepalive_bytes).await?;
    }
    send_planned(&mut body, planned, split, chunks, settings.batch).await?;
    if long_line {
        sleep_until_ms(chunks.start, settings.deadline_ms(events)).await;
        let start = flood::long_line_start(chunks);
        flood::send_long_line(&mut body, &start, settings.long_line_bytes).await?;
    }
    if settings.reset_after.is_some() {
        sleep_until_ms(chunks.start, settings.deadline_ms(sent_events)).await;
        // The body is left unfinished: no terminating chunk, and the caller resets the connection.
        return Ok(Ending::Reset);
    }
    linger(&mut body, settings).await;
    body.finish().await?;
    Ok(Ending::Close)
}

/// Plain token text with no SSE framing, one write per content event.
pub(super) async fn raw(
    socket: &mut Socket,
    framing: Framing,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
    queue: Queue,
) -> std::io::Result<()> {
    let content_type = if settings.raw_as_sse {
        SSE
    } else {
        "text/plain; charset=utf-8"
    };
    let opened = queue.open(socket, framing, content_type, settings, chunks).await?;
    let Some((mut body, turn)) = opened else {
        return Ok(());
    };
    let start = turn.chunks.start;
    let split = Split::of(settings);
    let deadlines = settings.deadlines().take(settings.content_events());
    for (index, at_ms) in deadlines.enumerate() {
        sleep_until_ms(start, at_ms).await;
        let text = settings.event_text(index);
        send_event(&mut body, &Piece::from(text.into_bytes()), split).await?;
    }
    body.finish().await
}

/// Role and `stall_after` content events, then silence until the client leaves or two minutes pass;
/// the body is never terminated.
pub(super) async fn stall(
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
    let planned = plan(settings, settings.stall_after, false);
    send_planned(&mut body, planned, Split::of(settings), chunks, 1).await?;
    let _ = tokio::time::timeout(STALL_HOLD, body.client_gone()).await;
    Ok(())
}

/// Keeps the response open `linger_ms` after its last write, or until the client leaves.
pub(super) async fn linger(body: &mut BodyWriter<'_>, settings: &StreamSettings) {
    if settings.linger_ms > 0.0 {
        let _ = tokio::time::timeout(Duration::from_secs_f64(settings.linger_ms / 1e3), body.client_gone()).await;
    }
}

/// Sends the planned events at their deadlines, content events `batch` per write (see
/// [`super::batch`]), each stamped when its write leaves; one write is held at a time.
async fn send_planned(
    body: &mut BodyWriter<'_>,
    planned: impl Iterator<Item = Planned>,
    split: Split,
    chunks: &ChunkWriter,
    batch: usize,
) -> std::io::Result<()> {
    let items = planned.map(|item| (item.at_ms, item.event));
    for write in batch::writes(items, batch, |event| matches!(event, Event::Content(_))) {
        sleep_until_ms(chunks.start, write.at_ms).await;
        // Owned events: a closure over `&Event` held across an await makes the future not `Send`.
        let events = write.items.into_iter().map(|event| chunks.sse(&event));
        send_group(body, events, split).await?;
    }
    Ok(())
}
