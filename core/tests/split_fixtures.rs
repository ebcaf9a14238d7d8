//! Recorded streams parse identically however the network splits them into reads: every fixture (every
//! dialect: OpenAI chat and Responses, Anthropic, Gemini, Ollama chat and generate, SSE text, raw text)
//! split at every single byte boundary, and at arbitrary sets of boundaries (proptest). What each
//! dialect fixture parses to is checked in `dialect_fixtures.rs`.

use proptest::prelude::*;
use streamscope_core::{StopReason};
use streamscope_core::wire::sse::SseParser;
use streamscope_core::dialect::usage::Usage;
use streamscope_core::{Analyzer, Dialect, EventKind, Framing};

const SSE: &str = "text/event-stream; charset=utf-8";

struct Fixture {
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

impl std::fmt::Debug for Fixture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

const DEEPSEEK_CRLF: Fixture = Fixture {
    name: "openai_deepseek_crlf.sse",
    content_type: SSE,
    bytes: include_bytes!("fixtures/openai_deepseek_crlf.sse"),
};
const MIXED_ENDINGS: Fixture = Fixture {
    name: "openai_mixed_endings.sse",
    content_type: SSE,
    bytes: include_bytes!("fixtures/openai_mixed_endings.sse"),
};
const INVALID_UTF8: Fixture = Fixture {
    name: "openai_invalid_utf8.sse",
    content_type: SSE,
    bytes: include_bytes!("fixtures/openai_invalid_utf8.sse"),
};
const OLLAMA: Fixture = Fixture {
    name: "ollama_chat.ndjson",
    content_type: "application/x-ndjson",
    bytes: include_bytes!("fixtures/ollama_chat.ndjson"),
};
const SSE_TEXT: Fixture = Fixture {
    name: "sse_text.sse",
    content_type: SSE,
    bytes: include_bytes!("fixtures/sse_text.sse"),
};
const RAW: Fixture = Fixture {
    name: "raw_text.txt",
    content_type: SSE,
    bytes: include_bytes!("fixtures/raw_text.txt"),
};

const RESPONSES: Fixture = Fixture {
    name: "openai_responses.sse",
    content_type: SSE,
    bytes: include_bytes!("fixtures/openai_responses.sse"),
};
const ANTHROPIC: Fixture = Fixture {
    name: "anthropic_messages.sse",
    content_type: SSE,
    bytes: include_bytes!("fixtures/anthropic_messages.sse"),
};
const GEMINI: Fixture = Fixture {
    name: "gemini.sse",
    content_type: SSE,
    bytes: include_bytes!("fixtures/gemini.sse"),
};
const OLLAMA_GENERATE: Fixture = Fixture {
    name: "ollama_generate.ndjson",
    content_type: "application/x-ndjson",
    bytes: include_bytes!("fixtures/ollama_generate.ndjson"),
};

/// Fixtures whose event sequence must not depend on read boundaries (raw text is split-dependent by
/// design: each read is one content event).
const FRAMED: [&Fixture; 9] = [
    &DEEPSEEK_CRLF,
    &MIXED_ENDINGS,
    &INVALID_UTF8,
    &OLLAMA,
    &SSE_TEXT,
    &RESPONSES,
    &ANTHROPIC,
    &GEMINI,
    &OLLAMA_GENERATE,
];

/// Everything about an analysis that must not depend on read boundaries.
#[derive(Debug, Clone, PartialEq)]
struct Summary {
    kinds: Vec<EventKind>,
    server_ms: Vec<Option<f64>>,
    text: String,
    reasoning: String,
    framing: Option<Framing>,
    mislabelled: bool,
    dialect: Dialect,
    messages: usize,
    keepalive_comments: usize,
    empty_messages: usize,
    /// Whether the first non-keep-alive fact was role-only (its time depends on the split).
    first_role_only: Option<bool>,
    malformed_payloads: usize,
    first_malformed: Option<String>,
    replaced_utf8_sequences: usize,
    longest_line_bytes: usize,
    saw_done: bool,
    finish_reason: Option<StopReason>,
    usage: Option<Usage>,
    stream_errors: Vec<String>,
    retry_ms: Option<u64>,
}

fn summarize(content_type: &str, reads: &[&[u8]]) -> Summary {
    let mut analyzer = Analyzer::new(Some(content_type));
    for (i, read) in reads.iter().enumerate() {
        analyzer.push(i as f64, read);
    }
    analyzer.finish(reads.len() as f64);
    let a = analyzer.into_analysis();
    Summary {
        kinds: a.events.iter().map(|e| e.kind.clone()).collect(),
        server_ms: a.events.iter().map(|e| e.server_ms).collect(),
        text: a.text,
        reasoning: a.reasoning_text,
        framing: a.framing,
        mislabelled: a.mislabelled,
        dialect: a.dialect,
        messages: a.messages,
        keepalive_comments: a.keepalive_comments,
        empty_messages: a.empty_messages,
        first_role_only: a.first_chunk.map(|c| c.role_only),
        malformed_payloads: a.malformed_payloads,
        first_malformed: a.first_malformed,
        replaced_utf8_sequences: a.replaced_utf8_sequences,
        longest_line_bytes: a.longest_line_bytes,
        saw_done: a.saw_done,
        finish_reason: a.finish_reason,
        usage: a.usage,
        stream_errors: a.stream_errors,
        retry_ms: a.retry_ms,
    }
}

fn whole(f: &Fixture) -> Summary {
    summarize(f.content_type, &[f.bytes])
}

fn split_at_cuts<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut cuts: Vec<usize> = cuts.iter().map(|&c| c.min(bytes.len())).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut reads = Vec::new();
    let mut start = 0;
    for c in cuts {
        reads.push(&bytes[start..c]);
        start = c;
    }
    reads.push(&bytes[start..]);
    reads
}

