//! Security headers: `X-Content-Type-Options: nosniff` on every response (see
//! [`crate::http::response::head`]), and on the static files (the page) its Content-Security-Policy
//! and `Referrer-Policy: no-referrer`.

use crate::http::response::Fixed;

/// The page's Content-Security-Policy, sent as a header with every static file.
///
/// The page's `index.html` carries the same policy as a `<meta http-equiv="Content-Security-Policy">`
/// tag, minus `frame-ancestors` (which only works as a header); the two must be kept in step, and this
/// is the one place in the lab that spells the policy.
pub const PAGE_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-inline'; \
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
}
