//! Every dialect's recorded stream, replayed one message per read, gives the same kind of report:
//! content, reasoning, usage-based TPOT, cache figures, stop reason; a stream cut before its end marker
//! is `truncated`, one stopped by the token limit is `max_tokens`. (That each fixture parses the same
//! however it is split is checked in `split_fixtures.rs`.)

use streamscope_core::{FindingCode, StopReason};
use streamscope_core::dialect::content_filter::FilterMode;
use streamscope_core::analysis::analyze;
use streamscope_core::measure::{CacheSource, TokenCountSource};
use streamscope_core::{Dialect, EventKind, Report, Trace, TraceEnd, Verdict};

const RESPONSES: &str = include_str!("fixtures/openai_responses.sse");
const ANTHROPIC: &str = include_str!("fixtures/anthropic_messages.sse");
const GEMINI: &str = include_str!("fixtures/gemini.sse");
const GEMINI_ARRAY: &str = include_str!("fixtures/gemini_array.json");
const OLLAMA_GENERATE: &str = include_str!("fixtures/ollama_generate.ndjson");

const LLAMA_CPP: &str = include_str!("fixtures/llama_cpp_completion.sse");
const TGI: &str = include_str!("fixtures/tgi_generate_stream.sse");
const TGI_WHOLE: &str = include_str!("fixtures/tgi_generate.json");
const COHERE_V1: &str = include_str!("fixtures/cohere_v1_chat.jsonl");
const REPLICATE: &str = include_str!("fixtures/replicate_stream.sse");
const OPENAI_WHOLE: &str = include_str!("fixtures/openai_chat_completion.json");
const KOBOLDCPP: &str = include_str!("fixtures/koboldcpp_stream.sse");
const CUMULATIVE: &str = include_str!("fixtures/custom_cumulative.ndjson");
const MISTRAL_MAGISTRAL: &str = include_str!("fixtures/mistral_magistral.sse");
const AI_SDK: &str = include_str!("fixtures/ai_sdk_ui_message_stream.sse");
const AI_SDK_4: &str = include_str!("fixtures/ai_sdk_data_stream.txt");
const DIFY: &str = include_str!("fixtures/dify_chat_messages.sse");
const AG_UI: &str = include_str!("fixtures/ag_ui_run.sse");
const LANGGRAPH: &str = include_str!("fixtures/langgraph_messages_tuple.sse");
const LANGSERVE: &str = include_str!("fixtures/langserve_stream.sse");
const LANGSERVE_EVENTS: &str = include_str!("fixtures/langserve_stream_events.sse");
const LANGGRAPH_PARTIAL: &str = include_str!("fixtures/langgraph_messages_partial.sse");
const LANGSERVE_TEXT: &str = include_str!("fixtures/langserve_stream_text.sse");
const WORKERS_AI: &str = include_str!("fixtures/workers_ai.sse");
const COHERE: &str = include_str!("fixtures/cohere_chat.sse");
const TOOL_CALL: &str = include_str!("fixtures/openai_tool_call.sse");
const AZURE_DEFAULT: &str = include_str!("fixtures/azure_openai_default.sse");
const AZURE_ASYNC: &str = include_str!("fixtures/azure_openai_async.sse");

const SSE: &str = "text/event-stream";
const NDJSON: &str = "application/x-ndjson";

/// The messages of a body, each with its separator.
fn messages<'a>(body: &'a str, sep: &str) -> Vec<&'a str> {
    body.split_inclusive(sep).collect()
}

/// One message per read, 20 ms apart from 100 ms, ended complete 5 ms after the last.
fn trace(content_type: &str, parts: &[&str]) -> Trace {
    let reads: Vec<(f64, String)> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| (100.0 + 20.0 * i as f64, p.to_string()))
        .collect();
    let end = 105.0 + 20.0 * parts.len() as f64;
    Trace::from_reads(
        200,
        content_type,
        50.0,
        reads,
        TraceEnd::Complete { at_ms: end },
    )
}

fn report(content_type: &str, parts: &[&str]) -> Report {
    Report::from_trace(&trace(content_type, parts))
}

fn codes(r: &Report) -> Vec<&str> {
    r.findings.iter().map(|f| f.code.as_str()).collect()
}

/// Drops the messages for which `drop` is true.
fn without<'a>(parts: &[&'a str], drop: impl Fn(&str) -> bool) -> Vec<&'a str> {
    parts.iter().copied().filter(|p| !drop(p)).collect()
}

#[test]
fn openai_responses_fixture() {
    let parts = messages(RESPONSES, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::OpenaiResponses);
    assert_eq!(
        a.text,
        "The sky looks blue because air scatters short wavelengths more — 🌈."
    );
    assert_eq!(
        a.reasoning_text,
        "**Answering a sky question**\n\nRayleigh scattering."
    );
    assert_eq!(a.events[0].kind, EventKind::RoleOnly);
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming);
    assert_eq!(r.content_events, 13);
    // 61 output tokens, 48 of them reasoning: 13 answer tokens.
    assert_eq!(
        (r.tpot_n, r.tpot_n_source),
        (Some(13), Some(TokenCountSource::Usage))
    );
    let cache = r.cache.unwrap();
    assert_eq!(
        (cache.hit_tokens, cache.miss_tokens, cache.source),
        (1152, 168, CacheSource::OpenaiResponses)
    );
    assert_eq!(r.finish_reason, Some(StopReason::Stop));
    assert!(r.reasoning_ttft_ms.unwrap() < r.ttft_ms.unwrap());
    assert!(codes(&r).contains(&"role_only_first_chunk"));
    assert!(!codes(&r).contains(&"truncated"), "{:?}", codes(&r));
}

