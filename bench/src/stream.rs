//! The benchmark's input: a deterministic OpenAI-style chat-completions SSE stream of 32 MiB, generated
//! from a fixed seed (nothing is stored in git), and the same bytes cut into reads of a fixed size.
//!
//! The stream is what `POST /v1/chat/completions` with `stream: true` and `stream_options.include_usage`
//! sends: a role chunk, one `chat.completion.chunk` per token (the same `id`, `created`, `model`,
//! `service_tier` and `system_fingerprint` in each, `delta.content` a token of realistic size: mostly a
//! word with its leading space, punctuation, line breaks, Markdown, escaped quotes and backslashes,
//! accented, CJK and emoji text), a last chunk with `finish_reason: "stop"`, a usage chunk and
//! `data: [DONE]`, each event ended by a blank line. About 290 bytes per token event (OpenAI's chunks as
//! sent today, with `service_tier` and `logprobs`) and 4.5 bytes of text per token.

/// The size the stream is generated to (32 MiB of token events, then the closing events).
pub const STREAM_BYTES: usize = 32 * 1024 * 1024;

/// The generator's fixed seed: every run and every machine gets the same bytes.
pub const SEED: u64 = 0x5EED_2026_0013;

/// The read sizes the stream is cut into: a tiny read (64 B), one Ethernet frame's payload (1,500 B) and
/// a large read as browsers deliver under load (16 KiB).
pub const READ_SIZES_BYTES: [usize; 3] = [64, 1500, 16 * 1024];

/// Common English words, the bulk of the tokens (each usually sent with its leading space).
const WORDS: &[&str] = &[
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "with", "was", "on", "be", "by",
    "this", "are", "or", "an", "from", "at", "which", "can", "you", "data", "stream", "server", "model",
    "token", "latency", "request", "response", "buffer", "proxy", "cache", "first", "time", "between",
    "each", "when", "will", "would", "should", "because", "however", "example", "function", "value",
    "return", "error", "result", "number", "string", "system", "performance", "measure", "browser",
    "network", "connection", "event", "message", "content", "delta", "chunk", "client", "output",
    "input", "question", "answer", "reason", "important", "different", "following", "configuration",
    "deployment", "understand", "approximately", "implementation", "characters", "they", "their",
    "there", "these", "those", "what", "where", "while", "about", "after", "before", "other", "more",
    "most", "some", "such", "only", "also", "into", "over", "than", "then", "them", "very", "just",
    "like", "use", "used", "using", "make", "made", "need", "needs", "see", "set", "get", "run", "new",
];

/// Tokens that are not words: punctuation, line breaks, Markdown, code, quotes, non-ASCII text.
const OTHERS: &[&str] = &[
    ",", ".", ":", ";", "?", "!", " (", ")", " -", " —", "\n", "\n\n", "\n\n", "**", " **", "`", " `",
    "```", "```rust\n", "\n-", " 1", ".\n", "2", "0", "%", " \"", "\"", "\\", " \\n", "’s", " café",
    " naïve", "é", "…", " 中文", "日本", "语", " 😀", "🚀", " ->", " =>", " {", "}", " [", "]", "_",
];

/// A small, fast, seedable generator (SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The next token: a word (or the first half of a long one) with its leading space (78%), a word or word
/// piece without it (9%), anything else (13%).
fn token(rng: &mut SplitMix64) -> String {
    let roll = rng.below(100);
    // Common (early, short) words more often, as in text; long words come in pieces, as BPE cuts them.
    let common = rng.below(WORDS.len()) + 1;
    let word = WORDS[rng.below(common)];
    let word = if word.len() > 7 { &word[..word.len() / 2] } else { word };
    match roll {
        0..=77 => format!(" {word}"),
        78..=82 => word.to_string(),
        83..=86 => word[..word.len().div_ceil(2)].to_string(),
        _ => OTHERS[rng.below(OTHERS.len())].to_string(),
    }
}

/// The fields every chunk of the stream starts with.
const HEAD: &str = concat!(
    r#"{"id":"chatcmpl-CJ4yRkqT2nV8xW3pLs0aFbZ7dGhE1","object":"chat.completion.chunk","created":1764547200,"#,
    r#""model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_560af6e559","#,
);

