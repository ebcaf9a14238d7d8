//! Prompt cache and connection cost of one target's runs: each run's cache hit ratio, the warm runs'
//! ratio, TTFT cold against warm (and `low_cache_hit`), then the first (cold) connection's DNS, connect,
//! TLS and request timing against the later runs', whether each run reused a connection, and, when the
//! server does not allow those figures, which header would.

use leptos::prelude::*;
use streamscope_core::findings::FindingCode;
use streamscope_core::report::campaign::CampaignReport;
use streamscope_core::report::connection_cost::{ConnectionCost, ConnectionPhases};
use streamscope_core::report::runs::CacheOverRuns;

use super::campaign_findings::CampaignFindings;
use super::format;
use super::session::Session;

fn percent(ratio: Option<f64>) -> String {
    ratio.map_or("–".into(), |r| format!("{:.0}%", r * 100.0))
}

fn reused_words(reused: &[Option<bool>]) -> String {
    reused
        .iter()
        .map(|r| match r {
            Some(true) => "reused",
            Some(false) => "new",
            None => "?",
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The panel, for a single run or repeated runs of one target; empty otherwise.
#[component]
pub fn CacheAndConnection(session: Session) -> impl IntoView {
    let figures = Memo::new(move |_| {
        session.campaign.with(|c| match c {
            Some(CampaignReport::Repeat(r)) => {
                let campaign: Vec<_> =
                    r.findings.iter().filter(|f| f.code == FindingCode::LowCacheHit).cloned().collect();
                Some((r.cache.clone(), r.connection.clone(), campaign))
            }
            Some(CampaignReport::Single(r)) => {
                Some((None, ConnectionCost::of(std::slice::from_ref(&**r)), Vec::new()))
            }
            _ => None,
        })
    });
    move || {
        figures.get().filter(|(cache, conn, _)| cache.is_some() || conn.is_some()).map(|(cache, conn, findings)| {
            view! {
                <section class="card cache-connection" aria-label="Prompt cache and connection">
                    {cache.map(|c| view! { <CacheFigures cache=c /> })}
                    <CampaignFindings findings=findings />
                    {conn.map(|c| view! { <ConnectionFigures cost=c /> })}
                </section>
            }
        })
    }
}

#[component]
fn CacheFigures(cache: CacheOverRuns) -> impl IntoView {
    view! {
        <h2>"Prompt cache"</h2>
        <table class="compare-table">
            <tbody>
                <tr><td>"hit ratio per run"</td><td data-testid="cache-run-ratios">
                    {cache.run_hit_ratios.iter().map(|r| percent(*r)).collect::<Vec<_>>().join(", ")}
                </td></tr>
                <tr><td>"warm runs (all but the first)"</td><td data-testid="cache-warm-ratio">
                    {format!("{} over {} runs", percent(cache.warm_hit_ratio), cache.warm_runs)}
                </td></tr>
                <tr><td>"TTFT cold (first run)"</td><td data-testid="cache-cold-ttft">{format::ms(cache.cold_ttft_ms)}</td></tr>
                <tr><td>"TTFT warm (median)"</td><td data-testid="cache-warm-ttft">{format::ms(cache.warm_ttft_ms)}</td></tr>
            </tbody>
        </table>
    }
}

/// A row of the connection table: label, test id suffix, and the phase it shows.
type PhaseRow = (&'static str, &'static str, fn(&ConnectionPhases) -> Option<f64>);

#[component]
fn ConnectionFigures(cost: ConnectionCost) -> impl IntoView {
    let phase_rows: [PhaseRow; 5] = [
        ("DNS", "dns", |p| p.dns_ms),
        ("connect (TLS included)", "connect", |p| p.connect_ms),
        ("TLS", "tls", |p| p.tls_ms),
        ("request sent", "request-sent", |p| p.request_sent_ms),
        ("headers", "headers", |p| p.headers_ms),
    ];
    let warm = cost.warm;
    let rows = phase_rows
        .into_iter()
        .map(|(label, id, get)| view! {
            <tr>
                <td>{label}</td>
                <td data-testid=format!("connection-cold-{id}")>{format::ms(get(&cost.cold))}</td>
                <td data-testid=format!("connection-warm-{id}")>{warm.as_ref().map_or("–".into(), |w| format::ms(get(w)))}</td>
            </tr>
        })
        .collect_view();
    view! {
        <h2>"Connection"</h2>
        <p class="muted">
            "Protocol: "<strong data-testid="connection-protocol">{cost.protocol.clone().unwrap_or_else(|| "unknown".into())}</strong>
            " · set-up of the first connection: "<strong data-testid="connection-cold-setup">{format::ms(cost.cold_setup_ms)}</strong>
            " · first run's headers later than the others' by: "<strong data-testid="connection-cold-extra">{format::ms(cost.cold_headers_extra_ms)}</strong>
            " · per run: "<strong data-testid="connection-reused">{reused_words(&cost.reused)}</strong>
        </p>
        {cost.unavailable.clone().map(|u| view! { <p class="sev-warning" data-testid="connection-unavailable">{u}</p> })}
        <table class="compare-table" data-testid="connection-table">
            <thead><tr><th>"phase"</th><th>"first run (cold)"</th><th>"later runs (median)"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
