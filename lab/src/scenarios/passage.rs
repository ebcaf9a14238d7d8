//! The fixed English passage the lab "generates", one word per token.
//!
//! Every token has a leading space. Multi-byte UTF-8 words are sprinkled in so that code points get
//! split whenever something between the lab and the browser re-chunks the stream.

const WORDS: &[&str] = &[
    "The",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "the",
    "lazy",
    "dog",
    "while",
    "a",
    "barista",
    "in",
    "the",
    "café",
    "pours",
    "coffee",
    "—",
    "slowly,",
    "carefully,",
    "and",
    "with",
    "great",
    "patience.",
    "Travellers",
    "from",
    "日本",
    "watch",
    "the",
    "stream",
    "of",
    "tokens",
    "arrive",
    "one",
    "by",
    "one,",
    "each",
    "measured",
    "in",
    "milliseconds",
    "🦀",
    "by",
    "a",
    "naïve",
    "but",
    "honest",
    "page.",
    "Nothing",
    "is",
    "buffered",
    "über",
    "the",
    "proxy",
    "unless",
    "someone",
    "configured",
    "it",
    "so;",
    "then",
    "the",
    "report",
    "says",
    "which",
    "layer",
    "to",
    "fix",
    "€",
    "and",
    "why.",
];

/// Returns the text of token `index` (with its leading space); the passage repeats.
pub fn token_text(index: usize) -> String {
    format!(" {}", WORDS[index % WORDS.len()])
}

/// Returns the concatenated text of the first `count` tokens.
pub fn text_of(count: usize) -> String {
    span_text(0..count)
}

/// Returns the concatenated text of the tokens in `indices`.
pub fn span_text(indices: std::ops::Range<usize>) -> String {
    indices.map(token_text).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passage_has_multibyte_tokens_early() {
        assert!((0..20).any(|i| token_text(i).len() != token_text(i).chars().count()));
    }
}
