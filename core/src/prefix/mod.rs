//! The prefix check: do two request bodies share the prompt prefix a provider's prompt cache needs?
//!
//! Providers cache the start of the rendered prompt and reuse it only for a request whose prompt begins
//! with exactly the same tokens; one changed character ends the reuse there. The troubleshooting guide's
//! target, a cache hit ratio of 70% or more on repeated requests, needs the prefix to stay the same. Given
//! two bodies (OpenAI / DeepSeek chat JSON, Anthropic Messages JSON, or plain text), [`check`] works out:
//!
//! - each body's cache prefix ([`canonical`]): tools, schema, system prompt, messages, in the order
//!   providers render them, keys in the body's own order, sampling settings left out;
//! - where the two prefixes first differ ([`diff`]): byte and character offset, the path in each request
//!   (`messages[0].content`), the shared length and share, an excerpt of each side;
//! - what usually breaks caching ([`warnings`]): timestamps, UUIDs and request ids ([`volatile`]) in the
//!   part meant to stay the same, tools or JSON keys in another order. Together they make the
//!   `unstable_prefix` finding ([`PrefixCheck::finding`]).
//!
//! Pure and bounded: inputs of a few MB are read in a few linear passes, output sizes are capped (excerpts,
//! warnings, names), and no input panics. Depends on [`crate::findings`] (the finding type),
//! [`crate::text`] and [`crate::i18n`] (the words, in the reader's language) only.

pub mod canonical;
pub mod diff;
pub mod volatile;
mod walk;
pub mod warnings;

use serde::Serialize;

use crate::findings::{Finding, FindingCode, Severity};
use crate::i18n::keys::PrefixKey as K;
use crate::i18n::Text;

pub use canonical::{cache_prefix, BodyFormat, CachePrefix, PartRole, PREFIX_ORDER};
pub use diff::{compare, Excerpt, FirstDifference, PrefixDiff};
pub use warnings::{PrefixWarning, WarningKind, WarningSide, Warnings, MAX_WARNINGS};

/// How one body was read, for display.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrefixSide {
    /// JSON object or plain text.
    pub format: BodyFormat,
    /// The cache prefix's length (bytes).
    pub prefix_bytes: usize,
    /// The prefix members found, in prefix order (`tools`, `system`, `messages`, …).
    pub parts: Vec<String>,
    /// How many messages, when the conversation is an array.
    pub message_count: Option<usize>,
    /// Top-level members left out (the first few; `left_out_count` counts them all).
    pub left_out: Vec<String>,
    /// How many top-level members were left out.
    pub left_out_count: usize,
    /// For a body that opens like JSON but is not: the byte where it broke.
    pub not_json_at_byte: Option<usize>,
}

impl PrefixSide {
    fn of(prefix: &CachePrefix) -> PrefixSide {
        PrefixSide {
            format: prefix.format,
            prefix_bytes: prefix.text.len(),
            parts: prefix.parts.iter().map(|p| p.name.clone()).collect(),
            message_count: prefix.messages.as_ref().map(|m| m.count),
            left_out: prefix.left_out.clone(),
            left_out_count: prefix.left_out_count,
            not_json_at_byte: prefix.not_json_at_byte,
        }
    }

    /// How the body was read, in words: `JSON: tools, system, messages (3 messages), prefix 1.2 KiB; left
    /// out: model, temperature`, `plain text, 812 B`, `not JSON (it breaks at byte 40): compared as plain
    /// text, 1.0 KiB`.
    pub fn words(&self) -> Text {
        let size = crate::text::bytes(self.prefix_bytes as f64);
        match (self.format, self.not_json_at_byte) {
            (BodyFormat::Text, Some(at)) => Text::msg(K::SideNotJson).with("at", at.to_string()).with("size", size),
            (BodyFormat::Text, None) => Text::msg(K::SideText).with("size", size),
            (BodyFormat::Json, _) => {
                let parts = if self.parts.is_empty() { Text::msg(K::SideNoMembers) } else { self.parts.join(", ").into() };
                let messages = self.message_count.map_or_else(Text::empty, |n| Text::msg(K::SideMessages).count("n", n));
                let names = self.left_out.join(", ");
                let left_out = match self.left_out_count {
                    0 => Text::empty(),
                    n if n > self.left_out.len() => {
                        Text::msg(K::SideLeftOutMore).with("names", names).with("more", (n - self.left_out.len()).to_string())
                    }
                    _ => Text::msg(K::SideLeftOut).with("names", names),
                };
                Text::msg(K::SideJson).with("parts", parts).with("messages", messages).with("size", size).with("left_out", left_out)
            }
        }
    }
}

