//! The hostile corpus itself: one small function per case, listed in [`CASES`].

use super::{Case, Part, Plan};

const MIB: usize = 1024 * 1024;

fn bytes(text: &str) -> Part {
    Part::Bytes(text.as_bytes().to_vec())
}

/// An OpenAI chat chunk carrying `content`.
fn chunk(content: &str) -> String {
    format!("data: {{\"choices\":[{{\"delta\":{{\"content\":{}}}}}]}}\n\n", serde_json::Value::from(content))
}

const DONE: &str = "data: [DONE]\n\n";

/// A few good tokens: every case that can carries some answer too.
fn tokens() -> Part {
    bytes(&(chunk("Hello") + &chunk(" there") + &chunk(".")))
}

fn usage(completion: &str) -> Part {
    bytes(&format!(
        "data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":{completion},\"completion_tokens\":{completion},\"total_tokens\":{completion}}}}}\n\n"
    ))
}

fn endless_line() -> Plan {
    Plan::sse(vec![tokens(), bytes("data: "), Part::Endless { unit: b"a".to_vec(), per_write: 64 * 1024, every_ms: 16 }])
}
fn line_64mb() -> Plan {
    Plan::sse(vec![tokens(), bytes("data: "), Part::Repeat(b"a".to_vec(), 64 * MIB), bytes("\n\n"), bytes(DONE)])
}
fn keepalives_10m() -> Plan {
    Plan::sse(vec![Part::Repeat(b":\n\n".to_vec(), 10_000_000), tokens(), bytes(DONE)])
}
fn empty_data_1m() -> Plan {
    Plan::sse(vec![Part::Repeat(b"data:\n\n".to_vec(), 1_000_000), tokens(), bytes(DONE)])
}
fn deep_json() -> Plan {
    Plan::sse(vec![tokens(), bytes("data: "), Part::Repeat(b"[".to_vec(), 100_000), bytes("\n\n"), bytes(DONE)])
}
fn number_array_40mb() -> Plan {
    Plan::sse(vec![tokens(), bytes("data: ["), Part::Repeat(b"1234567,".to_vec(), 5 * MIB), bytes("1]\n\n"), bytes(DONE)])
}
fn usage_u64_max() -> Plan {
    Plan::sse(vec![tokens(), usage("18446744073709551615"), bytes(DONE)])
}
fn usage_1e30() -> Plan {
    Plan::sse(vec![tokens(), usage("1e30"), bytes(DONE)])
}
fn usage_negative() -> Plan {
    Plan::sse(vec![tokens(), usage("-1"), bytes(DONE)])
}
fn usage_string() -> Plan {
    Plan::sse(vec![tokens(), usage("\"12\""), bytes(DONE)])
}
fn content_after_done() -> Plan {
    Plan::sse(vec![tokens(), bytes(DONE), bytes(&chunk(" more after the end")), bytes(DONE)])
}
fn dialect_switch() -> Plan {
    let anthropic = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n\
                     event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    Plan::sse(vec![tokens(), bytes(anthropic)])
}
fn nul_bytes() -> Plan {
    Plan::sse(vec![tokens(), Part::Bytes(b"data: {\"choices\":[{\"delta\":{\"content\":\"a\0b\"}}]}\n\n\0\0\0\n\n".to_vec()), bytes(DONE)])
}
fn overlong_utf8() -> Plan {
    Plan::sse(vec![tokens(), Part::Bytes(b"data: {\"choices\":[{\"delta\":{\"content\":\"\xC0\xAF\xE0\x80\xAF\"}}]}\n\n".to_vec()), bytes(DONE)])
}
fn surrogate_utf8() -> Plan {
    Plan::sse(vec![tokens(), Part::Bytes(b"data: {\"choices\":[{\"delta\":{\"content\":\"\xED\xA0\x80\xED\xBF\xBF\"}}]}\n\n".to_vec()), bytes(DONE)])
}
fn retry_huge() -> Plan {
    Plan::sse(vec![bytes("retry: 99999999999999999999\n\n"), tokens(), bytes(DONE)])
}
fn html_instead_of_json() -> Plan {
    Plan::sse(vec![bytes("data: <html><body><h1>Welcome</h1></body></html>\n\n"), tokens(), bytes(DONE)])
}
fn html_error_10mb() -> Plan {
    Plan {
        status: 502,
        content_type: "text/html",
        headers: vec![("Server", "nginx/1.22.1".into())],
        body: vec![bytes("<html><head><title>502 Bad Gateway"), Part::Repeat(b"<div>x</div>".to_vec(), 10 * MIB / 12)],
    }
}
fn models_100k() -> Plan {
    Plan {
        status: 404,
        content_type: "application/json",
        headers: Vec::new(),
        body: vec![bytes("{\"error\":{\"message\":\"The model `gpt-x` does not exist\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}")],
    }
}
/// The `/v1/models` answer of `models-100k`: 100,000 ids.
pub(super) fn models_list() -> Plan {
    let mut ids = String::from("{\"object\":\"list\",\"data\":[");
    for i in 0..100_000 {
        if i > 0 {
            ids.push(',');
        }
        ids.push_str(&format!("{{\"id\":\"model-{i:06}\",\"object\":\"model\"}}"));
    }
    ids.push_str("]}");
    Plan { status: 200, content_type: "application/json", headers: Vec::new(), body: vec![Part::Bytes(ids.into_bytes())] }
}
fn binary_garbage() -> Plan {
    let noise: Vec<u8> = (0..MIB as u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    Plan { status: 200, content_type: "application/octet-stream", headers: Vec::new(), body: vec![Part::Bytes(noise)] }
}
fn lone_cr() -> Plan {
    Plan::sse(vec![bytes(&(chunk("cr").replace("\n\n", "\r\r") + &chunk(" only").replace("\n\n", "\r\r") + "data: [DONE]\r\r"))])
}
fn giant_event_name() -> Plan {
    Plan::sse(vec![tokens(), bytes("event: "), Part::Repeat(b"e".to_vec(), 2 * MIB), bytes("\ndata: {}\n\n"), bytes(DONE)])
}
fn million_data_lines() -> Plan {
    Plan::sse(vec![tokens(), Part::Repeat(b"data: x\n".to_vec(), 1_000_000), bytes("\n"), bytes(DONE)])
}
fn huge_content_string() -> Plan {
    Plan::sse(vec![bytes("data: {\"choices\":[{\"delta\":{\"content\":\""), Part::Repeat(b"word ".to_vec(), 8 * MIB / 5), bytes("\"}}]}\n\n"), bytes(DONE)])
}
fn content_not_a_string() -> Plan {
    Plan::sse(vec![bytes("data: {\"choices\":[{\"delta\":{\"content\":12}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":{\"a\":[1]}}}]}\n\n"), tokens(), bytes(DONE)])
}
fn null_choices() -> Plan {
    Plan::sse(vec![bytes("data: {\"choices\":null}\n\ndata: {\"choices\":[null]}\n\ndata: null\n\ndata: 42\n\n"), tokens(), bytes(DONE)])
}
fn empty_choices_1m() -> Plan {
    Plan::sse(vec![Part::Repeat(b"data: {\"choices\":[]}\n\n".to_vec(), 1_000_000), tokens(), bytes(DONE)])
}
fn ndjson_1m_objects() -> Plan {
    Plan {
        status: 200,
        content_type: "application/x-ndjson",
        headers: Vec::new(),
        body: vec![Part::Repeat(b"{}\n".to_vec(), 1_000_000), bytes("{\"message\":{\"content\":\"hi\"},\"done\":true}\n")],
    }
}
fn raw_text_50mb() -> Plan {
    Plan { status: 200, content_type: "text/plain", headers: Vec::new(), body: vec![Part::Repeat(b"lorem ipsum ".to_vec(), 50 * MIB / 12)] }
}
fn gzip_lie() -> Plan {
    let mut plan = Plan::sse(vec![tokens(), bytes(DONE)]);
    plan.headers.push(("Content-Encoding", "gzip".into()));
    plan
}
fn no_content_type() -> Plan {
    Plan { status: 200, content_type: "", headers: Vec::new(), body: vec![tokens(), bytes(DONE)] }
}
fn error_object_200() -> Plan {
    Plan::sse(vec![tokens(), bytes("data: {\"error\":{\"message\":\"<img src=x onerror=alert(1)> overloaded\",\"type\":\"server_error\"}}\n\n")])
}
fn many_comments_long() -> Plan {
    Plan::sse(vec![bytes(": "), Part::Repeat(b"c".to_vec(), 8 * MIB), bytes("\n\n"), tokens(), bytes(DONE)])
}
fn bom_and_crlf_mix() -> Plan {
    Plan::sse(vec![Part::Bytes(b"\xEF\xBB\xBF".to_vec()), bytes(&chunk("bom").replace("\n\n", "\r\n\r\n")), bytes(&chunk(" mix").replace("\n\n", "\r\n\n")), bytes(DONE)])
}

/// Every case of the corpus.
pub const CASES: &[Case] = &[
    Case { name: "endless-line", what: "a data: line that never ends, 4 MB/s until the client leaves", expect: &["long_line", "timeout_total"], plan: endless_line },
    Case { name: "line-64mb", what: "one 64 MB data: line", expect: &["long_line"], plan: line_64mb },
    Case { name: "keepalives-10m", what: "10 million keep-alive comments before the answer", expect: &["keepalive_comments"], plan: keepalives_10m },
    Case { name: "empty-data-1m", what: "a million empty data: messages", expect: &["framing"], plan: empty_data_1m },
    Case { name: "deep-json", what: "[ nested 100,000 deep", expect: &["malformed_json"], plan: deep_json },
    Case { name: "number-array-40mb", what: "a 40 MB JSON array of numbers in one event", expect: &["long_line", "malformed_json"], plan: number_array_40mb },
    Case { name: "usage-u64-max", what: "usage counts of u64::MAX", expect: &["framing"], plan: usage_u64_max },
    Case { name: "usage-1e30", what: "usage counts of 1e30", expect: &["framing"], plan: usage_1e30 },
    Case { name: "usage-negative", what: "usage counts of -1", expect: &["framing"], plan: usage_negative },
    Case { name: "usage-string", what: "usage counts as strings", expect: &["framing"], plan: usage_string },
    Case { name: "content-after-done", what: "content after [DONE]", expect: &["framing"], plan: content_after_done },
    Case { name: "dialect-switch", what: "OpenAI chunks, then Anthropic events", expect: &["framing"], plan: dialect_switch },
    Case { name: "nul-bytes", what: "NUL bytes inside and between events", expect: &["malformed_json", "framing"], plan: nul_bytes },
    Case { name: "overlong-utf8", what: "overlong UTF-8 sequences", expect: &["invalid_utf8"], plan: overlong_utf8 },
    Case { name: "surrogate-utf8", what: "UTF-8-encoded surrogates", expect: &["invalid_utf8"], plan: surrogate_utf8 },
    Case { name: "retry-huge", what: "retry: 99999999999999999999", expect: &["framing"], plan: retry_huge },
    Case { name: "html-instead-of-json", what: "an HTML page as a data: payload", expect: &["malformed_json", "framing"], plan: html_instead_of_json },
    Case { name: "html-error-10mb", what: "a 10 MB HTML 502 page with an unclosed <title>", expect: &["proxy_error_page", "http_error"], plan: html_error_10mb },
    Case { name: "models-100k", what: "an unknown model, and a /models list of 100,000 ids", expect: &["model_not_found", "http_error"], plan: models_100k },
    Case { name: "binary-garbage", what: "1 MB of binary noise", expect: &["invalid_utf8", "no_content", "not_sse"], plan: binary_garbage },
    Case { name: "lone-cr", what: "events ended by lone CRs only", expect: &["framing"], plan: lone_cr },
    Case { name: "giant-event-name", what: "a 2 MB event: field", expect: &["long_line"], plan: giant_event_name },
    Case { name: "million-data-lines", what: "one event of a million data: lines", expect: &["long_line"], plan: million_data_lines },
    Case { name: "huge-content-string", what: "one 8 MB content string", expect: &["long_line"], plan: huge_content_string },
    Case { name: "content-not-a-string", what: "content as a number and an object", expect: &["framing"], plan: content_not_a_string },
    Case { name: "null-choices", what: "choices null, [null], data: null, data: 42", expect: &["framing"], plan: null_choices },
    Case { name: "empty-choices-1m", what: "a million chunks with empty choices", expect: &["framing"], plan: empty_choices_1m },
    Case { name: "ndjson-1m-objects", what: "a million empty JSON lines", expect: &["framing"], plan: ndjson_1m_objects },
    Case { name: "raw-text-50mb", what: "50 MB of plain text", expect: &["text_capped"], plan: raw_text_50mb },
    Case { name: "gzip-lie", what: "Content-Encoding: gzip on a plain body", expect: &["network_error"], plan: gzip_lie },
    Case { name: "no-content-type", what: "no Content-Type at all", expect: &["framing", "sse_wrong_content_type"], plan: no_content_type },
    Case { name: "error-object-200", what: "an error object with HTML in it, inside a 200 stream", expect: &["stream_error"], plan: error_object_200 },
    Case { name: "comment-8mb", what: "one 8 MB comment line", expect: &["long_line"], plan: many_comments_long },
    Case { name: "bom-and-crlf-mix", what: "a byte-order mark and mixed line endings", expect: &["framing"], plan: bom_and_crlf_mix },
];