#[test]
fn openai_responses_cut_off_and_incomplete() {
    let parts = messages(RESPONSES, "\n\n");
    let cut = without(&parts, |p| p.contains("response.completed"));
    let r = report(SSE, &cut);
    assert!(codes(&r).contains(&"truncated"), "{:?}", codes(&r));
    assert!(r
        .findings
        .iter()
        .any(|f| f.detail.contains("response.completed")));

    let incomplete = RESPONSES
        .replace("event: response.completed", "event: response.incomplete")
        .replace(
            "\"type\":\"response.completed\"",
            "\"type\":\"response.incomplete\"",
        )
        .replace(
            "\"incomplete_details\":null,\"model\":\"o4-mini-2025-04-16\",\"output\":[],\"usage\":{",
            "\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"model\":\"o4-mini-2025-04-16\",\"output\":[],\"usage\":{",
        );
    let r = report(SSE, &messages(&incomplete, "\n\n"));
    assert_eq!(r.finish_reason, Some(StopReason::Length));
    assert!(codes(&r).contains(&"max_tokens"), "{:?}", codes(&r));
    assert!(!codes(&r).contains(&"truncated"));
    let f = r.findings.iter().find(|f| f.code == FindingCode::MaxTokens).unwrap();
    assert!(f.fix.as_deref().unwrap().contains("max_output_tokens"));
}

#[test]
fn anthropic_fixture() {
    let parts = messages(ANTHROPIC, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::Anthropic);
    assert_eq!(
        a.text,
        "Sunlight scatters off air molecules; blue light scatters most — so the sky looks blue ☀️."
    );
    assert_eq!(
        a.reasoning_text,
        "The user asks  why the sky is blue.\nShort answer: Rayleigh."
    );
    assert_eq!(a.keepalive_comments, 1, "ping is a keep-alive");
    assert!(a.saw_done);
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming);
    assert_eq!(r.content_events, 17);
    // `output_tokens` holds the thinking tokens: TPOT runs from the first thinking token to the last token.
    assert_eq!(
        (r.tpot_n, r.tpot_n_source),
        (Some(58), Some(TokenCountSource::UsageWithReasoning))
    );
    let usage = r.usage.clone().unwrap();
    assert_eq!(
        (usage.prompt_tokens, usage.completion_tokens),
        (Some(1864), Some(58))
    );
    let cache = r.cache.unwrap();
    assert_eq!(
        (cache.hit_tokens, cache.miss_tokens, cache.source),
        (1843, 21, CacheSource::Anthropic)
    );
    assert_eq!(r.finish_reason, Some(StopReason::Stop));
    for code in ["keepalive_comments", "role_only_first_chunk"] {
        assert!(codes(&r).contains(&code), "missing {code}");
    }
    assert!(!codes(&r).contains(&"truncated"));
}

#[test]
fn anthropic_cut_off_and_max_tokens() {
    let parts = messages(ANTHROPIC, "\n\n");
    // Cut after message_delta: the stop reason came, message_stop did not.
    let cut = without(&parts, |p| p.contains("message_stop"));
    let r = report(SSE, &cut);
    assert!(codes(&r).contains(&"truncated"), "{:?}", codes(&r));
    assert!(r.findings.iter().any(|f| f.detail.contains("message_stop")));

    let limited = ANTHROPIC.replace(
        "\"stop_reason\":\"end_turn\"",
        "\"stop_reason\":\"max_tokens\"",
    );
    let r = report(SSE, &messages(&limited, "\n\n"));
    assert_eq!(r.finish_reason, Some(StopReason::Length));
    let f = r.findings.iter().find(|f| f.code == FindingCode::MaxTokens).unwrap();
    assert!(f.detail.contains("stop_reason: max_tokens"));
}

#[test]
fn anthropic_error_event_is_a_stream_error() {
    let mut parts = messages(ANTHROPIC, "\n\n");
    parts.truncate(8);
    let error = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    parts.push(error);
    let r = report(SSE, &parts);
    let f = r
        .findings
        .iter()
        .find(|f| f.code == FindingCode::StreamError)
        .unwrap();
    assert!(f.detail.contains("Overloaded"), "{}", f.detail);
}

