//! The timeline (SVG): reads as strokes sized by their bytes (log scale), content events as a cumulative
//! step line, and headers / TTFB / TTFT (and where a run that did not complete stopped) marked on one
//! time axis. A lump at the end or tall steps mean held content. It draws from
//! [`super::timeline_bins`], so the number of shapes is bounded by the bins (about one per pixel
//! column), whatever the stream's length; while a run plays it appends what is new
//! ([`super::timeline_live`]), through the DOM renderer of [`super::timeline_svg`].

use leptos::prelude::*;
use super::erased::effect;
use leptos::svg::Svg;
use streamscope_core::i18n::keys::UiMetricsKey as K;
use streamscope_core::i18n::Lang;
use streamscope_core::report::Report;
use streamscope_core::trace::TraceEnd;
use wasm_bindgen::JsCast;

use super::lang::{use_lang, word};
use super::live_view::LiveView;
use super::nice;
use super::session::Session;
use super::timeline_live::{Pen, Scales, Strokes};
use super::timeline_svg::{append_markup, Layers};
use streamscope_core::fixed::fixed;

pub(super) const WIDTH: f64 = 1000.0;
pub(super) const LEFT: f64 = 78.0;
pub(super) const RIGHT: f64 = 16.0;
pub(super) const READS_TOP: f64 = 30.0;
pub(super) const READS_BOTTOM: f64 = 84.0;
pub(super) const EVENTS_TOP: f64 = 100.0;
pub(super) const EVENTS_BOTTOM: f64 = 176.0;
pub(super) const AXIS_Y: f64 = 190.0;
pub(super) const HEIGHT: f64 = 214.0;

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about six ticks over `span_ms`.
pub(super) fn tick_step_ms(span_ms: f64) -> f64 {
    nice::at_or_above((span_ms / 6.0).max(1e-3), &[1.0, 2.0, 5.0])
}

/// Everything the finished chart draws, derived from the live view and the report's marks.
struct Plot {
    /// Reads, the token lines, the ticks and the marks, drawn whole on the run's exact scales.
    strokes: Strokes,
    read_count: usize,
    /// Held spans as `(x, width)`.
    held: Vec<(f64, f64)>,
    /// Triangles where bursts were released, as one path.
    burst_marks: String,
}

/// The held spans `(x_from, x_to)` as `(x, width)` rectangles of their true width, at most one per unit
/// column of the plot, however many spans there are. Within a column the shaded width is the span time
/// it holds (its area is exact); a column holding one piece shows it where it lies, a column of several
/// pieces shows them as one, against the edge a piece touches. Rectangles that meet are drawn as one.
/// No span is widened to stay visible: the release marks show where a short hold ended (regression:
/// every burst drawn at least a unit wide shaded 14% of a fast stream's chart for 4% of its time held).
fn held_rects(spans: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    // Per column: the width held, and the leftmost start and rightmost end of the pieces in it.
    let mut columns: Vec<(f64, f64, f64)> = Vec::new();
    let first_column = LEFT.floor() as usize;
    for (from, to) in spans {
        if from.is_nan() || to.is_nan() {
            continue;
        }
        let (from, to) = (from.max(LEFT), to.min(WIDTH - RIGHT));
        if to <= from {
            continue;
        }
        for column in from.floor() as usize..to.ceil() as usize {
            let index = column - first_column;
            if columns.len() <= index {
                columns.resize(index + 1, (0.0, f64::INFINITY, f64::NEG_INFINITY));
            }
            let (left, right) = (from.max(column as f64), to.min(column as f64 + 1.0));
            let (held, lo, hi) = &mut columns[index];
            *held = (*held + right - left).min(1.0);
            *lo = lo.min(left);
            *hi = hi.max(right);
        }
    }
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (index, &(held, lo, hi)) in columns.iter().enumerate() {
        if held <= 0.0 {
            continue;
        }
        let column = (first_column + index) as f64;
        let pieces_apart = hi - lo > held;
        let x = if pieces_apart && lo > column && hi >= column + 1.0 { hi - held } else { lo };
        match out.last_mut() {
            Some((at, width)) if (*at + *width - x).abs() < 1e-9 => *width += held,
            _ => out.push((x, held)),
        }
    }
    out
}

