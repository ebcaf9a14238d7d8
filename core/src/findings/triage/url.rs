//! URL triage: mistakes in the request URL or the preset's base URL that make a call fail before any
//! model is involved. Pure functions on strings, so the page can show them under the request line while
//! the user types, before anything is sent; the report includes them too ([`request_url_findings`]).
//!
//! Codes: `doubled_v1` (`/v1/v1/`), `path_suffix` (an endpoint path such as `/chat/completions` given
//! twice, or in a preset base), `mixed_content` (an `http:` URL from an `https:` page), `missing_v1` (a
//! 404 where `{base}/v1/models` answered but `{base}/models` did not; needs the page's probes),
//! `url_scheme` (no `http://` or `https://` in front), `trailing_slash` and `url_whitespace` (warnings).

use crate::findings::{Finding, FindingCode, Severity, Suggestion};
use crate::i18n::keys::TriageUrlKey as K;
use crate::i18n::Text;
use crate::trace::Trace;

/// Endpoint paths a client appends to a base URL, longest first.
pub const ENDPOINT_SUFFIXES: &[&str] = &["/chat/completions", "/completions", "/responses", "/messages"];

/// Findings about the exact request URL, from the URL alone and the page's own scheme (`https:` or
/// `http:`, as `location.protocol` gives it).
pub fn url_findings(url: &str, page_protocol: Option<&str>) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(f) = whitespace(url, K::WhatRequestUrl) {
        out.push(f);
    }
    if let Some(f) = missing_scheme(url) {
        out.push(f);
    }
    let parts = UrlParts::of(url);
    let segments: Vec<&str> = parts.path.split('/').filter(|s| !s.is_empty()).collect();
    if let Some(version) = doubled_version(&segments) {
        let fixed = format!("{}{}{}", parts.origin, parts.path.replacen(&format!("/{version}/{version}"), &format!("/{version}"), 1), parts.rest);
        out.push(
            Finding::new(
                FindingCode::DoubledV1,
                Severity::Error,
                Text::msg(K::DoubledTitle).with("version", version),
                Text::msg(K::DoubledDetail).with("path", parts.path).with("version", version),
            )
            .fix(Text::msg(K::DoubledFix).with("version", version).with("fixed", fixed.as_str()))
            .evidence(json_object!({"path": parts.path, "segment": version, "suggested_url": fixed}))
            .suggest(Suggestion::Url { url: fixed }),
        );
    }
    if let Some((suffix, base_path)) = repeated_suffix(parts.path) {
        let fixed = format!("{}{base_path}{suffix}{}", parts.origin, parts.rest);
        out.push(
            Finding::new(
                FindingCode::PathSuffix,
                Severity::Error,
                Text::msg(K::SuffixTitle).with("suffix", suffix),
                Text::msg(K::SuffixDetail).with("path", parts.path).with("suffix", suffix),
            )
            .fix(
                Text::msg(K::SuffixFix)
                    .with("fixed", fixed.as_str())
                    .with("base", format!("{}{base_path}", parts.origin)),
            )
            .evidence(json_object!({"path": parts.path, "suffix": suffix, "suggested_url": fixed,
                "suggested_base": format!("{}{base_path}", parts.origin)}))
            .suggest(Suggestion::BaseUrl { base: format!("{}{base_path}", parts.origin), url: fixed }),
        );
    }
    if parts.path.len() > 1 && parts.path.ends_with('/') {
        out.push(slash_warning(parts.path, K::SlashEndTitle, K::SlashEndDetail));
    } else if parts.path.contains("//") {
        out.push(slash_warning(parts.path, K::SlashDoubleTitle, K::SlashDoubleDetail));
    }
    if let Some(f) = mixed_content(&parts, page_protocol) {
        out.push(f);
    }
    out
}

