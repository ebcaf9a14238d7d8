//! Sending one write of several events (a batch, a burst, a collected body's stretch): the events are
//! rendered one at a time into one piece that leaves in one write, except that a write may hold at
//! most [`MAX_HELD_BYTES`] in memory: past that it leaves as several writes back to back (the kernel
//! would cut it anyway; only a write of thousands of events at once ever gets there).

use super::split::{send_event, Split};
use crate::http::body::BodyWriter;
use crate::http::piece::{coalesce, Piece};

/// Most rendered bytes one write holds in memory before it goes out (padding runs do not count: they
/// are never held).
pub(super) const MAX_HELD_BYTES: usize = 1024 * 1024;

/// Sends `events` (already rendered, one piece each, pulled one at a time) as one write, cut where it
/// would hold more than [`MAX_HELD_BYTES`]; the last write is cut as `split` says.
pub(super) async fn send_group(
    body: &mut BodyWriter<'_>,
    events: impl Iterator<Item = Piece>,
    split: Split,
) -> std::io::Result<()> {
    let mut writes = coalesce(events, |piece| piece.held_bytes() >= MAX_HELD_BYTES).peekable();
    while let Some(piece) = writes.next() {
        if writes.peek().is_some() {
            body.send_piece(&piece).await?;
        } else {
            send_event(body, &piece, split).await?;
        }
    }
    Ok(())
}
