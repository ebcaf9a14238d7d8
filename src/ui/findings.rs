//! The verdict in plain words at the top, then every finding with its evidence and fix.

use leptos::prelude::*;
use streamscope_core::findings::Finding;
use streamscope_core::report::export::ImportSource;
use streamscope_core::verdict::Verdict;

use super::format;
use super::session::{RunState, Session};

fn verdict_sentence(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Streaming => "Streaming: content arrived as it was produced.",
        Verdict::Buffered => "Buffered: something held the content back and released it in bursts.",
        Verdict::Collected => "Collected: the whole answer arrived at once at the end.",
        Verdict::Failed => "Failed: no usable stream. The findings below say why and what to do.",
    }
}

/// Verdict banner and findings list.
#[component]
pub fn Findings(session: Session) -> impl IntoView {
    let banner = move || match (session.state.get(), session.report.get()) {
        (RunState::Running, _) => ("running".to_string(), "Measuring…".to_string()),
        (_, Some(report)) => (report.verdict.as_str().to_string(), verdict_sentence(&report.verdict).to_string()),
        _ => ("idle".to_string(), "Press Run to measure the stream.".to_string()),
    };
    // Keyed by position as well as content: two findings alike (core keeps one per code, but an imported
    // report is shown as written) must not share a key, or `<For>` drops or misplaces rows.
    let findings = move || session.report.get().map(|r| r.findings).unwrap_or_default().into_iter().enumerate();
    // In a campaign of several runs, this card shows the last one: say which.
    let which_run = move || {
        let (done, planned) = session.progress.get();
        (planned > 1 && session.report.with(|r| r.is_some())).then(|| {
            let side = if session.compare_setup().is_some() {
                format!(" (side {:?})", session.current_side.get())
            } else {
                String::new()
            };
            format!("Run {done} of {planned}{side}")
        })
    };
    view! {
        <section class="card verdict" aria-live="polite">
            <div class=move || format!("verdict-banner v-{}", banner().0)>
                <span class="verdict-name" data-testid="verdict">{move || banner().0}</span>
                <span class="verdict-sentence" data-testid="verdict-sentence">{move || banner().1}</span>
            </div>
            {move || session.imported.get().map(|source| {
                let words = match source {
                    ImportSource::Traces => "Imported, not measured here: recomputed from the file's recorded traces.",
                    ImportSource::Report => "Imported report without traces: its figures as written in the file, not re-measured or recomputed.",
                };
                view! {
                    <p class="verdict-imported" data-testid="verdict-imported">
                        {words}
                        <Show when=move || session.can_go_back()>
                            " "<button data-testid="import-back" on:click=move |_| session.back_from_import()>"Back to your measurement"</button>
                        </Show>
                    </p>
                }
            })}
            {move || which_run().map(|w| view! { <p class="which-run" data-testid="which-run">{w}</p> })}
            <ul class="findings" data-testid="findings">
                <For
                    each=findings
                    key=|(i, f): &(usize, Finding)| format!("{i}:{}:{}", f.code, f.detail)
                    children=move |(_, f): (usize, Finding)| {
                        let severity = format::severity(f.severity);
                        view! {
                            <li class=format!("finding sev-{severity}") data-testid=format!("finding-{}", f.code)>
                                <div class="finding-head">
                                    <code class="finding-code">{f.code.to_string()}</code>
                                    <strong>{f.title.clone()}</strong>
                                </div>
                                <p class="finding-detail">{f.detail.clone()}</p>
                                {f.fix.clone().map(|fix| view! { <p class="finding-fix"><span>"Fix: "</span>{fix}</p> })}
                            </li>
                        }
                    }
                />
            </ul>
        </section>
    }
}
