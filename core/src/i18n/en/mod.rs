//! The English catalogue: one exhaustive `match` per key group. Without the `en-built-in` feature (the
//! page's wasm) only the groups of [`always_built_in`] are compiled in; the others are read from the
//! installed English file (`en.txt`, [`super::install`]) and are empty until it is.

#[cfg(feature = "en-built-in")]
mod rules;
mod ui;
mod ui_form;
#[cfg(feature = "en-built-in")]
mod ui_metrics;
#[cfg(feature = "en-built-in")]
mod ui_panels;
#[cfg(feature = "en-built-in")]
mod triage_http;
#[cfg(feature = "en-built-in")]
mod triage_url;
#[cfg(feature = "en-built-in")]
mod triage_net;
#[cfg(feature = "en-built-in")]
mod prefix;
#[cfg(feature = "en-built-in")]
mod path;
#[cfg(feature = "en-built-in")]
mod campaign;
#[cfg(feature = "en-built-in")]
mod report;
#[cfg(feature = "en-built-in")]
mod compare;
#[cfg(feature = "en-built-in")]
mod hops;
#[cfg(feature = "en-built-in")]
mod sweep;
#[cfg(feature = "en-built-in")]
mod import;
#[cfg(feature = "en-built-in")]
mod markdown;

use super::Key;

/// Whether `key`'s English template is compiled in even without the `en-built-in` feature: the words
/// the page shows before anything comes after it (the form, the page's own notes). The URL checks under the
/// form come after it with their part and `en.txt` (issue 13).
pub fn always_built_in(key: Key) -> bool {
    matches!(key, Key::Ui(_) | Key::UiForm(_))
}

/// The English template of `key` (empty for a key not compiled in while the English file is not
/// installed: the page installs it before any run, see [`super::is_available`]).
pub fn template(key: Key) -> &'static str {
    match key {
        Key::Ui(k) => ui::template(k),
        Key::UiForm(k) => ui_form::template(k),
        #[cfg(feature = "en-built-in")]
        other => later_template(other),
        #[cfg(not(feature = "en-built-in"))]
        other => super::loaded::template(super::Lang::En, other).unwrap_or(""),
    }
}

/// The English template of a key outside [`always_built_in`].
#[cfg(feature = "en-built-in")]
fn later_template(key: Key) -> &'static str {
    match key {
        Key::Rules(k) => rules::template(k),
        Key::UiMetrics(k) => ui_metrics::template(k),
        Key::UiPanels(k) => ui_panels::template(k),
        Key::TriageHttp(k) => triage_http::template(k),
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
        Key::Ui(k) => ui::template(k),
        Key::UiForm(k) => ui_form::template(k),
        Key::TriageUrl(k) => triage_url::template(k),
    }
}
