//! Each rule of [`END_RULES`] and [`STREAM_RULES`] called alone: it fires with its evidence on a small
//! hand-built case and stays silent on a healthy stream.

use serde_json::json;

use super::*;
use crate::analysis::Analyzer;
use crate::findings::testkit::{content, done, healthy, response, said_in_both, sse, sse_ending, Facts};
use crate::i18n::Lang;
use crate::trace::{ReadChunk, Trace};

/// Calls `rule` alone on the facts of `trace`.
fn alone(rule: Rule, trace: Trace) -> Option<Finding> {
    rule(&Facts::of(trace).run())
}

/// Calls `rule` alone on `trace` and expects a finding, every word of it from the catalogue and said in
/// Chinese too.
fn fires(rule: Rule, trace: Trace) -> Finding {
    let f = alone(rule, trace).expect("the rule should fire");
    assert!(f.is_worded(), "{:?} has words outside the catalogue: {}", f.code, f.detail);
    let zh = f.localize(Lang::ZhCn);
    for (en, zh) in [(&f.title, &zh.title), (&f.detail, &zh.detail)] {
        assert_ne!(en, zh, "{:?} not said in Chinese", f.code);
    }
    assert_eq!((zh.code.clone(), &zh.evidence), (f.code.clone(), &f.evidence));
    f
}

/// Asserts `rule` says nothing about the healthy stream.
fn silent_on_healthy(rule: Rule) {
    assert_eq!(alone(rule, healthy()), None);
}

#[test]
fn every_rule_but_framing_is_silent_on_a_healthy_stream() {
    let facts = Facts::of(healthy());
    let said: Vec<FindingCode> =
        END_RULES.iter().chain(&STREAM_RULES).filter_map(|rule| rule(&facts.run())).map(|f| f.code).collect();
    assert_eq!(said, vec![FindingCode::Framing]);
}

#[test]
fn network_error_during_the_body_says_what_arrived_before() {
    let t = sse_ending(
        vec![(100.0, content("ab"))],
        TraceEnd::NetworkError { at_ms: 500.0, message: "reset".into(), during_body: true },
    );
    let f = fires(network_error, t);
    assert_eq!((f.code, f.severity), (FindingCode::NetworkError, Severity::Error));
    assert_eq!(f.evidence["at_ms"], 500.0);
    assert_eq!(f.evidence["message"], "reset");
    assert_eq!(f.evidence["during_body"], true);
    assert_eq!(f.evidence["received"]["content_events"], 1);
    assert_eq!(f.evidence["received"]["content_chars"], 2);
    silent_on_healthy(network_error);
}

#[test]
fn network_error_is_left_to_the_probe_when_it_told_cors_from_unreachable() {
    let mut t = Trace {
        end: Some(TraceEnd::NetworkError { at_ms: 12.0, message: "Failed to fetch".into(), during_body: false }),
        ..Trace::default()
    };
    assert_eq!(fires(network_error, t.clone()).evidence["during_body"], false);
    t.probes.no_cors_reached = Some(true);
    assert_eq!(alone(network_error, t), None);
}

#[test]
fn timeout_names_which_limit_ended_the_run() {
    let cases = [
        (TimeoutKind::Headers, FindingCode::TimeoutHeaders, "headers"),
        (TimeoutKind::FirstByte, FindingCode::TimeoutFirstByte, "first_byte"),
        (TimeoutKind::Idle, FindingCode::Stall, "idle"),
        (TimeoutKind::Total, FindingCode::TimeoutTotal, "total"),
    ];
    for (kind, code, name) in cases {
        let end = TraceEnd::Timeout { at_ms: 5000.0, timeout: kind, limit_ms: 4000.0 };
        let f = fires(timeout, sse_ending(vec![(100.0, content("a"))], end));
        assert_eq!((f.code, f.severity), (code, Severity::Error));
        assert_eq!(f.evidence["timeout"], name);
        assert_eq!((f.evidence["at_ms"].as_f64(), f.evidence["limit_ms"].as_f64()), (Some(5000.0), Some(4000.0)));
        assert_eq!(f.evidence["headers_ms"], 40.0);
        assert_eq!(f.evidence["received"]["content_events"], 1);
        assert!(f.detail.ends_with(&partial_kept().render(Lang::En)), "{}", f.detail);
    }
    silent_on_healthy(timeout);
}

