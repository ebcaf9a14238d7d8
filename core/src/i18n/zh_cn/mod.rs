//! The Simplified Chinese catalogue (zh-CN): one exhaustive `match` per key group. Written in the words
//! of the seed guide: 首字延迟 (TTFT), 每 token 输出时间 (TPOT), 缓冲, 反向代理, 流式, 前缀缓存命中率, 连接复用.
//! Figures and units stay as core formats them (`12.3 ms`, `4.0 KiB`), the same in both languages.

mod rules;
mod ui;
mod ui_form;
mod ui_metrics;
mod ui_panels;
mod triage_http;
mod triage_url;
mod triage_net;
mod prefix;
mod path;
mod campaign;
mod report;
mod compare;
mod hops;
mod sweep;
mod import;
mod markdown;

use super::Key;

/// The Chinese template of `key`.
pub fn template(key: Key) -> &'static str {
    match key {
        Key::Rules(k) => rules::template(k),
        Key::Ui(k) => ui::template(k),
        Key::UiForm(k) => ui_form::template(k),
        Key::UiMetrics(k) => ui_metrics::template(k),
        Key::UiPanels(k) => ui_panels::template(k),
        Key::TriageHttp(k) => triage_http::template(k),
        Key::TriageUrl(k) => triage_url::template(k),
        Key::TriageNet(k) => triage_net::template(k),
        Key::Prefix(k) => prefix::template(k),
        Key::Path(k) => path::template(k),
        Key::Campaign(k) => campaign::template(k),
        Key::Report(k) => report::template(k),
        Key::Compare(k) => compare::template(k),
        Key::Hops(k) => hops::template(k),
        Key::Sweep(k) => sweep::template(k),
        Key::Import(k) => import::template(k),
        Key::Markdown(k) => markdown::template(k),
    }
}
