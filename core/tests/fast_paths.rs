//! The fast paths give exactly what the owned paths give: `LineSplitter::feed_lines` the lines and
//! counters of `feed` + `next_line`, `SseParser::push_with` the items and counters of `push`, and
//! `Analyzer::new` (borrowed SSE events, the chat chunk memo) the analysis, report and metrics of
//! `Analyzer::new_reference` (owned items, every chunk decoded to a `Value`). Checked read by read for
//! every read size from 1 byte up and for arbitrary cuts, with LF, CRLF and lone-CR line endings,
//! multi-line data, comments, invalid UTF-8, escapes and malformed chunks, on the recorded fixtures and
//! on generated OpenAI streams, and checked to have actually taken the fast path where it applies.

use proptest::prelude::*;
use streamscope_core::report::Report;
use streamscope_core::trace::{Trace, TraceEnd};
use streamscope_core::wire::lines::{LineSplitter, MAX_LINE_BYTES};
use streamscope_core::wire::sse::{SseItem, SseParser};
use streamscope_core::{Analysis, Analyzer};

const SSE: &str = "text/event-stream";

/// Read sizes every body is cut into: single bytes, sizes that split every line ending and code point
/// somewhere, and the benchmark's.
const READ_SIZES: [usize; 10] = [1, 2, 3, 5, 7, 13, 64, 300, 1500, 16384];

const FIXTURES: [(&str, &[u8]); 34] = [
    (SSE, include_bytes!("fixtures/langserve_stream.sse")),
    (SSE, include_bytes!("fixtures/langserve_stream_events.sse")),
    (SSE, include_bytes!("fixtures/langserve_stream_text.sse")),
    (SSE, include_bytes!("fixtures/ag_ui_run.sse")),
    (SSE, include_bytes!("fixtures/langgraph_messages_tuple.sse")),
    (SSE, include_bytes!("fixtures/langgraph_messages_partial.sse")),
    (SSE, include_bytes!("fixtures/dify_chat_messages.sse")),
    ("application/json; charset=UTF-8", include_bytes!("fixtures/gemini_array.json")),
    ("text/plain; charset=utf-8", include_bytes!("fixtures/ai_sdk_data_stream.txt")),
    (SSE, include_bytes!("fixtures/ai_sdk_ui_message_stream.sse")),
    (SSE, include_bytes!("fixtures/mistral_magistral.sse")),
    (SSE, include_bytes!("fixtures/tgi_generate_stream.sse")),
    ("application/json", include_bytes!("fixtures/tgi_generate.json")),
    ("application/json", include_bytes!("fixtures/openai_chat_completion.json")),
    (SSE, include_bytes!("fixtures/llama_cpp_completion.sse")),
    (SSE, include_bytes!("fixtures/workers_ai.sse")),
    (SSE, include_bytes!("fixtures/cohere_chat.sse")),
    ("application/stream+json", include_bytes!("fixtures/cohere_v1_chat.jsonl")),
    (SSE, include_bytes!("fixtures/replicate_stream.sse")),
    (SSE, include_bytes!("fixtures/koboldcpp_stream.sse")),
    ("application/x-ndjson", include_bytes!("fixtures/custom_cumulative.ndjson")),
    (SSE, include_bytes!("fixtures/openai_tool_call.sse")),
    (SSE, include_bytes!("fixtures/azure_openai_default.sse")),
    (SSE, include_bytes!("fixtures/azure_openai_async.sse")),
    (SSE, include_bytes!("fixtures/openai_deepseek_crlf.sse")),
    (SSE, include_bytes!("fixtures/openai_mixed_endings.sse")),
    (SSE, include_bytes!("fixtures/openai_invalid_utf8.sse")),
    (SSE, include_bytes!("fixtures/openai_responses.sse")),
    (SSE, include_bytes!("fixtures/anthropic_messages.sse")),
    (SSE, include_bytes!("fixtures/gemini.sse")),
    (SSE, include_bytes!("fixtures/sse_text.sse")),
    ("application/x-ndjson", include_bytes!("fixtures/ollama_chat.ndjson")),
    ("application/x-ndjson", include_bytes!("fixtures/ollama_generate.ndjson")),
    ("text/plain", include_bytes!("fixtures/raw_text.txt")),
];

