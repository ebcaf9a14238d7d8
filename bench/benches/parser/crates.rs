//! The same work done with the SSE crates people use: framing alone, and framing + `serde_json` of
//! `choices[0].delta.content` (the usual client: a typed, borrowing `Deserialize` of just that field,
//! cheaper than a `serde_json::Value`). The async crates are polled over an always-ready stream of the
//! reads with a no-op waker, so no runtime is measured.

use std::borrow::Cow;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use eventsource_stream::Eventsource;
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use sse_core::{SseDecoder, SseEvent};
use sse_stream::SseByteStream;
use streamscope_bench::work::Tally;

/// A chat chunk, only as far as `choices[0].delta.content`.
#[derive(Deserialize)]
struct Chunk<'a> {
    #[serde(borrow, default)]
    choices: Vec<Choice<'a>>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(borrow, default)]
    delta: Option<Delta<'a>>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(borrow, default)]
    content: Option<Cow<'a, str>>,
}

/// What a framing-only pass counts: events and their data bytes.
#[derive(Default)]
pub struct Framing(pub Tally);

impl Framing {
    fn event(&mut self, data: &str) {
        self.0.events += 1;
        self.0.bytes += data.len();
    }
}

/// What a framing + content pass keeps: the answer text and the number of chunks that carried some.
#[derive(Default)]
pub struct Content {
    text: String,
    events: usize,
}

impl Content {
    fn event(&mut self, data: &str) {
        if data == "[DONE]" {
            return;
        }
        let Ok(chunk) = serde_json::from_str::<Chunk>(data) else { return };
        let content = chunk.choices.first().and_then(|c| c.delta.as_ref()).and_then(|d| d.content.as_deref());
        if let Some(c) = content.filter(|c| !c.is_empty()) {
            self.events += 1;
            self.text.push_str(c);
        }
    }

    fn tally(self) -> Tally {
        Tally { events: self.events, bytes: self.text.len() }
    }
}

/// Polls an always-ready stream to its end.
fn drain<S: Stream + Unpin>(mut s: S, mut on_item: impl FnMut(S::Item)) {
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        match Pin::new(&mut s).poll_next(&mut cx) {
            Poll::Ready(Some(item)) => on_item(item),
            Poll::Ready(None) => return,
            Poll::Pending => unreachable!("the reads are always ready"),
        }
    }
}

/// The reads as the byte stream the async crates take.
fn byte_stream<'a>(reads: &'a [&'a [u8]]) -> impl Stream<Item = Result<&'a [u8], Infallible>> + Unpin + 'a {
    stream::iter(reads.iter().map(|r| Ok(*r)))
}

/// `sse-core`: its synchronous `SseDecoder` over each read.
pub fn sse_core(reads: &[&[u8]], mut on_data: impl FnMut(&str)) {
    let mut decoder = SseDecoder::new();
    for read in reads {
        let mut buf: &[u8] = read;
        while let Some(event) = decoder.next(&mut buf) {
            if let Ok(SseEvent::Message(m)) = event {
                on_data(&m.data);
            }
        }
    }
}

/// `sse-stream`: `SseByteStream` over the reads.
pub fn sse_stream(reads: &[&[u8]], mut on_data: impl FnMut(&str)) {
    drain(SseByteStream::new(byte_stream(reads)), |event| {
        if let Ok(sse_stream::Sse { data: Some(data), .. }) = event {
            on_data(&data);
        }
    });
}

/// `eventsource-stream`: `.eventsource()` over the reads.
pub fn eventsource_stream(reads: &[&[u8]], mut on_data: impl FnMut(&str)) {
    drain(byte_stream(reads).eventsource(), |event| {
        if let Ok(e) = event {
            on_data(&e.data);
        }
    });
}

/// A crate's parser, as one of the functions above.
pub type Parser = fn(&[&[u8]], &mut dyn FnMut(&str));

/// The crates compared with, by name.
pub const CRATES: [(&str, Parser); 3] = [
    ("sse-core", |r, f| sse_core(r, f)),
    ("sse-stream", |r, f| sse_stream(r, f)),
    ("eventsource-stream", |r, f| eventsource_stream(r, f)),
];

/// Framing alone with `parser`.
pub fn framing(parser: Parser, reads: &[&[u8]]) -> Tally {
    let mut f = Framing::default();
    parser(reads, &mut |d| f.event(d));
    f.0
}

/// Framing + `serde_json` of `delta.content` with `parser`.
pub fn content(parser: Parser, reads: &[&[u8]]) -> Tally {
    let mut c = Content::default();
    parser(reads, &mut |d| c.event(d));
    c.tally()
}
