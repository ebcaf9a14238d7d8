//! Findings about a campaign as a whole (a sweep's `browser_connection_limit`, repeated runs'
//! `low_cache_hit`), listed like a run's findings, with their own test ids (`campaign-finding-<code>`).

use leptos::prelude::*;
use streamscope_core::findings::Finding;

use super::format;
use super::lang::{use_lang, word};
use streamscope_core::i18n::keys::UiKey;

/// The list; nothing when there are no findings.
#[component]
pub fn CampaignFindings(findings: Vec<Finding>) -> impl IntoView {
    (!findings.is_empty()).then(|| {
        // Said in the page's language; a switch re-renders the rows from the same findings.
        let items = move || {
            let lang = use_lang();
            findings
                .iter()
                .map(|f| {
                    let f = f.localize(lang);
                    let severity = format::severity(f.severity);
                    view! {
                        <li class=format!("finding sev-{severity}") data-testid=format!("campaign-finding-{}", f.code)>
                            <div class="finding-head">
                                <code class="finding-code">{f.code.to_string()}</code>
                                <strong>{f.title}</strong>
                            </div>
                            <p class="finding-detail">{f.detail}</p>
                            {f.fix.map(|fix| view! { <p class="finding-fix"><span>{word(UiKey::FixLabel)}</span>{fix}</p> })}
                        </li>
                    }
                })
                .collect_view()
        };
        view! { <ul class="findings campaign-findings" data-testid="campaign-findings">{items}</ul> }
    })
}
