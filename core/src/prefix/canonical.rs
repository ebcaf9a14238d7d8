//! The cache prefix of one request body: the part of the body a provider's prompt cache matches, as one
//! text, in the order the provider renders it.
//!
//! A JSON object body becomes a minified JSON object holding only its prefix members, in
//! [`PREFIX_ORDER`] (tools, the structured-output schema, the system prompt, the messages), whatever their
//! order in the body: `{"tools":[…],"system":"…","messages":[…]}`. Inside each member the body's own key
//! order and values are kept as written; only what cannot reach the model is normalised: whitespace
//! between tokens, string escapes (`\u00e9` and `é` are the same character, written as `é`), and
//! Anthropic's `cache_control` markers (a breakpoint that moves to the newest message is not a change of
//! content). Anything else (plain text, a JSON array, broken JSON) is compared as written.
//!
//! Cost: two passes over the body (its members, then each prefix member), linear in its length; the
//! prefix is never longer than the body plus a few bytes.

use std::borrow::Cow;
use std::ops::{ControlFlow, Range};

use serde::Serialize;

use super::walk::{walk, Container, Event, Path};

/// What a prefix member is, in the order providers put it in front of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartRole {
    /// Tool (function) definitions.
    Tools,
    /// A structured-output schema.
    Schema,
    /// The system prompt or instructions.
    System,
    /// The conversation.
    Messages,
}

/// The body members read as the prompt prefix, in the order they are compared. Anthropic documents its
/// cache prefix as `tools`, then `system`, then `messages`. OpenAI documents an exact-prefix match in
/// which tools must be identical and the structured-output schema is "a prefix to the system message",
/// ahead of the messages array; DeepSeek matches the rendered input from its first token, and its chat
/// template (like open models' templates served by vLLM or SGLang) renders the tool definitions with the
/// system prompt, ahead of the conversation. Gemini (`systemInstruction`, `contents`), the OpenAI
/// Responses API (`instructions`, `input`) and Ollama (`system`, `prompt`) name the same parts otherwise.
/// Everything else (`model`, `temperature`, `max_tokens`, `stream`, …) is not part of the prefix.
pub const PREFIX_ORDER: [(PartRole, &[&str]); 4] = [
    (PartRole::Tools, &["tools"]),
    (PartRole::Schema, &["response_format"]),
    (PartRole::System, &["system", "instructions", "system_instruction", "systemInstruction"]),
    (PartRole::Messages, &["messages", "input", "contents", "prompt"]),
];

/// Keys left out wherever they appear: markers for the cache, not content the model reads.
pub const MARKER_KEYS: [&str; 1] = ["cache_control"];

/// Names of left-out members kept for display (the rest are counted).
pub const MAX_LEFT_OUT_NAMES: usize = 20;

/// Messages whose position and role are kept, from the first (the last one is always kept).
pub const MAX_LEADING_MESSAGES: usize = 64;

/// A role longer than this (bytes) is kept cut.
const MAX_ROLE_BYTES: usize = 32;

/// How a body was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyFormat {
    /// A JSON object: its prefix members, minified, in provider order.
    Json,
    /// Anything else, compared as written.
    Text,
}

/// One prefix member: where its value sits in the prefix text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrefixPart {
    /// The member's name in the body (`tools`, `system`, `messages`, …).
    pub name: String,
    /// What it is.
    pub role: PartRole,
    /// Its value's first byte in the prefix text.
    pub start_byte: usize,
    /// Its value's end (exclusive) in the prefix text.
    pub end_byte: usize,
}

/// One message of the conversation: where it sits in the prefix text and its role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MessageSpan {
    /// Its index in the conversation.
    pub index: usize,
    /// Its first byte in the prefix text.
    pub start_byte: usize,
    /// Its end (exclusive) in the prefix text.
    pub end_byte: usize,
    /// Its `role` (`system`, `developer`, `user`, `assistant`, …) when it has one.
    pub role: Option<String>,
}

/// The conversation member, when it is an array.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Messages {
    /// How many messages.
    pub count: usize,
    /// The first ones (at most [`MAX_LEADING_MESSAGES`]).
    pub leading: Vec<MessageSpan>,
    /// The last one.
    pub last: Option<MessageSpan>,
}

