//! The prefix check end to end, from two bodies to the words and the finding.

use super::*;
use crate::i18n::Lang;

fn chat(system: &str, user: &str) -> String {
    serde_json::json!({
        "model": "deepseek-chat",
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        "stream": true,
    })
    .to_string()
}

fn kinds(c: &PrefixCheck) -> Vec<&'static str> {
    c.warnings.iter().map(|w| w.kind.as_str()).collect()
}

#[test]
fn a_timestamp_in_the_system_prompt_is_found_with_its_span() {
    let a = chat("You are terse. Current time: 2026-12-01T10:22:33Z", "What is a prefix?");
    let b = chat("You are terse. Current time: 2026-12-01T10:25:00Z", "What is a prefix?");
    let c = check(&a, &b);
    let f = c.diff.first.as_ref().expect("they differ");
    assert_eq!((f.path_a.as_str(), f.in_last_message), ("messages[0].content", false));
    assert_eq!(c.first_difference_words().render(Lang::En), format!("first difference at byte {}", f.byte) + &format!(" (character {}), in messages[0].content", f.char_index));
    let w = &c.warnings[0];
    assert_eq!((w.kind, w.side, w.path.as_str(), w.text.as_str()), (WarningKind::Timestamp, WarningSide::A, "messages[0].content", "2026-12-01T10:22:33Z"));
    assert_eq!(&cache_prefix(&a).text[w.start_byte..w.end_byte], "2026-12-01T10:22:33Z");
    let finding = c.finding().expect("unstable_prefix");
    assert_eq!((finding.code.as_str(), finding.severity), ("unstable_prefix", Severity::Warning));
    assert!(finding.detail.contains("timestamp in messages[0].content (2026-12-01T10:22:33Z)"), "{}", finding.detail);
    let fix = finding.fix.unwrap();
    assert!(fix.contains("end of the prompt") && fix.contains("fixed order") && fix.contains("70%"), "{fix}");
    assert_eq!(finding.evidence["warnings"][0]["kind"], "timestamp");
}

#[test]
fn reordered_tools_are_found() {
    let tool = |name: &str| serde_json::json!({"type": "function", "function": {"name": name, "parameters": {"type": "object"}}});
    let body = |tools: Vec<serde_json::Value>| {
        serde_json::json!({"model": "m", "tools": tools, "messages": [{"role": "user", "content": "hi"}]}).to_string()
    };
    let c = check(&body(vec![tool("search"), tool("fetch"), tool("calc")]), &body(vec![tool("calc"), tool("search"), tool("fetch")]));
    assert_eq!(kinds(&c), ["tool_order"]);
    assert_eq!(c.diff.first.as_ref().unwrap().path_a, "tools[0].function.name");
    assert_eq!(c.warnings[0].other_text.as_deref(), Some("calc, search, fetch"));
}

#[test]
fn permuted_keys_are_found() {
    let a = r#"{"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{}}}],"messages":[{"role":"user","content":"q"}]}"#;
    let b = r#"{"tools":[{"function":{"description":"d","name":"f","parameters":{}},"type":"function"}],"messages":[{"role":"user","content":"q"}]}"#;
    let c = check(a, b);
    assert_eq!(kinds(&c), ["key_order", "key_order"]);
    let paths: Vec<_> = c.warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(paths, ["tools[0]", "tools[0].function"]);
    assert_eq!(c.diff.first.as_ref().unwrap().path_a, "tools[0].type", "the first key where they part");
}

#[test]
fn identical_bodies_differ_nowhere_and_warn_of_nothing() {
    let a = chat("You are terse.", "What is a prefix?");
    let c = check(&a, &a);
    assert_eq!(c.diff.first, None);
    assert!(c.warnings.is_empty() && c.finding().is_none());
    assert_eq!(c.first_difference_words().render(Lang::En), format!("identical prefixes: a repeat can reuse all {} bytes from the cache", c.diff.len_a_bytes));
    assert!(c.shared_words().render(Lang::En).contains("(100% of the shorter prefix"), "{}", c.shared_words().render(Lang::En));
    // Sampling settings and whitespace are not the prefix.
    let other = a.replace("\"stream\":true", "\"stream\":false,\"temperature\":0.7").replace(",", ", ");
    assert_eq!(check(&a, &other).diff.first, None);
}