#[test]
fn cancelled_says_when_and_keeps_the_partial_trace() {
    let f = fires(cancelled, sse_ending(vec![(100.0, content("a"))], TraceEnd::Cancelled { at_ms: 300.0 }));
    assert_eq!((f.code, f.severity), (FindingCode::Cancelled, Severity::Warning));
    assert_eq!(f.evidence["at_ms"], 300.0);
    assert_eq!(f.evidence["received"]["reads"], 1);
    assert!(f.detail.contains(&partial_kept().render(Lang::En)));
    silent_on_healthy(cancelled);
}

#[test]
fn no_content_on_an_empty_body_a_reasoning_only_answer_and_empty_messages() {
    let f = fires(no_content, sse(Vec::<(f64, String)>::new()));
    assert_eq!((f.code, f.severity), (FindingCode::NoContent, Severity::Error));
    assert_eq!((f.evidence["bytes"].as_u64(), f.evidence["events"].as_u64()), (Some(0), Some(0)));
    assert!(f.detail.contains("without a single body byte"), "{}", f.detail);

    let r = "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"}}]}\n\n".to_string() + &done();
    let f = fires(no_content, sse(vec![(100.0, r)]));
    assert_eq!(f.evidence["reasoning_chars"], 3);
    assert_eq!(f.evidence["dialect"], "openai-chat");

    let f = fires(no_content, sse(vec![(100.0, "data:\n\ndata: [DONE]\n\n")]));
    assert!(f.detail.contains("none carried answer text"), "{}", f.detail);
    silent_on_healthy(no_content);
}

#[test]
fn no_content_leaves_an_http_error_to_the_http_triage() {
    let t = Trace::from_reads(500, "text/plain", 40.0, Vec::<(f64, String)>::new(), TraceEnd::Complete { at_ms: 50.0 });
    assert_eq!(alone(no_content, t), None);
}

#[test]
fn stream_error_quotes_the_servers_message() {
    let t = sse(vec![(100.0, content("a")), (150.0, "data: {\"error\":{\"message\":\"overloaded\"}}\n\n".into())]);
    let f = fires(stream_error, t);
    assert_eq!((f.code, f.severity), (FindingCode::StreamError, Severity::Error));
    assert_eq!(f.evidence["count"], 1);
    assert_eq!(f.evidence["messages"], json!(["overloaded"]));
    assert_eq!(f.evidence["dialect"], "openai-chat");
    assert!(f.detail.ends_with("overloaded"), "{}", f.detail);
    silent_on_healthy(stream_error);
}

#[test]
fn stream_error_counts_every_message_beyond_the_ones_kept() {
    let body = "{\"error\":\"model not found\"}\n".repeat(50);
    let f = fires(stream_error, response("application/x-ndjson", vec![(100.0, body)]));
    assert_eq!(f.evidence["count"], 50);
    assert_eq!(f.evidence["messages"].as_array().map(Vec::len), Some(crate::analysis::STREAM_ERRORS_KEPT));
    assert!(f.detail.starts_with("The stream carried 50 errors"), "{}", f.detail);
}

#[test]
fn truncated_when_the_end_marker_never_came() {
    let f = fires(truncated, sse(vec![(100.0, content("a")), (120.0, content("b"))]));
    assert_eq!((f.code, f.severity), (FindingCode::Truncated, Severity::Warning));
    assert_eq!(f.evidence["saw_done"], false);
    assert!(f.evidence["finish_reason"].is_null());
    assert_eq!(f.evidence["dialect"], "openai-chat");
    silent_on_healthy(truncated);
}

#[test]
fn truncated_is_not_said_of_a_run_that_did_not_complete() {
    let t = sse_ending(vec![(100.0, content("a"))], TraceEnd::Cancelled { at_ms: 300.0 });
    assert_eq!(alone(truncated, t), None);
}

#[test]
fn max_tokens_when_the_model_stopped_at_the_limit() {
    let l = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"length\"}]}\n\n\
             data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":16}}\n\ndata: [DONE]\n\n";
    let f = fires(max_tokens, sse(vec![(100.0, content("a")), (120.0, l.to_string())]));
    assert_eq!((f.code, f.severity), (FindingCode::MaxTokens, Severity::Warning));
    assert_eq!(f.evidence["finish_reason"], "length");
    assert_eq!(f.evidence["completion_tokens"], 16);
    assert!(f.fix.unwrap().contains("max_tokens"));
    silent_on_healthy(max_tokens);
}