/// Raw text is one content event per read by design: merge them so only the text is compared.
fn raw_merged(mut s: Summary) -> Summary {
    if s.framing == Some(Framing::Raw) {
        s.kinds = vec![EventKind::Content(s.text.clone())];
        s.server_ms = vec![None];
        s.messages = 0;
    }
    s
}

fn names(s: &Summary) -> Vec<&'static str> {
    s.kinds.iter().map(EventKind::name).collect()
}

#[test]
fn deepseek_crlf_fixture_parses_as_expected() {
    let s = whole(&DEEPSEEK_CRLF);
    assert_eq!(s.framing, Some(Framing::Sse));
    assert_eq!(s.dialect, Dialect::OpenaiChat);
    assert_eq!(s.text, "你好！这是一个流式回答🎉，café naïve 😀👍");
    assert_eq!(s.reasoning, "嗯，用户想要一个例子。");
    // Keep-alives are counted, not kept as events.
    let mut expected = vec!["role_only", "reasoning", "reasoning", "reasoning"];
    expected.extend(["content"; 11]);
    expected.extend(["finish", "usage", "done"]);
    assert_eq!(names(&s), expected);
    assert_eq!(s.keepalive_comments, 2);
    assert!(s.saw_done);
    assert_eq!(s.finish_reason, Some(StopReason::Stop));
    let usage = s.usage.unwrap();
    assert_eq!(
        (
            usage.completion_tokens,
            usage.prompt_cache_hit_tokens,
            usage.prompt_cache_miss_tokens
        ),
        (Some(19), Some(96), Some(24))
    );
    assert_eq!((s.malformed_payloads, s.replaced_utf8_sequences), (0, 0));
}

#[test]
fn mixed_endings_fixture_parses_as_expected() {
    let s = whole(&MIXED_ENDINGS);
    assert_eq!(s.framing, Some(Framing::Sse));
    assert_eq!(s.dialect, Dialect::OpenaiChat);
    assert_eq!(s.text, "Hello, world — 日本");
    assert_eq!(
        names(&s),
        ["role_only", "content", "content", "content", "malformed", "content", "finish", "usage", "done"]
    );
    // The keep-alive and the empty delta are counted, not kept as events.
    assert_eq!((s.keepalive_comments, s.empty_messages), (1, 1));
    assert_eq!(s.first_role_only, Some(true));
    assert_eq!(
        s.first_malformed.as_deref(),
        Some("{\"choices\": [ this is not json")
    );
    assert_eq!(s.retry_ms, Some(3000));
    assert_eq!(s.usage.and_then(|u| u.cached_tokens), Some(1920));
    assert_eq!(s.server_ms[6], Some(812.5));
    assert!(s.saw_done);
}

#[test]
fn invalid_utf8_fixture_replaces_and_goes_on() {
    let s = whole(&INVALID_UTF8);
    assert_eq!(s.text, "o\u{FFFD}k then more!");
    assert_eq!(s.replaced_utf8_sequences, 1);
    assert_eq!(s.finish_reason, Some(StopReason::Length));
    assert!(
        s.saw_done,
        "a final `data: [DONE]` ended by a lone CR is still read"
    );
}

