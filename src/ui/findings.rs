//! The verdict in plain words at the top, then every finding with its evidence and fix.

use leptos::prelude::*;
use super::erased::show_when;
use streamscope_core::findings::Finding;
use streamscope_core::report::export::ImportSource;
use streamscope_core::report::verdict_tally;
use streamscope_core::verdict::Verdict;

use super::format;
use super::lang::{say, use_lang, word};
use streamscope_core::i18n::keys::UiKey;
use streamscope_core::i18n::Text;
use super::on_demand::back_from_import;
use super::session::{RunState, Session};
use super::split::now_or_later;

fn verdict_sentence(verdict: &Verdict) -> String {
    say(match verdict {
        Verdict::Streaming => UiKey::VerdictStreaming,
        Verdict::Buffered => UiKey::VerdictBuffered,
        Verdict::Collected => UiKey::VerdictCollected,
        Verdict::Failed => UiKey::VerdictFailed,
    })
}

/// In a campaign of several runs, which run the verdict, metrics and timeline cards show (the last one
/// that ended), in the page's language: "Run 4 of 4 (side B)". None for a single run or before a report.
pub fn which_run(session: Session) -> Option<String> {
    let (done, planned) = session.progress.get();
    (planned > 1 && session.report.with(|r| r.is_some())).then(|| {
        let text = if session.compare_setup().is_some() {
            Text::msg(UiKey::RunOfSide).with("side", format!("{:?}", session.current_side.get()))
        } else {
            Text::msg(UiKey::RunOf)
        };
        text.count("done", done).count("planned", planned).render(use_lang())
    })
}

/// In a campaign whose runs did not all end in the verdict the card shows, how many ended in each (per
/// side of a comparison), in the page's language; None when they ended alike.
fn runs_disagree(session: Session) -> Option<String> {
    let by_side = session.compare_setup().is_some();
    session
        .records
        .with(|records| verdict_tally::runs_disagree(records.iter().map(|r| (r.side, r.report.verdict)), by_side))
        .map(|text| text.render(use_lang()))
}

/// One finding with its evidence and fix, its test id `{testid_prefix}{code}` (a run's `finding-`, a
/// campaign's `campaign-finding-`).
pub fn finding_row(f: Finding, testid_prefix: &'static str) -> impl IntoView {
    let severity = format::severity(f.severity);
    view! {
        <li class=format!("finding sev-{severity}") data-testid=format!("{testid_prefix}{}", f.code)>
            <div class="finding-head">
                <code class="finding-code">{f.code.to_string()}</code>
                <strong>{f.title}</strong>
            </div>
            <p class="finding-detail">{f.detail}</p>
            {f.fix.map(|fix| view! { <p class="finding-fix"><span>{word(UiKey::FixLabel)}</span>{fix}</p> })}
        </li>
    }
}

/// Verdict banner and findings list.
#[component]
pub fn Findings(session: Session) -> impl IntoView {
    let banner = move || match (session.state.get(), session.report.get()) {
        (RunState::Running, _) => ("running".to_string(), say(UiKey::Measuring)),
        (_, Some(report)) => (report.verdict.as_str().to_string(), verdict_sentence(&report.verdict)),
        _ => ("idle".to_string(), say(UiKey::PressRun)),
    };
    // Said in the page's language; a switch re-renders the rows from the same report. A plain list, not a
    // keyed `<For>`: it changes once per report, and the keyed one cost a run 2.8 KB of gzipped wasm.
    let findings = move || {
        let lang = use_lang();
        session.report.with(|r| r.as_ref().map(|r| r.findings.iter().map(|f| finding_row(f.localize(lang), "finding-")).collect::<Vec<_>>()))
    };
    // In a campaign of several runs, this card shows the last one: say which.
    let which_run = move || which_run(session);
    view! {
        <section class="card verdict" aria-live="polite">
            <div class=move || format!("verdict-banner v-{}", banner().0)>
                <span class="verdict-name" data-testid="verdict">{move || banner().0}</span>
                <span class="verdict-sentence" data-testid="verdict-sentence">{move || banner().1}</span>
            </div>
            {move || session.imported.get().map(|source| {
                let words = move || say(match source {
                    ImportSource::Traces => UiKey::ImportedTraces,
                    ImportSource::Report => UiKey::ImportedReport,
                });
                view! {
                    <p class="verdict-imported" data-testid="verdict-imported">
                        {words}
                        // Going back is `on_demand`'s code, which the import that offers it fetched.
                        {show_when(move || session.can_go_back(), move || view! {
                            " "<button data-testid="import-back" on:click=move |_| now_or_later(back_from_import(session), drop)>{word(UiKey::BackToMeasurement)}</button>
                        }.into_any())}
                    </p>
                }
            })}
            {move || which_run().map(|w| view! { <p class="which-run" data-testid="which-run">{w}</p> })}
            {move || runs_disagree(session).map(|w| view! { <p class="runs-disagree" data-testid="runs-disagree">{w}</p> })}
            <ul class="findings" data-testid="findings">
                {findings}
            </ul>
        </section>
    }
}
