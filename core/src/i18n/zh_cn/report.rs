//! Chinese (zh-CN) words the report's files share: the verdicts' names and the connection-cost note.

use crate::i18n::keys::ReportKey;

/// The Chinese template of `key`.
pub fn template(key: ReportKey) -> &'static str {
    match key {
        ReportKey::VerdictStreaming => "流式",
        ReportKey::VerdictBuffered => "缓冲",
        ReportKey::VerdictCollected => "整段返回",
        ReportKey::VerdictFailed => "失败",
        ReportKey::ConnectionUnavailable => "DNS、建连、TLS 和请求发送的耗时都读不到：服务端没有为本页面的源返回 `{header}` 响应头（在流式响应上加 `{header}: *`，或把 * 换成本页面的源）。",
    }
}
