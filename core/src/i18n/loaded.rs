//! Catalogues installed at run time. The page's wasm carries only the English words of its form: the
//! rest of the English ones are a file beside the page (`en.txt`), installed before the first run, and
//! the Chinese ones another (`zh-CN.txt`), fetched when the page speaks Chinese, so an English reader
//! never downloads them (BENCHMARKS.md, "Size"). Both are written from the catalogues by
//! [`super::catalogue_file`] and checked against them by a test. Chinese is installed after English
//! (its placeholders are checked against English's).
//!
//! The file is plain lines, read with no parser to compile into the wasm: the language's tag, then one
//! template per key in the order of [`Key::all`] (no template holds a line break; a test checks). It is
//! data from the network: installed only when it names its language and says every key, each template
//! well formed and with the English template's placeholders. Anything else is refused with the reason,
//! and the page goes on in English.

use std::sync::OnceLock;

use super::text::{same_placeholders, well_formed};
use super::{en, Key, Lang};

/// The Chinese templates, once installed, indexed by [`Key::index`].
static ZH_CN: OnceLock<Vec<String>> = OnceLock::new();

/// The English templates, once installed (without the `en-built-in` feature), indexed by [`Key::index`].
#[cfg(not(feature = "en-built-in"))]
static EN: OnceLock<Vec<String>> = OnceLock::new();

/// Where `lang`'s installed templates live (`None`: built in).
fn slot(lang: Lang) -> Option<&'static OnceLock<Vec<String>>> {
    match lang {
        #[cfg(feature = "en-built-in")]
        Lang::En => None,
        #[cfg(not(feature = "en-built-in"))]
        Lang::En => Some(&EN),
        Lang::ZhCn => Some(&ZH_CN),
    }
}

/// Checks the catalogue file `text` and installs it; returns its language. A language installed once
/// stays as it is (a second file of it is checked, then ignored).
pub fn install(text: &str) -> Result<Lang, String> {
    let mut lines = text.lines();
    let tag = lines.next().unwrap_or_default();
    let lang = Lang::ALL.into_iter().find(|l| l.tag() == tag).ok_or_else(|| {
        format!("not a catalogue file: its first line is {:?}, not a language's tag", tag.chars().take(40).collect::<String>())
    })?;
    let slot = slot(lang).ok_or_else(|| format!("{tag} is built in, not loaded"))?;
    let templates: Vec<String> = lines.map(str::to_owned).collect();
    if lang == Lang::En {
        check_english(&templates)?;
    } else if !super::is_available(Lang::En) {
        return Err("the English words must be installed first (the placeholders are checked against them)".into());
    } else {
        check(&templates)?;
    }
    let _ = slot.set(templates);
    Ok(lang)
}

/// English's file: every key, in order, well formed, and empty exactly where the page's wasm has the
/// template built in.
fn check_english(templates: &[String]) -> Result<(), String> {
    check_each(templates, |key, template| {
        if en::always_built_in(key) == template.is_empty() {
            return Ok(());
        }
        let said = if template.is_empty() { "empty" } else { "said" };
        Err(format!("is {said} where this page has its words built in or not: a file from another version of the page"))
    })
}

/// Every key said, in order, well formed, with English's placeholders.
fn check(templates: &[String]) -> Result<(), String> {
    check_each(templates, |key, template| {
        let english = en::template(key);
        if same_placeholders(template, english) {
            Ok(())
        } else {
            Err(format!("has other placeholders than the English {english:?}"))
        }
    })
}

/// One template per key, in order, each well formed and passing `also` (whose error is said of the
/// template's number).
fn check_each(templates: &[String], also: impl Fn(Key, &str) -> Result<(), String>) -> Result<(), String> {
    if templates.len() != Key::COUNT {
        return Err(format!(
            "{} templates where this page has {} keys: a file from another version of the page",
            templates.len(),
            Key::COUNT
        ));
    }
    for (i, (key, template)) in Key::all().into_iter().zip(templates).enumerate() {
        well_formed(template).map_err(|e| format!("template {i}: {e}"))?;
        also(key, template).map_err(|e| format!("template {i} {e}"))?;
    }
    Ok(())
}

