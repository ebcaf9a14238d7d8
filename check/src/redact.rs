//! Defence in depth for everything the check writes (stdout, stderr, report files, JUnit): the API
//! key and any credential a target URL carries are masked, whatever the page already did. The page
//! never puts the key in its report; this is for what nobody foresaw (an error message quoting a
//! request, a server echoing a header).

use streamscope_core::secrets::{redact_url, url_credentials, Scrubber, Secret};

/// The shortest key masked by exact match (shorter ones would mask ordinary words).
pub const MIN_EXACT_KEY_BYTES: usize = 4;

/// The mask for an exact match.
const MASK: &str = "[REDACTED]";

/// Masks the key and URL credentials out of text.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    key: Option<Secret>,
    scrubber: Scrubber,
}

impl Redactor {
    /// A redactor for `key` and the credentials carried by `urls`.
    pub fn new<'a>(key: Option<&Secret>, urls: impl IntoIterator<Item = &'a str>) -> Redactor {
        let mut secrets: Vec<String> = urls.into_iter().flat_map(url_credentials).collect();
        if let Some(key) = key {
            secrets.push(key.expose().to_string());
        }
        Redactor {
            key: key.filter(|k| k.expose().len() >= MIN_EXACT_KEY_BYTES).cloned(),
            scrubber: Scrubber::new(secrets),
        }
    }

    /// `text` with the key (and its encodings: percent, JSON, base64) and URL credentials masked.
    pub fn text(&self, text: &str) -> String {
        let scrubbed = self.scrubber.scrub_str(text);
        match &self.key {
            Some(key) => scrubbed.replace(key.expose(), MASK),
            None => scrubbed,
        }
    }

    /// A URL for display: its credentials redacted, then [`Redactor::text`].
    pub fn url(&self, url: &str) -> String {
        self.text(&redact_url(url))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_and_its_encodings_are_masked() {
        let key = Secret::new("sk-test+0123456789");
        let r = Redactor::new(Some(&key), []);
        for leak in ["Bearer sk-test+0123456789", "sk-test%2B0123456789", "c2stdGVzdCswMTIzNDU2Nzg5"] {
            let out = r.text(&format!("before {leak} after"));
            assert!(!out.contains("0123456789") && !out.contains("c2stdGVzdCswMTIzNDU2Nzg5"), "{out}");
            assert!(out.starts_with("before ") && out.ends_with(" after"), "{out}");
        }
    }

    #[test]
    fn a_short_key_is_masked_by_exact_match() {
        let r = Redactor::new(Some(&Secret::new("sk-lab")), []);
        assert_eq!(r.text("Authorization: Bearer sk-lab"), "Authorization: Bearer [REDACTED]");
    }

    #[test]
    fn url_credentials_are_masked_wherever_they_appear() {
        let url = "https://h/v1/chat?api_key=abcdef123456&x=1";
        let r = Redactor::new(None, [url]);
        assert_eq!(r.url(url), "https://h/v1/chat?api_key=REDACTED&x=1");
        let quoted = r.text("cannot open http://page/?url=https%3A%2F%2Fh%2Fv1%2Fchat%3Fapi_key%3Dabcdef123456");
        assert!(!quoted.contains("abcdef123456"), "{quoted}");
    }
}
