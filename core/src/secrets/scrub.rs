//! The scrubber: masks the user's secrets out of what a server sends back, read by read.
//!
//! A server may echo the key (a 401 body quoting it, a debug proxy returning the request headers).
//! The page knows the key, so every read is passed through a [`Scrubber`] before it is stored: each
//! occurrence of a secret, or of one of its obvious variants (trimmed, percent-encoded, JSON-escaped,
//! base64 of it), is overwritten with `*` bytes of the same length. Same length means the trace's
//! read sizes, the parse and every metric are exactly what they would have been; only the secret's
//! bytes are gone from the raw view, the answer text, the findings, the export and the Markdown.
//!
//! A secret split across two reads is caught too: the scrubber keeps, per pattern, how much of a
//! pattern the stream so far ends with (a Knuth-Morris-Pratt state) and masks the rest when the next
//! read completes it. Bytes already handed on cannot be taken back (and holding them would change the
//! timing being measured), so a read that *ends* with at least [`EAGER_PREFIX_MIN`] (4) bytes of a
//! pattern's start has them masked at once: only a split that leaves at most 3 bytes of the secret at
//! the end of a read lets those few through (a key's public prefix: `sk-`, `AIz`), and a read that
//! happens to end with the first 4+ bytes of the key without the key following loses those bytes to
//! `*` (text equal to the key's start). Secrets shorter than [`MIN_SECRET_BYTES`] (8) are not scrubbed:
//! masking every `abc` in an answer would damage it and hide nothing. A key spread over several SSE
//! events (its bytes not contiguous on the wire) is not recognised: only what a server echoes as text
//! is. Cost: one pass over each read per pattern.

/// Secrets shorter than this are not scrubbed.
pub const MIN_SECRET_BYTES: usize = 8;

/// A read ending with at least this many bytes of a pattern's start has them masked at once.
pub const EAGER_PREFIX_MIN: usize = 4;

/// The byte that replaces a secret's bytes.
pub const MASK: u8 = b'*';

/// One byte pattern with its failure table and streaming state.
#[derive(Clone)]
struct Pattern {
    bytes: Vec<u8>,
    fail: Vec<usize>,
    matched: usize,
}

impl Pattern {
    fn new(bytes: Vec<u8>) -> Pattern {
        let mut fail = vec![0; bytes.len()];
        let mut k = 0;
        for i in 1..bytes.len() {
            while k > 0 && bytes[i] != bytes[k] {
                k = fail[k - 1];
            }
            if bytes[i] == bytes[k] {
                k += 1;
            }
            fail[i] = k;
        }
        Pattern { bytes, fail, matched: 0 }
    }

    /// Scans `data` (continuing the stream), adding the byte ranges of `data` to mask; `eager` also
    /// masks a trailing start of the pattern (more of the stream may follow).
    fn scan(&mut self, data: &[u8], eager: bool, mask: &mut Vec<(usize, usize)>) {
        let (p, n) = (&self.bytes, self.bytes.len());
        let mut k = self.matched;
        for (i, &b) in data.iter().enumerate() {
            while k > 0 && b != p[k] {
                k = self.fail[k - 1];
            }
            if b == p[k] {
                k += 1;
            }
            if k == n {
                mask.push(((i + 1).saturating_sub(n), i + 1));
                k = self.fail[k - 1];
            }
        }
        if eager && k >= EAGER_PREFIX_MIN.min(n) {
            mask.push((data.len().saturating_sub(k), data.len()));
        }
        self.matched = k;
    }
}

/// Masks secrets out of a stream of reads (see the module docs).
#[derive(Clone, Default)]
pub struct Scrubber {
    patterns: Vec<Pattern>,
}

impl std::fmt::Debug for Scrubber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secrets themselves.
        write!(f, "Scrubber({} patterns)", self.patterns.len())
    }
}

/// The variants of one secret worth masking.
fn variants(secret: &str) -> Vec<String> {
    let trimmed = secret.trim();
    let mut out = vec![secret.to_string(), trimmed.to_string()];
    out.push(crate::config::page_config::percent_encode(trimmed));
    out.push(serde_json::to_string(trimmed).map(|q| q[1..q.len() - 1].to_string()).unwrap_or_default());
    out.push(base64(trimmed.as_bytes()));
    out
}

