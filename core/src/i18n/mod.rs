//! Words in the reader's language: every sentence core writes (findings, compare sentences, Markdown)
//! is a [`Text`] built from catalogue keys, rendered in English or Simplified Chinese.
//!
//! - [`Lang`]: the languages, their BCP 47 tags, and the choice from the browser's list;
//! - [`Key`]: every message, one group per part of core ([`keys`]);
//! - [`en`] and [`zh_cn`]: one catalogue per language, an exhaustive `match` per group, so a key missing
//!   from a catalogue fails the build; the tests in [`check`] fail on a placeholder that differs between
//!   the languages and on a Chinese template left in English;
//! - [`Text`]: a message with its arguments (figures already formatted by [`crate::text`], the same in
//!   both languages), a sequence of texts, or verbatim data (a server's message, a URL).
//!
//! Codes, field names and numbers never change with the language: only the words do.

pub mod en;
pub mod keys;
mod lang;
mod said;
mod text;
pub mod zh_cn;

#[cfg(test)]
mod check;

pub use keys::Key;
pub use lang::Lang;
pub use said::Said;
pub use text::{without_placeholders, Arg, Text};

/// The template of `key` in `lang`.
pub fn template(lang: Lang, key: Key) -> &'static str {
    match lang {
        Lang::En => en::template(key),
        Lang::ZhCn => zh_cn::template(key),
    }
}
