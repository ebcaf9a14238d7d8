//! A hop ladder: the sentence naming the first hop where the stream changes, one row per hop (verdict,
//! TTFT, TPOT, events per read, findings), and TTFT charted per hop.

use leptos::prelude::*;
use streamscope_core::i18n::keys::UiPanelsKey as K;
use streamscope_core::i18n::{Lang, Text};
use streamscope_core::report::campaign::CampaignReport;
use streamscope_core::report::hops::HopLadder;
use streamscope_core::report::words::verdict_word;

use super::format;
use super::lang::{lang_getter, word};
use super::level_chart::{LevelChart, Series};
use super::session::Session;

/// The ladder panel, said in the page's language (built again when it changes); empty unless the
/// campaign is a hop ladder.
#[component]
pub fn HopsPanel(session: Session) -> impl IntoView {
    let lang = lang_getter();
    let ladder = Memo::new(move |_| {
        session.campaign.with(|c| match c {
            Some(CampaignReport::Hops(h)) => Some((**h).clone()),
            _ => None,
        })
    });
    view! {
        {move || {
            let lang = lang();
            ladder.get().map(|h| view! { <HopsCard ladder=h.localize(lang) lang=lang /> })
        }}
    }
}

#[component]
fn HopsCard(ladder: HopLadder, lang: Lang) -> impl IntoView {
    let first_bad = ladder.first_bad_hop;
    let rows = ladder
        .hops
        .iter()
        .map(|h| {
            let i = h.index;
            let bad = first_bad == Some(i);
            let codes = h.findings.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ");
            view! {
                <tr data-testid="hop-row" data-index=i.to_string() class:first-bad=bad data-first-bad=bad.to_string()>
                    <td data-testid=format!("hop-label-{i}")>{h.label.clone()}</td>
                    <td class="hop-url" data-testid=format!("hop-url-{i}")>{h.url.clone()}</td>
                    <td data-testid=format!("hop-verdict-{i}")>{verdict_word(h.verdict).render(lang)}</td>
                    <td class="figure" data-testid=format!("hop-ttft-{i}")>{format::ms(h.ttft_ms)}</td>
                    <td class="figure" data-testid=format!("hop-tpot-{i}")>{format::ms(h.tpot_ms)}</td>
                    <td data-testid=format!("hop-per-read-{i}")>{format::number(h.events_per_read_mean)}</td>
                    <td data-testid=format!("hop-findings-{i}")>{codes}</td>
                </tr>
            }
        })
        .collect_view();
    let steps: Vec<String> = ladder.hops.iter().map(|h| h.label.clone()).collect();
    let series = vec![Series { name: K::TtftMedianSeries, class: "s-p50", values_ms: ladder.hops.iter().map(|h| h.ttft_ms).collect() }];
    view! {
        <section class="card hops" aria-label=word(K::HopLadder)>
            <h2>{word(K::HopLadder)}</h2>
            <p class="compare-summary" data-testid="hops-summary">{ladder.summary.clone()}</p>
            <p class="muted">{word(K::FirstChangingHop)}
                <strong data-testid="hops-first-bad">{first_bad.map_or_else(|| Text::msg(K::NoneFound).render(lang), |i| (i + 1).to_string())}</strong>
            </p>
            <table class="compare-table" data-testid="hops-table">
                <thead>
                    <tr>
                        <th>{word(K::HopColumn)}</th><th>{word(K::UrlColumn)}</th><th>{word(K::VerdictColumn)}</th>
                        <th>{word(K::TtftColumn)}</th><th>{word(K::TpotColumn)}</th>
                        <th>{word(K::EventsPerReadColumn)}</th><th>{word(K::FindingsColumn)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            <div class="level-charts">
                <LevelChart steps=steps series=series marked=first_bad testid="hops-chart" title=K::TtftPerHop />
            </div>
        </section>
    }
}
