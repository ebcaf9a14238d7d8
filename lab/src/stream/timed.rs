//! Modes that send events at their deadlines: `stream`, `raw` and `stall`.

use std::time::Duration;

use tokio::net::TcpStream;
use tokio::time::Instant;

use super::{send_event, sleep_until_ms, SSE};
use crate::body::{BodyWriter, Framing};
use crate::chunks::{ChunkWriter, Event};
use crate::passage::token_text;
use crate::settings::StreamSettings;

/// How long a stalled stream holds the connection when the client does not give up.
const STALL_HOLD: Duration = Duration::from_secs(120);

/// A healthy stream: role, one content event per token at `first_ms + i * cadence_ms`, finish, usage, `[DONE]`.
pub(super) async fn stream(
    socket: &mut TcpStream,
    framing: Framing,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
) -> std::io::Result<()> {
    let mut body = BodyWriter::start(socket, framing, 200, SSE).await?;
    send_role_and_tokens(&mut body, settings, chunks, settings.tokens).await?;
    if settings.tokens == 0 {
        sleep_until_ms(chunks.start, settings.first_ms).await;
    }
    body.send(&chunks.sse(&Event::Finish)).await?;
    if settings.usage {
        body.send(&chunks.sse(&Event::Usage)).await?;
    }
    body.send(&chunks.sse(&Event::Done)).await?;
    body.finish().await
}

/// Plain token text with no SSE framing, one write per token.
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
    let mut body = BodyWriter::start(socket, framing, 200, content_type).await?;
    for index in 0..settings.tokens {
        sleep_until_ms(start, settings.content_at_ms(index)).await;
        send_event(&mut body, token_text(index).as_bytes(), settings.split_utf8).await?;
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
    let mut body = BodyWriter::start(socket, framing, 200, SSE).await?;
    send_role_and_tokens(&mut body, settings, chunks, settings.stall_after).await?;
    let _ = tokio::time::timeout(STALL_HOLD, body.client_gone()).await;
    Ok(())
}

/// The role chunk (when asked for), then `count` content events, each at its deadline from the start.
async fn send_role_and_tokens(
    body: &mut BodyWriter<'_>,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
    count: usize,
) -> std::io::Result<()> {
    if settings.role_first {
        send_event(body, &chunks.sse(&Event::Role), settings.split_utf8).await?;
    }
    for index in 0..count {
        sleep_until_ms(chunks.start, settings.content_at_ms(index)).await;
        send_event(body, &chunks.sse(&Event::Content(token_text(index))), settings.split_utf8).await?;
    }
    Ok(())
}
