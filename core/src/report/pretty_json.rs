//! The one way reports, campaigns and exports are written as pretty JSON.

use serde::Serialize;

/// `value` as pretty JSON, or what `fallback` writes (a JSON object naming what was not written) if serde_json
/// refuses it. Writing this crate's own types does not fail (every map has string keys, and a non-finite
/// float is written as `null`), so the fallback does not format serde_json's error: its messages and
/// their formatting would otherwise come into every chunk of the page that writes a report.
pub(crate) fn pretty_json<T: Serialize + ?Sized>(value: &T, fallback: impl FnOnce() -> String) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| fallback())
}
