//! Modes that send events at their deadlines, one event per write: `stream` (with its keep-alive flood
//! and never-ending line, see [`super::flood`], its content events `batch` at a time, see
//! [`super::batch`], and its `reset_after` ending), `raw` and `stall`.

use std::time::Duration;

use tokio::time::Instant;

use super::batch;
use super::flood;
use super::plan::{plan, Planned};
use super::split::{send_event, Split};
use super::{sleep_until_ms, SSE};
use crate::http::socket::Socket;
use crate::http::body::{BodyWriter, Ending, Framing};
use crate::scenarios::chunks::{ChunkWriter, Event};
use crate::scenarios::passage::span_text;
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
) -> std::io::Result<Ending> {
    let mut body = BodyWriter::start(socket, framing, 200, SSE, &settings.extra_headers()).await?;
    let events = settings.content_events();
    let sent_events = settings.reset_after.map_or(events, |n| n.min(events));
    let long_line = settings.long_line_bytes > 0;
    let tail = !long_line && settings.reset_after.is_none();
    let planned = plan(settings, sent_events, tail);
    let split = Split::of(settings);
    let lead = usize::from(settings.role_first).min(planned.len());
    send_planned(&mut body, &planned[..lead], split, chunks, 1).await?;
    if settings.keepalive_bytes > 0 {
        flood::keepalive(&mut body, settings.keepalive_bytes).await?;
    }
    send_planned(&mut body, &planned[lead..], split, chunks, settings.batch).await?;
    if long_line {
        sleep_until_ms(chunks.start, next_deadline_ms(settings, events)).await;
        let line = flood::long_line(chunks, settings.long_line_bytes);
        flood::send_long_line(&mut body, &line).await?;
    }
    if settings.reset_after.is_some() {
        sleep_until_ms(chunks.start, next_deadline_ms(settings, sent_events)).await;
        // The body is left unfinished: no terminating chunk, and the caller resets the connection.
        return Ok(Ending::Reset);
    }
    body.finish().await?;
    Ok(Ending::Close)
}

/// When content event `index` is (or would be) due, in ms after the request.
fn next_deadline_ms(settings: &StreamSettings, index: usize) -> f64 {
    let deadlines_ms = settings.deadlines_ms(index + 1);
    deadlines_ms.last().copied().unwrap_or(settings.first_ms)
}

/// Plain token text with no SSE framing, one write per content event.
pub(super) async fn raw(
    socket: &mut Socket,
    framing: Framing,
    settings: &StreamSettings,
    start: Instant,
) -> std::io::Result<()> {
    let content_type = if settings.raw_as_sse {
        SSE
    } else {
        "text/plain; charset=utf-8"
    };
    let mut body = BodyWriter::start(
        socket,
        framing,
        200,
        content_type,
        &settings.extra_headers(),
    )
    .await?;
    let split = Split::of(settings);
    for (index, at_ms) in settings
        .deadlines_ms(settings.content_events())
        .into_iter()
        .enumerate()
    {
        sleep_until_ms(start, at_ms).await;
        let text = span_text(settings.event_tokens(index));
        send_event(&mut body, text.as_bytes(), split).await?;
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
) -> std::io::Result<()> {
    let mut body = BodyWriter::start(socket, framing, 200, SSE, &settings.extra_headers()).await?;
    let planned = plan(settings, settings.stall_after, false);
    send_planned(&mut body, &planned, Split::of(settings), chunks, 1).await?;
    let _ = tokio::time::timeout(STALL_HOLD, body.client_gone()).await;
    Ok(())
}

/// Sends the planned events at their deadlines, content events `batch` per write (see
/// [`super::batch`]), each stamped when its write leaves.
async fn send_planned(
    body: &mut BodyWriter<'_>,
    planned: &[Planned],
    split: Split,
    chunks: &ChunkWriter,
    batch: usize,
) -> std::io::Result<()> {
    let items = planned.iter().map(|item| (item.at_ms, &item.event));
    for write in batch::writes(items, batch, |event| matches!(event, Event::Content(_))) {
        sleep_until_ms(chunks.start, write.at_ms).await;
        let bytes: Vec<u8> = write
            .items
            .iter()
            .flat_map(|event| chunks.sse(event))
            .collect();
        send_event(body, &bytes, split).await?;
    }
    Ok(())
}
