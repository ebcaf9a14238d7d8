//! A concurrency sweep: the sentence, the knee, one row per level (TTFT p50/p95, TPOT p50, total p50,
//! errors, runs the browser held back), TTFT and TPOT charted per level, and the sweep's own findings.

use leptos::prelude::*;
use streamscope_core::i18n::keys::UiPanelsKey as K;
use streamscope_core::i18n::{Lang, Text};
use streamscope_core::report::campaign::CampaignReport;
use streamscope_core::report::sweep::SweepReport;

use super::campaign_findings::CampaignFindings;
use super::compare_panel::verdict_counts;
use super::format;
use super::lang::{lang_getter, word};
use super::level_chart::{LevelChart, Series};
use super::session::Session;

/// The sweep panel, said in the page's language (built again when it changes); empty unless the campaign
/// is a sweep.
#[component]
pub fn SweepPanel(session: Session) -> impl IntoView {
    let lang = lang_getter();
    let sweep = Memo::new(move |_| {
        session.campaign.with(|c| match c {
            Some(CampaignReport::Sweep(s)) => Some((**s).clone()),
            _ => None,
        })
    });
    view! {
        {move || {
            let lang = lang();
            sweep.get().map(|s| view! { <SweepCard sweep=s.localize(lang) lang=lang /> })
        }}
    }
}

#[component]
fn SweepCard(sweep: SweepReport, lang: Lang) -> impl IntoView {
    let steps: Vec<String> = sweep.sweep.iter().map(|l| l.level.to_string()).collect();
    let marked = sweep.knee.and_then(|k| sweep.sweep.iter().position(|l| l.level == k));
    let ttft = vec![
        Series { name: K::TtftP50, class: "s-p50", values_ms: sweep.sweep.iter().map(|l| l.ttft_p50_ms).collect() },
        Series { name: K::TtftP95, class: "s-p95", values_ms: sweep.sweep.iter().map(|l| l.ttft_p95_ms).collect() },
    ];
    let tpot = vec![Series { name: K::TpotP50, class: "s-tpot", values_ms: sweep.sweep.iter().map(|l| l.tpot_p50_ms).collect() }];
    let knee = sweep.knee.map_or_else(|| Text::msg(K::NoneFound).render(lang), |k| k.to_string());
    let rows = sweep
        .sweep
        .iter()
        .map(|l| {
            let level = l.level;
            let is_knee = sweep.knee == Some(level);
            view! {
                <tr data-testid="sweep-row" data-level=level.to_string() class:knee=is_knee>
                    <td>{level}{is_knee.then(|| word(K::Knee))}</td>
                    <td data-testid=format!("sweep-ttft-p50-{level}")>{format::ms(l.ttft_p50_ms)}</td>
                    <td data-testid=format!("sweep-ttft-p95-{level}")>{format::ms(l.ttft_p95_ms)}</td>
                    <td data-testid=format!("sweep-tpot-p50-{level}")>{format::ms(l.tpot_p50_ms)}</td>
                    <td data-testid=format!("sweep-total-p50-{level}")>{format::ms(l.total_p50_ms)}</td>
                    <td data-testid=format!("sweep-errors-{level}")>{l.errors}</td>
                    <td data-testid=format!("sweep-browser-queued-{level}")>{l.browser_queued}</td>
                    <td>{verdict_counts(&l.verdicts, lang)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="card sweep" aria-label=word(K::ConcurrencySweep)>
            <h2>{word(K::ConcurrencySweep)}</h2>
            <p class="compare-summary" data-testid="sweep-summary">{sweep.summary.clone()}</p>
            <p class="muted">{word(K::KneeLabel)}<strong data-testid="sweep-knee">{knee}</strong>
                {Text::msg(K::RoundsPerLevel).count("rounds", sweep.per_level as usize).render(lang)}
                {sweep.knee_rule.map(|r| {
                    Text::msg(K::KneeRule)
                        .with("threshold", format::ms(Some(r.threshold_ms)))
                        .with("baseline", format::ms(Some(r.baseline_p50_ms)))
                        .with("first", sweep.sweep.first().map_or(String::new(), |s| s.level.to_string()))
                        .render(lang)
                })}
            </p>
            <table class="compare-table" data-testid="sweep-table">
                <thead>
                    <tr>
                        <th>{word(K::StreamsAtOnceColumn)}</th><th>{word(K::TtftP50)}</th><th>{word(K::TtftP95)}</th>
                        <th>{word(K::TpotP50)}</th><th>{word(K::TotalP50)}</th><th>{word(K::ErrorsColumn)}</th>
                        <th>{word(K::HeldByBrowserColumn)}</th><th>{word(K::VerdictsColumn)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            <div class="level-charts">
                <LevelChart steps=steps.clone() series=ttft marked=marked testid="sweep-chart-ttft" title=K::TtftPerLevel />
                <LevelChart steps=steps series=tpot marked=marked testid="sweep-chart-tpot" title=K::TpotPerLevel />
            </div>
            <CampaignFindings findings=sweep.findings.clone() />
        </section>
    }
}