/// Everything the prefix check found about two bodies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrefixCheck {
    /// How body A was read.
    pub a: PrefixSide,
    /// How body B was read.
    pub b: PrefixSide,
    /// Where the prefixes part.
    pub diff: PrefixDiff,
    /// The cache breakers found, in prefix order (at most [`MAX_WARNINGS`]).
    pub warnings: Vec<PrefixWarning>,
    /// More cache breakers were found than listed.
    pub warnings_truncated: bool,
}

/// Compares the cache prefixes of two request bodies (see the module doc).
pub fn check(body_a: &str, body_b: &str) -> PrefixCheck {
    let (a, b) = (cache_prefix(body_a), cache_prefix(body_b));
    let diff = compare(&a, &b);
    let found = warnings::warnings(&a, &b);
    PrefixCheck {
        a: PrefixSide::of(&a),
        b: PrefixSide::of(&b),
        diff,
        warnings: found.list,
        warnings_truncated: found.truncated,
    }
}

impl PrefixCheck {
    /// Where the prefixes first differ, in words: `identical prefixes (…)` or `first difference at byte
    /// 412 (character 405), in messages[0].content`, saying when it is the usual new last message.
    pub fn first_difference_words(&self) -> Text {
        let Some(f) = &self.diff.first else {
            return Text::msg(K::Identical).count("n", self.diff.len_a_bytes);
        };
        let place: Text = if f.path_a == f.path_b {
            f.path_a.as_str().into()
        } else {
            Text::msg(K::PlaceBoth).with("a", f.path_a.as_str()).with("b", f.path_b.as_str())
        };
        let said = Text::msg(K::FirstDifference)
            .with("byte", f.byte.to_string())
            .with("char", f.char_index.to_string())
            .with("place", place);
        if f.in_last_message {
            said.then(Text::msg(K::FirstDifferenceLast))
        } else {
            said
        }
    }

    /// How much is shared, in words: `412 of 980 bytes shared (42% of the shorter prefix; A 980 bytes, B
    /// 1211 bytes)`. The share is rounded down, so only identical prefixes read 100%.
    pub fn shared_words(&self) -> Text {
        let d = &self.diff;
        Text::msg(K::Shared)
            .with("shared", d.shared_bytes.to_string())
            .count("shorter", d.len_a_bytes.min(d.len_b_bytes))
            .with("percent", crate::fixed::fixed((d.shared_share * 100.0).floor(), 0))
            .count("a", d.len_a_bytes)
            .count("b", d.len_b_bytes)
    }

    /// The `unstable_prefix` finding (warning) when a cache breaker was found: what and where, and the
    /// fix. `None` when there is none.
    pub fn finding(&self) -> Option<Finding> {
        let first = self.warnings.first()?;
        let listed = Text::join(
            self.warnings.iter().take(5).map(|w| {
                Text::msg(K::FindingListed).with("kind", w.kind.as_str()).with("path", w.path.as_str()).with("text", w.text.as_str())
            }),
            Text::msg(K::FindingListSep),
        );
        let more = if self.warnings.len() > 5 || self.warnings_truncated { Text::msg(K::FindingMore) } else { Text::empty() };
        let parted = match &self.diff.first {
            Some(f) => Text::msg(K::FindingParted).with("byte", f.byte.to_string()).with("path", f.path_a.as_str()),
            None => Text::empty(),
        };
        let evidence: Vec<_> = self
            .warnings
            .iter()
            .map(|w| json_object!({"kind": w.kind.as_str(), "side": w.side.as_str(), "path": w.path, "text": w.text,
                "start_byte": w.start_byte, "end_byte": w.end_byte}))
            .collect();
        Some(
            Finding::new(
                FindingCode::UnstablePrefix,
                Severity::Warning,
                Text::msg(K::FindingTitle),
                Text::msg(K::FindingDetail)
                    .count("n", self.warnings.len())
                    .with("listed", listed)
                    .with("more", more)
                    .with("first", first.path.as_str())
                    .with("parted", parted),
            )
            .fix(Text::msg(K::FindingFix))
            .evidence(json_object!({"warnings": evidence, "truncated": self.warnings_truncated,
                "first_difference_byte": self.diff.first.as_ref().map(|f| f.byte),
                "first_difference_path": self.diff.first.as_ref().map(|f| f.path_a.clone()),
                "shared_bytes": self.diff.shared_bytes, "shared_share": self.diff.shared_share})),
        )
    }
}

#[cfg(test)]
mod tests;