/// Headers, TTFB and TTFT times to mark, and when a run that did not complete stopped with the word
/// for how (a network error, a time-out, a cancel).
pub type Marks = (Option<f64>, Option<f64>, Option<f64>, Option<(f64, K)>);

/// The marks of a finished run, from its report.
pub fn report_marks(r: &Report) -> Marks {
    let stop = match &r.end {
        Some(TraceEnd::NetworkError { at_ms, .. }) => Some((*at_ms, K::MarkNetworkError)),
        Some(TraceEnd::Timeout { at_ms, .. }) => Some((*at_ms, K::MarkTimeout)),
        Some(TraceEnd::Cancelled { at_ms }) => Some((*at_ms, K::MarkCancelled)),
        Some(TraceEnd::Complete { .. }) | None => None,
    };
    (r.headers_ms, r.ttfb_ms, r.ttft_ms, stop)
}

/// Spans where content was held (from the gap before a burst to the burst), ms.
pub type HeldSpans = Vec<(f64, f64)>;

fn plot(live: &LiveView, marks: Marks, span_override_ms: Option<f64>, held: &[(f64, f64)], lang: Lang) -> Plot {
    let last = live.last_read_ms.unwrap_or(0.0);
    let span_ms = span_override_ms.unwrap_or_else(|| live.elapsed_ms.max(last).max(1.0) * 1.02);
    let scale = Scales::exact(live, span_ms);
    let strokes = Pen::default().advance(live, scale, marks, lang);
    // A burst is released where its held span ends: mark it with a small triangle above the reads. Marks
    // closer than a triangle's width are drawn once, and held spans at most one per column: a long stream
    // with thousands of bursts still draws a bounded number of shapes.
    let mut burst_marks = String::new();
    let mut last_mark_x = f64::NEG_INFINITY;
    for &(_, to) in held {
        let x = scale.x(to);
        if x - last_mark_x >= 8.0 {
            burst_marks.push_str(&format!("M{},{}l-4,-7h8z", fixed(x, 1), fixed(READS_TOP - 1.0, 1)));
            last_mark_x = x;
        }
    }
    let held = held_rects(held.iter().map(|&(from, to)| (scale.x(from), scale.x(to))));
    Plot { strokes, read_count: live.timeline.read_total, held, burst_marks }
}

/// The timeline of the run in progress (or the last one), with held spans from the report.
#[component]
pub fn Timeline(session: Session) -> impl IntoView {
    let live = session.live.into();
    let marks = Signal::derive(move || {
        session.report.with(|r| match r {
            Some(r) => report_marks(r),
            None => session.live.with(|l| (l.headers_ms, l.figures.ttfb_ms, l.figures.ttft_ms, None)),
        })
    });
    let held = Signal::derive(move || session.report.with(|r| r.as_ref().map(|r| r.held_spans_ms()).unwrap_or_default()));
    // While a run plays (no report yet) the chart is drawn as the stream arrives; the finished one,
    // exact to the run's span, replaces it once the report is there.
    let playing = Signal::derive(move || session.report.with(Option::is_none));
    view! {
        <section class="card timeline" aria-label=word(K::Timeline)>
            <h2>{word(K::Timeline)}</h2>
            <TimelineChart live=live marks=marks held=held span_ms=Signal::derive(|| None) playing=playing testid="timeline" />
            <p class="legend">
                // A swatch and its words in one item, so that a narrow window never wraps between them.
                <span><span class="key key-read"></span>{word(K::LegendRead)}</span>
                <span><span class="key key-content"></span>{word(K::LegendContent)}</span>
                <span><span class="key key-reasoning"></span>{word(K::LegendReasoning)}</span>
                <span><span class="key key-held"></span>{word(K::LegendHeld)}</span>
            </p>
        </section>
    }
}

/// What one chart has drawn: its layers, and for a live drawing how far it went.
struct Drawn {
    layers: Layers,
    playing: bool,
    pen: Pen,
}

