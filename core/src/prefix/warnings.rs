//! What usually breaks a prompt cache, found in two cache prefixes, each with its span (path, byte range in
//! the prefix, the matched text):
//!
//! - volatile values ([`super::volatile`]: timestamps, UUIDs, request ids) in what is meant to stay the
//!   same: the tools, the schema, the system prompt, and the conversation's first message with any system
//!   or developer messages right after it. Not in the last message (where a new question belongs), nor in
//!   the rest of the history (earlier turns are sent again unchanged). A value both requests carry alike
//!   is reported once, for both: the next request's will differ;
//! - `tool_order`: the same tool names in another order;
//! - `key_order`: an object at the same path with the same keys in another order (the first
//!   [`MAX_OBJECTS`] objects of each prefix are compared).
//!
//! Bounded: at most [`MAX_VOLATILE_PER_SIDE`] volatile values per request, one `tool_order`,
//! [`MAX_KEY_ORDER`] `key_order`: [`MAX_WARNINGS`] in all, with a flag when more were left out. Cost: one
//! walk of each prefix per check, linear in its length.

use std::ops::{ControlFlow, Range};

use serde::Serialize;

use super::canonical::{BodyFormat, CachePrefix, PartRole};
use crate::i18n::keys::PrefixKey as K;
use crate::i18n::{Lang, Text};
use super::volatile::{volatile_values, VolatileKind};
use super::walk::{walk, Container, Event};

/// Volatile values reported per request, at most.
pub const MAX_VOLATILE_PER_SIDE: usize = 8;
/// `key_order` warnings, at most.
pub const MAX_KEY_ORDER: usize = 3;
/// Warnings in all, at most.
pub const MAX_WARNINGS: usize = 2 * MAX_VOLATILE_PER_SIDE + 1 + MAX_KEY_ORDER;
/// Objects per prefix whose key order is compared.
pub const MAX_OBJECTS: usize = 20_000;
/// Tool names compared per prefix.
const MAX_TOOLS: usize = 256;
/// Keys per object compared (objects with more are skipped).
const MAX_KEYS: usize = 64;
/// A warning's text is cut to this many characters.
pub const MAX_TEXT_CHARS: usize = 120;

/// What kind of cache breaker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WarningKind {
    /// A date, time or epoch.
    Timestamp,
    /// A UUID.
    Uuid,
    /// A request, trace or session id.
    RequestId,
    /// The same tools in another order.
    ToolOrder,
    /// The same keys in another order.
    KeyOrder,
}

impl WarningKind {
    /// The snake_case name (`timestamp`, `uuid`, `request_id`, `tool_order`, `key_order`).
    pub fn as_str(self) -> &'static str {
        match self {
            WarningKind::Timestamp => "timestamp",
            WarningKind::Uuid => "uuid",
            WarningKind::RequestId => "request_id",
            WarningKind::ToolOrder => "tool_order",
            WarningKind::KeyOrder => "key_order",
        }
    }
}

/// Which request a warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WarningSide {
    /// Request A.
    A,
    /// Request B.
    B,
    /// Both (the same value in both, or an order that differs between them; the span is A's).
    Both,
}

impl WarningSide {
    /// `a`, `b` or `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            WarningSide::A => "a",
            WarningSide::B => "b",
            WarningSide::Both => "both",
        }
    }
}

/// One cache breaker with its span.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrefixWarning {
    /// What it is.
    pub kind: WarningKind,
    /// Which request.
    pub side: WarningSide,
    /// Where: `messages[0].content`, `system`, `tools`, `text` for a plain body.
    pub path: String,
    /// Its first byte in that side's prefix (A's for both).
    pub start_byte: usize,
    /// Its end (exclusive) in that prefix.
    pub end_byte: usize,
    /// The matched text (at most [`MAX_TEXT_CHARS`] characters); for an order, A's order.
    pub text: String,
    /// For an order: B's order.
    pub other_text: Option<String>,
    /// One sentence saying what it is and why it breaks the cache (in English; [`PrefixWarning::localize`]
    /// says it in another language).
    pub message: String,
    /// The message as a catalogue text; not serialised.
    #[serde(skip)]
    pub words: MessageWords,
}

/// A warning's message as a [`Text`]. Equality ignores it: the rendered `message` is compared instead.
#[derive(Debug, Clone)]
pub struct MessageWords(Text);

impl PartialEq for MessageWords {
    fn eq(&self, _: &MessageWords) -> bool {
        true
    }
}

