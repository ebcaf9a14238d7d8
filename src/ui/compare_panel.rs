//! Repeated runs and A/B comparisons: the plain sentence, per side median / p90 / spread of every timing
//! metric with B − A, every run's verdict, and the two sides' timelines on one time axis.

use std::collections::BTreeMap;

use leptos::prelude::*;
use super::erased::show_when;
use streamscope_core::i18n::keys::UiPanelsKey as K;
use streamscope_core::i18n::{Lang, Text};
use streamscope_core::report::campaign::CampaignReport;
use streamscope_core::report::compare::{Deltas, Side};
use streamscope_core::report::runs::{MetricSpreads, RunsSummary, Spread};
use streamscope_core::report::words::verdict_word;
use streamscope_core::verdict::Verdict;

use super::format;
use super::lang::{lang_getter, say, word};
use super::live_view::LiveView;
use super::session::{RunRecord, Session};
use super::timeline::{report_marks, HeldSpans, Marks, TimelineChart};
use streamscope_core::fixed::fixed;

fn spread_cell(s: Option<Spread>, unit: Unit, lang: Lang) -> String {
    match s {
        Some(s) if s.n > 1 => Text::msg(K::SpreadCell)
            .with("median", figure(s.median, unit))
            .with("high", figure(s.p90, unit))
            .with("spread", figure(s.spread, unit))
            .render(lang),
        Some(s) => figure(s.median, unit),
        None => "–".into(),
    }
}

/// One figure of a row, in the row's unit.
fn figure(value: f64, unit: Unit) -> String {
    match unit {
        Unit::Ms => format::ms(Some(value)),
        Unit::TokensPerS => format!("{} tok/s", fixed(value, 1)),
    }
}

/// A signed B − A as core computed it, in the row's unit; one that reads as zero has no sign (it read
/// "−0.0 tok/s" for a decode rate 0.01 tok/s lower).
fn delta_cell(delta: Option<f64>, unit: Unit) -> String {
    match delta {
        Some(d) => {
            let shown = figure(d.abs(), unit);
            let zero = shown.chars().filter(char::is_ascii_digit).all(|c| c == '0');
            let sign = if zero { "" } else if d > 0.0 { "+" } else { "−" };
            format!("{sign}{shown}")
        }
        None => "–".into(),
    }
}

/// What a row's figures are.
#[derive(Clone, Copy)]
enum Unit {
    Ms,
    TokensPerS,
}

