//! English words the report's files share: the verdicts' names and the connection-cost notes.

use crate::i18n::keys::ReportKey;

/// The English template of `key`.
pub fn template(key: ReportKey) -> &'static str {
    match key {
        ReportKey::VerdictStreaming => "streaming",
        ReportKey::VerdictBuffered => "buffered",
        ReportKey::VerdictCollected => "collected",
        ReportKey::VerdictFailed => "failed",
        ReportKey::ConnectionUnavailable => "DNS, connect, TLS and request timing are unavailable: the server sends no `{header}` header for this page's origin (add `{header}: *`, or the page's origin, to the streaming responses).",
        ReportKey::ConnectionPreflight => "A CORS preflight (an OPTIONS request) went first, as before any cross-origin request with a JSON body or an API key, and it opened the connection the first run used: that connection's set-up (DNS, connect, TLS) is not in the first run's phases but inside its \"request sent\" ({request_sent}), with the preflight's round trip.",
    }
}
