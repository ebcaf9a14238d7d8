//! The work measured on streamscope-core, the same natively (criterion) and in the browser (the wasm
//! test): framing alone (SSE events out of the reads) and the full analysis (framing, dialect, content
//! extraction: what the page runs on every read). Each returns a [`Tally`] of what it found, so every
//! contender can be checked to have done the same work and the optimiser cannot drop it.

use streamscope_core::wire::sse::{SseItem, SseParser, SseRef};
use streamscope_core::Analyzer;

/// The Content-Type the stream is analysed under.
pub const CONTENT_TYPE: &str = "text/event-stream";

/// What one pass over the stream found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Framing: SSE events. Analysis: content events (chunks with non-empty text).
    pub events: usize,
    /// Framing: bytes of event data. Analysis: bytes of answer text.
    pub bytes: usize,
}

/// Core's framing, the fast path: [`SseParser::push_with`], events borrowed.
pub fn core_framing(reads: &[&[u8]]) -> Tally {
    let mut p = SseParser::new();
    let mut tally = Tally::default();
    let mut count = |item: SseRef<'_>| {
        if let SseRef::Event { data, .. } = item {
            tally.events += 1;
            tally.bytes += data.len();
        }
    };
    for read in reads {
        p.push_with(read, &mut count);
    }
    p.finish_with(&mut count);
    tally
}

/// Core's framing, the owned path: [`SseParser::push`], a `Vec` of owned items per read.
pub fn core_framing_owned(reads: &[&[u8]]) -> Tally {
    let mut p = SseParser::new();
    let mut tally = Tally::default();
    let mut count = |items: Vec<SseItem>| {
        for item in items {
            if let SseItem::Event { data, .. } = item {
                tally.events += 1;
                tally.bytes += data.len();
            }
        }
    };
    for read in reads {
        count(p.push(read));
    }
    count(p.finish());
    tally
}

/// Core's full analysis ([`Analyzer::new`], the page's path; [`Analyzer::new_reference`] when
/// `reference`), read `i` stamped at `i` ms; the tally is of content events and answer text.
pub fn core_analysis(reads: &[&[u8]], reference: bool) -> Tally {
    if reference {
        analyse(Analyzer::new_reference(Some(CONTENT_TYPE)), reads)
    } else {
        analyse(Analyzer::new(Some(CONTENT_TYPE)), reads)
    }
}

fn analyse<const REFERENCE: bool>(mut a: Analyzer<REFERENCE>, reads: &[&[u8]]) -> Tally {
    for (i, read) in reads.iter().enumerate() {
        a.push(i as f64, read);
    }
    a.finish(reads.len() as f64);
    let analysis = a.analysis();
    Tally { events: analysis.content_event_count, bytes: analysis.text.len() }
}