/// Findings about a preset base URL as typed (`POST {base}/chat/completions` is built from it): a base
/// that already ends in an endpoint path, a doubled `/v1`, whitespace. The page trims a trailing slash
/// itself, so that is not reported here. Show them under the base field; [`url_findings`] on the built
/// URL reports the same problems in terms of the URL.
pub fn preset_base_findings(base: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(f) = whitespace(base, K::WhatBaseUrl) {
        out.push(f);
    }
    let trimmed = base.trim().trim_end_matches('/');
    let parts = UrlParts::of(trimmed);
    if let Some(suffix) = ENDPOINT_SUFFIXES.iter().find(|s| parts.path.ends_with(*s)) {
        let fixed = trimmed.strip_suffix(suffix).unwrap_or(trimmed).to_string();
        out.push(
            Finding::new(
                FindingCode::PathSuffix,
                Severity::Error,
                Text::msg(K::BaseSuffixTitle).with("suffix", *suffix),
                Text::msg(K::BaseSuffixDetail).with("suffix", *suffix),
            )
            .fix(Text::msg(K::BaseSuffixFix).with("fixed", fixed.as_str()))
            .evidence(json_object!({"base": base, "suffix": suffix, "suggested_base": fixed})),
        );
    }
    let segments: Vec<&str> = parts.path.split('/').filter(|s| !s.is_empty()).collect();
    if let Some(version) = doubled_version(&segments) {
        let fixed = trimmed.replacen(&format!("/{version}/{version}"), &format!("/{version}"), 1);
        out.push(
            Finding::new(
                FindingCode::DoubledV1,
                Severity::Error,
                Text::msg(K::BaseDoubledTitle).with("version", version),
                Text::msg(K::BaseDoubledDetail).with("path", parts.path).with("version", version),
            )
            .fix(Text::msg(K::BaseDoubledFix).with("fixed", fixed.as_str()))
            .evidence(json_object!({"base": base, "segment": version, "suggested_base": fixed})),
        );
    }
    out
}

/// URL findings for the run's request (with the page's scheme) plus `missing_v1` when the probes show it:
/// what the report adds to its findings. When the server answered below 400 anyway, a URL mistake is a
/// warning, not an error.
pub fn request_url_findings(trace: &Trace) -> Vec<Finding> {
    let mut out = url_findings(&trace.request.url, trace.request.page_protocol.as_deref());
    if trace.status.is_some_and(|s| s < 400) {
        for f in &mut out {
            f.severity = f.severity.min(Severity::Warning);
        }
    }
    if let Some(f) = missing_v1(trace) {
        out.push(f);
    }
    out
}

/// `missing_v1`: the request got a 404, and a probe of `{base}/v1/models` answered (2xx) while
/// `{base}/models` did not: the base URL lacks `/v1`.
pub fn missing_v1(trace: &Trace) -> Option<Finding> {
    if trace.status != Some(404) {
        return None;
    }
    let ok = |s: Option<u16>| s.is_some_and(|s| (200..300).contains(&s));
    let probes = &trace.probes.models;
    let (with_v1, base) = probes.iter().filter(|p| ok(p.status)).find_map(|p| {
        let base = p.url.trim_end_matches('/').strip_suffix("/v1/models")?;
        let without = probes.iter().find(|q| q.url.trim_end_matches('/') == format!("{base}/models"))?;
        (!ok(without.status)).then_some((p, base))
    })?;
    let without_status = probes
        .iter()
        .find(|q| q.url.trim_end_matches('/') == format!("{base}/models"))
        .and_then(|q| q.status);
    let suggested_base = format!("{base}/v1");
    let suggested_url = format!("{suggested_base}/chat/completions");
    Some(
        Finding::new(
            FindingCode::MissingV1,
            Severity::Error,
            Text::msg(K::MissingV1Title),
            Text::msg(K::MissingV1Detail)
                .with("base", base)
                .with(
                    "without",
                    without_status.map_or_else(|| Text::msg(K::MissingV1NoResponse), |s| format!("HTTP {s}").into()),
                )
                .with("url", with_v1.url.as_str())
                .with("status", with_v1.status.unwrap_or(0).to_string()),
        )
        .fix(Text::msg(K::MissingV1Fix).with("base", suggested_base.as_str()).with("url", suggested_url.as_str()))
        .evidence(json_object!({"base": base, "suggested_base": suggested_base, "suggested_url": suggested_url,
            "models_ids": with_v1.ids}))
        .suggest(Suggestion::BaseUrl { base: suggested_base, url: suggested_url }),
    )
}

