//! English words the report's files share: the verdicts' names and the connection-cost note.

use crate::i18n::keys::ReportKey;

/// The English template of `key`.
pub fn template(key: ReportKey) -> &'static str {
    match key {
        ReportKey::VerdictStreaming => "streaming",
        ReportKey::VerdictBuffered => "buffered",
        ReportKey::VerdictCollected => "collected",
        ReportKey::VerdictFailed => "failed",
        ReportKey::ConnectionUnavailable => "DNS, connect, TLS and request timing are unavailable: the server sends no `{header}` header for this page's origin (add `{header}: *`, or the page's origin, to the streaming responses).",
    }
}