/// Rows of the table: label, test id, the spread of a side, B − A from core's comparison, and the unit.
type Row = (K, &'static str, fn(&MetricSpreads) -> Option<Spread>, fn(&Deltas) -> Option<f64>, Unit);

const ROWS: [Row; 6] = [
    (K::HeadersRow, "headers", |s| s.headers_ms, |d| d.headers, Unit::Ms),
    (K::TtfbRow, "ttfb", |s| s.ttfb_ms, |d| d.ttfb, Unit::Ms),
    (K::TtftRow, "ttft", |s| s.ttft_ms, |d| d.ttft, Unit::Ms),
    (K::TpotRow, "tpot", |s| s.tpot_ms, |d| d.tpot, Unit::Ms),
    (K::TotalRow, "total", |s| s.total_ms, |d| d.total, Unit::Ms),
    (K::DecodeRateRow, "rate", |s| s.output_tokens_per_s, |d| d.output_tokens_per_s, Unit::TokensPerS),
];

/// What the table shows of a side: its label, how many of its runs ended in each verdict, and the
/// spread of each timing metric (not the side's reports: the table is drawn again on every update).
type SideColumn = (String, BTreeMap<String, usize>, MetricSpreads);

fn side_column(label: String, side: &RunsSummary) -> SideColumn {
    (label, side.verdicts.clone(), side.stats.clone())
}

/// How many runs ended in each verdict, `streaming ×2, buffered ×1`: each verdict said in `lang` (its code
/// in English).
pub(super) fn verdict_counts(counts: &BTreeMap<String, usize>, lang: Lang) -> String {
    let counts = counts.iter().map(|(v, n)| {
        let verdict = Verdict::from_code(v).map_or_else(|| Text::from(v), verdict_word);
        Text::msg(K::VerdictCount).with("verdict", verdict).count("n", *n)
    });
    Text::join(counts, Text::msg(K::ListSep)).render(lang)
}

/// The last finished run of a side, as the timeline draws it.
fn last_of(records: &[RunRecord], side: Side) -> Option<(LiveView, Marks, HeldSpans)> {
    records.iter().rev().find(|r| r.side == side).map(|r| {
        (r.live.clone(), report_marks(&r.report), r.report.held_spans_ms())
    })
}

/// The comparison (or repeat) panel; empty for a single run.
#[component]
pub fn ComparePanel(session: Session) -> impl IntoView {
    let lang = lang_getter();
    // The sentence in the page's language; the sides' labels are the user's (`A: staging`).
    let sides = move || {
        let lang = lang();
        session.campaign.with(|c| match c {
            Some(CampaignReport::Compare(c)) => Some((
                Some(c.summary_words.render(lang).unwrap_or_else(|| c.summary.clone())),
                vec![side_column(format!("A: {}", c.label_a), &c.a), side_column(format!("B: {}", c.label_b), &c.b)],
            )),
            Some(CampaignReport::Repeat(r)) => {
                Some((None, vec![side_column(Text::msg(K::RepeatSide).count("n", r.runs.len()).render(lang), r)]))
            }
            _ => None,
        })
    };
    let deltas = move || session.campaign.with(|c| match c {
        Some(CampaignReport::Compare(c)) => Some(c.delta_ms),
        _ => None,
    });
    let progress = move || {
        let (done, planned) = session.progress.get();
        (planned > 1 && done < planned && session.running())
            .then(|| Text::msg(K::RunProgress).count("done", done + 1).count("planned", planned).render(lang()))
    };
    // Both sides' last runs on one axis: the longer run sets the span.
    let span = Signal::derive(move || {
        session.records.with(|r| {
            r.iter().map(|r| r.live.elapsed_ms.max(r.live.last_read_ms.unwrap_or(0.0))).reduce(f64::max).map(|m| m * 1.02)
        })
    });
    let side_chart = move |side: Side, testid: &'static str| {
        let data = Signal::derive(move || session.records.with(|r| last_of(r, side)));
        view! {
            {show_when(move || data.with(|d| d.is_some()), move || view! {
                <h3>{word(if side == Side::A { K::ALastRun } else { K::BLastRun })}</h3>
                <TimelineChart
                    live=Signal::derive(move || data.with(|d| d.as_ref().map(|d| d.0.clone()).unwrap_or_default()))
                    marks=Signal::derive(move || data.with(|d| d.as_ref().map_or((None, None, None, None), |d| d.1)))
                    held=Signal::derive(move || data.with(|d| d.as_ref().map(|d| d.2.clone()).unwrap_or_default()))
                    span_ms=span
                    testid=testid
                />
            }.into_any())}
        }
    };
    view! {
        {show_when(move || progress().is_some(), move || view! {
            <section class="card progress"><p data-testid="campaign-progress">{move || progress().unwrap_or_default()}</p></section>
        }.into_any())}
        {show_when(move || sides().is_some(), move || view! {
            <section class="card compare" aria-label=word(K::Comparison)>
                <h2>{move || say(if session.compare_setup().is_some() { K::Comparison } else { K::RepeatedRuns })}</h2>
                {move || sides().and_then(|(sentence, _)| sentence).map(|s| view! { <p class="compare-summary" data-testid="compare-summary">{s}</p> })}
                <table class="compare-table" data-testid="compare-table">
                    <thead>
                        <tr>
                            <th>{word(K::MetricColumn)}</th>
                            {move || sides().map(|(_, s)| s.into_iter().map(|(label, _, _)| view! { <th>{label}</th> }).collect_view())}
                            {move || (sides().map_or(0, |(_, s)| s.len()) == 2).then(|| view! { <th>"B − A"</th> })}
                        </tr>
                    </thead>
                    <tbody>
                        <tr>
                            <td>{word(K::VerdictsRow)}</td>
                            {move || sides().map(|(_, s)| s.into_iter().enumerate().map(|(i, (_, verdicts, _))| view! {
                                <td data-testid=format!("compare-verdicts-{}", ["a", "b"][i.min(1)])>{verdict_counts(&verdicts, lang())}</td>
                            }).collect_view())}
                            {move || (sides().map_or(0, |(_, s)| s.len()) == 2).then(|| view! { <td></td> })}
                        </tr>
                        {ROWS.into_iter().map(|(label, id, get, delta, unit)| view! {
                            <tr>
                                <td>{word(label)}</td>
                                {move || sides().map(|(_, s)| s.iter().enumerate().map(|(i, (_, _, spreads))| view! {
                                    <td data-testid=format!("compare-{id}-{}", ["a", "b"][i.min(1)])>{spread_cell(get(spreads), unit, lang())}</td>
                                }).collect_view())}
                                {move || deltas().map(|d| view! {
                                    <td data-testid=format!("compare-{id}-delta")>{delta_cell(delta(&d), unit)}</td>
                                })}
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                <div class="compare-timelines">
                    {side_chart(Side::A, "timeline-a")}
                    {move || session.compare_setup().is_some().then(|| side_chart(Side::B, "timeline-b"))}
                </div>
            </section>
        }.into_any())}
    }
}

#[cfg(test)]
mod tests {
    use super::{delta_cell, Unit};
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_difference_that_reads_as_zero_has_no_sign() {
        assert_eq!(delta_cell(Some(-0.01), Unit::TokensPerS), "0.0 tok/s");
        assert_eq!(delta_cell(Some(-2.5), Unit::TokensPerS), "−2.5 tok/s");
        assert_eq!(delta_cell(Some(0.0), Unit::TokensPerS), "0.0 tok/s");
        assert!(delta_cell(Some(300.0), Unit::Ms).starts_with("+3"), "{}", delta_cell(Some(300.0), Unit::Ms));
        assert_eq!(delta_cell(None, Unit::Ms), "–");
    }
}
