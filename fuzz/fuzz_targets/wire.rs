//! The wire: bytes cut into reads at fuzz-chosen points must parse exactly as the same bytes in one read,
//! in every framing (SSE events, lines, UTF-8 text, framing detection, and the analyzer's text), without a
//! panic. Input: byte 0 picks the Content-Type and the largest chunk, bytes 1..5 seed the cuts, the rest
//! is the body.

#![no_main]

use libfuzzer_sys::fuzz_target;
use streamscope_core::analysis::Analyzer;
use streamscope_core::wire::framing::{detect, FramingDetector};
use streamscope_core::wire::lines::LineSplitter;
use streamscope_core::wire::sse::{SseItem, SseParser};
use streamscope_core::wire::utf8::{decode_lossy, Utf8Decoder};
use streamscope_fuzz::{split, Rng};

const CONTENT_TYPES: [Option<&str>; 5] = [
    Some("text/event-stream"),
    Some("application/x-ndjson"),
    Some("text/plain"),
    Some("application/json"),
    None,
];

fn sse(reads: &[&[u8]]) -> (Vec<SseItem>, [usize; 5]) {
    let mut p = SseParser::new();
    let mut items = Vec::new();
    for r in reads {
        items.extend(p.push(r));
    }
    items.extend(p.finish());
    let counts = [
        p.replaced_utf8_sequences(),
        p.longest_line_bytes(),
        p.longest_event_bytes(),
        p.cut_events(),
        p.discarded_data_lines(),
    ];
    (items, counts)
}

fn lines(reads: &[&[u8]]) -> (Vec<Vec<u8>>, Option<Vec<u8>>, usize) {
    let mut s = LineSplitter::new();
    let mut out = Vec::new();
    for r in reads {
        s.feed(r);
        while let Some(l) = s.next_line() {
            out.push(l.to_vec());
        }
    }
    let rest = s.take_rest();
    (out, rest, s.longest_line_bytes())
}

fn utf8(reads: &[&[u8]]) -> (String, usize) {
    let mut d = Utf8Decoder::new();
    let mut out = String::new();
    for r in reads {
        out.push_str(&d.push(r));
    }
    out.push_str(&d.finish());
    (out, d.replaced_sequences())
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (seed, body) = rest.split_at(rest.len().min(4));
    let mut rng = Rng::new(seed);
    let max_len = [1, 2, 3, 7, 64, 4096][usize::from(mode >> 4) % 6];
    let reads = split(body, &mut rng, max_len);
    let whole: &[&[u8]] = &[body];

    assert_eq!(sse(&reads), sse(whole), "SSE depends on the cuts");
    assert_eq!(lines(&reads), lines(whole), "lines depend on the cuts");
    let (text, replaced) = utf8(&reads);
    let (lossy, lossy_replaced) = decode_lossy(body);
    assert_eq!(
        (text.as_str(), replaced),
        (lossy.as_ref(), lossy_replaced),
        "UTF-8 depends on the cuts"
    );

    let ct = CONTENT_TYPES[usize::from(mode) % CONTENT_TYPES.len()];
    let mut detector = FramingDetector::new(ct);
    for r in &reads {
        detector.push(r);
    }
    assert_eq!(
        detector.finish(),
        detect(ct, body, true),
        "framing depends on the cuts"
    );
    assert!(detector.bytes_examined() <= body.len() as u64 + 3);

    let analyze = |reads: &[&[u8]]| {
        let mut a = Analyzer::new(ct);
        for (i, r) in reads.iter().enumerate() {
            a.push(i as f64, r);
        }
        a.finish(reads.len() as f64);
        a.into_analysis()
    };
    let (cut, one) = (analyze(&reads), analyze(whole));
    assert_eq!(
        (
            &cut.text,
            &cut.reasoning_text,
            cut.framing,
            cut.dialect,
            cut.saw_done,
            &cut.finish_reason,
            &cut.usage
        ),
        (
            &one.text,
            &one.reasoning_text,
            one.framing,
            one.dialect,
            one.saw_done,
            &one.finish_reason,
            &one.usage
        ),
        "the analysis depends on the cuts"
    );
    assert_eq!(
        (cut.malformed_payloads, cut.stream_error_count),
        (one.malformed_payloads, one.stream_error_count)
    );
});