/// The cache prefix of one body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CachePrefix {
    /// The prefix as one text (minified JSON for a JSON body, the body itself otherwise).
    pub text: String,
    /// How the body was read.
    pub format: BodyFormat,
    /// For a body that opens like a JSON object but is not valid JSON: the byte of the body where it broke.
    pub not_json_at_byte: Option<usize>,
    /// The prefix members found, in prefix order.
    pub parts: Vec<PrefixPart>,
    /// Top-level members left out of the prefix (the first [`MAX_LEFT_OUT_NAMES`]).
    pub left_out: Vec<String>,
    /// How many members were left out in all.
    pub left_out_count: usize,
    /// The conversation, when the messages member is an array.
    pub messages: Option<Messages>,
}

/// Where a member's value is in the body.
struct Member {
    name: &'static str,
    role: PartRole,
    value: Range<usize>,
}

/// The prefix role and canonical name of a top-level key, if it is a prefix member.
fn prefix_member(key: &str) -> Option<(PartRole, &'static str)> {
    PREFIX_ORDER
        .iter()
        .find_map(|(role, names)| names.iter().find(|n| **n == key).map(|n| (*role, *n)))
}

/// A string literal (quotes included) with its escapes resolved and written again the one way: `"`, `\`
/// and control characters escaped, everything else as itself. Unchanged when it has no escape, or when
/// it cannot be decoded (a lone surrogate).
pub(crate) fn normalized_string(raw: &str) -> Cow<'_, str> {
    if !raw.as_bytes().contains(&b'\\') {
        return Cow::Borrowed(raw);
    }
    let Some(decoded) = crate::json::decode_string_literal(raw) else {
        return Cow::Borrowed(raw);
    };
    let mut out = String::with_capacity(decoded.len() + 2);
    out.push('"');
    for c in decoded.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    Cow::Owned(out)
}

/// Decodes a string literal's value for reading (a role): cut to `max` bytes, on a character boundary.
fn decoded(raw: &str, max: usize) -> String {
    let s = crate::json::decode_string_literal(raw).unwrap_or_else(|| raw.trim_matches('"').to_string());
    let mut cut = s.len().min(max);
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s[..cut].to_string()
}