#[test]
fn gemini_fixture() {
    let parts = messages(GEMINI, "\r\n\r\n");
    assert_eq!(parts.len(), 4);
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::Gemini);
    assert_eq!(
        a.text,
        "The sky is blue because air scatters short wavelengths — Rayleigh scattering 🌈."
    );
    assert!(a.reasoning_text.starts_with("**Explaining the colour**"));
    let r = Report::from_trace(&t);
    assert_eq!(r.content_events, 3);
    // candidates 16 + thoughts 37 = 53 generated, 16 of them answer tokens.
    let usage = r.usage.clone().unwrap();
    assert_eq!(
        (usage.completion_tokens, usage.reasoning_tokens),
        (Some(53), Some(37))
    );
    assert_eq!(
        (r.tpot_n, r.tpot_n_source),
        (Some(16), Some(TokenCountSource::Usage))
    );
    let cache = r.cache.unwrap();
    assert_eq!(
        (cache.hit_tokens, cache.miss_tokens, cache.source),
        (1024, 186, CacheSource::Gemini)
    );
    assert_eq!(r.finish_reason, Some(StopReason::Stop));
    assert!(!codes(&r).contains(&"truncated"));

    let cut = report(SSE, &parts[..3]);
    assert!(codes(&cut).contains(&"truncated"), "{:?}", codes(&cut));
    let limited = GEMINI.replace(
        "\"finishReason\":\"STOP\"",
        "\"finishReason\":\"MAX_TOKENS\"",
    );
    let r = report(SSE, &messages(&limited, "\r\n\r\n"));
    let f = r.findings.iter().find(|f| f.code == FindingCode::MaxTokens).unwrap();
    assert!(f.fix.as_deref().unwrap().contains("maxOutputTokens"));
}

#[test]
fn ollama_generate_fixture() {
    let parts = messages(OLLAMA_GENERATE, "\n");
    let t = trace(NDJSON, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::Ollama);
    assert_eq!(a.text, "Blue light bends and scatters\nnoon");
    assert_eq!(a.reasoning_text, "Okay, the user wants a haiku.");
    let r = Report::from_trace(&t);
    assert_eq!(r.content_events, 7);
    // `eval_count` holds the 3 thinking tokens: 10 tokens, one per message, 20 ms apart (6 answer
    // messages apart over 9 gave 16.7 ms before).
    assert_eq!(
        (r.tpot_n, r.tpot_n_source, r.tpot_ms),
        (Some(10), Some(TokenCountSource::UsageWithReasoning), Some(20.0))
    );
    assert_eq!(r.usage.as_ref().unwrap().prompt_tokens, Some(18));
    assert_eq!(r.cache, None, "Ollama reports no cache figures");
    assert_eq!(r.finish_reason, Some(StopReason::Length));
    let f = r.findings.iter().find(|f| f.code == FindingCode::MaxTokens).unwrap();
    assert!(f.fix.as_deref().unwrap().contains("num_predict"));

    let cut = report(NDJSON, &parts[..parts.len() - 1]);
    assert!(codes(&cut).contains(&"truncated"), "{:?}", codes(&cut));
}

#[test]
fn azure_default_filter_marks_its_text_as_vetted() {
    let parts = messages(AZURE_DEFAULT, "\n\n");
    let r = report(SSE, &parts);
    assert_eq!(r.dialect, Dialect::OpenaiChat);
    assert_eq!(r.content_events, 10);
    let filter = r.content_filter.expect("a content filter");
    assert_eq!((filter.mode, filter.vetted_content_events, filter.annotation_events), (FilterMode::Batched, 10, 0));
    let json = r.to_json_pretty();
    assert!(json.contains("\"content_filter\": {\n    \"mode\": \"batched\""), "{json}");
    // The prompt annotation's `created: 0` is no time (read as one, every Azure stream was a replay from
    // 1970): the chunks' own time is kept, so a run 5 s after it is live and one a day after is a replay.
    let mut t = trace(SSE, &parts);
    assert_eq!(analyze(&t).created_unix_s, Some(1_764_950_400.0));
    t.started_unix_ms = Some(1_764_950_400_000.0 + 5_000.0);
    assert!(!codes(&Report::from_trace(&t)).contains(&"cached_replay"));
    t.started_unix_ms = Some(1_764_950_400_000.0 + 86_400_000.0);
    assert!(codes(&Report::from_trace(&t)).contains(&"cached_replay"));
    // Read back the same.
    assert_eq!(Report::from_json(&json).unwrap().content_filter, Some(filter));
}

#[test]
fn azure_async_filter_annotations_are_not_text() {
    let parts = messages(AZURE_ASYNC, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.text, "Streams arrive in batches when the filter checks them.");
    let r = Report::from_trace(&t);
    assert_eq!(r.content_events, 10);
    let filter = r.content_filter.expect("a content filter");
    assert_eq!((filter.mode, filter.vetted_content_events, filter.annotation_events), (FilterMode::Asynchronous, 0, 2));
    assert_eq!(r.verdict, Verdict::Streaming);
    assert!(!codes(&r).contains(&"bursts"), "{:?}", codes(&r));
}

#[test]
fn a_plain_openai_stream_has_no_content_filter_in_its_report() {
    let plain: Vec<String> = messages(AZURE_ASYNC, "\n\n")
        .into_iter()
        .filter(|p| !p.contains("content_filter") && !p.contains("prompt_annotations"))
        .map(str::to_string)
        .collect();
    let parts: Vec<&str> = plain.iter().map(String::as_str).collect();
    let r = report(SSE, &parts);
    assert_eq!(r.content_events, 10);
    assert_eq!(r.content_filter, None);
    assert!(!r.to_json_pretty().contains("content_filter"));
}