/// One SVG timeline; `span_ms` fixes the time axis (to draw several runs on one axis). While `playing`
/// it is drawn as the stream arrives ([`super::timeline_live`]), else whole, exact to its span.
#[component]
pub fn TimelineChart(
    live: Signal<LiveView>,
    marks: Signal<Marks>,
    held: Signal<HeldSpans>,
    span_ms: Signal<Option<f64>>,
    #[prop(optional)] playing: Option<Signal<bool>>,
    testid: &'static str,
) -> impl IntoView {
    let svg = NodeRef::<Svg>::new();
    let drawn = StoredValue::new_local(None::<Drawn>);
    effect(move || {
        let Some(svg) = svg.get() else { return };
        let (lang, playing) = (use_lang(), playing.is_some_and(|p| p.get()));
        drawn.update_value(|drawn| {
            if drawn.as_ref().is_none_or(|d| d.playing != playing) {
                *drawn = Layers::new(svg.unchecked_ref(), playing).map(|layers| Drawn { layers, playing, pen: Pen::default() });
            }
            let Some(Drawn { layers, pen, .. }) = drawn else { return };
            layers.say(lang);
            if playing {
                live.with(|l| pen.advance(l, Scales::stepped(l), marks.get(), lang).draw(layers, l.timeline.read_total, lang, false));
            } else {
                draw(layers, live.with(|l| held.with(|h| plot(l, marks.get(), span_ms.get(), h, lang))), lang);
            }
        });
    });
    view! {
        <svg
            node_ref=svg
            class="timeline-chart"
            data-testid=testid
            viewBox=format!("0 0 {} {}", fixed(WIDTH, 0), fixed(HEIGHT, 0))
            preserveAspectRatio="none"
            role="img"
            aria-label=word(K::TimelineChart)
        ></svg>
    }
}

/// Draws `p` on `layers`, replacing what was there: one shape per layer, the held spans one `rect` each.
fn draw(layers: &Layers, p: Plot, lang: Lang) {
    for layer in [&layers.held, &layers.bursts] {
        layer.set_text_content(None);
    }
    let mut rects = String::new();
    for (x, w) in &p.held {
        rects.push_str(&format!(
            r#"<rect class="held" data-testid="timeline-held" x="{}" y="{}" width="{}" height="{}"></rect>"#,
            fixed(*x, 3),
            fixed(READS_TOP, 1),
            fixed(*w, 3),
            fixed(EVENTS_BOTTOM - READS_TOP, 1)
        ));
    }
    append_markup(&layers.held, &rects);
    append_markup(&layers.bursts, &format!(r#"<path class="burst-marks" data-testid="timeline-bursts" d="{}"></path>"#, p.burst_marks));
    p.strokes.draw(layers, p.read_count, lang, true);
}

#[cfg(test)]
mod tests {
    use super::{held_rects, tick_step_ms, LEFT};
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn held_spans_are_drawn_at_their_true_width_at_most_one_per_column() {
        // Ten thousand holds of 0.04 every 0.08 units: half the time held, drawn as half, in one shape per
        // column at most.
        let spans = (0..10_000).map(|i| (LEFT + i as f64 * 0.08, LEFT + i as f64 * 0.08 + 0.04));
        let rects = held_rects(spans);
        assert!(rects.len() <= 801, "{} shapes", rects.len());
        let shaded: f64 = rects.iter().map(|r| r.1).sum();
        assert!((shaded - 400.0).abs() < 1e-6, "{shaded} units shaded for 400 held");
        // Apart, they keep their place and width; ones that meet are one, across columns.
        let apart = [(100.0, 102.0), (110.2, 110.5), (120.5, 123.25), (123.25, 124.0)].into_iter();
        let rects = held_rects(apart);
        let expected = [(100.0, 2.0), (110.2, 0.3), (120.5, 3.5)];
        assert_eq!(rects.len(), expected.len(), "{rects:?}");
        for ((x, w), (x0, w0)) in rects.iter().zip(expected) {
            assert!((x - x0).abs() < 1e-9 && (w - w0).abs() < 1e-9, "{rects:?}");
        }
        // A short hold is not widened, nor one outside the plot drawn.
        assert_eq!(held_rects([(300.0, 300.1), (0.0, 10.0), (5.0, 3.0), (f64::NAN, 400.0)].into_iter()).len(), 1);
        assert!((held_rects([(300.0, 300.1)].into_iter())[0].1 - 0.1).abs() < 1e-9);
    }

    #[wasm_bindgen_test]
    fn tick_steps_are_nice() {
        assert_eq!(tick_step_ms(1300.0), 500.0);
        assert_eq!(tick_step_ms(60.0), 10.0);
        assert_eq!(tick_step_ms(100_000.0), 20_000.0);
    }
}
