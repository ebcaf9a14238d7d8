//! The numbers: live while the stream arrives, exact from the report once it ends.

use leptos::prelude::*;
use streamscope_core::i18n::keys::UiMetricsKey as K;
use streamscope_core::i18n::Text;

use super::format;
use super::lang::{say, use_lang, word};
use super::session::Session;
use streamscope_core::fixed::fixed;

/// One labelled value with its test id.
#[component]
fn Metric(label: K, testid: &'static str, value: Signal<String>, #[prop(optional)] hint: Option<K>) -> impl IntoView {
    let hint = hint.map(word);
    view! {
        <div class="metric" title=move || hint.map(|w| w()).unwrap_or_default()>
            <span class="metric-label">{word(label)}</span>
            <span class="metric-value" data-testid=testid>{move || value.get()}</span>
        </div>
    }
}

/// The metrics grid.
#[component]
pub fn MetricsPanel(session: Session) -> impl IntoView {
    let report = session.report;
    let live = session.live;
    let from_report = move |f: fn(&streamscope_core::report::Report) -> String| {
        Signal::derive(move || report.with(|r| r.as_ref().map(f)).unwrap_or_else(|| "…".into()))
    };
    let live_or_report = move |live_f: fn(&super::live_view::LiveView) -> String, report_f: fn(&streamscope_core::report::Report) -> String| {
        Signal::derive(move || match report.with(|r| r.as_ref().map(report_f)) {
            Some(v) => v,
            None => live.with(live_f),
        })
    };
    let status = live_or_report(
        |l| l.status.map_or("–".into(), |s| s.to_string()),
        |r| r.status.map_or("–".into(), |s| s.to_string()),
    );
    let headers = live_or_report(|l| format::ms(l.headers_ms), |r| format::ms(r.headers_ms));
    let ttfb = live_or_report(|l| format::ms(l.figures.ttfb_ms), |r| format::ms(r.ttfb_ms));
    let ttft = live_or_report(|l| format::ms(l.figures.ttft_ms), |r| format::ms(r.ttft_ms));
    let reasoning = live_or_report(|l| format::ms(l.figures.reasoning_ttft_ms), |r| format::ms(r.reasoning_ttft_ms));
    let total = live_or_report(|l| format::ms(Some(l.elapsed_ms)), |r| format::ms(r.total_ms));
    let reads = live_or_report(|l| l.figures.reads.to_string(), |r| r.reads.to_string());
    let content_events = live_or_report(|l| l.figures.content_events.to_string(), |r| r.content_events.to_string());
    let bytes = live_or_report(|l| format::bytes(l.figures.bytes), |r| format::bytes(r.bytes));
    let tpot = from_report(|r| match (r.tpot_ms, r.tpot_n) {
        (Some(t), Some(n)) => {
            let source = r.tpot_n_source.map_or("", |s| s.as_str());
            format!("{} (N={n}, {source})", format::ms(Some(t)))
        }
        (t, _) => format::ms(t),
    });
    let itl = from_report(|r| match &r.itl_ms {
        Some(p) => format!("{} / {} / {} / {}", format::ms(Some(p.p50)), format::ms(Some(p.p90)), format::ms(Some(p.p99)), format::ms(Some(p.max))),
        None => "–".into(),
    });
    let per_read = from_report(|r| {
        let mean = format::number(r.events_per_read_mean);
        Text::msg(K::EventsPerReadValue).with("mean", mean).with("max", r.events_per_read_max.to_string()).render(use_lang())
    });
    let rate = from_report(|r| r.output_tokens_per_s.map_or("–".into(), |v| format!("{} tok/s", fixed(v, 1))));
    let dialect = from_report(|r| {
        let framing = r.framing.map_or("–".to_string(), |f| f.as_str().to_string());
        format!("{} ({framing})", r.dialect.as_str())
    });
    let measured_in = from_report(|r| match r.measured_in {
        Some(streamscope_core::trace::MeasuredIn::Worker) => say(K::MeasuredInWorker),
        Some(streamscope_core::trace::MeasuredIn::MainThread) => say(K::MeasuredInMainThread),
        None => "–".into(),
    });
    let cache = from_report(|r| match &r.cache {
        Some(c) => match c.hit_ratio {
            Some(ratio) => Text::msg(K::CacheHit).with("percent", format!("{}%", fixed(ratio * 100.0, 0))).render(use_lang()),
            None => "–".into(),
        },
        None => say(K::CacheNotReported),
    });
    view! {
        <section class="card metrics" aria-label=word(K::MetricsSection)>
            // In a campaign the figures are the last run's, as the verdict's are: say which here too.
            {move || super::findings::which_run(session).map(|w| view! { <p class="metrics-which-run" data-testid="metrics-which-run">{w}</p> })}
            <Metric label=K::HttpStatusLabel testid="metric-status" value=status />
            <Metric label=K::HeadersLabel testid="metric-headers" value=headers hint=K::HeadersHint />
            <Metric label=K::TtfbLabel testid="metric-ttfb" value=ttfb hint=K::TtfbHint />
            <Metric label=K::TtftLabel testid="metric-ttft" value=ttft hint=K::TtftHint />
            <Metric label=K::ReasoningTtftLabel testid="metric-reasoning-ttft" value=reasoning />
            <Metric label=K::TpotLabel testid="metric-tpot" value=tpot hint=K::TpotHint />
            <Metric label=K::ItlLabel testid="metric-itl" value=itl hint=K::ItlHint />
            <Metric label=K::TotalLabel testid="metric-total" value=total />
            <Metric label=K::ContentEventsLabel testid="metric-content-events" value=content_events />
            <Metric label=K::ReadsLabel testid="metric-reads" value=reads hint=K::ReadsHint />
            <Metric label=K::EventsPerReadLabel testid="metric-events-per-read" value=per_read />
            <Metric label=K::BodyLabel testid="metric-bytes" value=bytes />
            <Metric label=K::DecodeRateLabel testid="metric-tokens-per-s" value=rate />
            <Metric label=K::FormatLabel testid="metric-dialect" value=dialect />
            <Metric label=K::PromptCacheLabel testid="metric-cache" value=cache />
            <Metric label=K::MeasuredInLabel testid="metric-measured-in" value=measured_in hint=K::MeasuredInHint />
        </section>
    }
}
