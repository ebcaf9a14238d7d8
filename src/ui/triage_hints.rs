//! Triage in the form: URL mistakes shown under the request line while typing (before anything is
//! sent), and one-click fixes the last failed run suggests (the base URL with `/v1`, a model id that
//! exists).

use leptos::prelude::*;
use super::erased::show_when;
use streamscope_core::findings::{Finding, FindingCode, Suggestion};
use streamscope_core::findings::triage::url::{preset_base_findings, url_findings};

use super::format;
use super::lang::use_lang;
use super::session::Session;

/// The URL checks for a request about to be sent.
pub fn url_checks(url: &str, preset_base: Option<&str>) -> Vec<Finding> {
    let protocol = window().location().protocol().ok();
    let mut out = preset_base.map(preset_base_findings).unwrap_or_default();
    for f in url_findings(url, protocol.as_deref()) {
        if !out.iter().any(|seen| seen.code == f.code) {
            out.push(f);
        }
    }
    out
}

/// The URL checks as a list (nothing when the URL looks right).
#[component]
pub fn UrlChecks(checks: Signal<Vec<Finding>>) -> impl IntoView {
    view! {
        {show_when(move || checks.with(|c| !c.is_empty()), move || view! {
            <ul class="url-checks" data-testid="url-checks">
                {move || checks.get().into_iter().map(|f| f.localize(use_lang())).map(|f| view! {
                    <li class=format!("sev-{}", format::severity(f.severity))
                        data-testid=format!("url-check-{}", f.code)>
                        <strong>{f.title.clone()}</strong>" "{f.fix.clone().unwrap_or(f.detail.clone())}
                    </li>
                }).collect_view()}
            </ul>
        }.into_any())}
    }
}

/// What the last run's findings suggest changing in the form.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Suggestions {
    /// A base URL that answered (`missing_v1`), and the full request URL it gives.
    pub base: Option<(String, String)>,
    /// Model ids the server lists (`model_not_found`).
    pub models: Vec<String>,
}

/// The suggestions in the last finished run's report.
pub fn suggestions(session: Session) -> Suggestions {
    // An import's suggestions are the file's words: never offered as one-click fixes.
    let imported = session.imported.with(Option::is_some);
    session.report.with(|r| {
        let mut s = Suggestions::default();
        let Some(r) = r.as_ref().filter(|_| !imported) else { return s };
        for f in &r.findings {
            match &f.suggestion {
                Some(Suggestion::BaseUrl { base, url }) if f.code == FindingCode::MissingV1 => {
                    s.base = Some((base.clone(), url.clone()));
                }
                Some(Suggestion::Models { ids, .. }) => s.models = ids.clone(),
                _ => {}
            }
        }
        s
    })
}
