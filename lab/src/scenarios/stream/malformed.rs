//! `malformed` mode: good chunks mixed with broken JSON, invalid UTF-8 and a 1 MiB data line.
//!
//! The script, one item per cadence slot after `first_ms`: three good chunks, a chunk cut short, a good
//! chunk, a chunk missing its closing brace, a chunk whose content holds the bytes `0xff 0xfe`, two good
//! chunks, a valid chunk padded to a 1,048,576-byte line, three good chunks; then finish, usage, `[DONE]`.

use super::queue::Queue;
use super::split::{send_event, Split};
use super::{sleep_until_ms, SSE};
use crate::http::body::Framing;
use crate::http::piece::Piece;
use crate::http::socket::Socket;
use crate::scenarios::chunks::{ChunkWriter, Event};
use crate::scenarios::passage::token_text;
use crate::scenarios::settings::StreamSettings;

/// Length of the long data line, `data: ` included, line end excluded.
pub const LONG_LINE_BYTES: usize = 1_048_576;
/// Content events that carry text: nine good ones, the invalid-UTF-8 one and the long one.
const CONTENT_EVENTS: usize = 11;
const INVALID_MARKER: &str = "@INVALID@";

enum Item {
    Good(usize),
    Verbatim(&'static [u8]),
    InvalidUtf8,
    LongLine,
}

const SCRIPT: &[Item] = &[
    Item::Good(0),
    Item::Good(1),
    Item::Good(2),
    Item::Verbatim(b"data: {\"choices\":[{\"delta\":{\"content\":\"x\"\n\n"),
    Item::Good(3),
    Item::Verbatim(b"data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"y\"}}]\n\n"),
    Item::InvalidUtf8,
    Item::Good(4),
    Item::Good(5),
    Item::LongLine,
    Item::Good(6),
    Item::Good(7),
    Item::Good(8),
];

/// Sends the malformed script at the configured first-token delay and cadence.
pub(super) async fn malformed(
    socket: &mut Socket,
    framing: Framing,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
    queue: Queue,
) -> std::io::Result<()> {
    let Some((mut body, turn)) = queue.open(socket, framing, SSE, settings, chunks).await? else {
        return Ok(());
    };
    let mut chunks = turn.chunks.clone();
    chunks.usage.completion_tokens = CONTENT_EVENTS;
    if settings.role_first {
        body.send_piece(&chunks.sse(&Event::Role)).await?;
    }
    for (item, at_ms) in SCRIPT.iter().zip(settings.deadlines()) {
        sleep_until_ms(chunks.start, at_ms).await;
        let event = match item {
            Item::Good(index) => chunks.sse(&Event::Content(token_text(*index))),
            Item::Verbatim(bytes) => Piece::from(bytes.to_vec()),
            Item::InvalidUtf8 => invalid_utf8_event(&chunks),
            Item::LongLine => long_line_event(&chunks),
        };
        let split = match item {
            Item::Good(_) => Split::of(settings),
            _ => Split::None,
        };
        send_event(&mut body, &event, split).await?;
    }
    body.send_piece(&chunks.sse(&Event::Finish)).await?;
    if settings.usage {
        body.send_piece(&chunks.sse(&Event::Usage)).await?;
    }
    body.send_piece(&chunks.sse(&Event::Done)).await?;
    body.finish().await
}

/// A well-formed chunk whose content string contains the raw bytes `0xff 0xfe`.
fn invalid_utf8_event(chunks: &ChunkWriter) -> Piece {
    let mut event = chunks.sse(&Event::Content(format!(" bad{INVALID_MARKER}bytes")));
    event.replace_first(INVALID_MARKER.as_bytes(), &[0xff, 0xfe]);
    event
}

/// A valid content chunk padded so that its `data:` line is exactly [`LONG_LINE_BYTES`] long (the
/// padding is a run, never materialized).
fn long_line_event(chunks: &ChunkWriter) -> Piece {
    let event = Event::Content(" long".to_string());
    let server_ms = chunks.server_ms();
    // With a one-byte pad, so that the field exists; the rest of the padding is what is missing.
    let bare_len = "data: ".len() + chunks.json_with(&event, 1, server_ms).len();
    let pad_bytes = 1 + LONG_LINE_BYTES.saturating_sub(bare_len);
    let mut piece = Piece::new();
    chunks.render(&event, pad_bytes, server_ms, &mut piece);
    piece
}
