//! What to send and how long to wait: the inputs of one run, built by the UI.

use serde::{Deserialize, Serialize};
use streamscope_core::trace::RequestSummary;

use super::scope::Scope;

/// Time limits for one run; `None` means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
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

/// One request to measure. Serialised only to hand it to the measuring worker (in memory, same page).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    /// The exact request URL.
    pub url: String,
    /// HTTP method (`GET`, `POST`, ...).
    pub method: String,
    /// Request body; sent with `Content-Type: application/json` unless a header says otherwise.
    pub body: Option<String>,
    /// Extra request headers (values may be secrets: they never leave this struct).
    pub headers: Vec<(String, String)>,
    /// Time limits.
    pub timeouts: Timeouts,
    /// Whether the API key (sent in a header above) had leading/trailing whitespace or a line break.
    pub key_has_whitespace: bool,
}

impl RunSpec {
    /// The secret-free description that goes into the trace and the report.
    pub fn summary(&self) -> RequestSummary {
        RequestSummary {
            url: self.url.clone(),
            method: self.method.clone(),
            body_len_bytes: self.body.as_ref().map_or(0, |b| b.len()),
            header_names: self.headers.iter().map(|(n, _)| n.clone()).collect(),
            key_has_whitespace: self.key_has_whitespace,
            page_protocol: Scope::current().and_then(|s| s.protocol()),
        }
    }
}
