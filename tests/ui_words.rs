//! Issue 14's "no stray literals in views": every word the page shows comes from the catalogue
//! (`core/src/i18n`), so it exists in English and Chinese. A source scan of `src/ui/` (no browser):
//!
//! - inside `view!`, a text node or a visible attribute's value (`title`, `placeholder`, `aria-label`,
//!   `alt`, `label`) must hold no letters beyond units (`ms`, `KB`, ...): words go through `word(key)`;
//! - anywhere else in the UI's code (outside `#[cfg(test)]` items and `tests.rs`), a string literal must not
//!   hold Chinese, and must not read as prose (two words with a space between them, or a capitalised word)
//!   unless it is on [`TECHNICAL`] with the reason it is not a word for the reader; SVG markup the page
//!   writes (tags and `name="value"` attributes, as the timeline's) must hold no word between its tags nor
//!   in a visible attribute.
//!
//! What it cannot see: a single lowercase word built in Rust code and shown on the page (`"worker"`);
//! inside a view it is caught by the first rule.

use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use streamscope_core::i18n::without_placeholders;

/// Attributes whose value the reader sees or hears.
const VISIBLE_ATTRIBUTES: &[&str] = &["title", "placeholder", "aria-label", "aria-description", "alt", "label"];

/// Units and symbols, written the same in both languages (issue 14: "numbers and units are formatted the
/// same"), allowed in a view's text.
const UNITS: &[&str] = &["ms", "s", "B", "KB", "MB", "GB", "tok", "p50", "p90", "p95", "p99", "N"];

/// Names said the same in every language, allowed in a view's text.
const NAMES: &[&str] = &["streamscope"];

/// String literals that read like words but are not for the reader, with why.
const TECHNICAL: &[(&str, &str)] = &[];

/// A literal the scan flags: where, what, and which rule.
#[derive(Debug)]
struct Stray {
    file: String,
    line: usize,
    text: String,
    rule: &'static str,
}

#[test]
fn every_word_the_page_shows_comes_from_the_catalogue() {
    let ui = streamscope_e2e::workspace_dir().join("src/ui");
    let files = rust_files(&ui);
    assert!(files.len() > 10, "expected the UI's modules in {}, found {}", ui.display(), files.len());
    let mut strays = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if name == "tests.rs" {
            continue;
        }
        let source = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        strays.extend(scan(&name, &source));
    }
    let list: Vec<String> =
        strays.iter().map(|s| format!("src/ui/{}:{}: {:?} ({})", s.file, s.line, s.text, s.rule)).collect();
    assert!(
        strays.is_empty(),
        "{} literal(s) in the UI that the reader would see, not from the catalogue: say them with a key \
         (core/src/i18n/keys, en, zh_cn) and `word(key)` / `say(key)`, or add a technical literal to \
         TECHNICAL with the reason:\n{}",
        strays.len(),
        list.join("\n")
    );
}

