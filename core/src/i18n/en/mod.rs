//! The English catalogue: one exhaustive `match` per key group.

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

/// The English template of `key`.
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