#[test]
fn content_filtered_when_a_safety_system_stopped_the_answer() {
    let stop = "data: {\"choices\":[{\"index\":0,\"finish_reason\":\"content_filter\",\"content_filter_results\":{\"hate\":{\"filtered\":true,\"severity\":\"high\"}}}]}\n\ndata: [DONE]\n\n";
    let f = fires(content_filtered, sse(vec![(100.0, content("a")), (120.0, stop.to_string())]));
    assert_eq!((&f.code, f.severity), (&FindingCode::ContentFiltered, Severity::Warning));
    assert_eq!((&f.evidence["finish_reason"], &f.evidence["content_events"]), (&serde_json::json!("content_filter"), &serde_json::json!(1)));
    assert!(f.detail.contains("finish_reason: content_filter") && f.detail.contains("Neither the network nor a proxy"), "{}", f.detail);
    assert!(f.localize(Lang::ZhCn).detail.contains("finish_reason: content_filter"));
    silent_on_healthy(content_filtered);
}

#[test]
fn tool_call_when_a_call_s_arguments_were_the_answer() {
    let args = |a: &str| format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":0,\"function\":{{\"arguments\":\"{a}\"}}}}]}}}}]}}\n\n");
    let t = sse(vec![(100.0, content("Checking.")), (120.0, args("{")), (140.0, args("}")), (160.0, done())]);
    let f = fires(tool_call, t);
    assert_eq!((&f.code, f.severity), (&FindingCode::ToolCall, Severity::Info));
    assert_eq!((&f.evidence["tool_arg_events"], &f.evidence["content_events"]), (&serde_json::json!(2), &serde_json::json!(3)));
    assert!(f.detail.starts_with("2 of the 3 content events carried a tool call's arguments"), "{}", f.detail);
    silent_on_healthy(tool_call);
}

#[test]
fn malformed_json_counts_and_quotes_the_first() {
    let body = content("a") + "data: {oops\n\ndata: {also bad\n\n" + &done();
    let f = fires(malformed_json, sse(vec![(100.0, body)]));
    assert_eq!((f.code, f.severity), (FindingCode::MalformedJson, Severity::Warning));
    assert_eq!(f.evidence["count"], 2);
    assert_eq!(f.evidence["first_example"], "{oops");
    silent_on_healthy(malformed_json);
}

#[test]
fn invalid_utf8_counts_the_replaced_sequences() {
    let mut body = b"data: {\"choices\":[{\"delta\":{\"content\":\"a\xffb\xfe\"}}]}\n\n".to_vec();
    body.extend_from_slice(done().as_bytes());
    let f = fires(invalid_utf8, sse(vec![(100.0, body)]));
    assert_eq!((f.code, f.severity), (FindingCode::InvalidUtf8, Severity::Warning));
    assert_eq!(f.evidence["count"], 2);
    silent_on_healthy(invalid_utf8);
}

#[test]
fn long_line_gives_the_true_length_and_the_limit() {
    let line = content(&"z".repeat(70_000));
    let f = fires(long_line, sse(vec![(100.0, line.clone()), (120.0, done())]));
    assert_eq!((f.code, f.severity), (FindingCode::LongLine, Severity::Warning));
    assert_eq!(f.evidence["longest_line_bytes"].as_u64(), Some(line.trim_end().len() as u64));
    assert_eq!(f.evidence["limit_bytes"].as_u64(), Some(LONG_LINE_BYTES as u64));
    let just_under = content(&"z".repeat(LONG_LINE_BYTES - content("").trim_end().len()));
    assert_eq!(alone(long_line, sse(vec![(100.0, just_under), (120.0, done())])), None);
    silent_on_healthy(long_line);
}

#[test]
fn not_sse_is_a_warning_only_when_labelled_event_stream() {
    let f = fires(not_sse, sse(vec![(100.0, "Hello"), (130.0, " world")]));
    assert_eq!((f.code, f.severity), (FindingCode::NotSse, Severity::Warning));
    assert_eq!(f.evidence["framing"], "raw");
    assert_eq!(f.evidence["mislabelled"], true);
    assert_eq!(f.evidence["content_type"], "text/event-stream");
    let f = fires(not_sse, response("application/x-ndjson", vec![(100.0, "{\"response\":\"a\",\"done\":true}\n")]));
    assert_eq!((f.severity, f.evidence["framing"].as_str()), (Severity::Info, Some("ndjson")));
    assert_eq!(f.evidence["mislabelled"], false);
    silent_on_healthy(not_sse);
}

