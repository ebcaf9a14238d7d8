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
//! warnings, names), and no input panics. Depends on [`crate::findings`] (the finding type) and
//! [`crate::text`] only.

pub mod canonical;
pub mod diff;
pub mod volatile;
mod walk;
pub mod warnings;

use serde::Serialize;
use serde_json::json;

use crate::findings::{Finding, FindingCode, Severity};
use crate::text::plural;

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

    /// How the body was read, in words: `JSON: tools, system, messages (3 messages); left out: model,
    /// temperature`, `plain text, 812 B`, `not JSON (it breaks at byte 40): compared as plain text, 1.0 KiB`.
    pub fn words(&self) -> String {
        let size = crate::text::bytes(self.prefix_bytes as f64);
        match (self.format, self.not_json_at_byte) {
            (BodyFormat::Text, Some(at)) => format!("not JSON (it breaks at byte {at}): compared as plain text, {size}"),
            (BodyFormat::Text, None) => format!("plain text, {size}"),
            (BodyFormat::Json, _) => {
                let parts = if self.parts.is_empty() { "no prompt members".to_string() } else { self.parts.join(", ") };
                let messages = self.message_count.map(|n| format!(" ({})", plural(n, "message", "messages"))).unwrap_or_default();
                let left_out = match self.left_out_count {
                    0 => String::new(),
                    n if n > self.left_out.len() => format!("; left out: {} and {} more", self.left_out.join(", "), n - self.left_out.len()),
                    _ => format!("; left out: {}", self.left_out.join(", ")),
                };
                format!("JSON: {parts}{messages}, prefix {size}{left_out}")
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
    pub fn first_difference_words(&self) -> String {
        let Some(f) = &self.diff.first else {
            return format!(
                "identical prefixes: a repeat can reuse all {} from the cache",
                plural(self.diff.len_a_bytes, "byte", "bytes")
            );
        };
        let place = if f.path_a == f.path_b { f.path_a.clone() } else { format!("{} (in B: {})", f.path_a, f.path_b) };
        let last = if f.in_last_message {
            "; that is the last message, the usual new turn: everything before it can come from the cache"
        } else {
            ""
        };
        format!("first difference at byte {} (character {}), in {place}{last}", f.byte, f.char_index)
    }

    /// How much is shared, in words: `412 of 980 bytes shared (42% of the shorter prefix; A 980 bytes, B
    /// 1211 bytes)`. The share is rounded down, so only identical prefixes read 100%.
    pub fn shared_words(&self) -> String {
        let d = &self.diff;
        format!(
            "{} of {} shared ({:.0}% of the shorter prefix; A {}, B {})",
            d.shared_bytes,
            plural(d.len_a_bytes.min(d.len_b_bytes), "byte", "bytes"),
            (d.shared_share * 100.0).floor(),
            plural(d.len_a_bytes, "byte", "bytes"),
            plural(d.len_b_bytes, "byte", "bytes"),
        )
    }

    /// The `unstable_prefix` finding (warning) when a cache breaker was found: what and where, and the
    /// fix. `None` when there is none.
    pub fn finding(&self) -> Option<Finding> {
        let first = self.warnings.first()?;
        let listed: Vec<String> = self
            .warnings
            .iter()
            .take(5)
            .map(|w| format!("{} in {} ({})", w.kind.as_str(), w.path, w.text))
            .collect();
        let more = if self.warnings.len() > 5 || self.warnings_truncated { ", and more" } else { "" };
        let parted = match &self.diff.first {
            Some(f) => format!(" The two requests part at byte {} ({}).", f.byte, f.path_a),
            None => String::new(),
        };
        let evidence: Vec<_> = self
            .warnings
            .iter()
            .map(|w| json!({"kind": w.kind.as_str(), "side": w.side.as_str(), "path": w.path, "text": w.text,
                "start_byte": w.start_byte, "end_byte": w.end_byte}))
            .collect();
        Some(
            Finding::new(
                FindingCode::UnstablePrefix,
                Severity::Warning,
                "The prompt prefix changes from request to request",
                format!(
                    "The provider's prompt cache reuses a prompt only up to its first change, and {} in the part \
                     meant to stay the same: {}{more}. Everything from the first of them on ({}) is read and \
                     billed again on every request.{parted}",
                    plural(self.warnings.len(), "cache breaker sits", "cache breakers sit"),
                    listed.join("; "),
                    first.path,
                ),
            )
            .fix(
                "Keep the start of the prompt byte-for-byte the same: move volatile values (the current date or \
                 time, request ids, UUIDs) to the end of the prompt, after the tools and instructions (e.g. into the \
                 last user message), and send tools and JSON keys in one fixed order (build them once, or serialise \
                 with sorted keys). Then repeat a request: at least 70% of its prompt should come from the cache \
                 (prompt_cache_hit_tokens, cached_tokens, cache_read_input_tokens).",
            )
            .evidence(json!({"warnings": evidence, "truncated": self.warnings_truncated,
                "first_difference_byte": self.diff.first.as_ref().map(|f| f.byte),
                "first_difference_path": self.diff.first.as_ref().map(|f| f.path_a.clone()),
                "shared_bytes": self.diff.shared_bytes, "shared_share": self.diff.shared_share})),
        )
    }
}

#[cfg(test)]
mod tests;
