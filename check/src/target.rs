//! One thing to check: the request the page sends (the automation contract's `url`, `method`, `body`,
//! `vs`, `hops`, `repeat`, …) and what it must show. A [`TargetSpec`] is what the command line or a
//! targets file says (every field optional); the command line's spec is the default under each file
//! entry, and [`TargetSpec::resolve`] checks the result into a [`Target`].

use std::path::Path;

use streamscope_core::config::page_config::{MAX_HOPS, MAX_REPEAT};
use streamscope_core::secrets::redact_url;

use crate::criteria::{Criteria, Expect, Limits};

/// The largest request body the check puts in a page URL (percent-encoded it can triple, and a browser
/// refuses URLs of a few MiB).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// Page parameters the check sets itself (or that would switch the page away from an exact request).
pub const RESERVED_PAGE_PARAMS: [&str; 10] =
    ["url", "method", "body", "vs", "hops", "hop_labels", "repeat", "run", "base", "preset"];

/// A target as written: every field optional.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TargetSpec {
    /// A name for output lines, report files and JUnit.
    pub name: Option<String>,
    /// The exact request URL.
    pub url: Option<String>,
    /// The HTTP method (the page's default: GET, or POST with a body).
    pub method: Option<String>,
    /// The JSON request body.
    pub body: Option<String>,
    /// Compare with this second URL.
    pub vs: Option<String>,
    /// A hop ladder: the same request at each of these URLs, in path order.
    pub hops: Option<Vec<String>>,
    /// Names of the hops.
    pub hop_labels: Option<Vec<String>>,
    /// Runs per target.
    pub repeat: Option<usize>,
    /// Further page parameters (`idle_timeout_s`, `concurrency`, …), in order.
    pub page_params: Vec<(String, String)>,
    /// The verdicts it may end in.
    pub expect: Option<Expect>,
    /// Time limits, each on its own.
    pub max_ttft_ms: Option<f64>,
    /// See [`Limits::max_tpot_ms`].
    pub max_tpot_ms: Option<f64>,
    /// See [`Limits::max_total_ms`].
    pub max_total_ms: Option<f64>,
}

/// A checked target, ready to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// Position in the list, from 0.
    pub index: usize,
    /// The name given, if any.
    pub given_name: Option<String>,
    /// The request URL.
    pub url: String,
    /// The HTTP method, upper-cased, when given.
    pub method: Option<String>,
    /// The request body, when given.
    pub body: Option<String>,
    /// Side B of a comparison.
    pub vs: Option<String>,
    /// Hop URLs (empty: no ladder).
    pub hops: Vec<String>,
    /// Hop names.
    pub hop_labels: Vec<String>,
    /// Runs per target, when given.
    pub repeat: Option<usize>,
    /// Further page parameters.
    pub page_params: Vec<(String, String)>,
    /// What it must show.
    pub criteria: Criteria,
}

impl TargetSpec {
    /// This spec with `defaults` filling every field it leaves open (page parameters: the defaults'
    /// first, this spec's own replacing any with the same name).
    pub fn over(self, defaults: &TargetSpec) -> TargetSpec {
        let mut page_params: Vec<(String, String)> =
            defaults.page_params.iter().filter(|(k, _)| !self.page_params.iter().any(|(own, _)| own == k)).cloned().collect();
        page_params.extend(self.page_params);
        TargetSpec {
            name: self.name.or_else(|| defaults.name.clone()),
            url: self.url.or_else(|| defaults.url.clone()),
            method: self.method.or_else(|| defaults.method.clone()),
            body: self.body.or_else(|| defaults.body.clone()),
            vs: self.vs.or_else(|| defaults.vs.clone()),
            hops: self.hops.or_else(|| defaults.hops.clone()),
            hop_labels: self.hop_labels.or_else(|| defaults.hop_labels.clone()),
            repeat: self.repeat.or(defaults.repeat),
            page_params,
            expect: self.expect.or_else(|| defaults.expect.clone()),
            max_ttft_ms: self.max_ttft_ms.or(defaults.max_ttft_ms),
            max_tpot_ms: self.max_tpot_ms.or(defaults.max_tpot_ms),
            max_total_ms: self.max_total_ms.or(defaults.max_total_ms),
        }
    }

    /// Checks the spec into the target at `index`; the error says which field is wrong and why.
    pub fn resolve(self, index: usize) -> Result<Target, String> {
        let url = check_url("url", self.url.as_deref().ok_or("no url: give --url URL (or a url in each target)")?)?;
        let method = match self.method.as_deref().map(str::trim) {
            None => None,
            Some(m) if !m.is_empty() && m.bytes().all(|b| b.is_ascii_alphabetic()) => Some(m.to_ascii_uppercase()),
            Some(m) => return Err(format!("method: not an HTTP method: {m:?}")),
        };
        if let Some(body) = &self.body {
            if body.len() > MAX_BODY_BYTES {
                return Err(format!(
                    "body: {} bytes, more than the {MAX_BODY_BYTES} a page URL can carry",
                    body.len()
                ));
            }
        }
        let vs = self.vs.as_deref().map(|u| check_url("vs", u)).transpose()?;
        let hops = self.hops.unwrap_or_default().iter().map(|u| check_url("hops", u)).collect::<Result<Vec<_>, _>>()?;
        if hops.len() > MAX_HOPS {
            return Err(format!("hops: {} URLs, the page measures at most {MAX_HOPS}", hops.len()));
        }
        if let Some(repeat) = self.repeat {
            if !(1..=MAX_REPEAT).contains(&repeat) {
                return Err(format!("repeat: {repeat} is not between 1 and {MAX_REPEAT}"));
            }
        }
        for (key, _) in &self.page_params {
            if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(format!("page parameter: not a parameter name: {key:?}"));
            }
            if RESERVED_PAGE_PARAMS.contains(&key.as_str()) {
                return Err(format!("page parameter {key}: set by the check itself (use its own option)"));
            }
        }
        let given_name = self.name.map(|n| n.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>());
        Ok(Target {
            index,
            given_name: given_name.filter(|n| !n.trim().is_empty()),
            url,
            method,
            body: self.body,
            vs,
            hops,
            hop_labels: self.hop_labels.unwrap_or_default(),
            repeat: self.repeat,
            page_params: self.page_params,
            criteria: Criteria {
                expect: self.expect.unwrap_or_default(),
                limits: Limits {
                    max_ttft_ms: self.max_ttft_ms,
                    max_tpot_ms: self.max_tpot_ms,
                    max_total_ms: self.max_total_ms,
                },
            },
        })
    }
}

