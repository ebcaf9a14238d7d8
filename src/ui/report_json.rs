//! `#report-json`: the automation contract's output. `data-state` is idle, running, done or error; the
//! text is the JSON report once the run ends.

use leptos::prelude::*;

use streamscope_core::report::export::report_json_text;

use super::lang::{lang_getter, word};
use streamscope_core::i18n::keys::UiKey;
use super::session::Session;

/// The JSON report element, always present and visible so automation can read it.
#[component]
pub fn ReportJson(session: Session) -> impl IntoView {
    // An import says so in the contract too: `imported: true` and `imported_from` at the top.
    // Its texts in the page's language, which `lang` says; codes, fields and numbers never change with it.
    let lang = lang_getter();
    let json = move || {
        let (imported, lang) = (session.imported.get(), lang());
        session.campaign.with(|c| c.as_ref().map(|c| report_json_text(c, imported, lang)).unwrap_or_default())
    };
    view! {
        <section class="card report" aria-label=word(UiKey::ReportJsonAria)>
            <h2>{word(UiKey::ReportJsonHeading)}</h2>
            <pre id="report-json" data-testid="report-json" data-state=move || session.state.get().as_attr()>{json}</pre>
        </section>
    }
}