#[test]
fn a_content_filter_stop_is_said_in_each_dialect_s_words() {
    let azure = "data: {\"choices\":[{\"delta\":{\"content\":\"Hey\"},\"index\":0}]}\n\n\
                 data: {\"choices\":[{\"index\":0,\"finish_reason\":\"content_filter\",\"content_filter_results\":{\"protected_material_text\":{\"detected\":true,\"filtered\":true}},\"content_filter_offsets\":{\"check_offset\":65,\"start_offset\":65,\"end_offset\":1056}}]}\n\n\
                 data: [DONE]\n\n";
    let r = report(SSE, &messages(azure, "\n\n"));
    assert_eq!(r.finish_reason, Some(StopReason::ContentFilter));
    let f = r.findings.iter().find(|f| f.code == FindingCode::ContentFiltered).expect("content_filtered");
    assert!(f.detail.contains("finish_reason: content_filter"), "{}", f.detail);
    assert!(!codes(&r).contains(&"truncated"), "{:?}", codes(&r));
    // Anthropic's refusal.
    let refusal: Vec<String> = messages(ANTHROPIC, "\n\n").into_iter().map(|p| p.replace("\"end_turn\"", "\"refusal\"")).collect();
    let parts: Vec<&str> = refusal.iter().map(String::as_str).collect();
    let r = report(SSE, &parts);
    assert_eq!(r.finish_reason, Some(StopReason::ContentFilter));
    let f = r.findings.iter().find(|f| f.code == FindingCode::ContentFiltered).expect("content_filtered");
    assert!(f.detail.contains("stop_reason: refusal"), "{}", f.detail);
    // A natural end says nothing of the kind.
    assert!(!codes(&report(SSE, &messages(AZURE_DEFAULT, "\n\n"))).contains(&"content_filtered"));
}

#[test]
fn a_tool_call_answer_is_timed_as_its_arguments_stream() {
    let parts = messages(TOOL_CALL, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.text, "{\"location\":\"Paris, France\",\"unit\":\"celsius\"}");
    assert_eq!((a.tool_arg_events, a.content_event_count), (12, 12));
    assert_eq!(a.tool_names, ["get_weather"]);
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert_eq!(r.finish_reason, Some(StopReason::ToolCalls));
    // The first fragment came in the second message (120 ms); the usage's 12 tokens span 11 gaps of 20 ms.
    assert_eq!(r.ttft_ms, Some(120.0));
    assert_eq!(r.tpot_ms, Some(20.0));
    assert!(!codes(&r).contains(&"no_content"), "{:?}", codes(&r));
    let f = r.findings.iter().find(|f| f.code == FindingCode::ToolCall).expect("tool_call");
    assert_eq!((&f.evidence["tool_arg_events"], &f.evidence["content_events"]), (&serde_json::json!(12), &serde_json::json!(12)));
    assert!(f.detail.starts_with("12 of the 12 content events carried a tool call's arguments"), "{}", f.detail);
    assert_eq!((f.title.as_str(), &f.evidence["tool_names"]), ("The answer was a tool call: get_weather", &serde_json::json!(["get_weather"])));
    // A plain answer says nothing of it.
    assert!(!codes(&report(SSE, &messages(AZURE_DEFAULT, "\n\n"))).contains(&"tool_call"));
}

#[test]
fn cohere_fixture() {
    let parts = messages(COHERE, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::Cohere);
    assert_eq!(a.text, "The sky looks blue because air scatters blue light most.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert_eq!((r.content_events, r.finish_reason.clone()), (11, Some(StopReason::Stop)));
    // message-start (100 ms) and content-start come before the first token (140 ms); usage's 11 tokens.
    assert_eq!(r.ttft_ms, Some(140.0));
    assert_eq!(r.tpot_n_source, Some(TokenCountSource::Usage));
    assert_eq!(r.usage.as_ref().and_then(|u| u.prompt_tokens), Some(205));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content"].contains(c)), "{:?}", codes(&r));
    // Cut before message-end: truncated; stopped at the limit: max_tokens.
    let cut = without(&parts, |p| p.contains("message-end"));
    assert!(codes(&report(SSE, &cut)).contains(&"truncated"));
    let limit: Vec<String> = parts.iter().map(|p| p.replace("COMPLETE", "MAX_TOKENS")).collect();
    let limit: Vec<&str> = limit.iter().map(String::as_str).collect();
    let r = report(SSE, &limit);
    assert_eq!(r.finish_reason, Some(StopReason::Length));
    let f = r.findings.iter().find(|f| f.code == FindingCode::MaxTokens).expect("max_tokens");
    assert!(f.detail.contains("finish_reason: MAX_TOKENS"), "{}", f.detail);
}

#[test]
fn workers_ai_fixture() {
    let parts = messages(WORKERS_AI, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::WorkersAi);
    assert_eq!(a.text, "Hello! How can I help you today?");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert_eq!((r.content_events, r.ttft_ms), (9, Some(100.0)));
    assert_eq!(r.tpot_n_source, Some(TokenCountSource::Usage));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content"].contains(c)), "{:?}", codes(&r));
    let cut = without(&parts, |p| p.contains("[DONE]"));
    assert!(codes(&report(SSE, &cut)).contains(&"truncated"));
}

#[test]
fn llama_cpp_fixture() {
    let parts = messages(LLAMA_CPP, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::LlamaCpp);
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert_eq!((r.content_events, r.finish_reason.clone()), (10, Some(StopReason::Stop)));
    assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(24), Some(10))));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content"].contains(c)), "{:?}", codes(&r));
    let cut = without(&parts, |p| p.contains("\"stop\":true"));
    assert!(codes(&report(SSE, &cut)).contains(&"truncated"));
    let limit: Vec<String> = parts.iter().map(|p| p.replace("\"stop_type\":\"eos\"", "\"stop_type\":\"limit\"")).collect();
    let limit: Vec<&str> = limit.iter().map(String::as_str).collect();
    let f = report(SSE, &limit).findings.into_iter().find(|f| f.code == FindingCode::MaxTokens).expect("max_tokens");
    assert!(f.detail.contains("stop_type: limit") && f.fix.unwrap().contains("n_predict"));
}

