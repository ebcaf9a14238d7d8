//! Bytes that are not events, for the page's memory bounds: a flood of SSE keep-alive comments before
//! the first token (`keepalive_bytes`) and a `data:` line that never ends (`long_line_bytes`).
//!
//! Both are written as fast as the client takes them, in pieces of a few KB; neither is an event, so the
//! one-`write_all`-per-event rule does not apply (each piece is still one write and one HTTP chunk).
//! Neither is ever held whole: each piece is made just before its write.

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

/// How the never-ending line starts: like a content chunk (`data: {"id":…,"content":"`); the line goes
/// on with `x` (see [`long_line_window`]).
pub fn long_line_start(chunks: &ChunkWriter) -> Vec<u8> {
    const MARK: &str = "\u{1}";
    let json = chunks.json(&Event::Content(MARK.to_string()));
    let open = json.find("\\u0001").unwrap_or(json.len());
    format!("data: {}", &json[..open]).into_bytes()
}

/// Bytes `range` of a line of `len_bytes` bytes that begins with `start` (cut short if the line is)
/// and goes on with `x`; no line end.
pub fn long_line_window(start: &[u8], len_bytes: usize, range: std::ops::Range<usize>) -> Vec<u8> {
    let end = range.end.min(len_bytes);
    let begin = range.start.min(end);
    let from_start = start.get(begin..end.min(start.len())).unwrap_or_default();
    let mut out = Vec::with_capacity(end - begin);
    out.extend_from_slice(from_start);
    out.resize(end - begin, b'x');
    out
}

/// Sends the never-ending line of `len_bytes` bytes in pieces of [`LONG_LINE_WRITE_BYTES`], each made
/// just before its write.
pub(super) async fn send_long_line(
    body: &mut BodyWriter<'_>,
    start: &[u8],
    len_bytes: usize,
) -> std::io::Result<()> {
    for from in (0..len_bytes).step_by(LONG_LINE_WRITE_BYTES) {
        let window = from..from + LONG_LINE_WRITE_BYTES;
        body.send(&long_line_window(start, len_bytes, window)).await?;
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
            pad_bytes: 0,
            usage: Usage { prompt_tokens: 1, completion_tokens: 1, cache_hit_tokens: 0, style: Default::default() },
            start: tokio::time::Instant::now(),
            stamp: true,
            filter: None,
            tool_call: false,
        };
        let start = long_line_start(&chunks);
        let line = long_line_window(&start, 1000, 0..usize::MAX);
        assert_eq!(line.len(), 1000);
        assert!(line.starts_with(b"data: {\"id\":\"chatcmpl-lab-9\""));
        let text = String::from_utf8(line).unwrap();
        assert!(text.contains(r#""delta":{"content":"xxx"#), "{text}");
        assert!(!text.contains('\n') && !text.contains('\r'));
        assert_eq!(long_line_window(&start, 3, 0..10), b"dat");
        let pieces: Vec<u8> = (0..1000)
            .step_by(7)
            .flat_map(|from| long_line_window(&start, 1000, from..from + 7))
            .collect();
        assert_eq!(pieces, text.as_bytes(), "windows add up to the line");
        assert!(long_line_window(&start, 10, 20..30).is_empty());
    }
}
