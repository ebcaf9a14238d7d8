//! [`Text`]: a sentence as catalogue keys and arguments, rendered in any [`Lang`].
//!
//! Template syntax (both catalogues): `{name}` is an argument; `{name:one|many}` is the English word for
//! a count argument `name` (`one` when it is 1, else `many`; Chinese needs none); `{{` and `}}` are
//! braces.

use super::{template, Key, Lang};

/// A sentence in no language yet.
#[derive(Debug, Clone, PartialEq)]
pub enum Text {
    /// A catalogue message with its named arguments.
    Msg(Key, Vec<(&'static str, Arg)>),
    /// Texts said one after the other.
    Seq(Vec<Text>),
    /// Data shown as it is in every language: a server's message, a URL, a model id, a figure.
    Verbatim(String),
}

/// A message's argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// Words or data.
    Text(Text),
    /// A count: shown as the number, and chooses the English singular or plural.
    Count(u64),
}

impl Text {
    /// The message `key`, without arguments yet.
    pub fn msg(key: impl Into<Key>) -> Text {
        Text::Msg(key.into(), Vec::new())
    }

    /// Nothing (renders as the empty string).
    pub fn empty() -> Text {
        Text::Seq(Vec::new())
    }

    /// Adds the argument `name` (words, or data as a `String`/`&str`).
    pub fn with(mut self, name: &'static str, value: impl Into<Text>) -> Text {
        if let Text::Msg(_, args) = &mut self {
            args.push((name, Arg::Text(value.into())));
        } else {
            debug_assert!(false, "argument {name} given to a text that is not a message");
        }
        self
    }

    /// Adds the count argument `name`.
    pub fn count(mut self, name: &'static str, n: usize) -> Text {
        if let Text::Msg(_, args) = &mut self {
            args.push((name, Arg::Count(n as u64)));
        } else {
            debug_assert!(false, "count {name} given to a text that is not a message");
        }
        self
    }

    /// This text followed by `next`.
    pub fn then(self, next: impl Into<Text>) -> Text {
        match self {
            Text::Seq(mut parts) => {
                parts.push(next.into());
                Text::Seq(parts)
            }
            first => Text::Seq(vec![first, next.into()]),
        }
    }

    /// Texts joined by `sep`.
    pub fn join(parts: impl IntoIterator<Item = Text>, sep: impl Into<Text>) -> Text {
        let sep = sep.into();
        let mut out = Vec::new();
        for (i, part) in parts.into_iter().enumerate() {
            if i > 0 {
                out.push(sep.clone());
            }
            out.push(part);
        }
        Text::Seq(out)
    }

    /// Whether every word of it comes from the catalogue (verbatim data only as a message's argument).
    pub fn is_worded(&self) -> bool {
        match self {
            Text::Msg(_, args) => args.iter().all(|(_, a)| match a {
                Arg::Text(Text::Verbatim(_)) | Arg::Count(_) => true,
                Arg::Text(t) => t.is_worded(),
            }),
            Text::Seq(parts) => parts.iter().all(Text::is_worded),
            Text::Verbatim(s) => s.is_empty(),
        }
    }

    /// The text in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        let mut out = String::new();
        self.render_into(lang, &mut out);
        out
    }

    fn render_into(&self, lang: Lang, out: &mut String) {
        match self {
            Text::Verbatim(s) => out.push_str(s),
            Text::Seq(parts) => parts.iter().for_each(|p| p.render_into(lang, out)),
            Text::Msg(key, args) => fill(template(lang, *key), args, lang, out),
        }
    }
}

/// Fills `template`'s placeholders from `args`; an unknown placeholder stays as written (the catalogue
/// tests make sure none is).
fn fill(template: &str, args: &[(&'static str, Arg)], lang: Lang, out: &mut String) {
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let Some(end) = tail.find('}').filter(|_| tail.starts_with('{')) else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
            continue;
        };
        let inner = &tail[1..end];
        let (name, forms) = inner.split_once(':').map_or((inner, None), |(n, f)| (n, Some(f)));
        match (args.iter().find(|(n, _)| *n == name).map(|(_, a)| a), forms) {
            (Some(Arg::Count(n)), Some(forms)) => {
                let (one, many) = forms.split_once('|').unwrap_or((forms, forms));
                out.push_str(if *n == 1 { one } else { many });
            }
            (Some(Arg::Count(n)), None) => out.push_str(&n.to_string()),
            (Some(Arg::Text(t)), None) => t.render_into(lang, out),
            _ => out.push_str(&tail[..=end]),
        }
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::Verbatim(s)
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::Verbatim(s.to_string())
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Text {
        Text::Verbatim(s.clone())
    }
}

/// `s` without its placeholders: what is left of a catalogue template (`{name}`, `{n:one|many}`) or a
/// `format!` string (`{}`, `{:.1}`) once the arguments are taken out.
pub fn without_placeholders(s: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = 0,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A template's braces: every `{` opens a `name` or `name:one|many` placeholder closed by `}`, or is
/// doubled; every `}` closes one or is doubled.
pub(crate) fn well_formed(template: &str) -> Result<(), String> {
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        let tail = &rest[at..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            rest = &tail[2..];
            continue;
        }
        if tail.starts_with('}') {
            return Err(format!("a lone '}}' in {template:?}"));
        }
        let end = tail.find('}').ok_or_else(|| format!("an unclosed '{{' in {template:?}"))?;
        let inner = &tail[1..end];
        let name = inner.split(':').next().unwrap_or("");
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') || inner.contains('{') {
            return Err(format!("a bad placeholder {{{inner}}} in {template:?}"));
        }
        if let Some(forms) = inner.split_once(':').map(|(_, f)| f) {
            if !forms.contains('|') {
                return Err(format!("plural forms without '|' in {{{inner}}} of {template:?}"));
            }
        }
        rest = &tail[end + 1..];
    }
    Ok(())
}

/// The placeholders' names in a template (without plural forms), sorted and deduplicated.
#[cfg(test)]
pub(crate) fn placeholders(template: &str) -> Vec<&str> {
    let mut names = placeholder_names(template);
    names.sort_unstable();
    names.dedup();
    names
}

/// Whether two templates name the same placeholders (each at least once, plural forms aside).
pub(crate) fn same_placeholders(a: &str, b: &str) -> bool {
    let (a, b) = (placeholder_names(a), placeholder_names(b));
    a.iter().all(|n| b.contains(n)) && b.iter().all(|n| a.contains(n))
}

/// The placeholders' names in a template, in order, as often as they appear (without plural forms).
fn placeholder_names(template: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("{{") {
            rest = after;
            continue;
        }
        let Some(end) = tail.find('}') else { break };
        names.push(tail[1..end].split(':').next().unwrap_or(""));
        rest = &tail[end + 1..];
    }
    names
}

/// [`fill`] without arguments, for the catalogue tests.
#[cfg(test)]
pub(super) fn fill_for_test(template: &str, out: &mut String) {
    fill(template, &[], Lang::En, out);
}