#[test]
fn tgi_fixture() {
    let parts = messages(TGI, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::Tgi);
    // The closing `<|eot_id|>` is a special token: not in the answer, not a content event.
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert_eq!((r.content_events, r.finish_reason.clone()), (11, Some(StopReason::Stop)));
    assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(24), Some(12))));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content"].contains(c)), "{:?}", codes(&r));
    let cut = without(&parts, |p| p.contains("\"generated_text\":\"R"));
    assert!(codes(&report(SSE, &cut)).contains(&"truncated"));
    let limit: Vec<String> = parts.iter().map(|p| p.replace("\"eos_token\"", "\"length\"")).collect();
    let limit: Vec<&str> = limit.iter().map(String::as_str).collect();
    let f = report(SSE, &limit).findings.into_iter().find(|f| f.code == FindingCode::MaxTokens).expect("max_tokens");
    assert!(f.detail.contains("details.finish_reason: length") && f.fix.unwrap().contains("max_new_tokens"));
}

#[test]
fn cohere_v1_chat_lines() {
    // Cohere's v1 chat stream: JSON lines, `application/stream+json`. It was read as Ollama's (its last
    // line has a `response`) and called `failed` (`no_content`).
    let parts = messages(COHERE_V1, "\n");
    let t = trace("application/stream+json", &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::Cohere);
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    // stream-start (100 ms) comes before the first token (120 ms).
    assert_eq!((r.content_events, r.ttft_ms, r.finish_reason.clone()), (10, Some(120.0), Some(StopReason::Stop)));
    assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(71), Some(10))));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "malformed_json"].contains(c)), "{:?}", codes(&r));
    let cut = without(&parts, |p| p.contains("stream-end"));
    assert!(codes(&report("application/stream+json", &cut)).contains(&"truncated"));
}

#[test]
fn replicate_output_and_done() {
    // Replicate's prediction stream: the text itself in `event: output`, then `event: done` with `{}`,
    // which was read as two more characters of the answer.
    let parts = messages(REPLICATE, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::SseText);
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    assert!(a.saw_done);
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert_eq!(r.content_events, 10);
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "malformed_json"].contains(c)), "{:?}", codes(&r));
}

#[test]
fn json_text_a_common_field_of_events_no_dialect_claims() {
    // KoboldCpp's stream (`event: message`, `{"token", "finish_reason"}`): it had no content at all,
    // `failed`; and a hand-written backend's JSON lines of the whole text so far, read as what is new.
    const SENTENCE: &str = "Rayleigh scattering sends short blue waves in every direction.";
    for (content_type, body, sep, usage) in [(SSE, KOBOLDCPP, "\n\n", None), (NDJSON, CUMULATIVE, "\n", Some((Some(12), Some(10))))] {
        let parts = messages(body, sep);
        let t = trace(content_type, &parts);
        let a = analyze(&t);
        assert_eq!((a.dialect, a.text.as_str()), (Dialect::JsonText, SENTENCE), "{body:.80}");
        let r = Report::from_trace(&t);
        assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
        assert_eq!((r.content_events, r.finish_reason.clone()), (10, Some(StopReason::Stop)));
        assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), usage);
        assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "malformed_json"].contains(c)), "{:?}", codes(&r));
    }
    // Anthropic's legacy completions and Mistral's conversations, each a few events.
    let legacy = ["event: completion\ndata: {\"type\":\"completion\",\"completion\":\" Hello\",\"stop_reason\":null,\"model\":\"claude-2.1\"}\n\n",
        "event: completion\ndata: {\"type\":\"completion\",\"completion\":\" world\",\"stop_reason\":\"stop_sequence\",\"model\":\"claude-2.1\"}\n\n"];
    let r = report(SSE, &legacy);
    assert_eq!((r.dialect, r.finish_reason.clone(), r.content_events), (Dialect::JsonText, Some(StopReason::Stop), 2));
    let mistral = ["event: conversation.response.started\ndata: {\"type\":\"conversation.response.started\",\"conversation_id\":\"c\"}\n\n",
        "event: message.output.delta\ndata: {\"type\":\"message.output.delta\",\"output_index\":0,\"id\":\"m\",\"content_index\":0,\"role\":\"assistant\",\"content\":\"Hello\"}\n\n",
        "event: message.output.delta\ndata: {\"type\":\"message.output.delta\",\"output_index\":0,\"id\":\"m\",\"content_index\":0,\"role\":\"assistant\",\"content\":\" world\"}\n\n",
        "event: conversation.response.done\ndata: {\"type\":\"conversation.response.done\",\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,\"total_tokens\":7}}\n\n"];
    let t = trace(SSE, &mistral);
    let (a, r) = (analyze(&t), Report::from_trace(&t));
    assert_eq!((a.dialect, a.text.as_str(), r.content_events), (Dialect::JsonText, "Hello world", 2));
    assert_eq!(r.usage.as_ref().and_then(|u| u.completion_tokens), Some(2));
    // A dialect of its own that shows itself later takes over: an OpenAI chunk after a hand-written event.
    let mixed = ["data: {\"content\":\"Hi\"}\n\n", "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there\"}}]}\n\n"];
    let a = analyze(&trace(SSE, &mixed));
    assert_eq!((a.dialect, a.text.as_str()), (Dialect::OpenaiChat, "Hi there"));
}