#[test]
fn the_scan_catches_what_it_is_for() {
    let source = r##"
        //! A module that says things in comments.
        /// Doc comments are not shown.
        fn label() -> String { "not reported".into() }
        fn code() -> &'static str { "metric-ttft" }
        fn chinese() -> &'static str { "首字" }
        fn markup() -> [&'static str; 5] {
            [
                r#"<path class="read-bars" data-testid="timeline-reads" d="{d}"></path>"#,
                r#"class="content-line" data-testid="timeline-content""#,
                r#"<text x="4" y="64" class="row-label">Reads over time</text>"#,
                r#"<g class="tick"><text x="{x}" text-anchor="middle">{label}</text></g>"#,
                r#"<g aria-label="Tokens so far" class="a"></g>"#,
            ]
        }
        fn v() -> impl IntoView {
            view! {
                <section class="card metrics" aria-label="Metrics">
                    <span data-testid="metric-ttft" title=move || "first content">"TTFT"</span>
                    <span>" · "</span><span>" ms"</span><span>"B − A"</span>
                    <Show when=x fallback=move || view! { <p class="a b">"Nothing"</p> }>"x"</Show>
                    <span>{word(UiKey::Tagline)}</span>
                </section>
            }
        }
        #[cfg(test)]
        mod tests { fn t() -> &'static str { "Only a test" } }
    "##;
    let strays = scan("sample.rs", source);
    let texts: Vec<&str> = strays.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "not reported",
            "首字",
            r#"<text x="4" y="64" class="row-label">Reads over time</text>"#,
            r#"<g aria-label="Tokens so far" class="a"></g>"#,
            "Metrics",
            "first content",
            "TTFT",
            "Nothing"
        ],
        "{strays:#?}"
    );
    assert_eq!(strays[2].rule, "words in markup", "{strays:#?}");
    assert_eq!(strays[4].line, 18, "{strays:#?}");
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The strays of one file's source.
fn scan(file: &str, source: &str) -> Vec<Stray> {
    let tokens: TokenStream = source.parse().unwrap_or_else(|e| panic!("{file} does not tokenize: {e:?}"));
    let mut found = Vec::new();
    walk_rust(&tokens.into_iter().collect::<Vec<_>>(), &mut found);
    // Lines from the text: proc-macro2 gives spans lines only with a feature that would rebuild the
    // page's proc-macros too. Each literal's first occurrence after the previous one's is its place.
    let mut from = 0;
    found
        .into_iter()
        .map(|(raw, text, rule)| {
            let at = source[from..].find(&raw).map_or(from, |i| from + i);
            from = at;
            Stray { file: file.to_string(), line: source[..at].lines().count().max(1), text, rule }
        })
        .collect()
}

