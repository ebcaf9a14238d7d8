//! Where two cache prefixes part: the first differing byte (a character boundary in both, since every
//! byte before it is shared), its path in each request, how much is shared, and a short excerpt of each
//! side around it with the differing run marked.
//!
//! The differing run ends where the two texts agree again up to their ends (their common suffix), so a
//! changed timestamp in an otherwise equal system prompt is marked as just the changed characters. Each
//! piece of an excerpt is bounded ([`EXCERPT_BEFORE_BYTES`], [`EXCERPT_MARK_BYTES`],
//! [`EXCERPT_AFTER_BYTES`]) and cut on character boundaries. Cost: two linear scans (common prefix and
//! common suffix) and one walk of each prefix up to the difference for its path.

use std::ops::ControlFlow;

use serde::Serialize;

use super::canonical::{BodyFormat, CachePrefix};
use super::walk::{walk, Event};

/// Shared text shown before the difference, at most (bytes).
pub const EXCERPT_BEFORE_BYTES: usize = 60;
/// Differing text shown (marked), at most (bytes).
pub const EXCERPT_MARK_BYTES: usize = 80;
/// Text shown after the differing run, at most (bytes).
pub const EXCERPT_AFTER_BYTES: usize = 40;

/// One side's text around the first difference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Excerpt {
    /// Shared text just before the difference.
    pub before: String,
    /// The differing run (empty when this prefix ends where the other goes on).
    pub differing: String,
    /// Text just after the differing run.
    pub after: String,
    /// Text before `before` was left out.
    pub cut_before: bool,
    /// The differing run was longer than shown.
    pub cut_differing: bool,
    /// Text after `after` was left out.
    pub cut_after: bool,
}

/// The first place where two prefixes differ.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FirstDifference {
    /// Its byte offset in both prefixes (everything before it is equal; a character boundary in both).
    pub byte: usize,
    /// Its offset in characters (Unicode scalar values), the same in both.
    pub char_index: usize,
    /// Where it is in request A: `messages[0].content`, `tools`, `system`, or `text` for a plain body.
    pub path_a: String,
    /// Where it is in request B.
    pub path_b: String,
    /// It lies in (or after the start of) the last message of one of the conversations: the usual,
    /// cache-friendly case of a new turn (everything before it can be reused).
    pub in_last_message: bool,
    /// A's text around it.
    pub excerpt_a: Excerpt,
    /// B's text around it.
    pub excerpt_b: Excerpt,
}

/// How two prefixes compare.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrefixDiff {
    /// A's prefix length (bytes).
    pub len_a_bytes: usize,
    /// B's prefix length (bytes).
    pub len_b_bytes: usize,
    /// The shared leading bytes.
    pub shared_bytes: usize,
    /// `shared_bytes` as a share (0 to 1) of the shorter prefix; 1 when both are empty.
    pub shared_share: f64,
    /// The first difference; `None` when the prefixes are identical.
    pub first: Option<FirstDifference>,
}