impl Scrubber {
    /// A scrubber for `secrets` and their variants (shorter than [`MIN_SECRET_BYTES`]: ignored).
    pub fn new<I, S>(secrets: I) -> Scrubber
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut all: Vec<String> = Vec::new();
        for s in secrets {
            for v in variants(s.as_ref()) {
                if v.len() >= MIN_SECRET_BYTES && !all.contains(&v) {
                    all.push(v);
                }
            }
        }
        Scrubber { patterns: all.into_iter().map(|v| Pattern::new(v.into_bytes())).collect() }
    }

    /// Whether there is nothing to scrub.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Masks the secrets in the next read of the stream, in place (same length).
    pub fn scrub(&mut self, data: &mut [u8]) {
        if self.patterns.is_empty() {
            return;
        }
        let mut mask = Vec::new();
        for p in &mut self.patterns {
            p.scan(data, true, &mut mask);
        }
        for (s, e) in mask {
            data[s..e].fill(MASK);
        }
    }

    /// `text` with the secrets masked, on its own (no stream state; for headers, messages, ids).
    pub fn scrub_str(&self, text: &str) -> String {
        if self.patterns.is_empty() {
            return text.to_string();
        }
        let mut bytes = text.as_bytes().to_vec();
        let mut mask = Vec::new();
        for p in &self.patterns {
            Pattern { matched: 0, ..p.clone() }.scan(&bytes, false, &mut mask);
        }
        for (s, e) in mask {
            bytes[s..e].fill(MASK);
        }
        // Masking ASCII over whole UTF-8 sequences of a secret keeps valid UTF-8 unless a secret was
        // cut mid-character, which `from_utf8_lossy` repairs.
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-test-0123456789abcdefSECRET";

    fn run(s: &mut Scrubber, reads: &[&str]) -> Vec<String> {
        reads
            .iter()
            .map(|r| {
                let mut b = r.as_bytes().to_vec();
                s.scrub(&mut b);
                String::from_utf8(b).unwrap()
            })
            .collect()
    }

    #[test]
    fn an_echoed_key_is_masked_with_the_same_length() {
        let mut s = Scrubber::new([KEY]);
        let body = format!("{{\"error\":\"Incorrect API key provided: {KEY}.\"}}");
        let out = run(&mut s, &[&body]);
        assert_eq!(out[0].len(), body.len());
        assert!(!out[0].contains("0123456789abcdef") && out[0].contains(&"*".repeat(KEY.len())), "{}", out[0]);
    }

    #[test]
    fn a_key_split_across_reads_is_masked_in_both() {
        for cut in 1..KEY.len() {
            let mut s = Scrubber::new([KEY]);
            let first = format!("Bearer {}", &KEY[..cut]);
            let second = format!("{} tail", &KEY[cut..]);
            let out = run(&mut s, &[&first, &second]);
            let joined = out.concat();
            // At most the 3 leading bytes of the key may have left in the first read before the rest came.
            let leaked = if cut < EAGER_PREFIX_MIN { cut } else { 0 };
            assert_eq!(joined, format!("Bearer {}{} tail", &KEY[..leaked], "*".repeat(KEY.len() - leaked)), "cut {cut}");
        }
    }

    #[test]
    fn variants_are_masked_too() {
        let key = "ab+cd/ef==gh\"ij";
        let s = Scrubber::new([format!("  {key}\n")]);
        for echoed in ["ab%2Bcd%2Fef%3D%3Dgh%22ij", "ab+cd/ef==gh\\\"ij", &base64(key.as_bytes()), key] {
            let out = s.scrub_str(&format!("x {echoed} y"));
            assert!(!out.contains(echoed), "{echoed} -> {out}");
            assert!(out.starts_with("x ") && out.ends_with(" y"), "{out}");
        }
    }

    #[test]
    fn short_secrets_and_no_secrets_change_nothing() {
        let mut s = Scrubber::new(["abc", ""]);
        assert!(s.is_empty());
        assert_eq!(run(&mut s, &["abc abc"]), vec!["abc abc".to_string()]);
    }

    #[test]
    fn text_that_only_starts_like_the_key_is_kept_in_scrub_str() {
        let s = Scrubber::new([KEY]);
        assert_eq!(s.scrub_str("sk-test-0123 is not it"), "sk-test-0123 is not it");
        assert_eq!(s.scrub_str(&format!("[{KEY}]")), format!("[{}]", "*".repeat(KEY.len())));
    }

    #[test]
    fn overlapping_and_repeated_keys() {
        let mut s = Scrubber::new(["aaaaaaaaab"]);
        let out = run(&mut s, &["aaaaaaaaaaaaaaab aaaaaaaaab"]);
        assert_eq!(out[0], "aaaaaa********** **********");
    }

    #[test]
    fn debug_never_prints_a_secret() {
        assert_eq!(format!("{:?}", Scrubber::new([KEY])), "Scrubber(2 patterns)");
    }

    #[test]
    fn base64_matches_the_standard() {
        assert_eq!(base64(b"user:pass"), "dXNlcjpwYXNz");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b""), "");
    }
}