impl Eq for MessageWords {}

impl PrefixWarning {
    /// Sets the message: its text, and its English rendering in `message`.
    fn say(&mut self, text: Text) {
        self.message = text.render(Lang::En);
        self.words = MessageWords(text);
    }

    /// The warning with its message said in `lang` (everything else unchanged).
    pub fn localize(&self, lang: Lang) -> PrefixWarning {
        PrefixWarning { message: self.words.0.render(lang), ..self.clone() }
    }

    /// Whether every word of the message comes from the catalogue.
    pub fn is_worded(&self) -> bool {
        self.words.0.is_worded()
    }
}

/// The warnings of a check, and whether more were found than kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Warnings {
    /// In prefix order.
    pub list: Vec<PrefixWarning>,
    /// More were found than [`MAX_WARNINGS`] allows.
    pub truncated: bool,
}

fn cut(text: &str) -> String {
    crate::text::truncate_chars(text, MAX_TEXT_CHARS)
}

fn side_words(side: WarningSide) -> Text {
    Text::msg(match side {
        WarningSide::A => K::SideA,
        WarningSide::B => K::SideB,
        WarningSide::Both => K::SideBoth,
    })
}

/// The sentence of a volatile value.
fn volatile_message(kind: WarningKind, path: &str, side: WarningSide) -> Text {
    let what = match kind {
        WarningKind::Timestamp => K::WhatTimestamp,
        WarningKind::Uuid => K::WhatUuid,
        _ => K::WhatRequestId,
    };
    Text::msg(K::Volatile).with("what", Text::msg(what)).with("path", path).with("side", side_words(side))
}

/// A warning saying `message`.
fn warning(
    kind: WarningKind,
    side: WarningSide,
    path: String,
    range: Range<usize>,
    text: String,
    other_text: Option<String>,
    message: Text,
) -> PrefixWarning {
    let mut w = PrefixWarning {
        kind,
        side,
        path,
        start_byte: range.start,
        end_byte: range.end,
        text,
        other_text,
        message: String::new(),
        words: MessageWords(Text::empty()),
    };
    w.say(message);
    w
}

/// The prefix ranges meant to stay the same from request to request (see the module doc).
fn stable_regions(prefix: &CachePrefix) -> Vec<Range<usize>> {
    if prefix.format == BodyFormat::Text {
        return std::iter::once(0..prefix.text.len()).collect();
    }
    let mut regions: Vec<Range<usize>> = prefix
        .parts
        .iter()
        .filter(|p| p.role != PartRole::Messages)
        .map(|p| p.start_byte..p.end_byte)
        .collect();
    if let Some(m) = &prefix.messages {
        let system = |role: &Option<String>| matches!(role.as_deref(), Some("system" | "developer"));
        for span in &m.leading {
            let leading = span.index == 0 || system(&span.role);
            let last = span.index + 1 == m.count;
            if !leading || (last && !system(&span.role)) {
                break;
            }
            regions.push(span.start_byte..span.end_byte);
        }
    }
    crate::sort::sort_by_key(&mut regions, |r| r.start);
    regions
}

