//! A secret value (an API key, a credential header's value) that cannot be printed by accident.

use serde::{Deserialize, Serialize};

/// A secret string: `Debug` shows only its length, there is no `Display`, and the value is reached
/// only through [`Secret::expose`], so a `{:?}` of anything holding one never prints it. It serialises
/// as the plain string, for the one place that needs it: handing a request to the measuring worker in
/// the same page.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// Wraps a value.
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The value itself, for the request that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret(<{} bytes>)", self.0.len())
    }
}

/// Whether a request header with this name carries a credential (its value is then a secret for the
/// scrubber, and it is not sent to a comparison's other origin without consent): `Authorization`,
/// `Proxy-Authorization`, `Cookie`, and any name containing `key`, `token`, `secret` or `auth`.
pub fn is_credential_header(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    matches!(n.as_str(), "authorization" | "proxy-authorization" | "cookie")
        || ["key", "token", "secret", "auth"].iter().any(|w| n.contains(w))
}

/// The secret parts of a credential header's value: the whole value and, for `Bearer x` / `Basic x` /
/// `Token x`, the credential after the scheme.
pub fn credential_values(value: &str) -> Vec<String> {
    let v = value.trim();
    let mut out = vec![v.to_string()];
    if let Some((scheme, rest)) = v.split_once(' ') {
        if ["bearer", "basic", "token"].contains(&scheme.to_ascii_lowercase().as_str()) {
            out.push(rest.trim().to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_prints_only_the_length() {
        let s = Secret::new("sk-live-123456");
        assert_eq!(format!("{s:?}"), "Secret(<14 bytes>)");
        assert_eq!(format!("{:?}", vec![("Authorization".to_string(), s.clone())]), "[(\"Authorization\", Secret(<14 bytes>))]");
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"sk-live-123456\"");
    }

    #[test]
    fn credential_headers_by_name() {
        for name in ["Authorization", "x-api-key", "X-Goog-Api-Key", "api-key", "Cookie", "X-Auth-Token", "client-secret"] {
            assert!(is_credential_header(name), "{name}");
        }
        for name in ["anthropic-version", "Content-Type", "OpenAI-Beta", "Accept"] {
            assert!(!is_credential_header(name), "{name}");
        }
    }

    #[test]
    fn bearer_values_list_the_token_too() {
        assert_eq!(credential_values(" Bearer sk-1 "), vec!["Bearer sk-1".to_string(), "sk-1".to_string()]);
        assert_eq!(credential_values("abc"), vec!["abc".to_string()]);
    }
}
