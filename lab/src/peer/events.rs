//! SSE events split on blank lines, and the little the peer reads from each: whether it is a comment,
//! whether `choices[0].delta.content` is a non-empty string, and the lab's `server_ms`.
//!
//! Cost: each byte is scanned once for event boundaries; each event's JSON is parsed once.

use serde_json::Value;

use super::PeerEvent;

/// Splits SSE events on blank lines (`\n\n` or `\r\n\r\n`), scanning each byte once.
#[derive(Debug, Default)]
pub(crate) struct EventSplitter {
    buffer: Vec<u8>,
    scanned: usize,
}

impl EventSplitter {
    /// Adds `bytes` and calls `emit` for every event they complete (its `arrival_ms` left at 0).
    pub(crate) fn feed(&mut self, bytes: &[u8], mut emit: impl FnMut(PeerEvent)) {
        self.buffer.extend_from_slice(bytes);
        let mut start = 0;
        let mut i = self.scanned;
        while let Some(offset) = self.buffer[i..].iter().position(|&b| b == b'\n') {
            let nl = i + offset;
            let end = match &self.buffer[nl + 1..] {
                [b'\n', ..] => nl + 2,
                [b'\r', b'\n', ..] => nl + 3,
                // Too few bytes yet to tell whether a blank line follows: look again next time.
                [] | [b'\r'] => {
                    i = nl;
                    break;
                }
                _ => {
                    i = nl + 1;
                    continue;
                }
            };
            emit(parse_event(&self.buffer[start..nl]));
            start = end;
            i = end;
        }
        if !self.buffer[i..].contains(&b'\n') {
            i = self.buffer.len();
        }
        self.buffer.drain(..start);
        self.scanned = i - start;
    }

    /// Bytes after the last complete event.
    pub(crate) fn pending(&self) -> usize {
        self.buffer.len()
    }
}

fn parse_event(event: &[u8]) -> PeerEvent {
    let text = String::from_utf8_lossy(event);
    let mut data = String::new();
    let mut comment = true;
    for line in text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)) {
        if line.starts_with(':') {
            continue;
        }
        comment = false;
        if let Some(value) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(value.strip_prefix(' ').unwrap_or(value));
        }
    }
    let json: Value = serde_json::from_str(&data).unwrap_or(Value::Null);
    let content = json
        .pointer("/choices/0/delta/content")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty());
    PeerEvent {
        arrival_ms: 0.0,
        server_ms: json.get("server_ms").and_then(Value::as_f64),
        content,
        comment,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(pieces: &[&[u8]]) -> (Vec<PeerEvent>, usize) {
        let mut splitter = EventSplitter::default();
        let mut out = Vec::new();
        for piece in pieces {
            splitter.feed(piece, |e| out.push(e));
        }
        (out, splitter.pending())
    }

    #[test]
    fn events_split_on_blank_lines_across_reads_lf_and_crlf() {
        let whole: &[u8] = b": keep-alive\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"server_ms\":1.5}\r\n\r\ndata: [DONE]\n\npartial";
        for cut in 0..whole.len() {
            let (events, pending) = split(&[&whole[..cut], &whole[cut..]]);
            assert_eq!(events.len(), 3, "cut at {cut}");
            assert!(events[0].comment && !events[0].content);
            assert!(events[1].content && events[1].server_ms == Some(1.5));
            assert!(!events[2].content && !events[2].comment);
            assert_eq!(pending, b"partial".len());
        }
    }
}
