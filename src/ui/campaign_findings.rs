//! Findings about a campaign as a whole (a sweep's `browser_connection_limit`, repeated runs'
//! `low_cache_hit`), listed like a run's findings, with their own test ids (`campaign-finding-<code>`).

use leptos::prelude::*;
use streamscope_core::findings::Finding;

use super::format;

/// The list; nothing when there are no findings.
#[component]
pub fn CampaignFindings(findings: Vec<Finding>) -> impl IntoView {
    (!findings.is_empty()).then(|| {
        let items = findings
            .into_iter()
            .map(|f| {
                let severity = format::severity(f.severity);
                view! {
                    <li class=format!("finding sev-{severity}") data-testid=format!("campaign-finding-{}", f.code)>
                        <div class="finding-head">
                            <code class="finding-code">{f.code.to_string()}</code>
                            <strong>{f.title}</strong>
                        </div>
                        <p class="finding-detail">{f.detail}</p>
                        {f.fix.map(|fix| view! { <p class="finding-fix"><span>"Fix: "</span>{fix}</p> })}
                    </li>
                }
            })
            .collect_view();
        view! { <ul class="findings campaign-findings" data-testid="campaign-findings">{items}</ul> }
    })
}