/// The volatile values in one prefix's stable regions: at most `max`, and whether there were more.
fn volatile_in(prefix: &CachePrefix, side: WarningSide, max: usize) -> (Vec<PrefixWarning>, bool) {
    let regions = stable_regions(prefix);
    let mut out = Vec::new();
    let scan = |value: Range<usize>, path: &dyn Fn() -> String, out: &mut Vec<PrefixWarning>| {
        let text = &prefix.text[value.clone()];
        for m in volatile_values(text, max + 1 - out.len()) {
            let kind = match m.kind {
                VolatileKind::Timestamp => WarningKind::Timestamp,
                VolatileKind::Uuid => WarningKind::Uuid,
                VolatileKind::RequestId => WarningKind::RequestId,
            };
            let path = path();
            let message = volatile_message(kind, &path, side);
            let range = value.start + m.range.start..value.start + m.range.end;
            out.push(warning(kind, side, path, range, cut(&text[m.range]), None, message));
        }
    };
    if prefix.format == BodyFormat::Text {
        scan(0..prefix.text.len(), &|| "text".to_string(), &mut out);
    } else {
        let mut region = 0;
        let _ = walk(&prefix.text, |event, path| {
            let Event::Scalar { range, string } = event else { return ControlFlow::Continue(()) };
            while regions.get(region).is_some_and(|r| r.end <= range.start) {
                region += 1;
            }
            let Some(r) = regions.get(region) else { return ControlFlow::Break(()) };
            if r.start <= range.start {
                let inner = if *string { range.start + 1..range.end - 1 } else { range.clone() };
                scan(inner, &|| path.render(), &mut out);
            }
            if out.len() > max { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
    }
    let more = out.len() > max;
    out.truncate(max);
    (out, more)
}

/// The tool names of a prefix, in order (OpenAI `function.name`, Anthropic `name`, Gemini
/// `functionDeclarations[].name`).
fn tool_names(prefix: &CachePrefix) -> Vec<String> {
    let mut names = Vec::new();
    if prefix.format != BodyFormat::Json {
        return names;
    }
    let _ = walk(&prefix.text, |event, path| {
        if path.depth() >= 1 && path.key_at(0) != Some("tools") {
            return ControlFlow::Continue(());
        }
        let Event::Scalar { range, string: true } = event else { return ControlFlow::Continue(()) };
        let name = match path.depth() {
            3 => path.key_at(2) == Some("name"),
            4 => path.key_at(2) == Some("function") && path.key_at(3) == Some("name"),
            5 => path.key_at(2) == Some("functionDeclarations") && path.key_at(4) == Some("name"),
            _ => false,
        };
        if name {
            names.push(prefix.text[range.start + 1..range.end - 1].to_string());
        }
        if names.len() >= MAX_TOOLS { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    names
}

/// `tool_order`: the same tool names, in another order.
fn tool_order(a: &CachePrefix, b: &CachePrefix) -> Option<PrefixWarning> {
    let (names_a, names_b) = (tool_names(a), tool_names(b));
    let sorted = |names: &[String]| {
        let mut s = names.to_vec();
        crate::sort::sort(&mut s);
        s
    };
    if names_a == names_b || sorted(&names_a) != sorted(&names_b) {
        return None;
    }
    let tools = a.parts.iter().find(|p| p.role == PartRole::Tools)?;
    let (text, other) = (cut(&names_a.join(", ")), cut(&names_b.join(", ")));
    let message = Text::msg(K::ToolOrder).with("a", text.as_str()).with("b", other.as_str());
    Some(warning(
        WarningKind::ToolOrder,
        WarningSide::Both,
        tools.name.clone(),
        tools.start_byte..tools.end_byte,
        text,
        Some(other),
        message,
    ))
}

/// An object of a prefix: its path, range and keys (ranges into the prefix, quotes excluded).
struct Object {
    path: String,
    range: Range<usize>,
    keys: Vec<Range<usize>>,
}

/// The objects of a prefix below its root, with two keys or more (the first [`MAX_OBJECTS`]).
fn objects(prefix: &CachePrefix) -> Vec<Object> {
    let mut out = Vec::new();
    if prefix.format != BodyFormat::Json {
        return out;
    }
    let mut open: Vec<Option<Vec<Range<usize>>>> = Vec::new();
    let _ = walk(&prefix.text, |event, path| {
        match event {
            Event::Open(Container::Object, _) => open.push(Some(Vec::new())),
            Event::Open(Container::Array, _) => open.push(None),
            Event::Key(r) => {
                if let Some(Some(keys)) = open.last_mut() {
                    keys.push(r.start + 1..r.end - 1);
                }
            }
            Event::Close(_, range) => {
                let keys = open.pop().flatten();
                if let Some(keys) = keys.filter(|k| (2..=MAX_KEYS).contains(&k.len()) && path.depth() > 0) {
                    out.push(Object { path: path.render(), range: range.clone(), keys });
                }
            }
            Event::Scalar { .. } => {}
        }
        if out.len() >= MAX_OBJECTS { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    out
}

/// `key_order`: objects at the same path with the same keys in another order; at most `max`, and
/// whether there were more. Paths under `tools` are skipped when `skip_tools` (reordered tools put other
/// tools at the same index).
fn key_order(a: &CachePrefix, b: &CachePrefix, max: usize, skip_tools: bool) -> (Vec<PrefixWarning>, bool) {
    // B's objects sorted by path and found by binary search: no hash map (and its hashing code) in the wasm.
    let mut in_b = objects(b);
    crate::sort::sort_by(&mut in_b, |x, y| x.path.cmp(&y.path));
    let mut out = Vec::new();
    let mut more = false;
    for oa in objects(a) {
        let Ok(at) = in_b.binary_search_by(|o| o.path.cmp(&oa.path)) else { continue };
        let ob = &in_b[at];
        if skip_tools && oa.path.starts_with("tools[") {
            continue;
        }
        let names = |p: &CachePrefix, keys: &[Range<usize>]| -> Vec<String> {
            keys.iter().map(|k| p.text[k.clone()].to_string()).collect()
        };
        let (ka, kb) = (names(a, &oa.keys), names(b, &ob.keys));
        let sorted = |k: &[String]| {
            let mut s = k.to_vec();
            crate::sort::sort(&mut s);
            s
        };
        if ka == kb || sorted(&ka) != sorted(&kb) {
            continue;
        }
        if out.len() == max {
            more = true;
            break;
        }
        let (text, other) = (cut(&ka.join(", ")), cut(&kb.join(", ")));
        let message =
            Text::msg(K::KeyOrder).with("path", oa.path.as_str()).with("a", text.as_str()).with("b", other.as_str());
        out.push(warning(WarningKind::KeyOrder, WarningSide::Both, oa.path, oa.range, text, Some(other), message));
    }
    (out, more)
}

/// Every cache breaker in two prefixes (see the module doc), in prefix order.
pub fn warnings(a: &CachePrefix, b: &CachePrefix) -> Warnings {
    let (mut list, more_a) = volatile_in(a, WarningSide::A, MAX_VOLATILE_PER_SIDE);
    let (from_b, more_b) = volatile_in(b, WarningSide::B, MAX_VOLATILE_PER_SIDE);
    for w in from_b {
        let same = list.iter_mut().find(|x| x.side == WarningSide::A && x.kind == w.kind && x.path == w.path && x.text == w.text);
        match same {
            Some(x) => {
                x.side = WarningSide::Both;
                let message = volatile_message(x.kind, &x.path, WarningSide::Both);
                x.say(message);
            }
            None => list.push(w),
        }
    }
    let tools = tool_order(a, b);
    let (keys, more_keys) = key_order(a, b, MAX_KEY_ORDER, tools.is_some());
    list.extend(tools);
    list.extend(keys);
    crate::sort::sort_by_key(&mut list, |w| w.start_byte);
    Warnings { list, truncated: more_a || more_b || more_keys }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prefix::canonical::cache_prefix;

    /// The warnings of two bodies, each message checked to be said from the catalogue in every word, and
    /// in Chinese too with everything else unchanged.
    fn check(a: &str, b: &str) -> Vec<PrefixWarning> {
        let list = warnings(&cache_prefix(a), &cache_prefix(b)).list;
        for w in &list {
            assert!(w.is_worded(), "{w:?}");
            let zh = w.localize(Lang::ZhCn);
            assert_ne!(zh.message, w.message);
            assert_eq!(PrefixWarning { message: w.message.clone(), ..zh }, *w);
            assert_eq!(w.localize(Lang::En).message, w.message);
        }
        list
    }

    #[test]
    fn a_timestamp_in_the_system_prompt_with_its_span() {
        let a = r#"{"messages":[{"role":"system","content":"Current time: 2026-12-01T10:22:33Z."},{"role":"user","content":"hi"}]}"#;
        let b = a.replace("10:22:33", "11:00:00");
        let p = cache_prefix(a);
        let w = check(a, &b);
        assert_eq!(w.len(), 2, "{w:?}");
        let first = &w[0];
        assert_eq!((first.kind, first.side, first.path.as_str()), (WarningKind::Timestamp, WarningSide::A, "messages[0].content"));
        assert_eq!(first.text, "2026-12-01T10:22:33Z");
        assert_eq!(&p.text[first.start_byte..first.end_byte], "2026-12-01T10:22:33Z");
        assert_eq!((w[1].side, w[1].text.as_str()), (WarningSide::B, "2026-12-01T11:00:00Z"));
        assert!(first.message.contains("messages[0].content"), "{}", first.message);
    }

    /// The path and the names found go into every language as they are.
    #[test]
    fn messages_in_chinese_keep_paths_and_names() {
        let a = r#"{"system":"Session 123e4567-e89b-12d3-a456-426614174000.","messages":[{"role":"user","content":"hi"}]}"#;
        let w = check(a, a);
        assert_eq!(
            w[0].localize(Lang::ZhCn).message,
            "system（两个请求都有，现在相同，但下一个请求的值会不同）中有一个 UUID：它每次请求都会变，服务商的缓存从这里开始什么都复用不了。"
        );
        let m = |x: &str| format!(r#"{{"messages":[{x},{{"role":"user","content":"q"}}]}}"#);
        let w = check(&m(r#"{"role":"system","content":"s"}"#), &m(r#"{"content":"s","role":"system"}"#));
        assert!(w[0].localize(Lang::ZhCn).message.starts_with("messages[0] 处同样的键，顺序不同：A 发送的是 role, content；B 发送的是 content, role。"));
    }

    #[test]
    fn a_value_both_carry_is_one_warning_for_both() {
        let a = r#"{"system":"Session 123e4567-e89b-12d3-a456-426614174000.","messages":[{"role":"user","content":"hi"}]}"#;
        let w = check(a, a);
        assert_eq!(w.len(), 1);
        assert_eq!((w[0].kind, w[0].side, w[0].path.as_str()), (WarningKind::Uuid, WarningSide::Both, "system"));
    }

    #[test]
    fn the_last_message_and_the_history_are_not_scanned() {
        let a = r#"{"messages":[{"role":"user","content":"What happened on Dec 1, 2026?"}]}"#;
        assert!(check(a, a).is_empty());
        let b = r#"{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"old question about req_abc12345"},
            {"role":"assistant","content":"old answer"},{"role":"user","content":"Today is Monday"}]}"#;
        assert!(check(b, b).is_empty(), "{:?}", check(b, b));
        let sys_only = r#"{"messages":[{"role":"system","content":"Today is Monday."}]}"#;
        assert_eq!(check(sys_only, sys_only).len(), 1);
    }

    #[test]
    fn tools_in_another_order() {
        let tool = |n: &str| format!(r#"{{"type":"function","function":{{"name":"{n}","parameters":{{"type":"object"}}}}}}"#);
        let a = format!(r#"{{"tools":[{},{}],"messages":[]}}"#, tool("get_weather"), tool("get_time"));
        let b = format!(r#"{{"tools":[{},{}],"messages":[]}}"#, tool("get_time"), tool("get_weather"));
        let w = check(&a, &b);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!((w[0].kind, w[0].path.as_str()), (WarningKind::ToolOrder, "tools"));
        assert_eq!((w[0].text.as_str(), w[0].other_text.as_deref()), ("get_weather, get_time", Some("get_time, get_weather")));
        let anthropic = |x: &str, y: &str| format!(r#"{{"tools":[{{"name":"{x}","input_schema":{{}}}},{{"name":"{y}","input_schema":{{}}}}]}}"#);
        assert_eq!(check(&anthropic("a", "b"), &anthropic("b", "a"))[0].kind, WarningKind::ToolOrder);
        assert!(check(&anthropic("a", "b"), &anthropic("a", "c")).is_empty(), "another tool is not an order");
    }

    #[test]
    fn keys_in_another_order() {
        let a = r#"{"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string"}}}}}],
            "messages":[{"role":"user","content":"hi"}]}"#;
        let b = a.replace(r#""city":{"type":"string"},"unit":{"type":"string"}"#, r#""unit":{"type":"string"},"city":{"type":"string"}"#);
        let w = check(a, &b);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!((w[0].kind, w[0].path.as_str()), (WarningKind::KeyOrder, "tools[0].function.parameters.properties"));
        assert_eq!((w[0].text.as_str(), w[0].other_text.as_deref()), ("city, unit", Some("unit, city")));
        let m = |x: &str| format!(r#"{{"messages":[{x},{{"role":"user","content":"q"}}]}}"#);
        let w = check(&m(r#"{"role":"system","content":"s"}"#), &m(r#"{"content":"s","role":"system"}"#));
        assert_eq!((w[0].kind, w[0].path.as_str()), (WarningKind::KeyOrder, "messages[0]"));
    }

    #[test]
    fn bounded_however_many_there_are() {
        let many = format!(r#"{{"system":"{}"}}"#, "at 2026-12-01 and req_abc12345 ".repeat(500));
        let other = many.replace("2026", "2027").replace("abc", "xyz");
        let w = warnings(&cache_prefix(&many), &cache_prefix(&other));
        assert!(w.truncated);
        assert_eq!(w.list.len(), 2 * MAX_VOLATILE_PER_SIDE);
        assert!(w.list.len() <= MAX_WARNINGS);
    }
}