// ---- generated OpenAI streams ----

/// One event of a generated stream.
#[derive(Debug, Clone)]
enum Ev {
    Role,
    Content(String),
    /// Content whose non-ASCII characters are sent as `\uXXXX` escapes (surrogate pairs included).
    ContentEscaped(String),
    /// Content given as the raw body of its JSON string literal (bad escapes, raw control characters).
    ContentLiteral(&'static str),
    Reasoning(String),
    /// A chunk that carries reasoning and content at once.
    Both(String, String),
    /// Content with the lab's `server_ms` after it (a chunk shape that changes every time).
    ServerMs(String, u32),
    /// Content whose JSON is split over two `data:` lines.
    MultiLine(String),
    /// Content with an invalid UTF-8 byte inside the token.
    InvalidUtf8,
    EmptyDelta,
    Finish,
    Usage(u32),
    KeepAlive,
    Malformed,
    ErrorEvent,
    EventName,
    Retry,
    Done,
}

const HEAD: &str = r#"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1764547200,"model":"m","#;

fn literal(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn escaped(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if c.is_ascii() {
            let one = literal(&c.to_string());
            out.push_str(&one[1..one.len() - 1]);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out + "\""
}

fn chunk(delta: &str, finish: &str, tail: &str) -> String {
    format!(r#"{HEAD}"choices":[{{"index":0,"delta":{delta},"logprobs":null,"finish_reason":{finish}}}]{tail}}}"#)
}

/// The bytes of a stream of `events`, lines ended with `eol`.
fn openai_stream(events: &[Ev], eol: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let data = |out: &mut Vec<u8>, json: &str| {
        out.extend_from_slice(format!("data: {json}{eol}{eol}").as_bytes());
    };
    for e in events {
        match e {
            Ev::Role => data(&mut out, &chunk(r#"{"role":"assistant","content":""}"#, "null", "")),
            Ev::Content(t) => data(&mut out, &chunk(&format!(r#"{{"content":{}}}"#, literal(t)), "null", "")),
            Ev::ContentEscaped(t) => data(&mut out, &chunk(&format!(r#"{{"content":{}}}"#, escaped(t)), "null", "")),
            Ev::ContentLiteral(l) => data(&mut out, &chunk(&format!(r#"{{"content":"{l}"}}"#), "null", "")),
            Ev::Reasoning(t) => {
                data(&mut out, &chunk(&format!(r#"{{"reasoning_content":{}}}"#, literal(t)), "null", ""))
            }
            Ev::Both(r, c) => data(
                &mut out,
                &chunk(&format!(r#"{{"reasoning_content":{},"content":{}}}"#, literal(r), literal(c)), "null", ""),
            ),
            Ev::ServerMs(t, ms) => data(
                &mut out,
                &chunk(&format!(r#"{{"content":{}}}"#, literal(t)), "null", &format!(r#","server_ms":{ms}"#)),
            ),
            Ev::MultiLine(t) => {
                let json = chunk(&format!(r#"{{"content":{}}}"#, literal(t)), "null", "");
                let (a, b) = json.split_at(json.find("\"choices\"").unwrap());
                out.extend_from_slice(format!("data: {a}{eol}data: {b}{eol}{eol}").as_bytes());
            }
            Ev::InvalidUtf8 => {
                let json = chunk(r#"{"content":"a<ff>b"}"#, "null", "");
                let (head, tail) = json.split_once("<ff>").unwrap();
                out.extend_from_slice(format!("data: {head}").as_bytes());
                out.push(0xFF);
                out.extend_from_slice(format!("{tail}{eol}{eol}").as_bytes());
            }
            Ev::EmptyDelta => data(&mut out, &chunk("{}", "null", "")),
            Ev::Finish => data(&mut out, &chunk("{}", r#""stop""#, "")),
            Ev::Usage(n) => data(
                &mut out,
                &format!(r#"{HEAD}"choices":[],"usage":{{"prompt_tokens":9,"completion_tokens":{n},"total_tokens":{}}}}}"#, n + 9),
            ),
            Ev::KeepAlive => out.extend_from_slice(format!(": keep-alive{eol}{eol}").as_bytes()),
            Ev::Malformed => data(&mut out, r#"{"choices":[{"delta":{"content":"x""#),
            Ev::ErrorEvent => out.extend_from_slice(
                format!("event: error{eol}data: {{\"error\":{{\"message\":\"overloaded\"}}}}{eol}{eol}").as_bytes(),
            ),
            Ev::EventName => out.extend_from_slice(
                format!("event: message{eol}id: 7{eol}data: {}{eol}{eol}", chunk(r#"{"content":"named"}"#, "null", "")).as_bytes(),
            ),
            Ev::Retry => out.extend_from_slice(format!("retry: 1500{eol}{eol}").as_bytes()),
            Ev::Done => data(&mut out, "[DONE]"),
        }
    }
    out
}

/// A typical stream: role, `tokens` content chunks, stop, usage, `[DONE]`.
fn typical(tokens: usize) -> Vec<Ev> {
    let words = [" the", " stream", ",", " é", "\n\n", " \"quoted\"", " 日本", " 😀", "\\", " a"];
    let mut events = vec![Ev::Role];
    events.extend((0..tokens).map(|i| Ev::Content(words[i % words.len()].to_string())));
    events.extend([Ev::Finish, Ev::Usage(tokens as u32), Ev::Done]);
    events
}

// ---- the paths compared ----

fn cut(bytes: &[u8], size: usize) -> Vec<&[u8]> {
    bytes.chunks(size.max(1)).collect()
}

fn cut_at<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut reads = Vec::new();
    let mut start = 0;
    for c in cuts.into_iter().chain([bytes.len()]) {
        reads.push(&bytes[start..c]);
        start = c;
    }
    reads
}

/// What the line splitter gives read by read: the lines (with whether their text came along) and the
/// counters, then the unterminated rest.
type LinesSeen = (Vec<(Vec<Vec<u8>>, usize, usize)>, Option<Vec<u8>>, usize);

fn lines_owned(reads: &[&[u8]]) -> LinesSeen {
    let mut s = LineSplitter::new();
    let mut per_read = Vec::new();
    for r in reads {
        s.feed(r);
        let mut lines = Vec::new();
        while let Some(l) = s.next_line() {
            lines.push(l.to_vec());
        }
        per_read.push((lines, s.longest_line_bytes(), s.pending_len_bytes()));
    }
    let rest = s.take_rest();
    (per_read, rest, s.longest_line_bytes())
}

fn lines_fast(reads: &[&[u8]]) -> LinesSeen {
    let mut s = LineSplitter::new();
    let mut per_read = Vec::new();
    for r in reads {
        let mut lines = Vec::new();
        s.feed_lines(r, |l| {
            if let Some(text) = l.text {
                assert_eq!(text.as_bytes(), l.bytes, "a line's text is its bytes");
            }
            lines.push(l.bytes.to_vec());
        });
        per_read.push((lines, s.longest_line_bytes(), s.pending_len_bytes()));
    }
    let rest = s.take_rest();
    (per_read, rest, s.longest_line_bytes())
}

/// What the SSE parser gives read by read (items and every counter), then at the end.
#[derive(Debug, PartialEq)]
struct SseSeen {
    per_read: Vec<(Vec<SseItem>, [usize; 6])>,
    last_event_id: Option<String>,
}

fn counters(p: &SseParser) -> [usize; 6] {
    [
        p.replaced_utf8_sequences(),
        p.longest_line_bytes(),
        p.longest_event_bytes(),
        p.cut_events(),
        p.discarded_data_lines(),
        p.buffered_bytes(),
    ]
}

fn sse(reads: &[&[u8]], fast: bool) -> SseSeen {
    let mut p = SseParser::new();
    let mut per_read = Vec::new();
    for r in reads.iter().map(Some).chain([None]) {
        let items = match (r, fast) {
            (Some(r), false) => p.push(r),
            (None, false) => p.finish(),
            (Some(r), true) => {
                let mut items = Vec::new();
                p.push_with(r, |i| items.push(i.to_item()));
                items
            }
            (None, true) => {
                let mut items = Vec::new();
                p.finish_with(|i| items.push(i.to_item()));
                items
            }
        };
        per_read.push((items, counters(&p)));
    }
    SseSeen { per_read, last_event_id: p.last_event_id().map(str::to_string) }
}

/// The analysis after every read and at the end, the report (metrics included) built from it when
/// `report`, and how many chunks came from the memo.
fn analyse(content_type: &str, reads: &[&[u8]], fast: bool, report: bool) -> (Vec<(usize, usize)>, Analysis, Option<Report>, usize) {
    if fast {
        run(Analyzer::new(Some(content_type)), content_type, reads, report)
    } else {
        run(Analyzer::new_reference(Some(content_type)), content_type, reads, report)
    }
}

fn run<const REFERENCE: bool>(
    mut a: Analyzer<REFERENCE>,
    content_type: &str,
    reads: &[&[u8]],
    report: bool,
) -> (Vec<(usize, usize)>, Analysis, Option<Report>, usize) {
    let mut live = Vec::new();
    for (i, r) in reads.iter().enumerate() {
        a.push(i as f64 * 1.5, r);
        live.push((a.events().len(), a.pending_bytes()));
    }
    a.finish(reads.len() as f64 * 1.5 + 1.0);
    let recalled = a.chunks_recalled();
    let analysis = a.into_analysis();
    let trace = Trace::from_reads(
        200,
        content_type,
        0.5,
        reads.iter().enumerate().map(|(i, r)| (i as f64 * 1.5, r.to_vec())),
        TraceEnd::Complete { at_ms: reads.len() as f64 * 1.5 + 1.0 },
    );
    let report = report.then(|| Report::from_analysis(&trace, &analysis));
    (live, analysis, report, recalled)
}

/// Checks every fast path against its owned path on these reads; returns how many chunks the memo read.
fn check_all(content_type: &str, reads: &[&[u8]]) -> usize {
    check(content_type, reads, true)
}

/// [`check_all`], the reports compared too when `report` (they are derived from the analysis and the
/// trace alone, so equal analyses give equal reports: compared where it costs little).
fn check(content_type: &str, reads: &[&[u8]], report: bool) -> usize {
    assert_eq!(lines_fast(reads), lines_owned(reads), "lines");
    assert_eq!(sse(reads, true), sse(reads, false), "SSE items");
    let (live, analysis, report, recalled) = analyse(content_type, reads, true, report);
    let (ref_live, ref_analysis, ref_report, ref_recalled) = analyse(content_type, reads, false, report.is_some());
    assert_eq!(ref_recalled, 0, "the reference never uses the memo");
    assert_eq!(live, ref_live, "events and pending bytes after each read");
    assert_eq!(analysis, ref_analysis, "analysis");
    assert_eq!(report, ref_report, "report and metrics");
    recalled
}

#[test]
fn every_fixture_at_every_read_size_and_every_two_read_cut() {
    for (ct, bytes) in FIXTURES {
        for size in READ_SIZES {
            check_all(ct, &cut(bytes, size));
        }
        for c in 0..=bytes.len() {
            check(ct, &[&bytes[..c], &bytes[c..]], false);
        }
    }
}

#[test]
fn generated_openai_streams_at_every_read_size_take_the_memo_and_match() {
    for eol in ["\n", "\r\n", "\r"] {
        let bytes = openai_stream(&typical(400), eol);
        for size in READ_SIZES {
            let recalled = check_all(SSE, &cut(&bytes, size));
            assert!(recalled >= 390, "{recalled} of 400 chunks from the memo ({eol:?}, {size} B reads)");
        }
    }
}

#[test]
fn every_kind_of_event_mixed_in_at_every_read_size() {
    let mut events = typical(30);
    events.truncate(31);
    events.extend([
        Ev::ContentEscaped("café 😀 \"x\"".into()),
        Ev::Content("after escapes".into()),
        Ev::ContentLiteral("\\ud800"),
        Ev::ContentLiteral("tab\there"),
        Ev::ContentLiteral("a\\/b\\u00e9"),
        Ev::Content("back".into()),
        Ev::Reasoning("think".into()),
        Ev::Reasoning("more".into()),
        Ev::Both("r".into(), "c".into()),
        Ev::ServerMs("s1".into(), 10),
        Ev::ServerMs("s2".into(), 11),
        Ev::ServerMs("s3".into(), 12),
        Ev::MultiLine("two lines".into()),
        Ev::Content("x".into()),
        Ev::InvalidUtf8,
        Ev::Content("y".into()),
        Ev::EmptyDelta,
        Ev::KeepAlive,
        Ev::Malformed,
        Ev::Content("z".into()),
        Ev::ErrorEvent,
        Ev::EventName,
        Ev::Retry,
        Ev::Content("".into()),
        Ev::Content("end".into()),
        Ev::Finish,
        Ev::Usage(40),
        Ev::Done,
    ]);
    for eol in ["\n", "\r\n", "\r"] {
        let bytes = openai_stream(&events, eol);
        for size in READ_SIZES {
            assert!(check_all(SSE, &cut(&bytes, size)) > 20);
        }
    }
}

#[test]
fn lines_longer_than_the_cap_are_cut_the_same_way() {
    let mut body = b"data: ".to_vec();
    body.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 70_000));
    body.extend_from_slice("é\r\n\r\ndata: next\r".as_bytes());
    body.extend(std::iter::repeat_n(b'y', 2 * MAX_LINE_BYTES));
    body.extend_from_slice(b"\n\ndata: [DONE]\n\n");
    for size in [4096, 100_000, MAX_LINE_BYTES + 1, 3 * MAX_LINE_BYTES] {
        check_all(SSE, &cut(&body, size));
    }
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ a-z]{0,8}",
        any::<String>(),
        prop::sample::select(vec!["", " ", "\"", "\\", "\n", "é", "😀", "\u{0}", "\u{2028}", "[DONE]"]).prop_map(String::from),
    ]
}

fn event() -> impl Strategy<Value = Ev> {
    prop_oneof![
        8 => token().prop_map(Ev::Content),
        1 => token().prop_map(Ev::ContentEscaped),
        1 => prop::sample::select(vec!["\\ud800", "tab\there", "a\\", "\\u00e9\\/", "\\x"]).prop_map(Ev::ContentLiteral),
        1 => token().prop_map(Ev::Reasoning),
        1 => (token(), token()).prop_map(|(r, c)| Ev::Both(r, c)),
        1 => (token(), 0u32..5).prop_map(|(t, ms)| Ev::ServerMs(t, ms)),
        1 => token().prop_map(Ev::MultiLine),
        1 => Just(Ev::InvalidUtf8),
        1 => Just(Ev::Role),
        1 => Just(Ev::EmptyDelta),
        1 => Just(Ev::Finish),
        1 => (0u32..100).prop_map(Ev::Usage),
        1 => Just(Ev::KeepAlive),
        1 => Just(Ev::Malformed),
        1 => Just(Ev::ErrorEvent),
        1 => Just(Ev::EventName),
        1 => Just(Ev::Retry),
        1 => Just(Ev::Done),
    ]
}

proptest! {
    #[test]
    fn arbitrary_openai_streams_cut_anywhere_match(
        first in token(),
        events in prop::collection::vec(event(), 0..40),
        eol in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        cuts in prop::collection::vec(0usize..20_000, 0..30),
        size in prop::sample::select(READ_SIZES.to_vec()),
    ) {
        let mut all = vec![Ev::Role, Ev::Content(first)];
        all.extend(events);
        let bytes = openai_stream(&all, eol);
        check_all(SSE, &cut_at(&bytes, &cuts));
        check_all(SSE, &cut(&bytes, size));
    }

    #[test]
    fn arbitrary_bytes_cut_anywhere_match(
        body in prop::collection::vec(
            prop::sample::select(b"data:eventidretry: x{}\"\\[DONE]\r\n\n\n:\xc3\xa9\xe6\x97\xa5\xff\xef\xbb\xbf".to_vec()),
            0..400,
        ),
        cuts in prop::collection::vec(0usize..400, 0..12),
        ct in prop::sample::select(vec![SSE, "application/x-ndjson", "text/plain"]),
    ) {
        check_all(ct, &cut_at(&body, &cuts));
    }
}