/// A found literal: its source text, its value, the rule it broke.
type Found = (String, String, &'static str);

/// Walks Rust code: skips `#[cfg(test)]` items, hands `view!` bodies to [`walk_view`], checks literals.
fn walk_rust(tokens: &[TokenTree], found: &mut Vec<Found>) {
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Punct(p) if p.as_char() == '#' && is_cfg_test(tokens.get(i + 1)) => {
                // Skip to the end of the item: its body (the next brace group) or a `;`.
                i += 2;
                while i < tokens.len() {
                    match &tokens[i] {
                        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => break,
                        TokenTree::Punct(p) if p.as_char() == ';' => break,
                        _ => i += 1,
                    }
                }
            }
            // Any other attribute (doc comments are `#[doc = "..."]`): not shown by the page.
            TokenTree::Punct(p) if p.as_char() == '#' => {
                i += usize::from(is_bang(tokens.get(i + 1)));
                i += usize::from(matches!(tokens.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket));
            }
            TokenTree::Ident(id) if id == "view" && is_bang(tokens.get(i + 1)) => {
                if let Some(TokenTree::Group(g)) = tokens.get(i + 2) {
                    walk_view(&g.stream().into_iter().collect::<Vec<_>>(), found);
                    i += 2;
                }
            }
            TokenTree::Group(g) => walk_rust(&g.stream().into_iter().collect::<Vec<_>>(), found),
            TokenTree::Literal(lit) => {
                if let Some(text) = string_value(&lit.to_string()) {
                    if let Some(rule) = rust_rule(&text) {
                        found.push((lit.to_string(), text, rule));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// Walks a `view!` body: text nodes and visible attributes must hold no words; code in braces is Rust,
/// except the values of attributes that never hold words ([`is_markup_attribute`]: classes, ids, styles).
fn walk_view(tokens: &[TokenTree], found: &mut Vec<Found>) {
    // The attribute whose value is being read, from its `=` to the next attribute's name or a tag's end.
    let mut attribute: Option<String> = None;
    let mut i = 0;
    while i < tokens.len() {
        let token = &tokens[i];
        i += 1;
        match token {
            // A view in a view (`fallback=move || view! { ... }`).
            TokenTree::Ident(id) if id == "view" && is_bang(tokens.get(i)) => {
                if let Some(TokenTree::Group(g)) = tokens.get(i + 1) {
                    walk_view(&g.stream().into_iter().collect::<Vec<_>>(), found);
                    i += 2;
                }
            }
            TokenTree::Punct(p) if p.as_char() == '=' && p.spacing() == proc_macro2::Spacing::Alone => {
                attribute = Some(name_before(tokens, i - 1));
            }
            TokenTree::Punct(p) if matches!(p.as_char(), '<' | '>') => attribute = None,
            TokenTree::Ident(_) if starts_attribute(tokens, i - 1) => attribute = None,
            TokenTree::Group(g) if !attribute.as_deref().is_some_and(is_markup_attribute) => {
                walk_rust(&g.stream().into_iter().collect::<Vec<_>>(), found);
            }
            TokenTree::Literal(lit) => {
                let Some(text) = string_value(&lit.to_string()) else { continue };
                match attribute.as_deref() {
                    Some(name) if is_markup_attribute(name) => {}
                    Some(name) if !VISIBLE_ATTRIBUTES.contains(&name) => {
                        if let Some(rule) = rust_rule(&text) {
                            found.push((lit.to_string(), text, rule));
                        }
                    }
                    // A text node, or a visible attribute's value.
                    _ if has_words(&text) => found.push((lit.to_string(), text, "a word in a view")),
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// Whether an attribute's value is markup, never words: classes, ids, test ids, styles, links, SVG
/// geometry.
fn is_markup_attribute(name: &str) -> bool {
    matches!(
        name,
        "class" | "id" | "style" | "type" | "name" | "for" | "href" | "src" | "rel" | "target" | "role"
            | "viewBox" | "d" | "points" | "x" | "y" | "x1" | "x2" | "y1" | "y2" | "width" | "height"
            | "fill" | "stroke" | "xmlns" | "preserveAspectRatio" | "inputmode" | "autocomplete"
            | "spellcheck" | "accept" | "download" | "lang" | "dir"
    ) || name.starts_with("data-")
        || name.starts_with("class:")
        || name.starts_with("style:")
}

/// The attribute name right before the `=` at `eq`: idents joined by `-` and `:` (`aria-label`,
/// `on:click`, `data-testid`).
fn name_before(tokens: &[TokenTree], eq: usize) -> String {
    let mut name = String::new();
    let mut j = eq;
    while j > 0 {
        j -= 1;
        match &tokens[j] {
            TokenTree::Ident(id) => name.insert_str(0, &id.to_string()),
            TokenTree::Punct(p) if matches!(p.as_char(), '-' | ':') => name.insert(0, p.as_char()),
            _ => break,
        }
        // Two idents in a row are two names: stop at the space between them.
        if matches!(&tokens[j], TokenTree::Ident(_)) && j > 0 && matches!(&tokens[j - 1], TokenTree::Ident(_)) {
            break;
        }
    }
    name
}

/// Whether the ident at `at` begins an attribute's name: followed (through `-`/`:` parts) by `=`.
fn starts_attribute(tokens: &[TokenTree], at: usize) -> bool {
    if at > 0 && matches!(&tokens[at - 1], TokenTree::Punct(p) if matches!(p.as_char(), '-' | ':')) {
        return false;
    }
    let mut j = at + 1;
    loop {
        match tokens.get(j) {
            Some(TokenTree::Punct(p)) if p.as_char() == '=' => {
                return p.spacing() == proc_macro2::Spacing::Alone;
            }
            Some(TokenTree::Punct(p)) if matches!(p.as_char(), '-' | ':') => {
                if !matches!(tokens.get(j + 1), Some(TokenTree::Ident(_))) {
                    return false;
                }
                j += 2;
            }
            _ => return false,
        }
    }
}

/// Whether the token is `[cfg(test)]` (after a `#`).
fn is_cfg_test(token: Option<&TokenTree>) -> bool {
    matches!(token, Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket
        && g.stream().to_string().replace(' ', "") == "cfg(test)")
}

/// Whether the token is `!`.
fn is_bang(token: Option<&TokenTree>) -> bool {
    matches!(token, Some(TokenTree::Punct(p)) if p.as_char() == '!')
}

/// The value of a string literal's source (`"..."`, `r"..."`, `r#"..."#`), escapes as spaces; `None` for
/// other literals (numbers, chars, byte strings).
fn string_value(source: &str) -> Option<String> {
    if let Some(raw) = source.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let inner = &raw[hashes..];
        return inner.strip_prefix('"').map(|s| s[..s.len() - 1 - hashes].to_string());
    }
    let inner = source.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            // An escape (`\n`, `\"`, `\u{..}`) is not a letter of a word.
            if chars.next() == Some('u') {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Whether a view's text holds a word: two letters or more, not a unit ([`UNITS`]) or a name
/// ([`NAMES`]). A single letter is a symbol (the sides `A` and `B`, `N`).
fn has_words(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .any(|w| !UNITS.contains(&w) && !NAMES.contains(&w))
}

/// For a literal that is SVG/HTML markup the page writes (`<path d="{d}"></path>`) or a list of its
/// attributes (`class="a" data-testid="b"`): whether it holds a word the reader would see, in the text
/// between its tags or in a visible attribute ([`VISIBLE_ATTRIBUTES`]). `None` when it is not markup.
fn markup_words(text: &str) -> Option<bool> {
    let bare = without_placeholders(text);
    let trimmed = bare.trim();
    let mut words = false;
    let mut check_attributes = |list: &str| -> bool {
        // `name="value"` pairs, spaces between; a tag's name first when `list` is a tag's inside.
        let mut rest = list.trim_start_matches('/').trim();
        if let Some(tag_end) = rest.find(char::is_whitespace) {
            if !rest[..tag_end].contains('=') {
                rest = rest[tag_end..].trim_start();
            }
        } else if !rest.contains('=') {
            return rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        }
        while !rest.is_empty() {
            let Some((name, after)) = rest.split_once("=\"") else { return false };
            let Some((value, next)) = after.split_once('"') else { return false };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return false;
            }
            if VISIBLE_ATTRIBUTES.contains(&name) && has_words(value) {
                words = true;
            }
            rest = next.trim_start();
        }
        true
    };
    if trimmed.starts_with('<') {
        let mut outside = String::new();
        let mut rest = trimmed;
        while let Some(open) = rest.find('<') {
            outside.push_str(&rest[..open]);
            let close = rest[open..].find('>')?;
            let inside = rest[open + 1..open + close].trim_end_matches('/');
            if !check_attributes(inside) {
                return None;
            }
            rest = &rest[open + close + 1..];
        }
        outside.push_str(rest);
        Some(words || has_words(&outside))
    } else if trimmed.contains("=\"") && check_attributes(trimmed) {
        Some(words)
    } else {
        None
    }
}

/// The rule a literal in Rust code breaks, if any: Chinese, words in markup, or prose not on [`TECHNICAL`].
fn rust_rule(text: &str) -> Option<&'static str> {
    if text.chars().any(|c| matches!(c, '\u{3000}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')) {
        return Some("Chinese outside the catalogue");
    }
    if TECHNICAL.iter().any(|(t, _)| *t == text) {
        return None;
    }
    if let Some(words) = markup_words(text) {
        return words.then_some("words in markup");
    }
    let bare = without_placeholders(text);
    let words: Vec<&str> = bare
        .split(|c: char| !(c.is_ascii_alphabetic() || c == '\''))
        .filter(|w| w.len() >= 2)
        .collect();
    let capitalised = words.iter().any(|w| {
        let mut c = w.chars();
        c.next().is_some_and(|c| c.is_ascii_uppercase()) && c.next().is_some_and(|c| c.is_ascii_lowercase())
    });
    let spaced = text.split_whitespace().filter(|w| w.chars().filter(char::is_ascii_alphabetic).count() >= 2).count() >= 2;
    (capitalised || (spaced && words.len() >= 2)).then_some("prose in code")
}
