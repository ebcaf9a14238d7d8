//! Sending one event in one write, deliberately in two (`split_utf8`, `split_events`), or in many small
//! ones (`echo_headers`).

use std::time::Duration;

use crate::http::body::BodyWriter;
use crate::http::piece::Piece;
use crate::scenarios::settings::{StreamSettings, ECHO_PIECE_BYTES};

/// Pause between the two writes of a `split_utf8` event.
const UTF8_GAP: Duration = Duration::from_millis(5);
/// Pause between the two writes of a `split_events` event.
const MIDDLE_GAP: Duration = Duration::from_millis(2);
/// Pause between the small writes of an `echo_headers` event (long enough for separate reads).
const PIECES_GAP: Duration = Duration::from_millis(3);

/// How an event is cut into writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Split {
    /// One write.
    None,
    /// Two writes 5 ms apart, cut inside the first multi-byte character (one write when there is none).
    Utf8,
    /// Two writes about 2 ms apart, cut in the middle of the event's bytes.
    Middle,
    /// Writes of [`ECHO_PIECE_BYTES`] about 3 ms apart (`echo_headers`: an echoed key split across reads).
    Pieces,
}

impl Split {
    /// The split the settings ask for; `split_events` wins over `split_utf8`.
    pub fn of(settings: &StreamSettings) -> Self {
        if settings.echo_headers {
            Self::Pieces
        } else if settings.split_events {
            Self::Middle
        } else if settings.split_utf8 {
            Self::Utf8
        } else {
            Self::None
        }
    }

    /// Where the first write ends, or `None` for a single write.
    pub fn cut(self, event: &Piece) -> Option<usize> {
        match self {
            Self::None => None,
            Self::Utf8 => event.position(|b| b >= 0xC0).map(|lead| lead + 1),
            Self::Middle => (event.len_bytes() >= 2).then_some(event.len_bytes() / 2),
            Self::Pieces => (event.len_bytes() > ECHO_PIECE_BYTES).then_some(ECHO_PIECE_BYTES),
        }
    }

    fn gap(self) -> Duration {
        match self {
            Self::Middle => MIDDLE_GAP,
            Self::Pieces => PIECES_GAP,
            Self::None | Self::Utf8 => UTF8_GAP,
        }
    }
}

/// Sends `event` in one write, or in two as `split` says.
pub(super) async fn send_event(
    body: &mut BodyWriter<'_>,
    event: &Piece,
    split: Split,
) -> std::io::Result<()> {
    if split == Split::Pieces {
        // The echo is a short text: held whole, then written a few bytes at a time.
        for (i, piece) in event.to_vec().chunks(ECHO_PIECE_BYTES).enumerate() {
            if i > 0 {
                tokio::time::sleep(split.gap()).await;
            }
            body.send(piece).await?;
        }
        return Ok(());
    }
    match split.cut(event) {
        Some(at) => {
            let (first, rest) = event.split_at(at);
            body.send_piece(&first).await?;
            tokio::time::sleep(split.gap()).await;
            body.send_piece(&rest).await
        }
        None => body.send_piece(event).await,
    }
}

#[cfg(test)]
mod tests {
    use super::Split;
    use crate::http::piece::Piece;

    fn piece(bytes: &[u8]) -> Piece {
        Piece::from(bytes.to_vec())
    }

    #[test]
    fn cuts_in_the_middle_or_inside_the_first_multibyte_character() {
        assert_eq!(Split::Middle.cut(&piece(b"data: abcd\n\n")), Some(6));
        assert_eq!(Split::Middle.cut(&piece(b"x")), None);
        assert_eq!(Split::Utf8.cut(&piece("a é".as_bytes())), Some(3));
        assert_eq!(Split::Utf8.cut(&piece(b"ascii")), None);
        assert_eq!(Split::None.cut(&piece(b"anything")), None);
        let mut padded = piece(b"data: {\"pad\":\"");
        padded.push_pad(100_000);
        padded.push("\",\"content\":\"é\"}".as_bytes());
        assert_eq!(Split::Utf8.cut(&padded), Some(14 + 100_000 + 14));
    }
}
