//! Keeping secrets out of everything the page shows or saves (DESIGN.md, "Safety rules").
//!
//! - [`url`]: credentials a URL carries (`?key=`, `api_key=`, `access_token=`, `user:pass@`) are
//!   redacted wherever the URL is shown or saved, and their values listed for the scrubber.
//! - [`secret`]: a [`Secret`] value that `Debug` never prints, and which request headers are credentials.
//! - [`scrub`]: the typed key (and URL credentials) masked out of everything a server sends back, read
//!   by read, before it is stored: same length, so every metric stays exactly as measured.

pub mod scrub;
pub mod secret;
pub mod url;

pub use scrub::Scrubber;
pub use secret::{credential_values, is_credential_header, Secret};
pub use url::{origin, redact_url, url_credentials, url_has_credential, REDACTED};
