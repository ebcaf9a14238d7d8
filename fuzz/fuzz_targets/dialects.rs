//! Every dialect adapter on any JSON (and any text): no panic, and the bounded readers stay bounded.
//! Input: byte 0 picks the SSE event name, the rest is the message. Each JSON message is also tried with
//! every number in it replaced by an extreme (`u64::MAX`, `-1`, `1e30`, 2^53 + 1, `"12"`, `null`,
//! `12.5`): random mutation seldom writes `18446744073709551615` in two usage fields at once, and that is
//! what it takes to overflow a sum of counts.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use streamscope_core::dialect::error_body::ErrorBody;
use streamscope_core::dialect::models_list::{model_ids, MODEL_IDS_KEPT, MODEL_ID_MAX_BYTES};
use streamscope_core::dialect::{
    anthropic, classify_payload, classify_sse_payload, cohere, detect_json_line, detect_sse,
    error_message, gemini, json_line_facts, json_text, langgraph, ollama, openai, responses,
    sse_facts, stop_reason, Dialect, Usage,
};
use streamscope_core::measure::CacheStats;

const EVENTS: [Option<&str>; 16] = [
    None,
    Some("message_start"),
    Some("content_block_delta"),
    Some("message_delta"),
    Some("message_stop"),
    Some("response.output_text.delta"),
    Some("response.completed"),
    Some("response.incomplete"),
    Some("error"),
    Some("ping"),
    Some("content-delta"),
    Some("messages"),
    Some("messages/partial"),
    Some("messages/complete"),
    Some("data"),
    Some("done"),
];

/// Every dialect: each adapter reads any message.
const DIALECTS: [Dialect; Dialect::ALL.len()] = Dialect::ALL;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let event = EVENTS[usize::from(pick) % EVENTS.len()];
    let text = String::from_utf8_lossy(body);

    let list = model_ids(&text);
    assert!(list.ids.len() <= MODEL_IDS_KEPT && list.total >= list.ids.len());
    assert!(list.ids.iter().all(|id| id.len() <= MODEL_ID_MAX_BYTES));
    for ct in [
        Some("application/json"),
        Some("text/html"),
        Some("text/plain"),
        None,
    ] {
        let _ = ErrorBody::parse(body, ct).summary();
    }
    let _ = (classify_payload(&text), classify_sse_payload(&text, event));
    // A stream of the whole text so far: what a value adds to any text read before.
    let (a, b) = text.split_at(text.floor_char_boundary(text.len() / 2));
    assert!(b.ends_with(json_text::new_text(b, a)));
    let _ = (
        stop_reason::from_openai(&text),
        stop_reason::from_anthropic(&text),
        stop_reason::from_gemini(&text),
    );
    let _ = stop_reason::from_responses_incomplete(Some(&text));

    let Ok(v) = serde_json::from_slice::<Value>(body) else {
        return;
    };
    exercise(&v, event);
    if has_number(&v) {
        for extreme in [
            json!(u64::MAX),
            json!(-1),
            json!(1e30),
            json!(9_007_199_254_740_993.0),
            json!("12"),
            Value::Null,
            json!(12.5),
        ] {
            exercise(&with_numbers(&v, &extreme), event);
        }
    }
});

/// Whether `v` holds a number anywhere.
fn has_number(v: &Value) -> bool {
    match v {
        Value::Number(_) => true,
        Value::Array(a) => a.iter().any(has_number),
        Value::Object(o) => o.values().any(has_number),
        _ => false,
    }
}

/// `v` with every number replaced by `n`.
fn with_numbers(v: &Value, n: &Value) -> Value {
    match v {
        Value::Number(_) => n.clone(),
        Value::Array(a) => Value::Array(a.iter().map(|x| with_numbers(x, n)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), with_numbers(x, n)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Every adapter, usage reader and cache figure on one message.
fn exercise(v: &Value, event: Option<&str>) {
    let v = v.clone();
    let _ = (
        detect_sse(&v, event),
        detect_json_line(&v),
        error_message(&v),
    );
    let _ = (
        openai::chunk_facts(&v),
        responses::event_facts(&v, event),
        anthropic::event_facts(&v, event),
    );
    let _ = (gemini::chunk_facts(&v), ollama::line_facts(&v), cohere::v1_line_facts(&v), json_text::event_facts(&v));
    // LangGraph's partial messages, twice: the second reads against what the first left.
    let mut seen = langgraph::Accumulated::default();
    for _ in 0..2 {
        assert!(!langgraph::accumulated_facts(&v, event, &mut seen).kinds.is_empty());
    }
    let mut usages: Vec<Usage> = [
        Usage::from_openai(&v),
        anthropic::usage(&v, true),
        anthropic::usage(&v, false),
        gemini::usage(&v),
        responses::usage(&v),
    ]
    .into_iter()
    .flatten()
    .collect();
    for d in DIALECTS {
        let facts = sse_facts(d, &v, event);
        assert!(!facts.kinds.is_empty());
        usages.extend(facts.usage);
        let facts = json_line_facts(d, &v);
        assert!(!facts.kinds.is_empty());
        usages.extend(facts.usage);
    }
    let mut merged = Usage::default();
    for u in &usages {
        merged.merge(u);
        if let (Some(answer), Some(completion)) = (u.answer_tokens(), u.completion_tokens) {
            assert!(answer <= completion);
        }
        for d in DIALECTS {
            if let Some(c) = CacheStats::from_usage_in(u, d) {
                assert!(
                    c.hit_ratio.is_none_or(|r| (0.0..=1.0).contains(&r)),
                    "{c:?}"
                );
            }
        }
    }
    let _ = merged.answer_tokens();
}
