//! A small line chart of figures per step (sweep levels, hops): one polyline per series on a shared
//! y axis from 0, the steps evenly spaced (each centred in its slot), one step marked (the knee). Drawn only when a campaign ends,
//! from the figures core derived.

use leptos::prelude::*;
use streamscope_core::i18n::keys::UiPanelsKey;

use super::lang::word;
use streamscope_core::fixed::fixed;

const WIDTH: f64 = 420.0;
const HEIGHT: f64 = 180.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 30.0;

/// One line: its name, its CSS class and a value per step (`None`: no point there).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Shown in the legend.
    pub name: UiPanelsKey,
    /// CSS class of the line and its points.
    pub class: &'static str,
    /// One value per step, ms.
    pub values_ms: Vec<Option<f64>>,
}

/// A nice round upper bound for the y axis: 1, 2, 2.5 or 5 × 10^k at or above `max` (the tallest point
/// fills at least half the chart: with 1-2-5 alone a 2.15 s p95 drew under a 5 s axis, at 43%).
fn axis_top(max: f64) -> f64 {
    super::nice::at_or_above(max, &[1.0, 2.0, 2.5, 5.0])
}

/// The chart; `steps` name the x positions, `marked` is the step to highlight.
#[component]
pub fn LevelChart(steps: Vec<String>, series: Vec<Series>, marked: Option<usize>, testid: &'static str, title: UiPanelsKey) -> impl IntoView {
    let n = steps.len().max(1);
    let mut highest_ms: f64 = 0.0;
    for s in &series {
        for v in s.values_ms.iter().filter_map(|v| *v) {
            highest_ms = highest_ms.max(v);
        }
    }
    let top = axis_top(highest_ms);
    // Each step in the middle of its own slot, so the first and last labels are not cut at the edges.
    let x = move |i: usize| LEFT + (WIDTH - LEFT - RIGHT) * (i as f64 + 0.5) / n as f64;
    let y = move |v: f64| HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * (v / top).clamp(0.0, 1.0);
    let lines = series
        .iter()
        .map(|s| {
            let points: Vec<(f64, f64)> =
                s.values_ms.iter().enumerate().filter_map(|(i, v)| v.map(|v| (x(i), y(v)))).collect();
            let path = points.iter().map(|(px, py)| format!("{},{}", fixed(*px, 1), fixed(*py, 1))).collect::<Vec<_>>().join(" ");
            let dots = points
                .iter()
                .map(|(px, py)| view! { <circle cx=fixed(*px, 1) cy=fixed(*py, 1) r="3" class=s.class /> })
                .collect_view();
            view! {
                <polyline points=path class=format!("series {}", s.class) fill="none" />
                {dots}
            }
        })
        .collect_view();
    let x_labels = steps
        .iter()
        .enumerate()
        .map(|(i, label)| view! { <text x=fixed(x(i), 1) y=fixed(HEIGHT - 10.0, 1) text-anchor="middle">{label.clone()}</text> })
        .collect_view();
    let mark = marked.map(|i| {
        let px = fixed(x(i), 1);
        view! { <line x1=px.clone() x2=px y1=fixed(TOP, 1) y2=fixed(HEIGHT - BOTTOM, 1) class="knee-mark" /> }
    });
    let legend = series
        .iter()
        .map(|s| view! { <span class=format!("legend {}", s.class)>{word(s.name)}</span> })
        .collect_view();
    view! {
        <figure class="level-chart">
            <figcaption>{word(title)}" "{legend}</figcaption>
            <svg viewBox=format!("0 0 {} {}", fixed(WIDTH, 0), fixed(HEIGHT, 0)) data-testid=testid role="img" aria-label=word(title)>
                <line x1=fixed(LEFT, 1) x2=fixed(WIDTH - RIGHT, 1) y1=fixed(HEIGHT - BOTTOM, 1) y2=fixed(HEIGHT - BOTTOM, 1) class="axis" />
                <line x1=fixed(LEFT, 1) x2=fixed(LEFT, 1) y1=fixed(TOP, 1) y2=fixed(HEIGHT - BOTTOM, 1) class="axis" />
                <text x=fixed(LEFT - 6.0, 1) y=fixed(TOP + 4.0, 1) text-anchor="end">{streamscope_core::text::ms(top)}</text>
                <text x=fixed(LEFT - 6.0, 1) y=fixed(HEIGHT - BOTTOM, 1) text-anchor="end">"0"</text>
                {mark}
                {lines}
                {x_labels}
            </svg>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::axis_top;
    use wasm_bindgen_test::wasm_bindgen_test;

    // `#[wasm_bindgen_test]`, not `#[test]`: the page's tests run in the browser, where a plain `#[test]`
    // is never collected (this one was not, until the axis gained 2.5).
    #[wasm_bindgen_test]
    fn the_axis_ends_on_a_round_number() {
        assert_eq!(axis_top(730.0), 1000.0);
        assert_eq!(axis_top(1300.0), 2000.0);
        assert_eq!(axis_top(41.0), 50.0);
        assert_eq!(axis_top(2150.0), 2500.0);
        assert_eq!(axis_top(21.0), 25.0);
        assert_eq!(axis_top(20.0), 20.0);
        assert_eq!(axis_top(0.0), 1.0);
    }
}
