//! The contract test: reports of recorded and hand-built traces keep every field they had.
//!
//! `tests/contract/inputs/<case>.json` holds what a case starts from (a trace, or the runs of a
//! campaign or an export); `tests/contract/golden/<case>.json` holds the JSON the code produced from it
//! when the golden was written. [`contract_reports_keep_every_golden_field`] recomputes each case and
//! checks that every JSON path of the golden exists in today's output with an equal value: numbers equal
//! within 1e-9 relative, arrays element by element (same length), objects key by key (every golden key
//! present, extra keys allowed). Additions are fine; nothing may be renamed, dropped or changed.
//!
//! The goldens were generated once, by hand, from the code as it was before the module reorganisation
//! (issue 8), with:
//!
//! ```text
//! cargo test -p streamscope-core --test contract -- --ignored write_contract_goldens
//! ```
//!
//! Do not regenerate them to make a change pass: a golden value changes only knowingly, with the reason
//! in the commit message (the cases and their inputs are built in [`cases`]).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use streamscope_core::report::campaign::{CampaignReport, CompareSetup};
use streamscope_core::report::compare::{Side, Subject};
use streamscope_core::report::export::{Export, ExportedRun, EXPORT_VERSION};
use streamscope_core::config::page_config::PageConfig;
use streamscope_core::i18n::Lang;
use streamscope_core::trace::{ConnectionTiming, ModelsProbe, Probes, RequestSummary, TimeoutKind};
use streamscope_core::{Report, Trace, TraceEnd};

fn dir() -> PathBuf {
    manifest_dir().join("tests/contract")
}

/// What a case computes from its input (`{"kind": "report" | "campaign" | "export", ...}`).
fn compute(input: &Value) -> Value {
    let runs = || -> Vec<ExportedRun> { serde_json::from_value(input["runs"].clone()).expect("runs") };
    let campaign = || {
        let compare: Option<CompareSetup> = serde_json::from_value(input["compare"].clone()).expect("compare");
        let reports = runs().into_iter().map(|r| (r.side, Report::from_trace(&r.trace))).collect();
        CampaignReport::from_runs(reports, compare)
    };
    match input["kind"].as_str() {
        Some("report") => {
            let trace: Trace = serde_json::from_value(input["trace"].clone()).expect("trace");
            serde_json::to_value(Report::from_trace(&trace)).expect("report json")
        }
        Some("campaign") => serde_json::to_value(campaign()).expect("campaign json"),
        Some("export") => {
            let config: Option<PageConfig> = serde_json::from_value(input["config"].clone()).expect("config");
            let export = Export { streamscope_export: EXPORT_VERSION, lang: Lang::En, config, report: campaign(), runs: runs() };
            serde_json::to_value(export).expect("export json")
        }
        other => panic!("unknown case kind {other:?}"),
    }
}