#[test]
fn one_json_answer_is_collected_and_says_how_to_ask_for_a_stream() {
    // A request that did not ask to stream: OpenAI's answer pretty-printed over 25 lines (it was
    // `failed`, `malformed_json`: each line read as JSON on its own), Anthropic's and Gemini's whole
    // answers (`failed`, `no_content`: not read), Ollama's `"stream": false` and TGI's `/generate` (both
    // `streaming`). Whatever its timing, one JSON answer came whole: `collected`, and the fix says how to
    // ask for a stream.
    const SENTENCE: &str = "Rayleigh scattering sends short blue waves in every direction.";
    let anthropic = format!(r#"{{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"text","text":"{SENTENCE}"}}],"stop_reason":"end_turn","usage":{{"input_tokens":13,"output_tokens":10}}}}"#);
    let gemini = format!(r#"{{"candidates":[{{"content":{{"parts":[{{"text":"{SENTENCE}"}}],"role":"model"}},"finishReason":"STOP"}}],"usageMetadata":{{"promptTokenCount":13,"candidatesTokenCount":10}}}}"#);
    let ollama = format!(r#"{{"model":"llama3.2","message":{{"role":"assistant","content":"{SENTENCE}"}},"done":true,"done_reason":"stop","prompt_eval_count":13,"eval_count":10}}"#);
    for (body, dialect, fix, tokens) in [
        (OPENAI_WHOLE.to_string(), Dialect::OpenaiChat, "\"stream\": true", 10),
        (anthropic, Dialect::Anthropic, "\"stream\": true", 10),
        (gemini, Dialect::Gemini, "streamGenerateContent?alt=sse", 10),
        (ollama, Dialect::Ollama, "remove \"stream\": false", 10),
        (TGI_WHOLE.to_string(), Dialect::Tgi, "/generate_stream", 12),
    ] {
        // The headers with the whole answer, 2 s in: the model's whole generation.
        let t = Trace::from_reads(200, "application/json", 2000.0, vec![(2001.0, body.clone())], TraceEnd::Complete { at_ms: 2002.0 });
        let a = analyze(&t);
        assert_eq!((a.dialect, a.text.as_str(), a.messages), (dialect, SENTENCE, 1), "{body:.80}");
        let r = Report::from_trace(&t);
        assert_eq!(r.verdict, Verdict::Collected, "{dialect:?}: {:?}", codes(&r));
        assert_eq!(r.usage.as_ref().and_then(|u| u.completion_tokens), Some(tokens), "{dialect:?}");
        let f = r.findings.iter().find(|f| f.code == FindingCode::Collected).expect("collected");
        assert!(f.title.contains("one JSON object") && f.fix.as_deref().is_some_and(|x| x.contains(fix)), "{dialect:?}: {f:?}");
        assert_eq!(f.evidence["one_json_answer"], true);
        // Its held headers and its length are what any such answer has: not said as causes.
        let said = codes(&r);
        assert!(["malformed_json", "headers_held", "content_length"].iter().all(|c| !said.contains(c)), "{said:?}");
    }
    // With a Content-Length and held headers, as a server sends one JSON answer: still only `collected`.
    let mut t = Trace::from_reads(200, "application/json", 2000.0, vec![(2001.0, OPENAI_WHOLE.to_string())], TraceEnd::Complete { at_ms: 2002.0 });
    t.headers.push(("content-length".into(), OPENAI_WHOLE.len().to_string()));
    let said = codes(&Report::from_trace(&t)).join(" ");
    assert!(said.contains("collected") && !said.contains("content_length") && !said.contains("headers_held"), "{said}");
    // The same answer cut before its last lines: malformed, not read.
    let cut: String = OPENAI_WHOLE.lines().take(12).map(|l| format!("{l}\n")).collect();
    let r = report("application/json", &[cut.as_str()]);
    assert!(codes(&r).contains(&"malformed_json") && r.verdict == Verdict::Failed, "{:?}", codes(&r));
    // Gemini's streamed array with the whole (short) answer in its one chunk asked for a stream: not
    // called one JSON answer.
    let array = format!("[{}]", r#"{"candidates":[{"content":{"parts":[{"text":"Yes."}],"role":"model"},"finishReason":"STOP"}]}"#);
    let r = report("application/json; charset=UTF-8", &[array.as_str()]);
    assert!(r.findings.iter().all(|f| f.evidence.get("one_json_answer").is_none()), "{:?}", codes(&r));
    // A stream of one token stays a stream.
    let one = ["data: {\"choices\":[{\"delta\":{\"content\":\"Yes\"},\"finish_reason\":\"stop\"}]}\n\n", "data: [DONE]\n\n"];
    assert_eq!(report(SSE, &one).verdict, Verdict::Streaming);
}

#[test]
fn tgi_generate_answers_at_once() {
    // `/generate` (not `/generate_stream`): one JSON object, the whole answer. It was read as nothing at
    // all (`unknown`, `failed`, `no_content`); it is TGI's answer, as an OpenAI answer without `stream` is
    // OpenAI's, and its timing says how it arrived. Hugging Face's Inference API sends it in an array.
    for (content_type, body) in [("application/json", TGI_WHOLE.to_string()), ("application/json", format!("[{TGI_WHOLE}]"))] {
        let t = trace(content_type, &[body.as_str()]);
        let a = analyze(&t);
        assert_eq!(a.dialect, Dialect::Tgi, "{body}");
        assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
        let r = Report::from_trace(&t);
        assert_ne!(r.verdict, Verdict::Failed, "{:?}", codes(&r));
        assert_eq!((r.content_events, r.finish_reason.clone()), (1, Some(StopReason::Stop)));
        assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(24), Some(12))));
        assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "malformed_json"].contains(c)), "{:?}", codes(&r));
    }
}