/// The largest character boundary of `s` at or below `i`.
pub(crate) fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary of `s` at or above `i`.
pub(crate) fn ceil_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The path of the value, key or bracket at `byte` of a prefix (`text` for a plain body; `end` past a
/// JSON prefix's last value).
pub(crate) fn path_at(prefix: &CachePrefix, byte: usize) -> String {
    if prefix.format == BodyFormat::Text {
        return "text".into();
    }
    let mut found = None;
    let _ = walk(&prefix.text, |event, path| {
        let hit = match event {
            Event::Open(_, at) => {
                if *at > byte {
                    return ControlFlow::Break(());
                }
                false
            }
            Event::Key(r) => r.contains(&byte),
            Event::Scalar { range, .. } => range.contains(&byte),
            Event::Close(_, r) => r.contains(&byte),
        };
        if hit {
            found = Some(path.render());
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    // The root object's own braces and commas: no member to name.
    found.filter(|p| !p.is_empty()).unwrap_or_else(|| "(prefix)".into())
}

/// Whether `byte` lies at or after the start of the prefix's last message.
fn in_last_message(prefix: &CachePrefix, byte: usize) -> bool {
    prefix
        .messages
        .as_ref()
        .and_then(|m| m.last.as_ref())
        .is_some_and(|last| byte >= last.start_byte)
}

/// One side's excerpt: `diff..mark_end` is the differing run.
fn excerpt(text: &str, diff: usize, mark_end: usize) -> Excerpt {
    // `diff` is a boundary, so rounding up never passes it.
    let from = ceil_boundary(text, diff.saturating_sub(EXCERPT_BEFORE_BYTES));
    let shown_mark_end = floor_boundary(text, mark_end.min(diff + EXCERPT_MARK_BYTES)).max(diff);
    let after_end = floor_boundary(text, shown_mark_end + EXCERPT_AFTER_BYTES);
    Excerpt {
        before: text[from..diff].to_string(),
        differing: text[diff..shown_mark_end].to_string(),
        after: if shown_mark_end < mark_end { String::new() } else { text[shown_mark_end..after_end].to_string() },
        cut_before: from > 0,
        cut_differing: shown_mark_end < mark_end,
        cut_after: shown_mark_end < mark_end || after_end < text.len(),
    }
}

/// Compares two cache prefixes (see the module doc).
pub fn compare(a: &CachePrefix, b: &CachePrefix) -> PrefixDiff {
    let (ta, tb) = (a.text.as_bytes(), b.text.as_bytes());
    let shorter = ta.len().min(tb.len());
    let common = ta.iter().zip(tb).position(|(x, y)| x != y).unwrap_or(shorter);
    let identical = common == ta.len() && common == tb.len();
    // Back to the start of the character the first differing byte belongs to (equal bytes before it).
    let diff = floor_boundary(&a.text, common);
    let shared_share = if shorter == 0 { if identical { 1.0 } else { 0.0 } } else { diff as f64 / shorter as f64 };
    let first = (!identical).then(|| {
        // The common suffix, not reaching back past the difference in either.
        let room = ta.len().min(tb.len()) - diff;
        let suffix = ta.iter().rev().zip(tb.iter().rev()).take(room).take_while(|(x, y)| x == y).count();
        let end_a = ceil_boundary(&a.text, ta.len() - suffix);
        let end_b = ceil_boundary(&b.text, tb.len() - suffix);
        FirstDifference {
            byte: diff,
            char_index: a.text[..diff].chars().count(),
            path_a: path_at(a, diff),
            path_b: path_at(b, diff),
            in_last_message: in_last_message(a, diff) || in_last_message(b, diff),
            excerpt_a: excerpt(&a.text, diff, end_a),
            excerpt_b: excerpt(&b.text, diff, end_b),
        }
    });
    PrefixDiff { len_a_bytes: ta.len(), len_b_bytes: tb.len(), shared_bytes: diff, shared_share, first }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prefix::canonical::cache_prefix;

    fn diff(a: &str, b: &str) -> PrefixDiff {
        compare(&cache_prefix(a), &cache_prefix(b))
    }

    #[test]
    fn a_changed_timestamp_is_marked_alone() {
        let a = r#"{"messages":[{"role":"system","content":"Current time: 2026-12-01T10:22:33Z. Be brief."},{"role":"user","content":"hi"}]}"#;
        let b = a.replace("10:22:33", "09:05:07");
        let d = diff(a, &b);
        let f = d.first.expect("they differ");
        assert_eq!((f.path_a.as_str(), f.path_b.as_str()), ("messages[0].content", "messages[0].content"));
        assert!(!f.in_last_message);
        assert_eq!(f.excerpt_a.differing, "10:22:33");
        assert_eq!(f.excerpt_b.differing, "09:05:07");
        assert!(f.excerpt_a.before.ends_with("2026-12-01T"), "{:?}", f.excerpt_a);
        assert!(f.excerpt_a.after.starts_with("Z. Be brief."), "{:?}", f.excerpt_a);
        assert_eq!(d.shared_bytes, f.byte);
        assert!(d.shared_share > 0.3 && d.shared_share < 1.0);
    }

    #[test]
    fn identical_prefixes_differ_nowhere() {
        let a = r#"{"model":"a","messages":[{"role":"user","content":"hi"}]}"#;
        let b = r#"{"messages": [ {"role": "user", "content": "hi"} ], "model": "b", "temperature": 1}"#;
        let d = diff(a, b);
        assert_eq!(d.first, None);
        assert_eq!((d.shared_bytes, d.shared_share), (d.len_a_bytes, 1.0));
        assert_eq!(diff("", "").shared_share, 1.0);
    }

    #[test]
    fn a_new_last_message_is_the_cache_friendly_case() {
        let sys = r#"{"role":"system","content":"You are a careful assistant."}"#;
        let a = format!(r#"{{"messages":[{sys},{{"role":"user","content":"What is a prefix?"}}]}}"#);
        let b = format!(r#"{{"messages":[{sys},{{"role":"user","content":"What is a cache?"}}]}}"#);
        let f = diff(&a, &b).first.unwrap();
        assert_eq!(f.path_a, "messages[1].content");
        assert!(f.in_last_message);
        // A conversation that goes on: all of A's messages are shared.
        let c = format!(r#"{{"messages":[{sys},{{"role":"user","content":"What is a prefix?"}},{{"role":"assistant","content":"A start."}}]}}"#);
        let f = diff(&a, &c).first.unwrap();
        assert!(f.in_last_message, "{f:?}");
        assert_eq!(f.path_a, "messages");
    }

    #[test]
    fn multi_byte_characters_at_the_difference_stay_whole() {
        let (a, b) = ("Résumé: naïve café", "Résumé: naïve cafè");
        let d = diff(a, b);
        let f = d.first.unwrap();
        assert_eq!((f.byte, f.char_index), ("Résumé: naïve caf".len(), 17));
        assert_eq!((f.excerpt_a.differing.as_str(), f.excerpt_b.differing.as_str()), ("é", "è"));
        assert_eq!(f.path_a, "text");
        let long_a = format!("{}X{}", "日本".repeat(100), "語".repeat(100));
        let long_b = format!("{}Y{}", "日本".repeat(100), "語".repeat(100));
        let f = diff(&long_a, &long_b).first.unwrap();
        assert!(f.excerpt_a.before.len() <= EXCERPT_BEFORE_BYTES && f.excerpt_a.cut_before);
        assert!(f.excerpt_a.after.len() <= EXCERPT_AFTER_BYTES && f.excerpt_a.cut_after);
        assert_eq!(f.excerpt_a.differing, "X");
    }

    #[test]
    fn one_prefix_ending_where_the_other_goes_on() {
        let f = diff("Stable instructions.", "Stable instructions. More.").first.unwrap();
        assert_eq!(f.byte, 20);
        assert_eq!((f.excerpt_a.differing.as_str(), f.excerpt_b.differing.as_str()), ("", " More."));
    }
}