/// One SSE event carrying `json`.
fn event(out: &mut Vec<u8>, json: &str) {
    out.extend_from_slice(b"data: ");
    out.extend_from_slice(json.as_bytes());
    out.extend_from_slice(b"\n\n");
}

/// One chunk whose only choice has this `delta` (a JSON object) and `finish_reason` (JSON).
fn choice_chunk(out: &mut Vec<u8>, delta: &str, finish_reason: &str) {
    event(
        out,
        &format!(r#"{HEAD}"choices":[{{"index":0,"delta":{delta},"logprobs":null,"finish_reason":{finish_reason}}}]}}"#),
    );
}

/// What [`openai_stream`] generated, besides its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The whole SSE body.
    pub bytes: Vec<u8>,
    /// Chunks that carried a token (non-empty `delta.content`).
    pub content_events: usize,
    /// Bytes of answer text (all tokens, decoded).
    pub text_bytes: usize,
    /// SSE events in all (role, tokens, stop, usage, `[DONE]`).
    pub events: usize,
}

/// Generates the stream: token events until the body holds at least `min_bytes`, then the closing
/// events (see the module docs). The same `seed` gives the same bytes.
pub fn openai_stream(min_bytes: usize, seed: u64) -> Generated {
    let mut rng = SplitMix64(seed);
    let mut bytes = Vec::with_capacity(min_bytes + 4096);
    choice_chunk(&mut bytes, r#"{"role":"assistant","content":"","refusal":null}"#, "null");
    let (mut content_events, mut text_bytes) = (0, 0);
    while bytes.len() < min_bytes {
        let t = token(&mut rng);
        let literal = serde_json::to_string(&t).expect("a string serializes");
        choice_chunk(&mut bytes, &format!(r#"{{"content":{literal}}}"#), "null");
        content_events += 1;
        text_bytes += t.len();
    }
    choice_chunk(&mut bytes, "{}", r#""stop""#);
    let usage = format!(
        concat!(
            r#"{HEAD}"choices":[],"usage":{{"prompt_tokens":1117,"completion_tokens":{n},"total_tokens":{total},"#,
            r#""prompt_tokens_details":{{"cached_tokens":1024,"audio_tokens":0}},"completion_tokens_details":"#,
            r#"{{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}}}}"#,
        ),
        HEAD = HEAD,
        n = content_events,
        total = 1117 + content_events,
    );
    event(&mut bytes, &usage);
    event(&mut bytes, "[DONE]");
    Generated { bytes, content_events, text_bytes, events: content_events + 4 }
}

/// The stream cut into reads of `size` bytes (the last one shorter).
pub fn reads(bytes: &[u8], size: usize) -> Vec<&[u8]> {
    bytes.chunks(size).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_stream_and_another_seed_another() {
        let a = openai_stream(200_000, SEED);
        assert_eq!(a, openai_stream(200_000, SEED));
        assert_ne!(a.bytes, openai_stream(200_000, SEED + 1).bytes);
        assert!(a.bytes.len() >= 200_000 && a.bytes.len() < 201_500, "{}", a.bytes.len());
    }

    #[test]
    fn every_event_is_json_or_done_and_tokens_have_realistic_sizes() {
        let g = openai_stream(500_000, SEED);
        let text = std::str::from_utf8(&g.bytes).unwrap();
        let datas: Vec<&str> = text.split("\n\n").filter(|e| !e.is_empty()).map(|e| e.strip_prefix("data: ").unwrap()).collect();
        assert_eq!(datas.len(), g.events);
        assert_eq!(datas.last(), Some(&"[DONE]"));
        for d in &datas[..datas.len() - 1] {
            let v: serde_json::Value = serde_json::from_str(d).unwrap();
            assert_eq!(v["object"], "chat.completion.chunk");
        }
        let chars_per_token = g.text_bytes as f64 / g.content_events as f64;
        assert!((3.5..5.5).contains(&chars_per_token), "{chars_per_token}");
        let per_event = g.bytes.len() / g.events;
        assert!((250..330).contains(&per_event), "{per_event}");
    }
}