#[test]
fn mistral_reasoning_content_lists() {
    // Magistral's thinking and answer arrive as lists of chunks in `delta.content`: the page found no text
    // at all in them and said `failed` (no_content).
    let parts = messages(MISTRAL_MAGISTRAL, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::OpenaiChat);
    assert_eq!(a.reasoning_text, "The user asks  why the sky is blue.");
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert_eq!((r.content_events, r.finish_reason.clone()), (10, Some(StopReason::Stop)));
    assert!(r.reasoning_ttft_ms.unwrap() < r.ttft_ms.unwrap());
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content"].contains(c)), "{:?}", codes(&r));
}

#[test]
fn ai_sdk_ui_message_stream_fixture() {
    let parts = messages(AI_SDK, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::AiSdk);
    assert_eq!(a.reasoning_text, "The user asks  why the sky is blue.");
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert_eq!((r.content_events, r.finish_reason.clone()), (10, Some(StopReason::Stop)));
    assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(24), Some(28))));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content"].contains(c)), "{:?}", codes(&r));
    // `finish` alone ends it (hand-written servers leave out `[DONE]`); without either it was cut.
    assert!(!codes(&report(SSE, &without(&parts, |p| p.contains("[DONE]")))).contains(&"truncated"));
    let cut = without(&parts, |p| p.contains("[DONE]") || p.contains("\"finish\""));
    assert!(codes(&report(SSE, &cut)).contains(&"truncated"));
}

#[test]
fn ai_sdk_4_data_stream_fixture() {
    // Read as raw text before, every read was content: the `f:` start part timed as the first token,
    // the protocol's lines shown as the answer.
    let parts = messages(AI_SDK_4, "\n");
    let t = trace("text/plain; charset=utf-8", &parts);
    let a = analyze(&t);
    assert_eq!((a.framing, a.dialect), (Some(streamscope_core::wire::framing::Framing::Ndjson), Dialect::AiSdk));
    assert_eq!(a.reasoning_text, "The user asks  why the sky is blue.");
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    // The first token is the first `0:` part, not the `f:` start part 80 ms before it.
    assert_eq!(r.ttft_ms, Some(100.0 + 20.0 * 4.0));
    assert_eq!((r.content_events, r.finish_reason.clone()), (10, Some(StopReason::Stop)));
    assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(24), Some(28))));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "malformed"].contains(c)), "{:?}", codes(&r));
    let cut = without(&parts, |p| p.starts_with("d:"));
    assert!(codes(&report("text/plain", &cut)).contains(&"truncated"));
}

#[test]
fn gemini_without_alt_sse_is_a_streamed_json_array() {
    // `streamGenerateContent` without `?alt=sse`: the same chunks, pretty-printed in a JSON array. Read as
    // raw text before, every read was an answer token and the JSON was the answer.
    let parts = messages(GEMINI_ARRAY, "\n,\r\n");
    assert_eq!(parts.len(), 4);
    let t = trace("application/json; charset=UTF-8", &parts);
    let a = analyze(&t);
    assert_eq!((a.framing, a.dialect), (Some(streamscope_core::wire::Framing::JsonArray), Dialect::Gemini));
    assert_eq!(a.text, "The sky is blue because air scatters short wavelengths — Rayleigh scattering 🌈.");
    assert!(a.reasoning_text.starts_with("**Explaining the colour**"));
    let r = Report::from_trace(&t);
    let sse = Report::from_trace(&trace(SSE, &messages(GEMINI, "\r\n\r\n")));
    assert_eq!((r.content_events, r.ttft_ms, r.usage.clone()), (sse.content_events, sse.ttft_ms, sse.usage.clone()));
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "malformed"].contains(c)), "{:?}", codes(&r));
    let not_sse = r.findings.iter().find(|f| f.code == FindingCode::NotSse).expect("not_sse");
    assert!(not_sse.detail.contains("JSON array (") && not_sse.fix.as_deref().unwrap_or("").contains("alt=sse"));
    // Cut before the last chunk's end: truncated, the cut element malformed, not content.
    let cut = &GEMINI_ARRAY[..GEMINI_ARRAY.rfind("\"finishReason\"").unwrap()];
    let r = report("application/json", &[cut]);
    assert!(codes(&r).contains(&"truncated"), "{:?}", codes(&r));
}