/// The installed template of `key` in `lang`, if that catalogue is installed.
// Natively every catalogue is built in and nothing reads an installed one but the tests.
#[cfg_attr(feature = "zh-cn-built-in", allow(dead_code))]
pub fn template(lang: Lang, key: Key) -> Option<&'static str> {
    slot(lang)?.get()?.get(key.index()).map(String::as_str)
}

/// Whether `lang`'s catalogue is installed.
pub fn is_installed(lang: Lang) -> bool {
    slot(lang).is_some_and(|s| s.get().is_some())
}

#[cfg(all(test, feature = "zh-cn-built-in"))]
mod tests {
    use super::*;
    use crate::i18n::{catalogue_file, zh_cn};

    fn file_with(templates: &[String]) -> String {
        format!("zh-CN\n{}\n", templates.join("\n"))
    }

    #[test]
    fn keys_are_numbered_in_the_order_of_all() {
        let all = Key::all();
        assert_eq!(all.len(), Key::COUNT);
        assert!(all.iter().enumerate().all(|(i, k)| k.index() == i));
    }

    #[test]
    fn a_bad_file_is_refused_with_its_reason() {
        let good: Vec<String> = Key::all().into_iter().map(|k| zh_cn::template(k).to_string()).collect();
        let short = file_with(&good[1..]);
        assert!(install(&short).unwrap_err().contains("another version of the page"));
        let mut other_placeholder = good.clone();
        let with_arg = Key::all().into_iter().position(|k| en::template(k).contains('{')).expect("a template with an argument");
        other_placeholder[with_arg] = "没有参数".into();
        assert!(install(&file_with(&other_placeholder)).unwrap_err().contains("other placeholders"));
        let mut unclosed = good.clone();
        unclosed[with_arg].push('{');
        assert!(install(&file_with(&unclosed)).unwrap_err().contains("unclosed"));
        assert!(install("{\"lang\": \"zh-CN\"}").unwrap_err().starts_with("not a catalogue file"));
        assert!(install("zh-TW\n").unwrap_err().starts_with("not a catalogue file"));
        assert!(install("").unwrap_err().starts_with("not a catalogue file"));
        assert!(install("en\n").unwrap_err().contains("built in"));
    }

    #[test]
    fn the_english_file_says_every_word_the_page_has_not_built_in() {
        let file = catalogue_file(Lang::En);
        let templates: Vec<String> = file.lines().skip(1).map(str::to_owned).collect();
        assert_eq!(check_english(&templates), Ok(()));
        for (key, template) in Key::all().into_iter().zip(&templates) {
            let expected = if en::always_built_in(key) { "" } else { en::template(key) };
            assert_eq!(template, expected, "{key:?}");
        }
        let built_in = Key::all().into_iter().position(en::always_built_in).expect("a key built in");
        let mut said = templates.clone();
        said[built_in] = "words".into();
        assert!(check_english(&said).unwrap_err().contains("another version"));
        let later = Key::all().into_iter().position(|k| !en::always_built_in(k)).expect("a key not built in");
        let mut missing = templates.clone();
        missing[later] = String::new();
        assert!(check_english(&missing).unwrap_err().contains("another version"));
        assert!(check_english(&templates[1..]).unwrap_err().contains("another version"));
    }

    #[test]
    fn the_written_file_installs_and_says_what_the_catalogue_says() {
        assert_eq!(install(&catalogue_file(Lang::ZhCn)), Ok(Lang::ZhCn));
        // Line ends of another system read the same.
        assert_eq!(install(&catalogue_file(Lang::ZhCn).replace('\n', "\r\n")), Ok(Lang::ZhCn));
        assert!(is_installed(Lang::ZhCn));
        for key in Key::all() {
            assert_eq!(template(Lang::ZhCn, key), Some(zh_cn::template(key)), "{key:?}");
        }
    }
}