fn numbers_equal(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// Every path of `golden` in `actual`, with an equal value; the differences, one line each.
fn compare(golden: &Value, actual: &Value, path: &str, out: &mut Vec<String>) {
    match (golden, actual) {
        (Value::Object(g), Value::Object(a)) => {
            for (key, gv) in g {
                let p = format!("{path}.{key}");
                match a.get(key) {
                    Some(av) => compare(gv, av, &p, out),
                    None => out.push(format!("{p}: missing (golden {gv})")),
                }
            }
        }
        (Value::Array(g), Value::Array(a)) => {
            if g.len() != a.len() {
                out.push(format!("{path}: {} elements, golden has {}", a.len(), g.len()));
            }
            for (i, (gv, av)) in g.iter().zip(a).enumerate() {
                compare(gv, av, &format!("{path}[{i}]"), out);
            }
        }
        (Value::Number(g), Value::Number(a)) => {
            let (gf, af) = (g.as_f64().unwrap_or(f64::NAN), a.as_f64().unwrap_or(f64::NAN));
            if !numbers_equal(gf, af) {
                out.push(format!("{path}: {a}, golden {g}"));
            }
        }
        (g, a) if g == a => {}
        (g, a) => {
            let short = |v: &Value| {
                let s = v.to_string();
                if s.len() > 300 {
                    format!("{}…", &s[..s.char_indices().nth(300).map_or(s.len(), |(i, _)| i)])
                } else {
                    s
                }
            };
            out.push(format!("{path}: {}, golden {}", short(a), short(g)));
        }
    }
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn contract_reports_keep_every_golden_field() {
    let mut names: Vec<String> = std::fs::read_dir(dir().join("golden"))
        .expect("tests/contract/golden")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 30, "only {} contract cases found", names.len());
    let mut failures = Vec::new();
    for name in &names {
        let input = read_json(&dir().join("inputs").join(format!("{name}.json")));
        let golden = read_json(&dir().join("golden").join(format!("{name}.json")));
        let mut diffs = Vec::new();
        compare(&golden, &compute(&input), "$", &mut diffs);
        failures.extend(diffs.into_iter().map(|d| format!("{name}: {d}")));
    }
    assert!(failures.is_empty(), "{} contract differences:\n{}", failures.len(), failures.join("\n"));
}

/// Regression: a report or export written before `content_reads` was added could not be imported
/// ("neither a streamscope export nor a streamscope report"): every golden is such a file, and each must
/// import as what it is (found by the import fuzz target, whose seeds are these files).
#[test]
fn reports_and_exports_written_by_older_code_still_import() {
    use streamscope_core::report::export::{import, Imported};
    for e in std::fs::read_dir(dir().join("golden")).expect("tests/contract/golden") {
        let path = e.expect("golden entry").path();
        let text = std::fs::read_to_string(&path).expect("golden text");
        let export = text.contains("\"streamscope_export\"");
        match import(&text) {
            Ok(Imported::Export(_)) if export => {}
            Ok(Imported::ReportOnly(_)) if !export => {}
            Ok(_) => panic!("{}: imported as the wrong kind", path.display()),
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
}

#[test]
fn the_comparison_allows_additions_and_catches_changes() {
    let golden = json!({"a": 1, "b": [1.0, {"c": "x"}], "d": null});
    let mut out = Vec::new();
    compare(&golden, &json!({"a": 1.0, "b": [1, {"c": "x", "e": 2}], "d": null, "f": true}), "$", &mut out);
    assert!(out.is_empty(), "{out:?}");
    for changed in [
        json!({"a": 2, "b": [1, {"c": "x"}], "d": null}),
        json!({"a": 1, "b": [1, {"c": "y"}], "d": null}),
        json!({"a": 1, "b": [1], "d": null}),
        json!({"a": 1, "b": [1, {"c": "x"}]}),
        json!({"a": "1", "b": [1, {"c": "x"}], "d": null}),
    ] {
        let mut out = Vec::new();
        compare(&golden, &changed, "$", &mut out);
        assert_eq!(out.len(), 1, "{changed}: {out:?}");
    }
}

/// Writes the inputs and goldens of every case (run by hand, see the module docs).
#[test]
#[ignore]
fn write_contract_goldens() {
    for sub in ["inputs", "golden"] {
        std::fs::create_dir_all(dir().join(sub)).unwrap();
    }
    for (name, input) in cases::all() {
        let output = compute(&input);
        let write = |sub: &str, v: &Value| {
            let path = dir().join(sub).join(format!("{name}.json"));
            std::fs::write(&path, serde_json::to_string_pretty(v).unwrap() + "\n").unwrap();
        };
        write("inputs", &input);
        write("golden", &output);
    }
}

/// The cases, built in code once; the test itself reads them back from `tests/contract/inputs`.
mod cases {
    use super::*;

    const FIXTURES: [(&str, &str); 10] = [
        ("anthropic_messages.sse", "text/event-stream"),
        ("gemini.sse", "text/event-stream"),
        ("ollama_chat.ndjson", "application/x-ndjson"),
        ("ollama_generate.ndjson", "application/x-ndjson"),
        ("openai_deepseek_crlf.sse", "text/event-stream"),
        ("openai_invalid_utf8.sse", "text/event-stream"),
        ("openai_mixed_endings.sse", "text/event-stream"),
        ("openai_responses.sse", "text/event-stream"),
        ("raw_text.txt", "text/plain"),
        ("sse_text.sse", "text/event-stream"),
    ];

    fn request(url: &str) -> RequestSummary {
        RequestSummary {
            url: url.into(),
            method: "POST".into(),
            body_len_bytes: 96,
            header_names: vec!["authorization".into()],
            ..RequestSummary::default()
        }
    }

    fn trace(status: u16, ct: &str, headers_ms: f64, reads: Vec<(f64, Vec<u8>)>, end: TraceEnd) -> Trace {
        let mut t = Trace::from_reads(status, ct, headers_ms, reads, end);
        t.request = request("http://127.0.0.1:8787/v1/chat/completions");
        t
    }

    fn complete(at_ms: f64) -> TraceEnd {
        TraceEnd::Complete { at_ms }
    }

    fn content(text: &str) -> String {
        format!(
            "data: {{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{}}}}}]}}\n\n",
            Value::from(text)
        )
    }

    fn timed(text: &str, server_ms: f64) -> String {
        format!("data: {{\"choices\":[{{\"delta\":{{\"content\":{}}}}}],\"server_ms\":{server_ms}}}\n\n", Value::from(text))
    }

    const ROLE: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
    const STOP: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";
    const DONE: &str = "data: [DONE]\n\n";
    const WORDS: [&str; 8] = ["The", " quick", " brown", " fox", " jumps", " over", " the", " dog"];

    fn word(i: usize) -> &'static str {
        WORDS[i % WORDS.len()]
    }

    fn report(trace: Trace) -> Value {
        json!({"kind": "report", "trace": trace})
    }

    fn bytes(s: impl Into<String>) -> Vec<u8> {
        s.into().into_bytes()
    }

    /// A healthy OpenAI stream: role chunk, 40 tokens 20 ms apart, finish, usage, [DONE].
    fn healthy() -> Trace {
        let mut reads = vec![(95.0, bytes(ROLE))];
        reads.extend((0..40).map(|i| (300.0 + 20.0 * i as f64, bytes(content(word(i))))));
        reads.push((1101.0, bytes(format!(
            "{STOP}data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":25,\"completion_tokens\":40,\"total_tokens\":65}}}}\n\n{DONE}"
        ))));
        let mut t = trace(200, "text/event-stream", 12.0, reads, complete(1102.0));
        t.headers.push(("x-accel-buffering".into(), "no".into()));
        t.connection = Some(ConnectionTiming {
            next_hop_protocol: Some("http/1.1".into()),
            dns_ms: Some(0.0),
            connect_ms: Some(0.4),
            tls_ms: None,
            encoded_body_bytes: Some(4321),
            decoded_body_bytes: Some(4321),
            ..ConnectionTiming::default()
        });
        t.started_unix_ms = Some(1_764_000_000_000.0);
        t
    }

    /// A buffering proxy: 6 bursts of 20 server-timestamped events, 400 ms apart.
    fn buffered() -> Trace {
        let mut reads: Vec<(f64, Vec<u8>)> = (0..6)
            .map(|b| {
                let at = 700.0 + 400.0 * b as f64;
                let burst: String = (0..20).map(|i| timed(word(i), at - 400.0 + 20.0 * i as f64)).collect();
                (at, bytes(burst))
            })
            .collect();
        reads.push((2701.0, bytes(format!("{STOP}{DONE}"))));
        trace(200, "text/event-stream", 10.0, reads, complete(2702.0))
    }

    /// A collect-then-return backend: 30 tokens in one read at 2.5 s, headers with them, gzip and a length.
    fn collected() -> Trace {
        let all: String = (0..30).map(|i| content(word(i))).collect::<String>() + STOP + DONE;
        let len = all.len();
        let mut t = trace(200, "text/event-stream", 2499.5, vec![(2500.0, bytes(all))], complete(2501.0));
        t.headers.push(("content-length".into(), len.to_string()));
        t.headers.push(("content-encoding".into(), "gzip".into()));
        t
    }

    fn http_error(status: u16, ct: &str, body: &str) -> Trace {
        trace(status, ct, 40.0, vec![(41.0, bytes(body))], complete(42.0))
    }

    /// Splits a fixture after every event separator (a blank line) or, for JSON lines, every line.
    fn split_fixture(body: &[u8], json_lines: bool) -> Vec<Vec<u8>> {
        let seps: &[&[u8]] = if json_lines { &[b"\r\n", b"\n"] } else { &[b"\r\n\r\n", b"\n\n", b"\r\r", b"\n\r\n"] };
        let mut parts = Vec::new();
        let (mut start, mut i) = (0, 0);
        while i < body.len() {
            match seps.iter().find(|s| body[i..].starts_with(s)) {
                Some(s) => {
                    i += s.len();
                    parts.push(body[start..i].to_vec());
                    start = i;
                }
                None => i += 1,
            }
        }
        if start < body.len() {
            parts.push(body[start..].to_vec());
        }
        parts
    }

    fn fixture(name: &str, ct: &str) -> Trace {
        let body = std::fs::read(manifest_dir().join("tests/fixtures").join(name)).unwrap();
        let parts = if name.ends_with(".txt") {
            body.chunks(10).map(<[u8]>::to_vec).collect()
        } else {
            split_fixture(&body, name.ends_with(".ndjson"))
        };
        let n = parts.len();
        let reads = parts.into_iter().enumerate().map(|(i, p)| (150.0 + 25.0 * i as f64, p)).collect();
        trace(200, ct, 60.0, reads, complete(150.0 + 25.0 * n as f64))
    }

    /// Keep-alive comments, a role-only first chunk in its own read, then content and a usage chunk with
    /// both DeepSeek and OpenAI cache fields.
    fn keepalive_role_usage() -> Trace {
        let mut reads = vec![
            (20.0, bytes(": keep-alive\n\n")),
            (520.0, bytes(": keep-alive\n\n: keep-alive\n\n")),
            (900.0, bytes(ROLE)),
        ];
        reads.extend((0..12).map(|i| (1400.0 + 30.0 * i as f64, bytes(content(word(i))))));
        reads.push((1760.0, bytes(": keep-alive\n\n")));
        reads.push((1790.0, bytes(format!(
            "{STOP}data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":2006,\"completion_tokens\":12,\"total_tokens\":2018,\
             \"prompt_cache_hit_tokens\":1920,\"prompt_cache_miss_tokens\":86,\"prompt_tokens_details\":{{\"cached_tokens\":1920}}}}}}\n\n{DONE}"
        ))));
        trace(200, "text/event-stream", 15.0, reads, complete(1791.0))
    }

    /// Broken JSON, an invalid UTF-8 byte and a 70 KB line, all in one stream.
    fn malformed() -> Trace {
        let mut reads = vec![(100.0, bytes(content("ok")))];
        reads.push((120.0, bytes("data: {\"choices\": [{\"delta\": {\"content\": \"cut\n\n")));
        let mut bad = bytes("data: {\"choices\":[{\"delta\":{\"content\":\"caf");
        bad.extend_from_slice(b"\xff\xfe\"}}]}\n\n");
        reads.push((140.0, bad));
        reads.push((160.0, bytes(content(&"z".repeat(70_000)))));
        reads.extend((0..5).map(|i| (180.0 + 20.0 * i as f64, bytes(content(word(i))))));
        reads.push((300.0, bytes(format!("{STOP}{DONE}"))));
        trace(200, "text/event-stream", 50.0, reads, complete(301.0))
    }

    fn partial(end: TraceEnd) -> Trace {
        let reads = (0..6).map(|i| (200.0 + 25.0 * i as f64, bytes(content(word(i))))).collect();
        trace(200, "text/event-stream", 30.0, reads, end)
    }

    /// A streamed OpenAI run with this first token time and cadence, and a cache-hit usage chunk.
    fn run(first_ms: f64, cadence_ms: f64, tokens: usize, cached: u64) -> Trace {
        let mut reads: Vec<(f64, Vec<u8>)> =
            (0..tokens).map(|i| (first_ms + cadence_ms * i as f64, bytes(content(word(i))))).collect();
        let last = first_ms + cadence_ms * tokens as f64;
        reads.push((last, bytes(format!(
            "{STOP}data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":100,\"completion_tokens\":{tokens},\
             \"prompt_tokens_details\":{{\"cached_tokens\":{cached}}}}}}}\n\n{DONE}"
        ))));
        trace(200, "text/event-stream", 8.0, reads, complete(last + 1.0))
    }

    fn runs(list: Vec<(Side, Trace)>) -> Value {
        Value::Array(list.into_iter().map(|(side, trace)| serde_json::to_value(ExportedRun { side, group: 0, trace }).unwrap()).collect())
    }

    fn compare_runs() -> Value {
        let mut b1 = buffered();
        b1.request = request("http://127.0.0.1:8080/proxy/v1/chat/completions");
        let mut b2 = buffered();
        b2.request = b1.request.clone();
        for r in &mut b2.reads {
            r.at_ms += 15.0;
        }
        runs(vec![(Side::A, run(300.0, 20.0, 120, 0)), (Side::B, b1), (Side::A, run(310.0, 21.0, 120, 64)), (Side::B, b2)])
    }

    pub fn all() -> Vec<(String, Value)> {
        let mut out: Vec<(String, Value)> = vec![
            ("healthy_openai".into(), report(healthy())),
            ("buffered_bursts".into(), report(buffered())),
            ("collected_at_once".into(), report(collected())),
            (
                "http_401_json".into(),
                report(http_error(401, "application/json",
                    "{\"error\":{\"message\":\"Incorrect API key provided: sk-****1234.\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}")),
            ),
            ("http_404_plain".into(), report(http_error(404, "text/plain", "404 page not found"))),
            (
                "http_502_proxy_page".into(),
                report(http_error(502, "text/html",
                    "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.27.0</center></body></html>")),
            ),
            (
                "http_429_rate_limited".into(),
                report({
                    let mut t = http_error(429, "application/json",
                        "{\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}");
                    t.headers.push(("retry-after".into(), "7".into()));
                    t.headers.push(("x-ratelimit-remaining-requests".into(), "0".into()));
                    t
                }),
            ),
            ("network_error_mid_body".into(), report(partial(TraceEnd::NetworkError {
                at_ms: 420.0, message: "TypeError: network error".into(), during_body: true }))),
            ("network_error_before_headers".into(), report(Trace {
                request: request("http://10.0.0.5:8000/v1/chat/completions"),
                end: Some(TraceEnd::NetworkError { at_ms: 12.0, message: "TypeError: Failed to fetch".into(), during_body: false }),
                ..Trace::default()
            })),
            ("cors_probed".into(), report(Trace {
                request: request("http://10.0.0.5:8000/v1/chat/completions"),
                end: Some(TraceEnd::NetworkError { at_ms: 12.0, message: "TypeError: Failed to fetch".into(), during_body: false }),
                probes: Probes { no_cors_reached: Some(true), models: vec![] },
                ..Trace::default()
            })),
            ("timeout_idle".into(), report(partial(TraceEnd::Timeout { at_ms: 10_325.0, timeout: TimeoutKind::Idle, limit_ms: 10_000.0 }))),
            ("timeout_total".into(), report(partial(TraceEnd::Timeout { at_ms: 60_000.0, timeout: TimeoutKind::Total, limit_ms: 60_000.0 }))),
            ("timeout_first_byte".into(), report(trace(200, "text/event-stream", 30.0, vec![],
                TraceEnd::Timeout { at_ms: 30_030.0, timeout: TimeoutKind::FirstByte, limit_ms: 30_000.0 }))),
            ("timeout_headers".into(), report(Trace {
                request: request("http://127.0.0.1:8787/v1/chat/completions"),
                end: Some(TraceEnd::Timeout { at_ms: 30_000.0, timeout: TimeoutKind::Headers, limit_ms: 30_000.0 }),
                ..Trace::default()
            })),
            ("cancelled".into(), report(partial(TraceEnd::Cancelled { at_ms: 400.0 }))),
            ("keepalive_role_usage_cache".into(), report(keepalive_role_usage())),
            ("malformed_stream".into(), report(malformed())),
            ("plain_text_as_event_stream".into(), report(trace(200, "text/event-stream", 20.0,
                vec![(100.0, bytes("Hello")), (130.0, bytes(" world")), (160.0, bytes(", again."))], complete(161.0)))),
            ("sse_as_json".into(), report(trace(200, "application/json", 20.0,
                (0..6).map(|i| (100.0 + 20.0 * i as f64, bytes(content(word(i))))).chain([(221.0, bytes(format!("{STOP}{DONE}")))]).collect(),
                complete(222.0)))),
            ("truncated_length".into(), report(trace(200, "text/event-stream", 20.0,
                (0..6).map(|i| (100.0 + 20.0 * i as f64, bytes(content(word(i))))).chain([(221.0, bytes(
                    "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\n"))]).collect(),
                TraceEnd::Complete { at_ms: 222.0 }))),
            ("slow_first_token".into(), report({
                let mut reads: Vec<(f64, Vec<u8>)> = (0..30).map(|i| (2003.0 + 20.0 * i as f64, bytes(content(word(i))))).collect();
                reads.push((2620.0, bytes(format!("{STOP}{DONE}"))));
                trace(200, "text/event-stream", 15.0, reads, complete(2621.0))
            })),
            ("cached_replay".into(), report({
                let mut t = healthy();
                t.headers.push(("age".into(), "300".into()));
                t.headers.push(("x-cache".into(), "HIT".into()));
                t
            })),
            ("model_not_found_probed".into(), report({
                let mut t = http_error(404, "application/json",
                    "{\"error\":{\"message\":\"The model `lab-20` does not exist\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}");
                t.probes.models = vec![ModelsProbe { url: "http://127.0.0.1:8787/v1/models".into(), status: Some(200),
                    ids: vec!["lab-10ms".into(), "lab-20ms".into(), "lab-40ms".into()], ids_total: None }];
                t
            })),
            ("missing_v1_probed".into(), report({
                let mut t = http_error(404, "text/plain", "404 page not found");
                t.request = request("http://127.0.0.1:8787/chat/completions");
                t.probes.models = vec![
                    ModelsProbe { url: "http://127.0.0.1:8787/models".into(), status: Some(404), ids: vec![], ids_total: None },
                    ModelsProbe { url: "http://127.0.0.1:8787/v1/models".into(), status: Some(200), ids: vec!["a".into(), "b".into()], ids_total: None },
                ];
                t
            })),
            ("doubled_v1".into(), report({
                let mut t = http_error(404, "text/plain", "not found");
                t.request = request("http://127.0.0.1:8787/v1/v1/chat/completions");
                t
            })),
            ("empty_body".into(), report(trace(200, "text/event-stream", 20.0, vec![], complete(30.0)))),
            ("reasoning_only".into(), report(trace(200, "text/event-stream", 20.0, vec![(100.0, bytes(
                "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n"))],
                complete(101.0)))),
            ("stream_error".into(), report(trace(200, "text/event-stream", 20.0, vec![
                (100.0, bytes(content("a"))),
                (150.0, bytes("data: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n")),
            ], complete(151.0)))),
        ];
        for (file, ct) in FIXTURES {
            let name = format!("fixture_{}", file.replace('.', "_"));
            out.push((name, report(fixture(file, ct))));
        }
        let setup = |subject, a: &str, b: &str| {
            serde_json::to_value(CompareSetup { subject, label_a: a.into(), label_b: b.into() }).unwrap()
        };
        out.push(("campaign_compare_path".into(),
            json!({"kind": "campaign", "compare": setup(Subject::Path, "direct", "proxy"), "runs": compare_runs()})));
        out.push(("campaign_compare_model".into(), json!({"kind": "campaign", "compare": setup(Subject::Model, "lab-20ms", "lab-40ms"),
            "runs": runs(vec![(Side::A, run(300.0, 20.0, 30, 0)), (Side::B, run(305.0, 40.0, 30, 0)),
                (Side::A, run(2300.0, 20.0, 30, 0)), (Side::B, run(2310.0, 41.0, 30, 0))])})));
        out.push(("campaign_repeat".into(), json!({"kind": "campaign", "compare": null,
            "runs": runs(vec![(Side::A, run(300.0, 20.0, 20, 0)), (Side::A, run(320.0, 20.5, 20, 80)),
                (Side::A, run(310.0, 19.5, 20, 90)), (Side::A, http_error(503, "text/plain", "upstream down"))])})));
        out.push(("campaign_single".into(), json!({"kind": "campaign", "compare": null, "runs": runs(vec![(Side::A, healthy())])})));
        out.push(("export_compare".into(), json!({"kind": "export",
            "config": PageConfig::reference("http://127.0.0.1:8787"),
            "compare": setup(Subject::Path, "direct", "proxy"), "runs": compare_runs()})));
        out
    }
}

/// core's folder, read when the test runs: a binary reused from another clone (a shared target folder)
/// must not read that clone's files through the path `env!` fixed at compile time.
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
}