#[test]
fn dify_fixture() {
    let parts = messages(DIFY, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::Dify);
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    // The `ping` before the answer is not its first token; `created_at` is not a chunk's time.
    assert_eq!((r.content_events, r.ttft_ms), (10, Some(120.0)));
    assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(24), Some(10))));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "cached_replay"].contains(c)), "{:?}", codes(&r));
    assert!(codes(&report(SSE, &without(&parts, |p| p.contains("message_end")))).contains(&"truncated"));
    // Output moderation replaced the answer: stopped by a filter, in Dify's words.
    let mut moderated = parts.clone();
    let replace = "data: {\"event\": \"message_replace\", \"task_id\": \"t\", \"answer\": \"Sorry.\"}\n\n";
    moderated.insert(parts.len() - 1, replace);
    let f = report(SSE, &moderated).findings.into_iter().find(|f| f.code == FindingCode::ContentFiltered).expect("content_filtered");
    assert!(f.detail.contains("message_replace"), "{}", f.detail);
}

#[test]
fn ag_ui_fixture() {
    let parts = messages(AG_UI, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::AgUi);
    assert_eq!(a.reasoning_text, "The user asks  why the sky is blue.");
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    assert_eq!(r.content_events, 10);
    assert!(r.reasoning_ttft_ms.unwrap() < r.ttft_ms.unwrap());
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content"].contains(c)), "{:?}", codes(&r));
    assert!(codes(&report(SSE, &without(&parts, |p| p.contains("RUN_FINISHED")))).contains(&"truncated"));
}

/// LangServe's `/stream` of a chat model (sse-starlette's CRLF lines; `event: end` has no data) and its
/// `/stream_events`, where the chain's and the parser's events repeat each token.
#[test]
fn langserve_fixtures() {
    // A chat model's chunks from `/stream` and from `/stream_events`, and a text chain's strings
    // (`prompt | model | StrOutputParser()`: no usage, no stop reason).
    for (body, content_events, usage) in [(LANGSERVE, 10, Some((Some(13), Some(10)))), (LANGSERVE_EVENTS, 10, None), (LANGSERVE_TEXT, 10, None)] {
        let parts = messages(body, "\r\n\r\n");
        let t = trace(SSE, &parts);
        let a = analyze(&t);
        assert_eq!(a.dialect, Dialect::LangServe);
        assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
        let r = Report::from_trace(&t);
        assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
        assert_eq!(r.content_events, content_events);
        let stop = if body == LANGSERVE_TEXT { None } else { Some(StopReason::Stop) };
        assert_eq!(r.finish_reason, stop);
        assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), usage);
        assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "malformed"].contains(c)), "{:?}", codes(&r));
    }
    // A failure mid-stream, as LangServe sends it, is the stream's error.
    let mut parts = messages(LANGSERVE, "\r\n\r\n");
    parts.truncate(5);
    parts.push("event: error\r\ndata: {\"status_code\": 500, \"message\": \"Internal Server Error\"}\r\n\r\n");
    let r = report(SSE, &parts);
    assert!(codes(&r).contains(&"stream_error"), "{:?}", codes(&r));
}

#[test]
fn langgraph_messages_partial() {
    // `stream_mode` `messages`: each `messages/partial` repeats the whole message so far. It was read as
    // text (`sse-text`, the JSON itself as the answer, every event a token); the new text is what follows
    // the last event's.
    let parts = messages(LANGGRAPH_PARTIAL, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::LangGraph);
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    // `metadata`, `values`, `messages/metadata` and the empty first message come before the first token.
    assert_eq!((r.content_events, r.ttft_ms), (10, Some(180.0)));
    assert_eq!(r.finish_reason, Some(StopReason::Stop));
    assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(13), Some(10))));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "malformed"].contains(c)), "{:?}", codes(&r));
    // Cut before the complete message: no stop reason came, the answer is cut.
    let cut = without(&parts, |p| p.contains("messages/complete") || p.contains("event: end"));
    assert!(codes(&report(SSE, &cut)).contains(&"truncated"));
    // A second message (another id) starts again: its whole text is new.
    let second = LANGGRAPH_PARTIAL.replace("run-0b2c", "run-1b2c");
    let mut both: Vec<&str> = parts[..6].to_vec();
    both.extend(messages(&second, "\n\n")[4..6].iter().copied());
    assert_eq!(analyze(&trace(SSE, &both)).text, "Rayleigh scatteringRayleigh scattering");
}

#[test]
fn langgraph_fixture() {
    let parts = messages(LANGGRAPH, "\n\n");
    let t = trace(SSE, &parts);
    let a = analyze(&t);
    assert_eq!(a.dialect, Dialect::LangGraph);
    // The user's message, echoed in `values` before the answer, is not its text.
    assert_eq!(a.text, "Rayleigh scattering sends short blue waves in every direction.");
    let r = Report::from_trace(&t);
    assert_eq!(r.verdict, Verdict::Streaming, "{:?}", codes(&r));
    // `metadata`, `values` and the role-only first chunk come before the first token (read 4, 160 ms).
    assert_eq!((r.content_events, r.ttft_ms), (10, Some(160.0)));
    assert_eq!(r.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens)), Some((Some(13), Some(10))));
    assert!(codes(&r).iter().all(|c| !["truncated", "no_content", "malformed"].contains(c)), "{:?}", codes(&r));
    assert!(codes(&report(SSE, &without(&parts, |p| p.contains("event: end")))).contains(&"truncated"));
}
