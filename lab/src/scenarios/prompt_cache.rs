//! The simulated prompt cache: a prefix cache in blocks of [`BLOCK_BYTES`], with a rule a test can
//! compute exactly from the prompt text.
//!
//! **The prompt text** ([`prompt_text`]) is the query's `prompt=` when it has one; otherwise the body's
//! text pieces joined with `\n`, in this order: the system prompt (`system`: a string or the `text` of
//! each block; `instructions`; `systemInstruction.parts[].text`), each `messages[].content` (a string
//! as it is, anything else as its JSON text), `input` (a string, or each item's `content` as for
//! messages), `contents[].parts[].text`, then `prompt`. Roles are not part of it.
//!
//! **The rule**, for a prompt text of `n` bytes:
//! - `prompt_tokens = max(1, ⌈n / 4⌉)` ([`BYTES_PER_TOKEN`]);
//! - the *cut points* are every multiple of 64 bytes up to `n` (64, 128, …, 64·⌊n/64⌋) and `n`
//!   itself (none when `n = 0`), at most [`MAX_CUTS_PER_PROMPT`] of them (the first 256 KiB);
//! - a cut point `c` is cached when the prefix `text[..c]` (its FNV-1a hash) was remembered before;
//!   `hit_bytes` is the largest cut point such that it and every cut point before it are cached (0
//!   when the first is not);
//! - `cache_hit_tokens = ⌈hit_bytes / 4⌉`: 16 tokens per whole block, and all `prompt_tokens` when the
//!   whole prompt was seen before; `miss = prompt_tokens − hit`;
//! - then every cut point of the request is remembered (counted and remembered in one step, when the
//!   request arrives, so concurrent requests count in arrival order).
//!
//! So a first request hits 0; the same prompt again hits all of it; a prompt that shares its first 128
//! bytes (and no more) with an earlier one hits 32 tokens; a prompt of 100 bytes that extends a 64-byte
//! prompt hits 16 of its 25. Memory is bounded: the last [`MAX_CACHED_PREFIXES`] prefixes are kept
//! (the oldest forgotten first), at 8 bytes each plus the set's overhead, a few MB at most.

use serde_json::Value;

use crate::http::query::Query;
use crate::http::recent::Recent;

/// Bytes per cache block (the cut points are its multiples, plus the prompt's end).
pub const BLOCK_BYTES: usize = 64;
/// Prompt bytes per token, for `prompt_tokens` and the hit tokens.
pub const BYTES_PER_TOKEN: usize = 4;
/// Cut points remembered per prompt: a prompt's first 256 KiB can hit, the rest is always a miss.
pub const MAX_CUTS_PER_PROMPT: usize = 4096;
/// Prefixes the cache remembers in all (oldest forgotten first): 16 prompts of the longest kind, or
/// thousands of short ones.
pub const MAX_CACHED_PREFIXES: usize = 65_536;

/// One cut point of a prompt: the prefix's length and its hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// Length of the prefix in bytes.
    pub end_bytes: usize,
    /// FNV-1a hash of the prefix.
    pub hash: u64,
}

/// What the cache needs of a prompt: its length and its cut points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prompt {
    /// Length of the prompt text in bytes.
    pub len_bytes: usize,
    /// The cut points, in order (see the module docs).
    pub cuts: Vec<Cut>,
}

impl Prompt {
    /// The cut points of `text`, hashed in one pass.
    pub fn of(text: &[u8]) -> Self {
        let mut cuts = Vec::new();
        let mut hash = FNV_OFFSET;
        for (index, &byte) in text.iter().enumerate() {
            if cuts.len() == MAX_CUTS_PER_PROMPT {
                break;
            }
            hash = (hash ^ byte as u64).wrapping_mul(FNV_PRIME);
            let end_bytes = index + 1;
            if end_bytes % BLOCK_BYTES == 0 || end_bytes == text.len() {
                cuts.push(Cut { end_bytes, hash });
            }
        }
        Self {
            len_bytes: text.len(),
            cuts,
        }
    }

