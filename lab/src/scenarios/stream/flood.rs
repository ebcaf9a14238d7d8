//! Bytes that are not events, for the page's memory bounds: a flood of SSE keep-alive comments before
//! the first token (`keepalive_bytes`) and a `data:` line that never ends (`long_line_bytes`).
//!
//! Both are written as fast as the client takes them, in pieces of a few KB; neither is an event, so the
//! one-`write_all`-per-event rule does not apply (each piece is still one write and one HTTP chunk).

use crate::http::body::BodyWriter;
use crate::scenarios::chunks::{ChunkWriter, Event};

/// One SSE keep-alive comment, as proxies and servers send them.
pub const KEEPALIVE_COMMENT: &[u8] = b": keep-alive\n\n";
/// Size of one write of the keep-alive flood (rounded down to whole comments).
pub const KEEPALIVE_WRITE_BYTES: usize = 4096;
/// Size of one write of the never-ending line.
pub const LONG_LINE_WRITE_BYTES: usize = 64 * 1024;

/// Sends at least `len_bytes` bytes of keep-alive comments (whole comments), ~4 KB per write.
pub(super) async fn keepalive(body: &mut BodyWriter<'_>, len_bytes: usize) -> std::io::Result<()> {
    let mut comments_left = len_bytes.div_ceil(KEEPALIVE_COMMENT.len());
    let per_write = (KEEPALIVE_WRITE_BYTES / KEEPALIVE_COMMENT.len()).max(1);
    let full = KEEPALIVE_COMMENT.repeat(per_write);
    while comments_left > 0 {
        let count = comments_left.min(per_write);
        body.send(&full[..count * KEEPALIVE_COMMENT.len()]).await?;
        comments_left -= count;
    }
    Ok(())
}

/// The first `len_bytes` bytes of a line that starts like a content chunk (`data: {"id":…,"content":"`)
/// and goes on with `x`; no line end.
pub fn long_line(chunks: &ChunkWriter, len_bytes: usize) -> Vec<u8> {
    const MARK: &str = "\u{1}";
    let json = chunks.json(&Event::Content(MARK.to_string()));
    let open = json.find("\\u0001").unwrap_or(json.len());
    let mut line = format!("data: {}", &json[..open]).into_bytes();
    line.truncate(len_bytes);
    line.resize(len_bytes, b'x');
    line
}

/// Sends the never-ending line in pieces of [`LONG_LINE_WRITE_BYTES`].
pub(super) async fn send_long_line(body: &mut BodyWriter<'_>, line: &[u8]) -> std::io::Result<()> {
    for piece in line.chunks(LONG_LINE_WRITE_BYTES) {
        body.send(piece).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::chunks::Usage;

    #[test]
    fn long_line_starts_like_a_chunk_has_the_length_and_no_line_end() {
        let chunks = ChunkWriter {
            id: "chatcmpl-lab-9".into(),
            created: 1,
            model: "m".into(),
            pad: String::new(),
            usage: Usage { prompt_tokens: 1, completion_tokens: 1, cache_hit_tokens: 0 },
            start: tokio::time::Instant::now(),
            stamp: true,
        };
        let line = long_line(&chunks, 1000);
        assert_eq!(line.len(), 1000);
        assert!(line.starts_with(b"data: {\"id\":\"chatcmpl-lab-9\""));
        let text = String::from_utf8(line).unwrap();
        assert!(text.contains(r#""delta":{"content":"xxx"#), "{text}");
        assert!(!text.contains('\n') && !text.contains('\r'));
        assert_eq!(long_line(&chunks, 3), b"dat");
    }
}
