//! Security headers: `X-Content-Type-Options: nosniff` on every response (see
//! [`crate::http::response::head`]), and on the static files (the page) its Content-Security-Policy
//! and `Referrer-Policy: no-referrer`.

use crate::http::response::Fixed;

/// The page's Content-Security-Policy, sent as a header with every static file.
///
/// The page's `index.html` carries the same policy as a `<meta http-equiv="Content-Security-Policy">`
/// tag, minus `frame-ancestors` (which only works as a header); the two must be kept in step, and this
/// is the one place in the lab that spells the policy. The server snippets shipped with the bundle
/// (`deploy/nginx/streamscope.conf`, `deploy/caddy/Caddyfile`) send it as it is (a test below checks).
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

    /// The lab's folder, read when the test runs: a binary reused from another clone (a shared target
    /// folder) must not read that clone's files through the path `env!` fixed at compile time.
    fn manifest_dir() -> std::path::PathBuf {
        std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
    }

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
        let html = std::fs::read_to_string(manifest_dir().join("../index.html")).expect("index.html");
        let tag = html.find("http-equiv=\"Content-Security-Policy\"").expect("a CSP meta tag");
        let content = &html[tag..];
        let start = content.find("content=\"").expect("content") + 9;
        let meta = &content[start..start + content[start..].find('"').expect("closing quote")];
        assert_eq!(PAGE_CSP.replace(" frame-ancestors 'none';", ""), meta);
        assert!(!meta.contains("'unsafe-inline'; style") && !meta.contains("script-src 'self' 'wasm-unsafe-eval' 'unsafe-inline'"));
    }

    /// The server snippets shipped with the bundle (`deploy/`, packed by scripts/package.sh) send this
    /// very policy, with `nosniff` and the referrer policy, whatever else they say.
    #[test]
    fn the_deploy_snippets_send_this_policy() {
        for (file, csp_line, nosniff_line) in [
            ("nginx/streamscope.conf", "add_header Content-Security-Policy \"", "add_header X-Content-Type-Options \"nosniff\" always;"),
            ("caddy/Caddyfile", "Content-Security-Policy \"", "X-Content-Type-Options \"nosniff\""),
        ] {
            let path = manifest_dir().join("../deploy").join(file).display().to_string();
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let policies: Vec<&str> = text
                .lines()
                .filter_map(|line| line.trim().strip_prefix(csp_line))
                .map(|rest| &rest[..rest.find('"').expect("a closing quote")])
                .collect();
            assert_eq!(policies, [PAGE_CSP], "{path}");
            assert!(text.lines().any(|line| line.trim() == nosniff_line), "{path}: no `{nosniff_line}`");
            assert!(text.contains(&format!("Referrer-Policy \"{PAGE_REFERRER_POLICY}\"")), "{path}: no referrer policy");
        }
    }
}
