//! [`Receiver`]: what a client makes of the bytes its `recv()` calls returned, one call at a time: the
//! response head, the body with its framing removed, the SSE events each call completed and when.
//!
//! It does no I/O, so every client that can say when each of its reads returned shares it: the socket
//! peer ([`super::run`]) feeds it from `TcpStream::read`, the curl peer ([`super::curl`]) from the
//! `<= Recv` records of curl's `--trace`.

use super::body::BodyDecoder;
use super::events::EventSplitter;
use super::{BodyRead, PeerEvent, PeerRead, PeerReport};

/// Turns timed reads into a [`PeerReport`].
#[derive(Debug)]
pub struct Receiver {
    head: Vec<u8>,
    body: Option<BodyDecoder>,
    events: EventSplitter,
    payload: Vec<u8>,
    keep_body: bool,
    report: PeerReport,
}

impl Receiver {
    /// A receiver for one response; with `keep_body` every read's body bytes are kept
    /// ([`PeerReport::body_reads`]).
    pub fn new(keep_body: bool) -> Self {
        Self {
            head: Vec::new(),
            body: None,
            events: EventSplitter::default(),
            payload: Vec::new(),
            keep_body,
            report: PeerReport::default(),
        }
    }

    /// One read that returned `bytes` at `at_ms`. `Ok(true)` once the body is complete (its last chunk
    /// or `Content-Length` bytes seen); an error for a malformed response head.
    pub fn recv(&mut self, at_ms: f64, bytes: &[u8]) -> Result<bool, String> {
        let mut read = PeerRead { at_ms, len_bytes: bytes.len(), events: 0, content_events: 0 };
        let mut rest = bytes;
        if self.body.is_none() {
            self.head.extend_from_slice(bytes);
            let Some(end) = find(&self.head, b"\r\n\r\n").map(|i| i + 4) else {
                self.report.reads.push(read);
                return Ok(false);
            };
            self.report.headers_ms = Some(at_ms);
            let (status, headers, decoder) = parse_head(&self.head[..end])?;
            self.report.status = status;
            self.report.headers = headers;
            self.body = Some(decoder);
            let already = self.head.len() - end;
            rest = &bytes[bytes.len() - already..];
        }
        let decoder = self.body.as_mut().expect("head parsed");
        self.payload.clear();
        decoder.feed(rest, &mut self.payload);
        let report = &mut self.report;
        if !self.payload.is_empty() {
            report.ttfb_ms.get_or_insert(at_ms);
            if self.keep_body {
                report.body_reads.push(BodyRead { at_ms, bytes: self.payload.clone() });
            }
        }
        report.body_bytes += self.payload.len();
        self.events.feed(&self.payload, |event| {
            read.events += 1;
            read.content_events += usize::from(event.content);
            if event.content && report.ttft_ms.is_none() {
                report.ttft_ms = Some(at_ms);
            }
            report.events.push(PeerEvent { arrival_ms: at_ms, ..event });
        });
        report.reads.push(read);
        Ok(decoder.done())
    }

    /// The report, the response having ended at `total_ms` (`error`: what went wrong, if anything; a
    /// response that never completed its head is an error too).
    pub fn finish(mut self, total_ms: f64, error: Option<String>) -> PeerReport {
        self.report.total_ms = Some(total_ms);
        self.report.trailing_bytes = self.events.pending();
        self.report.error = error.or_else(|| {
            self.body.is_none().then(|| "the connection closed before the response head".to_string())
        });
        self.report
    }
}

type Head = (u16, Vec<(String, String)>, BodyDecoder);

/// Status, headers (names lower-cased, in order) and the body's framing, from a complete head.
fn parse_head(head: &[u8]) -> Result<Head, String> {
    let text = String::from_utf8_lossy(head);
    let mut lines = text.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or("malformed status line")?;
    let mut decoder = BodyDecoder::UntilClose;
    let mut headers = Vec::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        if name == "transfer-encoding" && value.eq_ignore_ascii_case("chunked") {
            decoder = BodyDecoder::chunked();
        } else if name == "content-length" && !matches!(decoder, BodyDecoder::Chunked(_)) {
            decoder = BodyDecoder::Length(value.parse().map_err(|_| "bad Content-Length")?);
        }
        headers.push((name, value.to_string()));
    }
    Ok((status, headers, decoder))
}

pub(crate) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

    fn chunk(data: &str) -> Vec<u8> {
        format!("{:x}\r\n{data}\r\n", data.len()).into_bytes()
    }

    fn content(text: &str, server_ms: f64) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}],\"server_ms\":{server_ms}}}\n\n")
    }

    #[test]
    fn a_read_holding_the_head_and_an_event_times_both_and_keeps_only_body_bytes() {
        let mut receiver = Receiver::new(true);
        let mut first = HEAD[..20].to_vec();
        assert!(!receiver.recv(1.0, &first).unwrap());
        first = [&HEAD[20..], &chunk(&content("a", 0.5))[..]].concat();
        assert!(!receiver.recv(2.0, &first).unwrap());
        let last = [&chunk(&content("b", 1.5))[..], b"0\r\n\r\n"].concat();
        assert!(receiver.recv(3.0, &last).unwrap(), "the last chunk ends the body");
        let report = receiver.finish(3.5, None);
        assert_eq!((report.status, report.headers_ms, report.ttfb_ms, report.ttft_ms), (200, Some(2.0), Some(2.0), Some(2.0)));
        assert_eq!(report.headers[0], ("content-type".to_string(), "text/event-stream".to_string()));
        assert_eq!(report.reads.len(), 3);
        assert_eq!(report.content_events_per_read(), vec![1, 1]);
        let kept: Vec<(f64, String)> =
            report.body_reads.iter().map(|r| (r.at_ms, String::from_utf8(r.bytes.clone()).unwrap())).collect();
        assert_eq!(kept, vec![(2.0, content("a", 0.5)), (3.0, content("b", 1.5))]);
        assert_eq!(report.events.iter().map(|e| (e.arrival_ms, e.server_ms)).collect::<Vec<_>>(), vec![(2.0, Some(0.5)), (3.0, Some(1.5))]);
        assert_eq!((report.total_ms, report.error), (Some(3.5), None));
    }

    #[test]
    fn no_head_is_an_error_and_body_bytes_are_not_kept_unless_asked() {
        let mut receiver = Receiver::new(false);
        receiver.recv(1.0, b"HTTP/1.1 200 OK\r\n").unwrap();
        assert!(receiver.finish(2.0, None).error.unwrap().contains("before the response head"));
        let mut receiver = Receiver::new(false);
        receiver.recv(1.0, &[HEAD, &chunk(&content("a", 0.5))[..]].concat()).unwrap();
        let report = receiver.finish(2.0, None);
        assert!(report.body_reads.is_empty() && report.body_bytes > 0 && report.error.is_none());
    }
}