/// A URL cut into origin (`scheme://host:port`), path and the rest (`?query#fragment`).
struct UrlParts<'a> {
    scheme: &'a str,
    host: &'a str,
    origin: &'a str,
    path: &'a str,
    rest: &'a str,
}

impl<'a> UrlParts<'a> {
    fn of(url: &'a str) -> UrlParts<'a> {
        let url = url.trim();
        let rest_at = url.find(['?', '#']).unwrap_or(url.len());
        let (before, rest) = url.split_at(rest_at);
        let (scheme, after_scheme, origin_len) = match before.find("://") {
            Some(i) => {
                let after = &before[i + 3..];
                let host_len = after.find('/').unwrap_or(after.len());
                (&before[..i], &after[..host_len], i + 3 + host_len)
            }
            None => ("", "", 0),
        };
        UrlParts { scheme, host: host_of(after_scheme), origin: &before[..origin_len], path: &before[origin_len..], rest }
    }
}

/// The host of an authority (`user@host:port`): without the user and the port; an IPv6 host with its
/// brackets (`[::1]`).
fn host_of(authority: &str) -> &str {
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    if authority.starts_with('[') {
        authority.find(']').map_or(authority, |end| &authority[..=end])
    } else {
        authority.split(':').next().unwrap_or(authority)
    }
}

/// The version segment (`v1`, `v2`, `v1beta`) that appears twice in a row, if any.
fn doubled_version<'a>(segments: &[&'a str]) -> Option<&'a str> {
    let is_version = |s: &str| {
        let b = s.as_bytes();
        b.len() >= 2 && b[0].eq_ignore_ascii_case(&b'v') && b[1].is_ascii_digit()
    };
    segments
        .windows(2)
        .find(|w| w[0].eq_ignore_ascii_case(w[1]) && is_version(w[0]))
        .map(|w| w[0])
}

/// `(suffix, base path)` when the path ends in an endpoint path that follows another endpoint path
/// (`…/chat/completions/chat/completions`, `…/messages/chat/completions`).
fn repeated_suffix(path: &str) -> Option<(&'static str, &str)> {
    let path = path.trim_end_matches('/');
    let last = ENDPOINT_SUFFIXES.iter().find(|s| path.ends_with(*s))?;
    let before = &path[..path.len() - last.len()];
    let inner = ENDPOINT_SUFFIXES.iter().find(|s| before.ends_with(*s))?;
    Some((last, &before[..before.len() - inner.len()]))
}

/// `url_scheme`: a URL that starts with a host (`localhost:8080/v1`, `api.example.com/v1`), not with
/// `http://` or `https://`. The browser fetches the first as a URL of an unknown scheme (a network error
/// before anything is sent, which would read as "nothing answered") and the second as a path on the
/// page's own server. The fix adds the scheme: `http://` for a name without a dot, an IPv4 address or
/// `[::1]` (a server on this machine or network), else `https://`. A URL that starts with `/` or `.` is a
/// path on the page's server on purpose (the page deployed beside the API).
fn missing_scheme(url: &str) -> Option<Finding> {
    let url = url.trim();
    if url.contains("://") {
        return None;
    }
    let authority = &url[..url.find('/').unwrap_or(url.len())];
    let host = host_of(authority);
    // A dot, a port after the host, or `localhost`: a host, not the first segment of a relative path.
    let with_port = !host.is_empty() && authority.split_once(host).is_some_and(|(_, after)| after.starts_with(':'));
    let names_a_host = host.contains('.') || with_port || host.eq_ignore_ascii_case("localhost");
    if !names_a_host || host.starts_with('.') {
        return None;
    }
    let local = !host.contains('.') || host.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let fixed = format!("{}://{url}", if local { "http" } else { "https" });
    Some(
        Finding::new(FindingCode::UrlScheme, Severity::Error, Text::msg(K::SchemeTitle), Text::msg(K::SchemeDetail).with("url", url))
            .fix(Text::msg(K::SchemeFix).with("fixed", fixed.as_str()))
            .evidence(json_object!({"suggested_url": fixed}))
            .suggest(Suggestion::Url { url: fixed }),
    )
}

