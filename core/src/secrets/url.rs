//! Credentials in a URL: found, listed and redacted.
//!
//! A URL carries a credential in its user-info (`https://user:pass@host/`) or in a query or fragment
//! parameter whose name says so ([`CREDENTIAL_PARAMS`], case-insensitive: Gemini's `key=`, `api_key=`,
//! `access_token=`, SAS `sig=`, ...). [`redact_url`] replaces each such value with [`REDACTED`] and
//! leaves everything else byte for byte, so a redacted URL still reads as the URL that was asked for.
//! The parse is deliberately small and total (no panics, no allocation when nothing is redacted): it
//! needs only the authority, the query and the fragment.

use std::borrow::Cow;

/// What a redacted value reads as.
pub const REDACTED: &str = "REDACTED";

/// Query and fragment parameter names (lower-case) whose values are credentials.
pub const CREDENTIAL_PARAMS: [&str; 22] = [
    "key",
    "api_key",
    "apikey",
    "api-key",
    "x-api-key",
    "x-goog-api-key",
    "access_token",
    "accesstoken",
    "id_token",
    "refresh_token",
    "token",
    "auth",
    "auth_token",
    "authorization",
    "secret",
    "client_secret",
    "password",
    "passwd",
    "pwd",
    "sig",
    "signature",
    "subscription-key",
];

/// Where the parts of a URL are (byte ranges).
struct Parts {
    /// The user-info before `@` in the authority, when there is one.
    userinfo: Option<(usize, usize)>,
    /// The query after `?`, without the fragment.
    query: Option<(usize, usize)>,
    /// The fragment after `#`.
    fragment: Option<(usize, usize)>,
}

fn parts(url: &str) -> Parts {
    let authority_start = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[authority_start..];
    let authority_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let userinfo = rest[..authority_len].rfind('@').map(|at| (authority_start, authority_start + at));
    let fragment_at = url.find('#');
    let before_fragment = fragment_at.unwrap_or(url.len());
    let query = url[..before_fragment].find('?').map(|q| (q + 1, before_fragment));
    Parts { userinfo, query, fragment: fragment_at.map(|f| (f + 1, url.len())) }
}

/// Whether a parameter name (percent-encoded as written) names a credential.
fn is_credential_name(name: &str) -> bool {
    let decoded = percent_decode(name).to_ascii_lowercase();
    CREDENTIAL_PARAMS.contains(&decoded.as_str())
}

/// The `(start, end)` byte ranges of credential values inside `url[range]` read as `a=b&c=d`.
fn credential_values(url: &str, (start, end): (usize, usize), out: &mut Vec<(usize, usize)>) {
    let mut at = start;
    for pair in url[start..end].split('&') {
        if let Some(eq) = pair.find('=') {
            let value = (at + eq + 1, at + pair.len());
            if value.1 > value.0 && is_credential_name(&pair[..eq]) {
                out.push(value);
            }
        }
        at += pair.len() + 1;
    }
}

/// Every credential's byte range in `url`, in order.
fn credential_ranges(url: &str) -> Vec<(usize, usize)> {
    let p = parts(url);
    let mut out = Vec::new();
    if let Some((s, e)) = p.userinfo.filter(|(s, e)| e > s) {
        out.push((s, e));
    }
    // A loop, not `.flatten()`: each iterator adapter instance costs the page's wasm bytes.
    for range in [p.query, p.fragment] {
        let Some(range) = range else { continue };
        credential_values(url, range, &mut out);
    }
    out
}

/// Whether `url` carries a credential (see the module docs).
pub fn url_has_credential(url: &str) -> bool {
    !credential_ranges(url).is_empty()
}

/// `url` with every credential value replaced by [`REDACTED`] (borrowed when there is none).
pub fn redact_url(url: &str) -> Cow<'_, str> {
    let ranges = credential_ranges(url);
    if ranges.is_empty() {
        return Cow::Borrowed(url);
    }
    let mut out = String::with_capacity(url.len());
    let mut at = 0;
    for (s, e) in ranges {
        out.push_str(&url[at..s]);
        out.push_str(REDACTED);
        at = e;
    }
    out.push_str(&url[at..]);
    Cow::Owned(out)
}