#[test]
fn a_different_last_user_message_is_the_cache_friendly_case() {
    let system = "You are a support agent for ACME. Answer in two sentences. ".repeat(10);
    let (a, b) = (chat(&system, "How do I reset my password?"), chat(&system, "Where is my invoice?"));
    let c = check(&a, &b);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let f = c.diff.first.as_ref().unwrap();
    assert_eq!(f.path_a, "messages[1].content");
    assert!(f.in_last_message);
    assert!(c.first_difference_words().render(Lang::En).contains("the last message, the usual new turn"), "{}", c.first_difference_words().render(Lang::En));
    let prefix = cache_prefix(&a);
    let last = prefix.messages.as_ref().unwrap().last.clone().unwrap();
    assert!(c.diff.shared_bytes > last.start_byte, "the prefix is shared into the last message");
    assert!(c.diff.shared_share > 0.9);
}

#[test]
fn anthropic_bodies_compare_tools_system_messages_without_markers() {
    let a = r#"{"model":"claude","max_tokens":1024,"system":[{"type":"text","text":"Stable rules.","cache_control":{"type":"ephemeral"}}],
        "messages":[{"role":"user","content":[{"type":"text","text":"one","cache_control":{"type":"ephemeral"}}]}]}"#;
    let b = r#"{"system":[{"type":"text","text":"Stable rules.","cache_control":{"type":"ephemeral"}}],"model":"claude","max_tokens":2048,
        "messages":[{"role":"user","content":[{"type":"text","text":"one"}]},{"role":"assistant","content":"two"},
        {"role":"user","content":[{"type":"text","text":"three","cache_control":{"type":"ephemeral"}}]}]}"#;
    let c = check(a, b);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let f = c.diff.first.as_ref().unwrap();
    assert_eq!(f.path_a, "messages", "the moved breakpoint is not a difference: {f:?}");
    assert!(f.in_last_message);
    assert_eq!(c.a.words().render(Lang::En), "JSON: system, messages (1 message), prefix 121 B; left out: model, max_tokens");
}

#[test]
fn plain_text_bodies_are_compared_as_written() {
    let a = "System: be brief.\nRequest req_7Hq2kLm9x\nUser: hi";
    let b = "System: be brief.\nRequest req_0Zz8pQr4y\nUser: hi";
    let c = check(a, b);
    assert_eq!((c.a.format, c.a.words().render(Lang::En)), (BodyFormat::Text, "plain text, 48 B".to_string()));
    let f = c.diff.first.as_ref().unwrap();
    assert_eq!((f.path_a.as_str(), f.excerpt_a.differing.as_str(), f.excerpt_b.differing.as_str()), ("text", "7Hq2kLm9x", "0Zz8pQr4y"));
    assert_eq!(kinds(&c), ["request_id", "request_id"]);
    let broken = check("{\"messages\": [", "{\"messages\": [1]}");
    assert_eq!(broken.a.words().render(Lang::En), "not JSON (it breaks at byte 14): compared as plain text, 14 B");
}

