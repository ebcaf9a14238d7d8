//! A concurrency sweep: the sentence, the knee, one row per level (TTFT p50/p95, TPOT p50, total p50,
//! errors, runs the browser held back), TTFT and TPOT charted per level, and the sweep's own findings.

use leptos::prelude::*;
use streamscope_core::report::campaign::CampaignReport;
use streamscope_core::report::sweep::SweepReport;

use super::campaign_findings::CampaignFindings;
use super::format;
use super::level_chart::{LevelChart, Series};
use super::session::Session;

fn verdict_counts(counts: &std::collections::BTreeMap<String, usize>) -> String {
    counts.iter().map(|(v, n)| format!("{v} ×{n}")).collect::<Vec<_>>().join(", ")
}

/// The sweep panel; empty unless the campaign is a sweep.
#[component]
pub fn SweepPanel(session: Session) -> impl IntoView {
    let sweep = Memo::new(move |_| {
        session.campaign.with(|c| match c {
            Some(CampaignReport::Sweep(s)) => Some((**s).clone()),
            _ => None,
        })
    });
    view! {
        {move || sweep.get().map(|s| view! { <SweepCard sweep=s /> })}
    }
}

#[component]
fn SweepCard(sweep: SweepReport) -> impl IntoView {
    let steps: Vec<String> = sweep.sweep.iter().map(|l| l.level.to_string()).collect();
    let marked = sweep.knee.and_then(|k| sweep.sweep.iter().position(|l| l.level == k));
    let ttft = vec![
        Series { name: "TTFT p50", class: "s-p50", values_ms: sweep.sweep.iter().map(|l| l.ttft_p50_ms).collect() },
        Series { name: "TTFT p95", class: "s-p95", values_ms: sweep.sweep.iter().map(|l| l.ttft_p95_ms).collect() },
    ];
    let tpot = vec![Series { name: "TPOT p50", class: "s-tpot", values_ms: sweep.sweep.iter().map(|l| l.tpot_p50_ms).collect() }];
    let knee = sweep.knee.map_or("none".to_string(), |k| k.to_string());
    let rows = sweep
        .sweep
        .iter()
        .map(|l| {
            let level = l.level;
            let is_knee = sweep.knee == Some(level);
            view! {
                <tr data-testid="sweep-row" data-level=level.to_string() class:knee=is_knee>
                    <td>{level}{is_knee.then_some(" (knee)")}</td>
                    <td data-testid=format!("sweep-ttft-p50-{level}")>{format::ms(l.ttft_p50_ms)}</td>
                    <td data-testid=format!("sweep-ttft-p95-{level}")>{format::ms(l.ttft_p95_ms)}</td>
                    <td data-testid=format!("sweep-tpot-p50-{level}")>{format::ms(l.tpot_p50_ms)}</td>
                    <td data-testid=format!("sweep-total-p50-{level}")>{format::ms(l.total_p50_ms)}</td>
                    <td data-testid=format!("sweep-errors-{level}")>{l.errors}</td>
                    <td data-testid=format!("sweep-browser-queued-{level}")>{l.browser_queued}</td>
                    <td>{verdict_counts(&l.verdicts)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="card sweep" aria-label="Concurrency sweep">
            <h2>"Concurrency sweep"</h2>
            <p class="compare-summary" data-testid="sweep-summary">{sweep.summary.clone()}</p>
            <p class="muted">"Knee: "<strong data-testid="sweep-knee">{knee}</strong>
                {format!(" · {} rounds per level", sweep.per_level)}
                {sweep.knee_rule.map(|r| format!(
                    " · a level is the knee when its TTFT p50 is more than {} above level 1's {} (3 × its spread, at least 10% and 10 ms)",
                    format::ms(Some(r.threshold_ms)),
                    format::ms(Some(r.baseline_p50_ms)),
                ))}
            </p>
            <table class="compare-table" data-testid="sweep-table">
                <thead>
                    <tr>
                        <th>"streams at once"</th><th>"TTFT p50"</th><th>"TTFT p95"</th><th>"TPOT p50"</th>
                        <th>"total p50"</th><th>"errors"</th><th>"held by the browser"</th><th>"verdicts"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            <div class="level-charts">
                <LevelChart steps=steps.clone() series=ttft marked=marked testid="sweep-chart-ttft" title="TTFT per level" />
                <LevelChart steps=steps series=tpot marked=marked testid="sweep-chart-tpot" title="TPOT per level" />
            </div>
            <CampaignFindings findings=sweep.findings.clone() />
        </section>
    }
}