/// The credential values `url` carries, as written and percent-decoded (user-info split at `:` too),
/// for the scrubber; already-redacted values are left out.
pub fn url_credentials(url: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (s, e) in credential_ranges(url) {
        let raw = &url[s..e];
        let mut push = |v: &str| {
            if !v.is_empty() && v != REDACTED && !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        };
        push(raw);
        push(&percent_decode(raw));
        if let Some((user, pass)) = raw.split_once(':') {
            push(pass);
            push(&percent_decode(pass));
            push(&percent_decode(user));
        }
    }
    out
}

/// The origin of `url` (`scheme://host[:port]`, lower-cased, user-info left out, the scheme's default
/// port dropped), or `None` when it has no `scheme://`.
pub fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h).to_ascii_lowercase();
    let scheme = scheme.to_ascii_lowercase();
    let host_port = match (scheme.as_str(), host_port.rsplit_once(':')) {
        ("http", Some((h, "80"))) | ("https", Some((h, "443"))) => h.to_string(),
        _ => host_port,
    };
    Some(format!("{scheme}://{host_port}"))
}

/// Percent-decodes `s` (and `+` as a space, as forms do); invalid escapes stay as written.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 3;
                        continue;
                    }
                    _ => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_key_in_the_query_is_redacted() {
        let url = "https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse&key=AIzaSyA-secret_123";
        assert_eq!(
            redact_url(url),
            "https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse&key=REDACTED"
        );
        assert!(url_has_credential(url));
        assert_eq!(url_credentials(url), vec!["AIzaSyA-secret_123".to_string()]);
    }

    #[test]
    fn every_credential_form_is_redacted_and_the_rest_kept() {
        for (url, want) in [
            ("http://u:p4ss@h:1/v1?x=1", "http://REDACTED@h:1/v1?x=1"),
            ("http://h/v1?API_KEY=abc&model=m", "http://h/v1?API_KEY=REDACTED&model=m"),
            ("http://h/v1?access_token=t1&token=t2#frag", "http://h/v1?access_token=REDACTED&token=REDACTED#frag"),
            ("http://h/cb#access_token=zz&state=1", "http://h/cb#access_token=REDACTED&state=1"),
            ("http://h/b?sv=1&sig=abc%2Bdef", "http://h/b?sv=1&sig=REDACTED"),
            ("http://h/v1?%6Bey=abc", "http://h/v1?%6Bey=REDACTED"),
        ] {
            assert_eq!(redact_url(url), want, "{url}");
        }
    }

    #[test]
    fn urls_without_credentials_are_borrowed_unchanged() {
        for url in [
            "http://127.0.0.1:8787/v1/chat/completions?tokens=50&cadence_ms=20",
            "http://h/v1?monkey=1&keys=2&key=",
            "http://h/a@b/c",
            "",
            "not a url at all ?&=&==",
            "http://[::1]:80/?#",
        ] {
            assert!(matches!(redact_url(url), Cow::Borrowed(_)), "{url}");
            assert!(!url_has_credential(url), "{url}");
        }
    }

    #[test]
    fn userinfo_values_are_listed_for_the_scrubber() {
        let c = url_credentials("https://alice:s%40cret@h/");
        assert!(c.contains(&"alice:s%40cret".to_string()) && c.contains(&"s@cret".to_string()), "{c:?}");
        assert!(url_credentials("http://h/?key=REDACTED").is_empty(), "a redacted URL lists nothing");
    }

    #[test]
    fn origins_compare_scheme_host_and_port() {
        assert_eq!(origin("HTTPS://User:p@API.example.com:443/v1?x").as_deref(), Some("https://api.example.com"));
        assert_eq!(origin("http://127.0.0.1:8787/v1").as_deref(), Some("http://127.0.0.1:8787"));
        assert_eq!(origin("http://[::1]:80/").as_deref(), Some("http://[::1]"));
        assert_ne!(origin("http://h:1/"), origin("http://h:2/"));
        assert_eq!(origin("relative/path"), None);
    }

    #[test]
    fn percent_decoding_is_total() {
        assert_eq!(percent_decode("a%20b+c%zz%4"), "a b c%zz%4");
        assert_eq!(percent_decode("%ff"), "\u{fffd}");
    }
}