#[test]
fn multi_byte_text_next_to_the_difference() {
    let a = chat("Réponds en français. Aujourd'hui : 1 décembre 2026, 日本語も可", "Bonjour");
    let b = chat("Réponds en français. Aujourd'hui : 2 décembre 2026, 日本語も可", "Bonjour");
    let c = check(&a, &b);
    let f = c.diff.first.as_ref().unwrap();
    assert_eq!((f.excerpt_a.differing.as_str(), f.excerpt_b.differing.as_str()), ("1", "2"));
    assert!(f.excerpt_a.before.ends_with("Aujourd'hui : "), "{:?}", f.excerpt_a);
    assert!(f.excerpt_a.after.starts_with(" décembre"), "{:?}", f.excerpt_a);
    let prefix = cache_prefix(&a);
    assert_eq!(prefix.text[..f.byte].chars().count(), f.char_index);
    // The accent differs in its second byte: the difference starts at the character.
    let c = check("naïve café", "naïve cafè");
    assert_eq!(c.diff.first.as_ref().unwrap().excerpt_a.differing, "é");
    assert_eq!(c.diff.shared_bytes, "naïve caf".len());
}

#[test]
fn huge_and_hostile_inputs_do_not_blow_up() {
    let big_system = "Stable policy text. ".repeat(200_000); // 4 MB
    let a = chat(&big_system, "q1");
    let b = chat(&big_system, "q2");
    let c = check(&a, &b);
    assert!(c.diff.first.as_ref().unwrap().in_last_message);
    assert!(c.diff.first.as_ref().unwrap().excerpt_a.before.len() <= diff::EXCERPT_BEFORE_BYTES);
    let nested = "[".repeat(2_000_000);
    let deep_json = format!("{{\"messages\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    let many_objects = format!("{{\"tools\":[{}]}}", vec![r#"{"b":1,"a":2}"#; 100_000].join(","));
    let many_objects_b = many_objects.replace(r#"{"b":1,"a":2}"#, r#"{"a":2,"b":1}"#);
    let stamps = "2026-12-01T10:22:33Z req_abc12345 ".repeat(100_000);
    for (x, y) in [
        (nested.as_str(), deep_json.as_str()),
        (many_objects.as_str(), many_objects_b.as_str()),
        (stamps.as_str(), stamps.as_str()),
        ("", "{"),
        ("\u{0}\u{ffff}\"\\", "{\"system\":\"\\ud800\"}"),
    ] {
        let c = check(x, y);
        assert!(c.warnings.len() <= MAX_WARNINGS);
        if let Some(f) = &c.diff.first {
            assert!(f.excerpt_a.before.len() + f.excerpt_a.differing.len() + f.excerpt_a.after.len() <= 200);
        }
        let _ = (c.first_difference_words().render(Lang::En), c.shared_words().render(Lang::En), c.finding(), c.a.words().render(Lang::En));
    }
    let c = check(&many_objects, &many_objects_b);
    assert_eq!(c.warnings.len(), warnings::MAX_KEY_ORDER);
    assert!(c.warnings_truncated);
}


#[test]
fn every_word_of_the_check_is_said_in_both_languages() {
    let a = chat("You are terse. Current time: 2026-12-01T10:22:33Z", "What is a prefix?");
    let b = chat("You are terse. Current time: 2026-12-01T10:25:00Z", "What is a cache?");
    let many = serde_json::json!({"messages": [{"role": "user", "content": "x"}], "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9})
        .to_string();
    for (x, y) in [(a.as_str(), b.as_str()), (&a, &a), ("{\"messages\": [oops", "plain words"), (&many, &many)] {
        let c = check(x, y);
        let texts = [c.a.words(), c.b.words(), c.first_difference_words(), c.shared_words()];
        for t in texts {
            assert!(t.is_worded(), "{t:?}");
            let (en, zh) = (t.render(Lang::En), t.render(Lang::ZhCn));
            assert_ne!(en, zh, "{en} is not said in Chinese");
            assert!(zh.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)), "{zh}");
        }
        if let Some(f) = c.finding() {
            crate::findings::testkit::assert_worded(&f);
        }
    }
    let zh = check(&a, &b).finding().expect("unstable_prefix").localize(Lang::ZhCn);
    assert!(zh.detail.contains("messages[0].content 中的 timestamp（2026-12-01T10:22:33Z）"), "{}", zh.detail);
}