#[test]
fn ollama_fixture_parses_as_expected() {
    let s = whole(&OLLAMA);
    assert_eq!(
        (s.framing, s.dialect),
        (Some(Framing::Ndjson), Dialect::Ollama)
    );
    assert_eq!(s.text, "Why the sky is blue: Rayleigh scattering 🌈");
    assert_eq!(s.finish_reason, Some(StopReason::Stop));
    assert_eq!(s.usage.and_then(|u| u.completion_tokens), Some(5));
    assert_eq!(s.messages, 6);
}

#[test]
fn sse_text_fixture_parses_as_expected() {
    let s = whole(&SSE_TEXT);
    assert_eq!(s.dialect, Dialect::SseText);
    assert_eq!(s.text, "Hello wörldline one\nline two");
    assert_eq!(
        names(&s),
        ["content", "content", "content", "done"]
    );
    assert_eq!(s.keepalive_comments, 1, "counted, not kept as an event");
}

#[test]
fn every_fixture_split_at_every_byte_boundary_into_two_reads_parses_identically() {
    for f in FRAMED {
        let expected = whole(f);
        for cut in 0..=f.bytes.len() {
            let got = summarize(f.content_type, &[&f.bytes[..cut], &f.bytes[cut..]]);
            assert_eq!(got, expected, "{} split at byte {cut}", f.name);
        }
    }
}

#[test]
fn every_fixture_one_byte_per_read_parses_identically() {
    for f in FRAMED {
        let reads: Vec<&[u8]> = f.bytes.chunks(1).collect();
        assert_eq!(summarize(f.content_type, &reads), whole(f), "{}", f.name);
    }
}

#[test]
fn raw_fixture_text_is_the_same_at_every_byte_boundary() {
    let text = std::str::from_utf8(RAW.bytes).unwrap();
    for cut in 0..=RAW.bytes.len() {
        let s = summarize(RAW.content_type, &[&RAW.bytes[..cut], &RAW.bytes[cut..]]);
        assert_eq!(s.text, text, "cut {cut}");
        assert_eq!(
            (s.framing, s.dialect, s.mislabelled),
            (Some(Framing::Raw), Dialect::Raw, true)
        );
        assert_eq!(
            s.replaced_utf8_sequences, 0,
            "a code point split across reads is not invalid (cut {cut})"
        );
    }
}

fn framed_fixture() -> impl Strategy<Value = &'static Fixture> {
    prop::sample::select(FRAMED.to_vec())
}

proptest! {
    #[test]
    fn fixture_split_at_arbitrary_boundaries_parses_identically(
        f in framed_fixture(),
        cuts in prop::collection::vec(0usize..4096, 0..40),
    ) {
        let reads = split_at_cuts(f.bytes, &cuts);
        prop_assert_eq!(summarize(f.content_type, &reads), whole(f));
    }

    #[test]
    fn raw_text_split_at_arbitrary_boundaries_keeps_its_text(cuts in prop::collection::vec(0usize..100, 0..20)) {
        let reads = split_at_cuts(RAW.bytes, &cuts);
        let s = summarize(RAW.content_type, &reads);
        prop_assert_eq!(s.text.as_bytes(), RAW.bytes);
    }

    #[test]
    fn sse_parser_on_arbitrary_bytes_is_split_independent_and_never_panics(
        body in prop::collection::vec(prop::sample::select(b"data:eventidretry: x{}\r\n\n\n\xc3\xa9\xe6\x97\xa5\xff\xef\xbb\xbf".to_vec()), 0..300),
        cuts in prop::collection::vec(0usize..300, 0..10),
    ) {
        let mut whole_parser = SseParser::new();
        let mut expected = whole_parser.push(&body);
        expected.extend(whole_parser.finish());
        let mut split_parser = SseParser::new();
        let mut got = Vec::new();
        for read in split_at_cuts(&body, &cuts) {
            got.extend(split_parser.push(read));
        }
        got.extend(split_parser.finish());
        prop_assert_eq!(got, expected);
        prop_assert_eq!(split_parser.replaced_utf8_sequences(), whole_parser.replaced_utf8_sequences());
        prop_assert_eq!(split_parser.longest_line_bytes(), whole_parser.longest_line_bytes());
    }

    #[test]
    fn analyzer_on_arbitrary_bytes_is_split_independent_and_never_panics(
        body in prop::collection::vec(prop::sample::select(b"data: {\"choices\":[]}[DONE]\r\n\n\n:x\xff\xe6\x97\xa5".to_vec()), 0..300),
        cuts in prop::collection::vec(0usize..300, 0..10),
        ct in prop::sample::select(vec![SSE, "application/x-ndjson", "text/plain"]),
    ) {
        let reads = split_at_cuts(&body, &cuts);
        prop_assert_eq!(raw_merged(summarize(ct, &reads)), raw_merged(summarize(ct, &[&body])));
    }
}