/// The top-level members of a JSON object body: the prefix members (the last of a repeated name wins,
/// as most JSON readers do) and the names left out. `Err` at the byte where the body stops being JSON.
fn members(body: &str) -> Result<(Vec<Member>, Vec<String>, usize), usize> {
    let mut found: Vec<Member> = Vec::new();
    let mut left_out = Vec::new();
    let mut left_out_count = 0;
    let mut current: Option<(PartRole, &'static str)> = None;
    let mut open_at = 0;
    let mut record = |current: Option<(PartRole, &'static str)>, value: Range<usize>| {
        if let Some((role, name)) = current {
            found.retain(|m| m.name != name);
            found.push(Member { name, role, value });
        }
    };
    walk(body, |event, path| {
        match (event, path.depth()) {
            (Event::Key(range), 1) => {
                let key = &body[range.start + 1..range.end - 1];
                current = prefix_member(key);
                if current.is_none() {
                    left_out_count += 1;
                    if left_out.len() < MAX_LEFT_OUT_NAMES {
                        left_out.push(decoded(&body[range.clone()], 64));
                    }
                }
            }
            (Event::Scalar { range, .. }, 1) => record(current, range.clone()),
            (Event::Open(_, at), 1) => open_at = *at,
            (Event::Close(_, range), 1) => record(current, open_at..range.end),
            _ => {}
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| e.at_byte)?;
    Ok((found, left_out, left_out_count))
}

/// Writes a JSON value minified, strings normalised, marker keys left out; records the messages of a
/// conversation array.
struct Writer<'o> {
    out: &'o mut String,
    /// Per open container: whether the next item needs a comma.
    comma: Vec<bool>,
    /// Skipping a marker member's value opened at this depth.
    skip_depth: Option<usize>,
    /// Record messages (the value is the conversation).
    messages: Option<Messages>,
}

impl Writer<'_> {
    fn comma(&mut self) {
        if let Some(c) = self.comma.last_mut() {
            if *c {
                self.out.push(',');
            }
            *c = true;
        }
    }

    fn message_starts(&mut self, path: &Path, depth: usize) {
        if let (Some(m), 1) = (self.messages.as_mut(), depth) {
            let index = path.index_at(0).unwrap_or(0);
            let span = MessageSpan { index, start_byte: self.out.len(), end_byte: self.out.len(), role: None };
            m.count = index + 1;
            if m.leading.len() < MAX_LEADING_MESSAGES {
                m.leading.push(span.clone());
            }
            m.last = Some(span);
        }
    }

    fn message_ends(&mut self, depth: usize) {
        if let (Some(m), 1) = (self.messages.as_mut(), depth) {
            let end = self.out.len();
            if let Some(last) = m.last.as_mut() {
                last.end_byte = end;
            }
            if let Some(l) = m.leading.last_mut().filter(|l| Some(l.index) == m.last.as_ref().map(|x| x.index)) {
                l.end_byte = end;
            }
        }
    }

    fn message_role(&mut self, path: &Path, raw: &str) {
        if path.depth() != 2 || path.key_at(1) != Some("role") {
            return;
        }
        let role = decoded(raw, MAX_ROLE_BYTES);
        if let Some(m) = self.messages.as_mut() {
            if let Some(last) = m.last.as_mut() {
                last.role = Some(role.clone());
            }
            if let Some(l) = m.leading.last_mut().filter(|l| Some(l.index) == m.last.as_ref().map(|x| x.index)) {
                l.role = Some(role);
            }
        }
    }

    fn event(&mut self, value: &str, event: &Event, path: &Path) {
        let depth = path.depth();
        if let Some(skip) = self.skip_depth {
            if depth > skip {
                return;
            }
            match event {
                Event::Open(..) => return,
                Event::Scalar { .. } | Event::Close(..) => {
                    self.skip_depth = None;
                    return;
                }
                Event::Key(_) => self.skip_depth = None,
            }
        }
        let in_array = depth > 0 && path.index_at(depth - 1).is_some();
        match event {
            Event::Open(kind, _) => {
                if in_array {
                    self.comma();
                }
                self.message_starts(path, depth);
                self.out.push(if *kind == Container::Object { '{' } else { '[' });
                self.comma.push(false);
            }
            Event::Key(range) => {
                let key = &value[range.clone()];
                if MARKER_KEYS.contains(&&key[1..key.len() - 1]) {
                    self.skip_depth = Some(depth);
                    return;
                }
                self.comma();
                self.out.push_str(&normalized_string(key));
                self.out.push(':');
            }
            Event::Scalar { range, string } => {
                if in_array {
                    self.comma();
                }
                self.message_starts(path, depth);
                let raw = &value[range.clone()];
                if *string {
                    self.out.push_str(&normalized_string(raw));
                    if self.messages.is_some() {
                        self.message_role(path, raw);
                    }
                } else {
                    self.out.push_str(raw);
                }
                self.message_ends(depth);
            }
            Event::Close(kind, _) => {
                self.comma.pop();
                self.out.push(if *kind == Container::Object { '}' } else { ']' });
                self.message_ends(depth);
            }
        }
    }
}

/// The cache prefix of a request body (see the module doc). Never fails: what is not a JSON object is
/// compared as written.
pub fn cache_prefix(body: &str) -> CachePrefix {
    let as_text = |not_json_at_byte| CachePrefix {
        text: body.to_string(),
        format: BodyFormat::Text,
        not_json_at_byte,
        parts: Vec::new(),
        left_out: Vec::new(),
        left_out_count: 0,
        messages: None,
    };
    let start = body.len() - body.trim_start().len();
    if !body[start..].starts_with('{') {
        return as_text(None);
    }
    let (mut found, left_out, left_out_count) = match members(body) {
        Ok(m) => m,
        Err(at) => return as_text(Some(at)),
    };
    crate::sort::sort_by_key(&mut found, |m| {
        // The name's place in PREFIX_ORDER's lists read one after the other.
        let mut place = 0;
        for (_, names) in PREFIX_ORDER.iter() {
            match names.iter().position(|n| *n == m.name) {
                Some(i) => return Some(place + i),
                None => place += names.len(),
            }
        }
        None
    });
    let mut text = String::with_capacity(body.len().min(1 << 20));
    let mut parts = Vec::new();
    let mut messages = None;
    text.push('{');
    for m in found {
        if !parts.is_empty() {
            text.push(',');
        }
        text.push('"');
        text.push_str(m.name);
        text.push_str("\":");
        let start_byte = text.len();
        let value = &body[m.value.clone()];
        let conversation = m.role == PartRole::Messages && value.starts_with('[');
        let mut writer = Writer {
            out: &mut text,
            comma: Vec::new(),
            skip_depth: None,
            messages: conversation.then(Messages::default),
        };
        // Already walked once as part of the body: it is valid JSON.
        let _ = walk(value, |event, path| {
            writer.event(value, event, path);
            ControlFlow::Continue(())
        });
        if conversation {
            messages = writer.messages.take();
        }
        parts.push(PrefixPart { name: m.name.to_string(), role: m.role, start_byte, end_byte: text.len() });
    }
    text.push('}');
    CachePrefix { text, format: BodyFormat::Json, not_json_at_byte: None, parts, left_out, left_out_count, messages }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_members_in_provider_order_sampling_left_out() {
        let body = r#"{
            "model": "deepseek-chat", "stream": true, "temperature": 0.2,
            "messages": [ {"role": "system", "content": "Be brief."}, {"content": "Hi \u00e9", "role": "user"} ],
            "tools": [ {"type": "function", "function": {"name": "f"}} ]
        }"#;
        let p = cache_prefix(body);
        assert_eq!(p.format, BodyFormat::Json);
        assert_eq!(
            p.text,
            r#"{"tools":[{"type":"function","function":{"name":"f"}}],"messages":[{"role":"system","content":"Be brief."},{"content":"Hi é","role":"user"}]}"#
        );
        assert_eq!(p.left_out, ["model", "stream", "temperature"]);
        let names: Vec<_> = p.parts.iter().map(|x| (x.name.as_str(), x.role)).collect();
        assert_eq!(names, [("tools", PartRole::Tools), ("messages", PartRole::Messages)]);
        let tools = &p.parts[0];
        assert!(p.text[tools.start_byte..tools.end_byte].starts_with("[{\"type\""));
        let m = p.messages.unwrap();
        assert_eq!(m.count, 2);
        let roles: Vec<_> = m.leading.iter().map(|s| s.role.clone().unwrap_or_default()).collect();
        assert_eq!(roles, ["system", "user"]);
        let last = m.last.unwrap();
        assert_eq!(&p.text[last.start_byte..last.end_byte], r#"{"content":"Hi é","role":"user"}"#);
    }

    #[test]
    fn anthropic_system_blocks_without_cache_control_markers() {
        let body = r#"{"messages":[{"role":"user","content":[{"type":"text","text":"q","cache_control":{"type":"ephemeral"}}]}],
            "system":[{"type":"text","cache_control":{"type":"ephemeral"},"text":"You are terse."}],"max_tokens":1024}"#;
        let p = cache_prefix(body);
        assert_eq!(
            p.text,
            r#"{"system":[{"type":"text","text":"You are terse."}],"messages":[{"role":"user","content":[{"type":"text","text":"q"}]}]}"#
        );
    }

    #[test]
    fn text_and_broken_json_are_kept_as_written() {
        let p = cache_prefix("Summarise: {not json");
        assert_eq!((p.format, p.text.as_str(), p.not_json_at_byte), (BodyFormat::Text, "Summarise: {not json", None));
        let p = cache_prefix("{\"messages\": [");
        assert_eq!((p.format, p.not_json_at_byte), (BodyFormat::Text, Some(14)));
        assert_eq!(cache_prefix("[1, 2]").format, BodyFormat::Text);
    }

    #[test]
    fn a_repeated_member_counts_once_the_last() {
        let p = cache_prefix(r#"{"system":"a","system":"b"}"#);
        assert_eq!(p.text, r#"{"system":"b"}"#);
    }

    #[test]
    fn escapes_are_normalised_and_undecodable_strings_kept() {
        assert_eq!(normalized_string(r#""a\/b\u0041\n""#), r#""a/bA\n""#);
        assert_eq!(normalized_string(r#""\ud800""#), r#""\ud800""#);
        assert_eq!(normalized_string(r#""plain""#), r#""plain""#);
    }
}