/// `url_whitespace`: spaces, tabs or line breaks in a URL (pasted with the text around it); `what` names
/// the URL (`request URL`, `base URL`).
fn whitespace(url: &str, what: K) -> Option<Finding> {
    if !url.chars().any(char::is_whitespace) {
        return None;
    }
    let inside = url.trim().chars().any(char::is_whitespace);
    let what = Text::msg(what);
    let detail = Text::msg(if inside { K::WhitespaceInside } else { K::WhitespaceAround }).with("what", what.clone());
    let title = Text::msg(K::WhitespaceTitle).with("what", what);
    Some(
        Finding::new(FindingCode::UrlWhitespace, Severity::Warning, title, detail)
            .fix(Text::msg(K::WhitespaceFix).with("url", url.split_whitespace().collect::<String>()))
            .evidence(json_object!({"inside": inside})),
    )
}

/// `trailing_slash`: the path ends with a slash or has an empty segment (`title` and `detail` say which).
fn slash_warning(path: &str, title: K, detail: K) -> Finding {
    Finding::new(FindingCode::TrailingSlash, Severity::Warning, Text::msg(title), Text::msg(detail).with("path", path))
        .fix(Text::msg(K::SlashFix))
        .evidence(json_object!({"path": path}))
}

/// `mixed_content`: an `http:` URL from an `https:` page (loopback is exempt: browsers treat
/// `localhost`, `127.0.0.0/8` and `[::1]` as trustworthy).
fn mixed_content(parts: &UrlParts, page_protocol: Option<&str>) -> Option<Finding> {
    let page_https = page_protocol.is_some_and(|p| p.trim_end_matches(':').eq_ignore_ascii_case("https"));
    if !page_https || !parts.scheme.eq_ignore_ascii_case("http") {
        return None;
    }
    let host = parts.host.to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") || host.starts_with("127.") || host == "[::1]" {
        return None;
    }
    Some(
        Finding::new(
            FindingCode::MixedContent,
            Severity::Error,
            Text::msg(K::MixedTitle),
            Text::msg(K::MixedDetail).with("origin", parts.origin),
        )
        .fix(Text::msg(K::MixedFix).with("host", parts.host))
        .evidence(json_object!({"page_protocol": page_protocol, "url_scheme": parts.scheme, "host": parts.host})),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::testkit::said_in_both;
    use crate::i18n::Lang;
    use crate::trace::{ModelsProbe, Probes, RequestSummary};

    // The module's functions as the tests call them: each finding checked to be said from the catalogue in
    // every word, and in Chinese too (`said_in_both`).

    fn url_findings(url: &str, page_protocol: Option<&str>) -> Vec<Finding> {
        super::url_findings(url, page_protocol).into_iter().map(said_in_both).collect()
    }

    fn preset_base_findings(base: &str) -> Vec<Finding> {
        super::preset_base_findings(base).into_iter().map(said_in_both).collect()
    }

    fn request_url_findings(trace: &Trace) -> Vec<Finding> {
        super::request_url_findings(trace).into_iter().map(said_in_both).collect()
    }

    fn missing_v1(trace: &Trace) -> Option<Finding> {
        super::missing_v1(trace).map(said_in_both)
    }

    fn codes(f: &[Finding]) -> Vec<FindingCode> {
        f.iter().map(|f| f.code.clone()).collect()
    }

    #[test]
    fn a_good_url_has_no_findings() {
        for url in [
            "https://api.openai.com/v1/chat/completions",
            "http://127.0.0.1:8080/v1/chat/completions?tokens=5",
            "https://api.anthropic.com/v1/messages",
            "http://localhost:11434/api/chat",
        ] {
            assert!(url_findings(url, Some("https:")).is_empty(), "{url}: {:?}", codes(&url_findings(url, Some("https:"))));
        }
    }

    #[test]
    fn doubled_v1_names_the_fixed_url() {
        let f = url_findings("https://api.example.com/v1/v1/chat/completions?x=1", None);
        assert_eq!(codes(&f), [FindingCode::DoubledV1]);
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(f[0].evidence["suggested_url"], "https://api.example.com/v1/chat/completions?x=1");
        assert_eq!(codes(&url_findings("http://h/api/V1/v1/models", None)), [FindingCode::DoubledV1]);
        assert_eq!(codes(&url_findings("http://h/v1beta/v1beta/x", None)), [FindingCode::DoubledV1]);
        assert!(url_findings("http://h/v1/x/v1/chat/completions", None).is_empty());
    }

    #[test]
    fn path_suffix_twice_in_the_url() {
        let f = url_findings("https://h.example/v1/chat/completions/chat/completions", None);
        assert_eq!(codes(&f), [FindingCode::PathSuffix]);
        assert_eq!(f[0].evidence["suggested_base"], "https://h.example/v1");
        assert_eq!(f[0].evidence["suggested_url"], "https://h.example/v1/chat/completions");
        assert_eq!(codes(&url_findings("https://h/v1/messages/chat/completions", None)), [FindingCode::PathSuffix]);
        assert!(url_findings("https://h/v1/chat/completions", None).is_empty());
    }

    #[test]
    fn preset_base_with_an_endpoint_or_doubled_v1() {
        let f = preset_base_findings("https://h.example/v1/chat/completions/");
        assert_eq!(codes(&f), [FindingCode::PathSuffix]);
        assert_eq!(f[0].evidence["suggested_base"], "https://h.example/v1");
        assert_eq!(codes(&preset_base_findings("https://h/v1/v1")), [FindingCode::DoubledV1]);
        assert_eq!(preset_base_findings("https://h/v1/v1")[0].evidence["suggested_base"], "https://h/v1");
        assert!(preset_base_findings("https://h.example/v1/").is_empty(), "the preset trims the slash");
        assert!(preset_base_findings("").is_empty());
        assert_eq!(codes(&preset_base_findings(" https://h/v1\n")), [FindingCode::UrlWhitespace]);
    }

    #[test]
    fn trailing_slash_and_double_slash_warn() {
        let f = url_findings("https://h/v1/chat/completions/", None);
        assert_eq!(codes(&f), [FindingCode::TrailingSlash]);
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(codes(&url_findings("https://h/v1//chat/completions", None)), [FindingCode::TrailingSlash]);
        assert!(url_findings("https://h/", None).is_empty());
        assert!(url_findings("https://h", None).is_empty());
    }

    #[test]
    fn whitespace_inside_and_around() {
        let f = url_findings(" https://h/v1/chat/completions\n", None);
        assert_eq!(codes(&f), [FindingCode::UrlWhitespace]);
        assert_eq!(f[0].evidence["inside"], false);
        let f = url_findings("https://h/v1/chat /completions", None);
        assert_eq!(f[0].evidence["inside"], true);
        assert!(f[0].fix.as_ref().unwrap().contains("https://h/v1/chat/completions"));
    }

    #[test]
    fn mixed_content_only_from_https_pages_to_remote_http() {
        let f = url_findings("http://gpu-box.lan:8000/v1/chat/completions", Some("https:"));
        assert_eq!(codes(&f), [FindingCode::MixedContent]);
        assert_eq!(f[0].evidence["host"], "gpu-box.lan");
        assert!(url_findings("http://gpu-box.lan:8000/v1/chat/completions", Some("http:")).is_empty());
        assert!(url_findings("http://gpu-box.lan:8000/v1/chat/completions", None).is_empty());
        assert!(url_findings("https://gpu-box.lan/v1/chat/completions", Some("https:")).is_empty());
        for loopback in ["http://localhost:8000/x", "http://127.0.0.1:8000/x", "http://[::1]:8000/x", "http://user@localhost/x"] {
            assert!(url_findings(loopback, Some("https:")).is_empty(), "{loopback}");
        }
    }

    #[test]
    fn a_url_without_http_or_https_says_so_with_the_scheme_to_add() {
        for (url, fixed) in [
            ("localhost:8080/v1/chat/completions", "http://localhost:8080/v1/chat/completions"),
            ("127.0.0.1:8000/v1/chat/completions", "http://127.0.0.1:8000/v1/chat/completions"),
            ("gpu-box:8000/v1", "http://gpu-box:8000/v1"),
            ("[::1]:8000/v1", "http://[::1]:8000/v1"),
            ("api.openai.com/v1/chat/completions", "https://api.openai.com/v1/chat/completions"),
            (" api.openai.com/v1 ", "https://api.openai.com/v1"),
        ] {
            let f: Vec<Finding> = url_findings(url, None).into_iter().filter(|f| f.code != FindingCode::UrlWhitespace).collect();
            assert_eq!(codes(&f), [FindingCode::UrlScheme], "{url}");
            assert_eq!(f[0].severity, Severity::Error);
            assert_eq!(f[0].evidence["suggested_url"], fixed, "{url}");
            assert_eq!(f[0].suggestion, Some(Suggestion::Url { url: fixed.into() }), "{url}");
        }
        // With a scheme, or a path on the page's own server (on purpose, or the server answers 404).
        for fine in ["HTTPS://api.openai.com/v1", "ftp://files.example.com/x", "/v1/chat/completions", "v1/chat/completions", "./v1/chat/completions", "../v1", ""] {
            assert!(!codes(&url_findings(fine, None)).contains(&FindingCode::UrlScheme), "{fine}");
        }
    }

    /// The URL, the path and the suggested URL go into every language as they are.
    #[test]
    fn the_urls_stay_verbatim_in_chinese() {
        let zh = |f: &Finding| f.localize(Lang::ZhCn);
        let f = zh(&url_findings("https://api.example.com/v1/v1/chat/completions?x=1", None)[0]);
        assert_eq!(f.title, "URL 中出现了 /v1/v1");
        assert!(f.fix.unwrap().starts_with("去掉一个 /v1：https://api.example.com/v1/chat/completions?x=1。"));
        let f = zh(&url_findings(" https://h/v1/chat/completions\n", None)[0]);
        assert_eq!(f.title, "请求 URL 中有空白字符");
        assert_eq!(f.fix.unwrap(), "去掉空白字符：https://h/v1/chat/completions");
        assert_eq!(zh(&preset_base_findings(" https://h/v1")[0]).title, "预设的 Base URL 中有空白字符");
        let f = zh(&preset_base_findings("https://h/v1/chat/completions")[0]);
        assert_eq!(f.detail, "预设发送的是 POST {base}/chat/completions，这个 Base URL 会拼成 …/chat/completions/chat/completions，服务端不认识这个路径（404）。");
        let f = zh(&url_findings("https://h/v1//chat/completions", None)[0]);
        assert!(f.detail.starts_with("路径 /v1//chat/completions 中有空段（//）。"), "{}", f.detail);
        let f = zh(&url_findings("http://gpu-box.lan:8000/v1/chat/completions", Some("https:"))[0]);
        assert!(f.detail.contains("（http://gpu-box.lan:8000）") && f.fix.unwrap().contains("https://gpu-box.lan…"));
        let t = trace_404(vec![probe("http://lab:1/models", None, &[]), probe("http://lab:1/v1/models", Some(200), &[])]);
        let f = missing_v1(&t).unwrap();
        assert!(f.detail.contains("did not answer (no response) but http://lab:1/v1/models did (HTTP 200)"), "{}", f.detail);
        assert!(zh(&f).detail.contains("http://lab:1/models 没有正常应答（没有响应），但 http://lab:1/v1/models 正常应答了（HTTP 200）"));
    }

    #[test]
    fn garbage_urls_never_panic() {
        for url in ["", "://", "http://", "?", "#//", "http://[::1", "v1/v1", "ü/v1/v1/é", "http://h:99999/ /", "/chat/completions/chat/completions"] {
            let _ = url_findings(url, Some("https:"));
            let _ = preset_base_findings(url);
        }
        assert_eq!(codes(&url_findings("v1/v1", None)), [FindingCode::DoubledV1]);
    }

    #[test]
    fn a_url_mistake_the_server_accepted_is_only_a_warning() {
        let mut t = Trace {
            request: RequestSummary { url: "http://h/v1/v1/chat/completions".into(), ..RequestSummary::default() },
            status: Some(404),
            ..Trace::default()
        };
        assert_eq!(request_url_findings(&t)[0].severity, Severity::Error);
        t.status = Some(200);
        assert_eq!(request_url_findings(&t)[0].severity, Severity::Warning);
    }

    fn probe(url: &str, status: Option<u16>, ids: &[&str]) -> ModelsProbe {
        ModelsProbe { url: url.into(), status, ids: ids.iter().map(|s| s.to_string()).collect(), ids_total: None }
    }

    fn trace_404(models: Vec<ModelsProbe>) -> Trace {
        Trace {
            request: RequestSummary { url: "http://lab:1/chat/completions".into(), ..RequestSummary::default() },
            status: Some(404),
            probes: Probes { no_cors_reached: None, models },
            ..Trace::default()
        }
    }

    #[test]
    fn missing_v1_when_only_the_v1_models_list_answers() {
        let t = trace_404(vec![
            probe("http://lab:1/models", Some(404), &[]),
            probe("http://lab:1/v1/models", Some(200), &["a", "b"]),
        ]);
        let f = missing_v1(&t).expect("missing_v1");
        assert_eq!(f.evidence["suggested_base"], "http://lab:1/v1");
        assert_eq!(
            f.suggestion,
            Some(Suggestion::BaseUrl { base: "http://lab:1/v1".into(), url: "http://lab:1/v1/chat/completions".into() })
        );
        assert_eq!(f.evidence["models_ids"][1], "b");
        assert!(f.detail.contains("HTTP 404"), "{}", f.detail);
        assert_eq!(codes(&request_url_findings(&t)), [FindingCode::MissingV1]);
        // A failed request counts as "did not answer" too.
        let t = trace_404(vec![probe("http://lab:1/models", None, &[]), probe("http://lab:1/v1/models", Some(200), &[])]);
        assert!(missing_v1(&t).is_some());
    }

    #[test]
    fn no_missing_v1_when_the_plain_models_list_answers_or_not_a_404() {
        let t = trace_404(vec![
            probe("http://lab:1/v1/models", Some(200), &["a"]),
            probe("http://lab:1/v1/v1/models", Some(404), &[]),
        ]);
        assert!(missing_v1(&t).is_none());
        let t = trace_404(vec![probe("http://lab:1/models", Some(200), &["a"]), probe("http://lab:1/v1/models", Some(200), &["a"])]);
        assert!(missing_v1(&t).is_none());
        let mut t = trace_404(vec![probe("http://lab:1/models", Some(404), &[]), probe("http://lab:1/v1/models", Some(200), &[])]);
        t.status = Some(401);
        assert!(missing_v1(&t).is_none());
        assert!(missing_v1(&trace_404(vec![])).is_none());
    }
}
