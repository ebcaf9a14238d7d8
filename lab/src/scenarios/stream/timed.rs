//! Modes that send events at their deadlines, one event per write: `stream` (with its keep-alive flood
//! and never-ending line, see [`super::flood`]), `raw` and `stall`.

use std::time::Duration;

use tokio::net::TcpStream;
use tokio::time::Instant;

use super::flood;
use super::plan::{plan, Planned};
use super::split::{send_event, Split};
use super::{sleep_until_ms, SSE};
use crate::http::body::{BodyWriter, Framing};
use crate::scenarios::chunks::ChunkWriter;
use crate::scenarios::passage::span_text;
use crate::scenarios::settings::StreamSettings;

/// How long a stalled stream holds the connection when the client does not give up.
const STALL_HOLD: Duration = Duration::from_secs(120);

/// A healthy stream: role, the content events at their deadlines, finish, usage, `[DONE]`. With
/// `keepalive_bytes` the comments follow the role chunk at once; with `long_line_bytes` the never-ending
/// line takes the place of finish, usage and `[DONE]`, one cadence after the last content event.
pub(super) async fn stream(
    socket: &mut TcpStream,
    framing: Framing,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
) -> std::io::Result<()> {
    let mut body = BodyWriter::start(socket, framing, 200, SSE, &settings.extra_headers()).await?;
    let events = settings.content_events();
    let long_line = settings.long_line_bytes > 0;
    let planned = plan(settings, events, !long_line);
    let split = Split::of(settings);
    let lead = usize::from(settings.role_first).min(planned.len());
    send_planned(&mut body, &planned[..lead], split, chunks).await?;
    if settings.keepalive_bytes > 0 {
        flood::keepalive(&mut body, settings.keepalive_bytes).await?;
    }
    send_planned(&mut body, &planned[lead..], split, chunks).await?;
    if long_line {
        let at_ms = settings.deadlines_ms(events + 1)[events];
        sleep_until_ms(chunks.start, at_ms).await;
        let line = flood::long_line(chunks, settings.long_line_bytes);
        flood::send_long_line(&mut body, &line).await?;
    }
    body.finish().await
}

/// Plain token text with no SSE framing, one write per content event.
pub(super) async fn raw(
    socket: &mut TcpStream,
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
    socket: &mut TcpStream,
    framing: Framing,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
) -> std::io::Result<()> {
    let mut body = BodyWriter::start(socket, framing, 200, SSE, &settings.extra_headers()).await?;
    let planned = plan(settings, settings.stall_after, false);
    send_planned(&mut body, &planned, Split::of(settings), chunks).await?;
    let _ = tokio::time::timeout(STALL_HOLD, body.client_gone()).await;
    Ok(())
}

/// Sends each planned event at its deadline, stamped when it leaves.
async fn send_planned(
    body: &mut BodyWriter<'_>,
    planned: &[Planned],
    split: Split,
    chunks: &ChunkWriter,
) -> std::io::Result<()> {
    for item in planned {
        sleep_until_ms(chunks.start, item.at_ms).await;
        send_event(body, &chunks.sse(&item.event), split).await?;
    }
    Ok(())
}