#[test]
fn sse_wrong_content_type_names_the_declared_type() {
    let f = fires(sse_wrong_content_type, response("application/json", vec![(100.0, content("a") + &done())]));
    assert_eq!((f.code, f.severity), (FindingCode::SseWrongContentType, Severity::Warning));
    assert_eq!(f.evidence["content_type"], "application/json");
    silent_on_healthy(sse_wrong_content_type);
}

#[test]
fn framing_says_how_the_body_was_read_and_nothing_for_an_http_error() {
    let f = fires(framing, healthy());
    assert_eq!((f.code, f.severity), (FindingCode::Framing, Severity::Info));
    assert_eq!(f.evidence["framing"], "sse");
    assert_eq!(f.evidence["dialect"], "openai-chat");
    assert_eq!(f.evidence["mislabelled"], false);
    let t = Trace::from_reads(503, "text/plain", 40.0, vec![(50.0, "down")], TraceEnd::Complete { at_ms: 51.0 });
    assert_eq!(alone(framing, t), None);
    assert_eq!(alone(framing, sse(Vec::<(f64, String)>::new())), None, "no body, no framing");
}

#[test]
fn keepalive_comments_are_counted() {
    let t = sse(vec![(50.0, ": ping\n\n: ping\n\n: ping\n\n".to_string()), (100.0, content("a")), (120.0, done())]);
    let f = fires(keepalive_comments, t);
    assert_eq!((f.code, f.severity), (FindingCode::KeepaliveComments, Severity::Info));
    assert_eq!(f.evidence["count"], 3);
    assert!(f.detail.contains("3 SSE comment lines"), "{}", f.detail);
    silent_on_healthy(keepalive_comments);
}

#[test]
fn role_only_first_chunk_in_its_own_read_splits_ttfb_from_ttft() {
    let role = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
    let t = sse(vec![(60.0, role.to_string()), (300.0, content("a")), (320.0, done())]);
    let f = fires(role_only_first_chunk, t);
    assert_eq!((f.code, f.severity), (FindingCode::RoleOnlyFirstChunk, Severity::Info));
    assert_eq!((f.evidence["at_ms"].as_f64(), f.evidence["ttft_ms"].as_f64()), (Some(60.0), Some(300.0)));
    // In the same read as the first token, it split nothing.
    let t = sse(vec![(300.0, format!("{role}{}", content("a"))), (320.0, done())]);
    assert_eq!(alone(role_only_first_chunk, t), None);
    // A reasoning model: thinking in the role chunk's read split nothing either; thinking that came later
    // is named as the first token the reader saw (not the answer's, 300 ms).
    let thinking = "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hm\"}}]}\n\n";
    let t = sse(vec![(60.0, format!("{role}{thinking}")), (300.0, content("a")), (320.0, done())]);
    assert_eq!(alone(role_only_first_chunk, t), None);
    let t = sse(vec![(60.0, role.to_string()), (90.0, thinking.to_string()), (300.0, content("a")), (320.0, done())]);
    let f = fires(role_only_first_chunk, t);
    assert!(f.detail.ends_with("(the first reasoning token came at 90.0 ms)."), "{}", f.detail);
    silent_on_healthy(role_only_first_chunk);
}

#[test]
fn trace_capped_counts_the_elided_reads_and_says_whether_figures_are_complete() {
    let reads: Vec<String> = (0..4).map(|i| content(&format!("t{i}"))).chain([done()]).collect();
    let mut live = Analyzer::new(Some("text/event-stream"));
    let mut t = sse(Vec::<(f64, String)>::new());
    for (i, r) in reads.iter().enumerate() {
        let at = 100.0 + 20.0 * i as f64;
        live.push(at, r.as_bytes());
        t.reads.push(if i < 3 {
            ReadChunk::new(at, r.clone().into_bytes())
        } else {
            ReadChunk { at_ms: at, bytes: Vec::new(), elided_bytes: r.len() }
        });
    }
    live.finish(400.0);
    let elided = reads[3].len() + reads[4].len();

    let f = trace_capped(&Facts::with_analysis(t.clone(), live.into_analysis()).run()).expect("trace_capped");
    assert_eq!((f.code, f.severity), (FindingCode::TraceCapped, Severity::Info));
    assert_eq!(f.evidence["elided_reads"], 2);
    assert_eq!(f.evidence["elided_bytes"].as_u64(), Some(elided as u64));
    assert_eq!(f.evidence["kept_bytes"].as_u64(), Some(t.kept_bytes() as u64));
    assert_eq!(f.evidence["cap_bytes"].as_u64(), Some(TRACE_BYTES_CAP as u64));
    assert_eq!(f.evidence["reanalysed"], false);
    assert_eq!(fires(trace_capped, t).evidence["reanalysed"], true, "an import analysed again lacks bytes");
    silent_on_healthy(trace_capped);
}

