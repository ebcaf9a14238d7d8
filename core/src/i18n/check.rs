//! The catalogue checks: both languages say every key (the exhaustive matches make that a build error),
//! with the same placeholders, in well-formed templates, and the Chinese catalogue says it in Chinese.

use super::keys::{Key, RulesKey};
use super::text::{placeholders, well_formed, without_placeholders};
use super::{en, template, zh_cn, Lang, Text};

/// Keys whose Chinese template holds no Chinese on purpose: a technical name or a header said the same
/// way in both languages.
const NO_CHINESE_NEEDED: &[Key] = &[Key::Rules(RulesKey::FramingSse), Key::Rules(RulesKey::CtIs)];

/// Whether `s` holds a CJK ideograph.
fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn every_key_has_the_same_placeholders_in_both_languages() {
    let mut bad = Vec::new();
    for key in Key::all() {
        let (en, zh) = (en::template(key), zh_cn::template(key));
        for t in [en, zh] {
            if let Err(e) = well_formed(t) {
                bad.push(format!("{key:?}: {e}"));
            }
        }
        if placeholders(en) != placeholders(zh) {
            bad.push(format!("{key:?}: en {:?} vs zh-CN {:?}", placeholders(en), placeholders(zh)));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn nothing_in_the_chinese_catalogue_is_left_in_english() {
    let mut left = Vec::new();
    for key in Key::all() {
        let zh = without_placeholders(zh_cn::template(key));
        let has_letters = zh.chars().any(|c| c.is_ascii_alphabetic());
        if has_letters && !has_chinese(&zh) && !NO_CHINESE_NEEDED.contains(&key) {
            left.push(format!("{key:?}: {:?}", zh_cn::template(key)));
        }
    }
    assert!(left.is_empty(), "Chinese templates without Chinese:\n{}", left.join("\n"));
    for key in NO_CHINESE_NEEDED {
        assert!(!has_chinese(zh_cn::template(*key)), "{key:?} says Chinese: take it off NO_CHINESE_NEEDED");
    }
}

#[test]
fn a_message_renders_its_arguments_counts_and_plural_in_each_language() {
    let text = Text::msg(RulesKey::Received)
        .count("bytes", 12)
        .count("reads", 1)
        .count("events", 2)
        .count("chars", 1);
    assert_eq!(text.render(Lang::En), "12 bytes in 1 read, 2 content events (1 character)");
    assert_eq!(text.render(Lang::ZhCn), "12 字节，分 1 次读取，2 个内容事件（1 个字符）");
    assert!(text.is_worded());
    let nested = Text::msg(RulesKey::StallDetail)
        .with("limit", "5.00 s")
        .with("last", Text::msg(RulesKey::StallAfterStart))
        .with("received", text);
    assert_eq!(
        nested.render(Lang::En),
        "Nothing arrived for 5.00 s after the start; the run was stopped. Before that: 12 bytes in 1 read, 2 \
         content events (1 character)."
    );
    assert!(nested.render(Lang::ZhCn).starts_with("开始之后 5.00 s 内"));
    assert!(!Text::from("data").is_worded());
    assert!(Text::msg(RulesKey::CutTitle).then(Text::msg(RulesKey::PartialKept)).is_worded());
}

#[test]
fn templates_fill_doubled_braces_and_keep_unknown_placeholders() {
    let mut out = String::new();
    super::text::fill_for_test("{{a}} {b} {c:x|y}", &mut out);
    assert_eq!(out, "{a} {b} {c:x|y}");
    assert!(well_formed("{a").is_err() && well_formed("a}").is_err() && well_formed("{A}").is_err());
    assert_eq!(template(Lang::En, Key::Rules(RulesKey::FramingSse)), "SSE");
}

/// `assets/<tag>.txt`, the file the page fetches for `lang`'s words.
fn shipped_file(lang: Lang) -> std::path::PathBuf {
    // Read when the test runs: a binary reused from another clone (a shared target folder) must not read
    // that clone's file through the path `env!` fixed at compile time.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from);
    manifest.join(format!("../assets/{}.txt", lang.tag()))
}

#[test]
fn no_template_holds_a_line_break() {
    // The catalogue file has a template per line (`catalogue_file`, `loaded::install`).
    for key in Key::all() {
        for t in [en::template(key), zh_cn::template(key)] {
            assert!(!t.contains(['\n', '\r']), "{key:?}: {t:?} holds a line break: write it as two keys");
        }
    }
}

#[test]
fn the_shipped_files_are_the_catalogues() {
    for lang in Lang::ALL {
        let written = super::catalogue_file(lang);
        let path = shipped_file(lang);
        if std::env::var_os("STREAMSCOPE_WRITE_CATALOGUES").is_some() {
            std::fs::write(&path, &written).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        let shipped = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            shipped == written,
            "{} is not the {lang:?} catalogue: write it again with \
             STREAMSCOPE_WRITE_CATALOGUES=1 cargo test -p streamscope-core shipped_files",
            path.display()
        );
    }
}
