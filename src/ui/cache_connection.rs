//! Prompt cache and connection cost of one target's runs: each run's cache hit ratio, the warm runs'
//! ratio, TTFT cold against warm (and `low_cache_hit`), then the first (cold) connection's DNS, connect,
//! TLS and request timing against the later runs', whether each run reused a connection, and, when the
//! server does not allow those figures, which header would.

use leptos::prelude::*;
use streamscope_core::findings::FindingCode;
use streamscope_core::i18n::keys::UiPanelsKey as K;
use streamscope_core::i18n::{Lang, Text};
use streamscope_core::report::campaign::CampaignReport;
use streamscope_core::report::connection_cost::{ConnectionCost, ConnectionPhases};
use streamscope_core::report::runs::CacheOverRuns;

use super::campaign_findings::CampaignFindings;
use super::format;
use super::lang::{lang_getter, word};
use super::session::Session;
use streamscope_core::fixed::fixed;

fn percent(ratio: Option<f64>) -> String {
    ratio.map_or("–".into(), |r| format!("{}%", fixed(r * 100.0, 0)))
}

fn reused_words(reused: &[Option<bool>], lang: Lang) -> String {
    let words = reused.iter().map(|r| match r {
        Some(true) => Text::msg(K::Reused),
        Some(false) => Text::msg(K::NewConnection),
        None => Text::from("?"),
    });
    Text::join(words, Text::msg(K::ListSep)).render(lang)
}

/// The panel, for a single run or repeated runs of one target, said in the page's language (built again
/// when it changes); empty otherwise.
#[component]
pub fn CacheAndConnection(session: Session) -> impl IntoView {
    let lang = lang_getter();
    // Said in the page's language: a switch derives the figures again.
    let figures = Memo::new(move |_| {
        let lang = lang();
        session.campaign.with(|c| match c {
            Some(CampaignReport::Repeat(r)) => {
                let campaign: Vec<_> =
                    r.findings.iter().filter(|f| f.code == FindingCode::LowCacheHit).map(|f| f.localize(lang)).collect();
                Some((r.cache.clone(), r.connection.clone(), campaign))
            }
            Some(CampaignReport::Single(r)) => {
                Some((None, ConnectionCost::of(std::slice::from_ref(&**r)), Vec::new()))
            }
            _ => None,
        })
    });
    move || {
        let lang = lang();
        figures.get().filter(|(cache, conn, _)| cache.is_some() || conn.is_some()).map(|(cache, conn, findings)| {
            view! {
                <section class="card cache-connection" aria-label=word(K::CacheAndConnection)>
                    {cache.map(|c| view! { <CacheFigures cache=c lang=lang /> })}
                    <CampaignFindings findings=findings />
                    {conn.map(|c| view! { <ConnectionFigures cost=c.localize(lang) lang=lang /> })}
                </section>
            }
        })
    }
}

#[component]
fn CacheFigures(cache: CacheOverRuns, lang: Lang) -> impl IntoView {
    view! {
        <h2>{word(K::PromptCache)}</h2>
        <table class="compare-table">
            <tbody>
                <tr><td>{word(K::HitRatioPerRun)}</td><td data-testid="cache-run-ratios">
                    {cache.run_hit_ratios.iter().map(|r| percent(*r)).collect::<Vec<_>>().join(", ")}
                </td></tr>
                <tr><td>{word(K::WarmRuns)}</td><td data-testid="cache-warm-ratio">
                    {Text::msg(K::WarmRatio).with("ratio", percent(cache.warm_hit_ratio)).count("runs", cache.warm_runs).render(lang)}
                </td></tr>
                <tr><td>{word(K::TtftCold)}</td><td data-testid="cache-cold-ttft">{format::ms(cache.cold_ttft_ms)}</td></tr>
                <tr><td>{word(K::TtftWarm)}</td><td data-testid="cache-warm-ttft">{format::ms(cache.warm_ttft_ms)}</td></tr>
            </tbody>
        </table>
    }
}

/// A row of the connection table: label, test id suffix, and the phase it shows.
type PhaseRow = (K, &'static str, fn(&ConnectionPhases) -> Option<f64>);

#[component]
fn ConnectionFigures(cost: ConnectionCost, lang: Lang) -> impl IntoView {
    let phase_rows: [PhaseRow; 5] = [
        (K::PhaseDns, "dns", |p| p.dns_ms),
        (K::PhaseConnect, "connect", |p| p.connect_ms),
        (K::PhaseTls, "tls", |p| p.tls_ms),
        (K::PhaseRequestSent, "request-sent", |p| p.request_sent_ms),
        (K::PhaseHeaders, "headers", |p| p.headers_ms),
    ];
    let warm = cost.warm;
    let rows = phase_rows
        .into_iter()
        .map(|(label, id, get)| view! {
            <tr>
                <td>{word(label)}</td>
                <td data-testid=format!("connection-cold-{id}")>{format::ms(get(&cost.cold))}</td>
                <td data-testid=format!("connection-warm-{id}")>{warm.as_ref().map_or("–".into(), |w| format::ms(get(w)))}</td>
            </tr>
        })
        .collect_view();
    view! {
        <h2>{word(K::Connection)}</h2>
        <p class="muted">
            {word(K::ProtocolLabel)}<strong data-testid="connection-protocol">{cost.protocol.clone().unwrap_or_else(|| Text::msg(K::ProtocolUnknown).render(lang))}</strong>
            {word(K::ColdSetupLabel)}<strong data-testid="connection-cold-setup">{format::ms(cost.cold_setup_ms)}</strong>
            // Only with later runs to compare the first with.
            {warm.is_some().then(|| view! {
                {word(K::ColdExtraLabel)}<strong data-testid="connection-cold-extra">{format::ms(cost.cold_headers_extra_ms)}</strong>
            })}
            {word(K::PerRunLabel)}<strong data-testid="connection-reused">{reused_words(&cost.reused, lang)}</strong>
        </p>
        {cost.unavailable.clone().map(|u| view! { <p class="sev-warning" data-testid="connection-unavailable">{u}</p> })}
        {cost.preflight_note.clone().map(|n| view! { <p class="muted" data-testid="connection-preflight">{n}</p> })}
        <table class="compare-table" data-testid="connection-table">
            <thead><tr><th>{word(K::PhaseColumn)}</th><th>{word(K::ColdColumn)}</th><th>{word(K::WarmColumn)}</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