impl Target {
    /// The name to show: the one given, else the URL with its credentials redacted.
    pub fn display_name(&self) -> String {
        self.given_name.clone().unwrap_or_else(|| redact_url(&self.url).into_owned())
    }

    /// Every URL the target requests (URL, side B, hops).
    pub fn urls(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.url.as_str()).chain(self.vs.as_deref()).chain(self.hops.iter().map(String::as_str))
    }

    /// A file name stem from the name (letters, digits, `.`, `_`, `-`; at most 64 characters), else
    /// `target-<n>` (from 1).
    pub fn file_stem(&self) -> String {
        let from_name: String = self
            .given_name
            .as_deref()
            .unwrap_or_default()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' })
            .take(64)
            .collect();
        let trimmed = from_name.trim_matches(['_', '.']);
        if trimmed.is_empty() {
            format!("target-{}", self.index + 1)
        } else {
            trimmed.to_string()
        }
    }
}

/// Checks an `http(s)://` URL (trimmed); the error names `what` and shows the URL redacted.
pub fn check_url(what: &str, url: &str) -> Result<String, String> {
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    let scheme_ok = ["http://", "https://"].iter().any(|s| lower.starts_with(s) && lower.len() > s.len());
    if !scheme_ok || url.chars().any(char::is_whitespace) {
        return Err(format!("{what}: not an http(s) URL: {:?}", redact_url(url)));
    }
    Ok(url.to_string())
}

/// A body argument: `@path` reads the file (relative to `base_dir`), anything else is the body itself.
pub fn read_body(arg: &str, base_dir: &Path) -> Result<String, String> {
    let Some(path) = arg.strip_prefix('@') else {
        return Ok(arg.to_string());
    };
    let path = base_dir.join(path);
    std::fs::read_to_string(&path).map_err(|err| format!("cannot read the body file {}: {err}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(url: &str) -> TargetSpec {
        TargetSpec { url: Some(url.into()), ..TargetSpec::default() }
    }

    #[test]
    fn an_entry_keeps_its_own_fields_over_the_defaults() {
        let defaults = TargetSpec {
            body: Some("{}".into()),
            max_ttft_ms: Some(1500.0),
            expect: Some(Expect::parse("streaming").unwrap()),
            page_params: vec![("idle_timeout_s".into(), "5".into()), ("per_level".into(), "2".into())],
            ..spec("http://default/x")
        };
        let entry = TargetSpec {
            max_ttft_ms: Some(300.0),
            page_params: vec![("idle_timeout_s".into(), "2".into())],
            ..spec("http://own/x")
        };
        let t = entry.over(&defaults).resolve(3).unwrap();
        assert_eq!((t.url.as_str(), t.body.as_deref()), ("http://own/x", Some("{}")));
        assert_eq!(t.criteria.limits.max_ttft_ms, Some(300.0));
        assert_eq!(t.criteria.expect, Expect::parse("streaming").unwrap());
        assert_eq!(t.page_params, vec![("per_level".into(), "2".into()), ("idle_timeout_s".into(), "2".into())]);
        assert_eq!(t.file_stem(), "target-4");
    }

    #[test]
    fn bad_fields_are_named() {
        let cases: [(TargetSpec, &str); 7] = [
            (TargetSpec::default(), "no url"),
            (spec("ftp://x/y"), "url: not an http(s) URL"),
            (TargetSpec { method: Some("PO ST".into()), ..spec("http://h/") }, "method:"),
            (TargetSpec { vs: Some("nope".into()), ..spec("http://h/") }, "vs:"),
            (TargetSpec { repeat: Some(0), ..spec("http://h/") }, "repeat: 0"),
            (TargetSpec { hops: Some(vec!["http://h/".into(); 9]), ..spec("http://h/") }, "hops: 9"),
            (TargetSpec { page_params: vec![("run".into(), "1".into())], ..spec("http://h/") }, "page parameter run"),
        ];
        for (spec, expected) in cases {
            let err = spec.resolve(0).unwrap_err();
            assert!(err.contains(expected), "{err} (expected {expected})");
        }
    }

    #[test]
    fn a_credential_in_a_url_is_never_shown() {
        let err = check_url("url", "http://h/x?api_key=sk-abc 1").unwrap_err();
        assert!(!err.contains("sk-abc"), "{err}");
        let t = spec("https://user:pw@h/v1?key=sk-abc").resolve(0).unwrap();
        assert!(!t.display_name().contains("sk-abc") && !t.display_name().contains("pw"), "{}", t.display_name());
    }

    #[test]
    fn file_stems_are_safe() {
        let named = |n: &str| TargetSpec { name: Some(n.into()), ..spec("http://h/") }.resolve(0).unwrap().file_stem();
        assert_eq!(named("prod eu/west: chat"), "prod_eu_west__chat");
        assert_eq!(named("../.."), "target-1");
        assert_eq!(named("a\u{7}b").len(), 3);
    }
}
