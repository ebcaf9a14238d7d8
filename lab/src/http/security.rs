//! Security headers: `X-Content-Type-Options: nosniff` on every response (see
//! [`crate::http::response::head`]), and on the static files (the page) its Content-Security-Policy
//! and `Referrer-Policy: no-referrer`.

use crate::http::response::Fixed;

/// The page's Content-Security-Policy, sent as a header with every static file.
///
/// The page's `index.html` carries the same policy as a `<meta http-equiv="Content-Security-Policy">`
/// tag, minus `frame-ancestors` (which only works as a header); the two must be kept in step, and this
/// is the one place in the lab that spells the policy.
pub const PAGE_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src * data: blob:; \
worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/// `X-Content-Type-Options: nosniff`: a browser must not guess a type other than the one sent.
pub const NOSNIFF: (&str, &str) = ("X-Content-Type-Options", "nosniff");

/// `Referrer-Policy` of the page: it sends no `Referer`, so a report link (which may hold the target
/// URL) never leaks to the target or anywhere else.
pub const PAGE_REFERRER_POLICY: &str = "no-referrer";

/// Adds the page's headers (CSP and referrer policy) to a static file's response.
pub fn with_page_headers(response: Fixed) -> Fixed {
    response
        .with_header("Content-Security-Policy", PAGE_CSP)
        .with_header("Referrer-Policy", PAGE_REFERRER_POLICY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_is_one_line_with_every_directive_once() {
        assert!(!PAGE_CSP.contains('\n') && !PAGE_CSP.contains("  "));
        let directives: Vec<&str> = PAGE_CSP
            .split("; ")
            .filter_map(|d| d.split(' ').next())
            .collect();
        assert_eq!(directives.len(), 10);
        let mut unique = directives.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), directives.len(), "{directives:?}");
        assert!(PAGE_CSP.ends_with("form-action 'none'"));
    }

    /// The page's meta tag and this header say the same, but `frame-ancestors` (header only).
    #[test]
    fn the_header_is_the_pages_meta_policy_plus_frame_ancestors() {
        let html = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../index.html")).expect("index.html");
        let tag = html.find("http-equiv=\"Content-Security-Policy\"").expect("a CSP meta tag");
        let content = &html[tag..];
        let start = content.find("content=\"").expect("content") + 9;
        let meta = &content[start..start + content[start..].find('"').expect("closing quote")];
        assert_eq!(PAGE_CSP.replace(" frame-ancestors 'none';", ""), meta);
        assert!(!meta.contains("'unsafe-inline'; style") && !meta.contains("script-src 'self' 'wasm-unsafe-eval' 'unsafe-inline'"));
    }
}
