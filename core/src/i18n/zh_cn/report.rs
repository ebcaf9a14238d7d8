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
        ReportKey::ConnectionPreflight => "请求之前先发出了一个 CORS 预检（OPTIONS 请求）：带 JSON 请求体或 API 密钥的跨源请求都会这样。第一次运行所用的连接就是这个预检建立的：该连接的建立耗时（DNS、建连、TLS）不在第一次运行的各阶段里，而是连同预检的一次往返，算进了它的“发送请求”（{request_sent}）。",
    }
}