#[test]
fn long_line_says_an_event_was_cut_at_max_event_bytes() {
    let lines = 600_000;
    let body = "data: x\n".repeat(lines) + "\n" + "data: [DONE]\n\n";
    let f = fires(long_line, sse(vec![(100.0, body)]));
    assert_eq!((f.code, f.severity), (FindingCode::LongLine, Severity::Warning));
    assert_eq!(f.title, "A very long event");
    assert_eq!(f.evidence["cut_events"], 1);
    assert_eq!(f.evidence["longest_line_bytes"], 12, "\"data: [DONE]\"");
    assert_eq!(f.evidence["longest_event_bytes"].as_u64(), Some(2 * lines as u64 - 1));
    assert_eq!(f.evidence["discarded_data_lines"].as_u64(), Some((lines - MAX_EVENT_BYTES / 2) as u64));
    assert_eq!(f.evidence["event_limit_bytes"].as_u64(), Some(MAX_EVENT_BYTES as u64));
    assert!(f.detail.contains("1 event carried more than the 1.00 MiB"), "{}", f.detail);
}

/// Regression (issue 10, hostile corpus): 50 MB of raw text kept three copies of itself (the analysis
/// text, every event's text, the live view): 300 MB of wasm memory. Past the cap it is counted only.
#[test]
fn text_past_its_cap_is_counted_not_kept() {
    let piece = "word ".repeat(64 * 1024 / 5);
    let reads: Vec<(f64, String)> = (0..100).map(|i| (10.0 + i as f64, piece.clone())).collect();
    let total_chars: usize = reads.iter().map(|(_, r)| r.chars().count()).sum();
    let t = Trace::from_reads(200, "text/plain", 5.0, reads, crate::trace::TraceEnd::Complete { at_ms: 200.0 });
    let facts = Facts::of(t);
    let run = facts.run();
    assert_eq!(run.analysis.text.len(), MAX_TEXT_BYTES);
    assert_eq!(run.metrics.content_chars, total_chars, "every character is counted");
    let kept_in_events: usize = run.analysis.content_events().map(|e| match &e.kind {
        crate::analysis::EventKind::Content(s) => s.len(),
        _ => 0,
    }).sum();
    assert_eq!(kept_in_events, MAX_TEXT_BYTES, "events past the cap carry no text");
    let f = text_capped(&run).expect("text_capped");
    assert_eq!((f.code, f.severity), (FindingCode::TextCapped, Severity::Info));
    assert_eq!(f.evidence["dropped_chars"].as_u64(), Some((total_chars - MAX_TEXT_BYTES) as u64));
    silent_on_healthy(text_capped);
}

/// `n` words as SSE events: in `field` of a JSON object, each event the whole text so far
/// (`cumulative`) or only its new word; LangGraph's `messages/partial` events when `field` is `None`.
/// Returns the trace and the bytes a cumulative stream repeats (the text before each event).
fn stream_of_words(n: usize, cumulative: bool, field: Option<&str>) -> (Trace, usize) {
    let (mut so_far, mut repeated, mut reads) = (String::new(), 0, Vec::new());
    for i in 0..n {
        let word = format!("word{i} ");
        if cumulative {
            repeated += so_far.len();
        }
        so_far.push_str(&word);
        let value = if cumulative { &so_far } else { &word };
        let event = match field {
            Some(field) => format!("data: {{\"{field}\":\"{value}\"}}\n\n"),
            None => format!("event: messages/partial\ndata: [{{\"type\":\"ai\",\"id\":\"m1\",\"content\":\"{value}\"}}]\n\n"),
        };
        reads.push((100.0 + i as f64, event));
    }
    (sse(reads), repeated)
}