    /// `max(1, ⌈len_bytes / 4⌉)`.
    pub fn tokens(&self) -> usize {
        self.len_bytes.div_ceil(BYTES_PER_TOKEN).max(1)
    }
}

/// The remembered prefixes.
#[derive(Debug)]
pub(crate) struct PromptCache {
    seen: Recent,
}

impl PromptCache {
    /// An empty cache keeping at most `capacity` prefixes.
    pub fn new(capacity: usize) -> Self {
        Self {
            seen: Recent::new(capacity),
        }
    }

    /// The hit tokens of `prompt` by the rule in the module docs; then remembers its prefixes.
    pub fn serve(&mut self, prompt: &Prompt) -> usize {
        let hit_bytes = prompt
            .cuts
            .iter()
            .take_while(|cut| self.seen.contains(cut.hash))
            .last()
            .map_or(0, |cut| cut.end_bytes);
        for cut in &prompt.cuts {
            self.seen.insert(cut.hash);
        }
        hit_bytes.div_ceil(BYTES_PER_TOKEN).min(prompt.tokens())
    }

    /// How many prefixes are kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.seen.len()
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// The prompt text of a request (see the module docs): the query's `prompt=`, else the body's pieces.
pub fn prompt_text(query: &Query, body: &Value) -> String {
    if let Some(prompt) = query.get("prompt") {
        return prompt.to_string();
    }
    let mut pieces: Vec<String> = Vec::new();
    match body.get("system") {
        Some(Value::String(text)) => pieces.push(text.clone()),
        Some(Value::Array(blocks)) => pieces.extend(blocks.iter().filter_map(text_of)),
        _ => {}
    }
    pieces.extend(body.get("instructions").and_then(Value::as_str).map(String::from));
    pieces.extend(parts_text(body.get("systemInstruction")));
    for key in ["messages", "input"] {
        match body.get(key) {
            Some(Value::Array(items)) => {
                pieces.extend(items.iter().filter_map(|item| item.get("content")).map(content))
            }
            Some(Value::String(text)) if key == "input" => pieces.push(text.clone()),
            _ => {}
        }
    }
    if let Some(contents) = body.get("contents").and_then(Value::as_array) {
        for item in contents {
            pieces.extend(parts_text(Some(item)));
        }
    }
    pieces.extend(body.get("prompt").and_then(Value::as_str).map(String::from));
    pieces.join("\n")
}

/// A message's content: a string as it is, anything else as its JSON text.
fn content(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The `text` of a block.
fn text_of(block: &Value) -> Option<String> {
    block.get("text").and_then(Value::as_str).map(String::from)
}

/// The `text` of each of a Gemini content's `parts`.
fn parts_text(item: Option<&Value>) -> Vec<String> {
    item.and_then(|item| item.get("parts"))
        .and_then(Value::as_array)
        .map(|parts| parts.iter().filter_map(text_of).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(len: usize, seed: u8) -> Vec<u8> {
        (0..len).map(|i| b'a' + ((i + seed as usize) % 26) as u8).collect()
    }

    #[test]
    fn first_request_misses_and_the_same_prompt_then_hits_all_of_it() {
        let mut cache = PromptCache::new(MAX_CACHED_PREFIXES);
        let prompt = Prompt::of(&text(200, 0));
        assert_eq!(prompt.tokens(), 50);
        let ends: Vec<usize> = prompt.cuts.iter().map(|c| c.end_bytes).collect();
        assert_eq!(ends, [64, 128, 192, 200]);
        assert_eq!(cache.serve(&prompt), 0);
        assert_eq!(cache.serve(&prompt), 50);
    }

    #[test]
    fn a_shared_prefix_hits_its_whole_blocks_only() {
        let mut cache = PromptCache::new(MAX_CACHED_PREFIXES);
        let first = text(300, 0);
        cache.serve(&Prompt::of(&first));
        // The first 128 bytes are the same, byte 129 differs: two blocks, 32 tokens.
        let mut second = first[..128].to_vec();
        second.extend(text(172, 7));
        assert_eq!(cache.serve(&Prompt::of(&second)), 32);
        // Differs inside the first block: nothing.
        let mut third = first.clone();
        third[10] = b'#';
        assert_eq!(cache.serve(&Prompt::of(&third)), 0);
        // 100 bytes extending the first prompt's first 64: one block of its 25 tokens.
        let mut fourth = first[..64].to_vec();
        fourth.extend(b"-".repeat(36));
        assert_eq!(Prompt::of(&fourth).tokens(), 25);
        assert_eq!(cache.serve(&Prompt::of(&fourth)), 16);
        // A prefix of a remembered prompt that ends between cut points: its whole blocks only.
        assert_eq!(cache.serve(&Prompt::of(&first[..150])), 32);
        // An exact multiple of the block: every block, all of it.
        assert_eq!(cache.serve(&Prompt::of(&first[..192])), 48);
    }

    #[test]
    fn short_and_empty_prompts() {
        let mut cache = PromptCache::new(MAX_CACHED_PREFIXES);
        let empty = Prompt::of(b"");
        assert_eq!((empty.tokens(), empty.cuts.len()), (1, 0));
        assert_eq!((cache.serve(&empty), cache.serve(&empty)), (0, 0));
        let short = Prompt::of(b"hello");
        assert_eq!(short.tokens(), 2);
        assert_eq!((cache.serve(&short), cache.serve(&short)), (0, 2));
    }

    #[test]
    fn long_prompts_and_the_cache_stay_bounded() {
        let long = text(1024 * 1024, 3);
        let prompt = Prompt::of(&long);
        assert_eq!(prompt.cuts.len(), MAX_CUTS_PER_PROMPT);
        assert_eq!(prompt.tokens(), 262_144);
        let mut cache = PromptCache::new(MAX_CACHED_PREFIXES);
        assert_eq!(cache.serve(&prompt), 0);
        assert_eq!(cache.serve(&prompt), MAX_CUTS_PER_PROMPT * BLOCK_BYTES / BYTES_PER_TOKEN);
        for seed in 0..40u8 {
            let mut other = text(300_000, seed);
            other[0] = b'0' + seed % 10;
            other[1] = seed;
            cache.serve(&Prompt::of(&other));
        }
        assert_eq!(cache.len(), MAX_CACHED_PREFIXES);
        assert_eq!(cache.serve(&prompt), 0, "the oldest prefixes were forgotten");
    }

    #[test]
    fn the_prompt_text_of_every_request_shape() {
        let query = Query::parse("");
        let chat = json!({"messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}]});
        assert_eq!(prompt_text(&query, &chat), "S\nU");
        let blocks = json!({"messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]});
        assert_eq!(prompt_text(&query, &blocks), r#"[{"text":"x","type":"text"}]"#);
        let anthropic = json!({"system": [{"type": "text", "text": "S"}], "messages": [{"role": "user", "content": "U"}]});
        assert_eq!(prompt_text(&query, &anthropic), "S\nU");
        let responses = json!({"instructions": "I", "input": "U"});
        assert_eq!(prompt_text(&query, &responses), "I\nU");
        let gemini = json!({"systemInstruction": {"parts": [{"text": "S"}]},
            "contents": [{"role": "user", "parts": [{"text": "A"}, {"text": "B"}]}]});
        assert_eq!(prompt_text(&query, &gemini), "S\nA\nB");
        let generate = json!({"system": "S", "prompt": "P"});
        assert_eq!(prompt_text(&query, &generate), "S\nP");
        assert_eq!(prompt_text(&query, &Value::Null), "");
        assert_eq!(prompt_text(&Query::parse("prompt=from%20the%20query"), &chat), "from the query");
    }
}
