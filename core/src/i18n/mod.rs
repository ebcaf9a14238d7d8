//! Words in the reader's language: every sentence core writes (findings, compare sentences, Markdown)
//! is a [`Text`] built from catalogue keys, rendered in English or Simplified Chinese.
//!
//! - [`Lang`]: the languages, their BCP 47 tags, and the choice from the browser's list;
//! - [`Key`]: every message, one group per part of core ([`keys`]);
//! - [`en`] and [`zh_cn`]: one catalogue per language, an exhaustive `match` per group, so a key missing
//!   from a catalogue fails the build; the tests in [`check`] fail on a placeholder that differs between
//!   the languages and on a Chinese template left in English;
//! - the page's wasm is built without the `zh-cn-built-in` and `en-built-in` features: it carries only
//!   the English words of its form ([`en::always_built_in`]), installs the rest of English's from
//!   `en.txt` before its first run, and the Chinese ones from `zh-CN.txt` ([`catalogue_file`]) when it
//!   speaks Chinese ([`install`], [`is_available`]);
//! - [`Text`]: a message with its arguments (figures already formatted by [`crate::text`], the same in
//!   both languages), a sequence of texts, or verbatim data (a server's message, a URL).
//!
//! Codes, field names and numbers never change with the language: only the words do.

pub mod en;
pub mod keys;
mod lang;
mod loaded;
mod said;
mod text;
#[cfg(feature = "zh-cn-built-in")]
pub mod zh_cn;

#[cfg(all(test, feature = "zh-cn-built-in"))]
mod check;

pub use keys::Key;
pub use lang::Lang;
pub use said::Said;
pub use loaded::install;
pub use text::{without_placeholders, Arg, Text};

/// The template of `key` in `lang`; English while `lang`'s words are not here ([`is_available`]).
pub fn template(lang: Lang, key: Key) -> &'static str {
    match lang {
        Lang::En => en::template(key),
        #[cfg(feature = "zh-cn-built-in")]
        Lang::ZhCn => zh_cn::template(key),
        #[cfg(not(feature = "zh-cn-built-in"))]
        Lang::ZhCn => loaded::template(lang, key).unwrap_or_else(|| en::template(key)),
    }
}

/// Whether `lang`'s words are here: built in (with the `en-built-in` and `zh-cn-built-in` features, as
/// natively), or installed from its file ([`install`], as in the page's wasm; the page's form speaks
/// English before, [`en::always_built_in`]).
pub fn is_available(lang: Lang) -> bool {
    match lang {
        Lang::En => cfg!(feature = "en-built-in") || loaded::is_installed(lang),
        Lang::ZhCn => cfg!(feature = "zh-cn-built-in") || loaded::is_installed(lang),
    }
}

/// The catalogue file of `lang` that [`install`] reads: its tag, then one template per key in the order
/// of [`Key::all`], a line each (in English's, an empty line for a key the page's wasm has built in,
/// [`en::always_built_in`]). `assets/zh-CN.txt` and `assets/en.txt`, which the page fetches, are these
/// files (a test checks).
#[cfg(feature = "zh-cn-built-in")]
pub fn catalogue_file(lang: Lang) -> String {
    let mut text = format!("{}\n", lang.tag());
    for key in Key::all() {
        if !(lang == Lang::En && en::always_built_in(key)) {
            text.push_str(template(lang, key));
        }
        text.push('\n');
    }
    text
}