#[test]
fn resent_text_says_how_much_a_stream_of_the_whole_text_so_far_repeated() {
    // 300 words of about 8 bytes: the events repeat about 370 KB of text.
    let (trace, repeated) = stream_of_words(300, true, Some("text"));
    let f = fires(repeated_text, trace);
    assert_eq!((f.code, f.severity), (FindingCode::ResentText, Severity::Info));
    assert_eq!(f.evidence["resent_text_bytes"].as_u64(), Some(repeated as u64));
    assert_eq!(f.evidence["content_events"], 300);
    let body = f.evidence["body_bytes"].as_u64().unwrap() as usize;
    assert!(repeated > body * 9 / 10, "nearly every byte was text said again: {repeated} of {body}");
    assert!(f.detail.contains("300 content events"), "{}", f.detail);
    assert!(f.fix.as_ref().is_some_and(|fix| fix.contains("delta")), "{:?}", f.fix);

    // The same answer sent as deltas repeats nothing; a short cumulative answer repeats too little.
    assert_eq!(alone(repeated_text, stream_of_words(300, false, Some("text")).0), None);
    let (short, short_repeated) = stream_of_words(100, true, Some("text"));
    assert!(short_repeated < RESENT_TEXT_BYTES, "{short_repeated}");
    assert_eq!(alone(repeated_text, short), None);
    silent_on_healthy(repeated_text);
}

#[test]
fn resent_text_of_langgraph_messages_says_to_stream_message_tuples() {
    let (trace, repeated) = stream_of_words(300, true, None);
    let facts = Facts::of(trace);
    let run = facts.run();
    assert_eq!(run.analysis.dialect, Dialect::LangGraph);
    assert_eq!(run.analysis.content_chars, (0..300).map(|i| format!("word{i} ").len()).sum::<usize>(), "each word once");
    let f = said_in_both(repeated_text(&run).expect("resent_text"));
    assert_eq!(f.evidence["resent_text_bytes"].as_u64(), Some(repeated as u64));
    assert!(f.fix.as_ref().is_some_and(|fix| fix.contains("messages-tuple")), "{:?}", f.fix);
}

/// `n` reads at 1 ms apart from `start_ms`, each `chunk` of a word `{prefix}{i} ` or, `cumulative`, of
/// every word so far; with the bytes a cumulative stream repeats (the text before each read).
fn words_so_far(n: usize, cumulative: bool, prefix: &str, start_ms: f64, chunk: fn(&str) -> String) -> (Vec<(f64, String)>, usize) {
    let (mut so_far, mut repeated) = (String::new(), 0);
    let reads = (0..n)
        .map(|i| {
            let word = format!("{prefix}{i} ");
            if cumulative && i > 0 {
                repeated += so_far.len();
            }
            so_far.push_str(&word);
            (start_ms + i as f64, chunk(if cumulative { &so_far } else { &word }))
        })
        .collect();
    (reads, repeated)
}

/// `n` OpenAI chat chunks, each with the whole text so far (`cumulative`) or only its new word, and the
/// end marker; with the bytes a cumulative stream repeats.
fn openai_words(n: usize, cumulative: bool) -> (Trace, usize) {
    let (mut reads, repeated) = words_so_far(n, cumulative, "w", 100.0, content);
    reads.push((100.0 + n as f64, done()));
    (sse(reads), repeated)
}

#[test]
fn cumulative_deltas_say_that_a_client_shows_the_answer_over_and_over() {
    let (trace, repeated) = openai_words(20, true);
    let facts = Facts::of(trace);
    let run = facts.run();
    // Kept as sent: the answer as a client that appends each delta shows it.
    assert!(run.analysis.text.starts_with("w0 w0 w1 w0 w1 w2 "), "{}", run.analysis.text);
    let f = said_in_both(repeated_text(&run).expect("cumulative_deltas"));
    assert_eq!((f.code, f.severity), (FindingCode::CumulativeDeltas, Severity::Warning));
    // Every chunk after the first repeated the one before it.
    assert_eq!(f.evidence["cumulative_events"], 19);
    assert_eq!(f.evidence["content_events"], 20);
    assert_eq!(f.evidence["resent_text_bytes"].as_u64(), Some(repeated as u64));
    assert!(f.detail.contains("19 of the 20 content events"), "{}", f.detail);
    assert!(f.fix.as_ref().is_some_and(|fix| fix.contains("hop ladder")), "{:?}", f.fix);

    // The same answer in deltas, and a cumulative start too short to be more than chance, say nothing.
    assert_eq!(alone(repeated_text, openai_words(20, false).0), None);
    assert_eq!(alone(repeated_text, openai_words(3, true).0), None);
    silent_on_healthy(repeated_text);
}

