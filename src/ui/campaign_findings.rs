//! Findings about a campaign as a whole (a sweep's `browser_connection_limit`, repeated runs'
//! `low_cache_hit`), listed like a run's findings, with their own test ids (`campaign-finding-<code>`).

use leptos::prelude::*;
use streamscope_core::findings::Finding;

use super::findings::finding_row;
use super::lang::use_lang;

/// The list; nothing when there are no findings.
#[component]
pub fn CampaignFindings(findings: Vec<Finding>) -> impl IntoView {
    (!findings.is_empty()).then(|| {
        // Said in the page's language; a switch re-renders the rows from the same findings.
        let items = move || {
            let lang = use_lang();
            findings.iter().map(|f| finding_row(f.localize(lang), "campaign-finding-")).collect_view()
        };
        view! { <ul class="findings campaign-findings" data-testid="campaign-findings">{items}</ul> }
    })
}
