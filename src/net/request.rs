//! What to send and how long to wait: the inputs of one run, built by the UI.

use streamscope_core::secrets::{credential_values, is_credential_header, redact_url, url_credentials, Scrubber, Secret};
use streamscope_core::trace::RequestSummary;

use super::scope::Scope;

/// Time limits for one run; `None` means no limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timeouts {
    /// Response headers must arrive within this many ms of `fetch()`.
    pub headers_ms: Option<f64>,
    /// The first body byte must arrive within this many ms of `fetch()`.
    pub first_byte_ms: Option<f64>,
    /// After the first byte, a gap with no data longer than this ends the run (a stall).
    pub idle_ms: Option<f64>,
    /// The whole run must end within this many ms of `fetch()`.
    pub total_ms: Option<f64>,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            headers_ms: Some(30_000.0),
            first_byte_ms: Some(60_000.0),
            idle_ms: Some(30_000.0),
            total_ms: Some(300_000.0),
        }
    }
}

/// One request to measure, handed to the measuring worker as a plain object (`worker::spec`, in memory,
/// same page).
/// `Debug` shows the URL redacted and header values as their length: a log line cannot leak a key.
#[derive(Clone, PartialEq)]
pub struct RunSpec {
    /// The exact request URL.
    pub url: String,
    /// HTTP method (`GET`, `POST`, ...).
    pub method: String,
    /// Request body; sent with `Content-Type: application/json` unless a header says otherwise.
    pub body: Option<String>,
    /// Extra request headers; every value is a [`Secret`] (only the request itself exposes it).
    pub headers: Vec<(String, Secret)>,
    /// Time limits.
    pub timeouts: Timeouts,
    /// Whether the API key (sent in a header above) had leading/trailing whitespace or a line break.
    pub key_has_whitespace: bool,
}

impl std::fmt::Debug for RunSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunSpec")
            .field("url", &redact_url(&self.url))
            .field("method", &self.method)
            .field("body_len_bytes", &self.body.as_ref().map(String::len))
            .field("headers", &self.headers)
            .field("timeouts", &self.timeouts)
            .field("key_has_whitespace", &self.key_has_whitespace)
            .finish()
    }
}

impl RunSpec {
    /// The secrets this request carries: the values of its credential headers (and the token after
    /// `Bearer`), and the credentials in its URL. What a server echoes of them is scrubbed.
    pub fn secrets(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (name, value) in &self.headers {
            if is_credential_header(name) {
                out.extend(credential_values(value.expose()));
            }
        }
        out.extend(url_credentials(&self.url));
        out
    }

    /// A scrubber for what the server sends back to this request (see [`RunSpec::secrets`]).
    pub fn scrubber(&self) -> Scrubber {
        Scrubber::new(self.secrets())
    }

    /// The secret-free description that goes into the trace and the report (the URL redacted).
    pub fn summary(&self) -> RequestSummary {
        RequestSummary {
            url: redact_url(&self.url).into_owned(),
            method: self.method.clone(),
            body_len_bytes: self.body.as_ref().map_or(0, |b| b.len()),
            header_names: self.headers.iter().map(|(n, _)| n.clone()).collect(),
            key_has_whitespace: self.key_has_whitespace,
            page_protocol: Scope::current().and_then(|s| s.protocol()),
            page_origin: Scope::current().and_then(|s| s.origin()),
        }
    }
}