/// `n` OpenAI chat chunks of reasoning (`reasoning_content`), each the whole reasoning so far
/// (`cumulative`) or only its new word, then 10 content deltas and the end marker; with the bytes the
/// cumulative reasoning repeats.
fn openai_reasoning(n: usize, cumulative: bool) -> (Trace, usize) {
    let reasoning = |text: &str| format!("data: {{\"choices\":[{{\"delta\":{{\"reasoning_content\":\"{text}\"}}}}]}}\n\n");
    let (mut reads, repeated) = words_so_far(n, cumulative, "r", 50.0, reasoning);
    reads.extend(words_so_far(10, false, "w", 100.0, content).0);
    reads.push((120.0, done()));
    (sse(reads), repeated)
}

#[test]
fn cumulative_reasoning_says_that_a_client_shows_the_reasoning_over_and_over() {
    let (trace, repeated) = openai_reasoning(12, true);
    let facts = Facts::of(trace);
    let run = facts.run();
    // Kept as sent; the answer after it, in deltas, is read as it was.
    assert!(run.analysis.reasoning_text.starts_with("r0 r0 r1 r0 r1 r2 "), "{}", run.analysis.reasoning_text);
    assert!(run.analysis.text.starts_with("w0 w1 w2 "), "{}", run.analysis.text);
    let f = said_in_both(repeated_text(&run).expect("cumulative_deltas"));
    assert_eq!((f.code, f.severity), (FindingCode::CumulativeDeltas, Severity::Warning));
    assert_eq!(f.evidence["cumulative_reasoning_events"], 11);
    assert_eq!(f.evidence["reasoning_events"], 12);
    assert_eq!(f.evidence["cumulative_events"], 0);
    assert_eq!(f.evidence["content_events"], 10);
    assert_eq!(f.evidence["resent_text_bytes"].as_u64(), Some(repeated as u64));
    assert!(f.title.contains("reasoning so far"), "{}", f.title);
    assert!(f.detail.contains("11 of the 12 reasoning events"), "{}", f.detail);
    assert!(f.fix.as_ref().is_some_and(|fix| fix.contains("hop ladder")), "{:?}", f.fix);

    // Reasoning in deltas, and a cumulative start too short to be more than chance, say nothing.
    assert_eq!(alone(repeated_text, openai_reasoning(12, false).0), None);
    assert_eq!(alone(repeated_text, openai_reasoning(3, true).0), None);
}

#[test]
fn a_long_stream_of_cumulative_deltas_is_said_once_and_a_text_stream_of_the_text_so_far_is_not_a_delta_stream() {
    let code = |trace: Trace| {
        let facts = Facts::of(trace);
        let run = facts.run();
        (run.analysis.dialect, run.analysis.resent_text_bytes, repeated_text(&run).map(|f| f.code))
    };
    // Over the 64 KiB of resent_text, an OpenAI stream of the text so far is a delta stream's bug.
    let (dialect, resent, said) = code(openai_words(300, true).0);
    assert_eq!((dialect, said), (Dialect::OpenaiChat, Some(FindingCode::CumulativeDeltas)));
    assert!(resent > RESENT_TEXT_BYTES, "{resent}");
    // json-text reads the text so far as such (each event's new part): resent_text, not a bug of deltas.
    let (dialect, _, said) = code(stream_of_words(300, true, Some("text")).0);
    assert_eq!((dialect, said), (Dialect::JsonText, Some(FindingCode::ResentText)));
}

#[test]
fn raw_text_of_one_repeated_word_is_not_a_stream_of_cumulative_deltas() {
    // Each read starts with the one before it, as the network cut a text of one word said again.
    let reads: Vec<(f64, String)> = (1..10).map(|i| (100.0 + i as f64, "ab".repeat(i))).collect();
    let facts = Facts::of(response("text/plain", reads));
    assert_eq!(facts.analysis.framing, Some(crate::wire::Framing::Raw));
    assert_eq!(facts.analysis.cumulative_events, 0);
    assert_eq!(repeated_text(&facts.run()), None);
}
