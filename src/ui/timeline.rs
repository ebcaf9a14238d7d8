//! The timeline (SVG): reads as strokes sized by their bytes (log scale), content events as a cumulative
//! step line, and headers / TTFB / TTFT marked on one time axis. A lump at the end or tall steps mean held
//! content. It draws from [`super::timeline_bins`], so the number of shapes is bounded by the bins (about
//! one per pixel column), whatever the stream's length.

use leptos::prelude::*;
use streamscope_core::i18n::keys::UiMetricsKey as K;
use streamscope_core::i18n::Text;

use super::format;
use super::lang::{use_lang, word};
use super::live_view::LiveView;
use super::session::Session;
use super::timeline_bins::{Bin, TimelineBins};

const WIDTH: f64 = 1000.0;
const LEFT: f64 = 78.0;
const RIGHT: f64 = 16.0;
const READS_TOP: f64 = 30.0;
const READS_BOTTOM: f64 = 84.0;
const EVENTS_TOP: f64 = 100.0;
const EVENTS_BOTTOM: f64 = 176.0;
const AXIS_Y: f64 = 190.0;
const HEIGHT: f64 = 214.0;

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about six ticks over `span_ms`.
fn tick_step_ms(span_ms: f64) -> f64 {
    let raw = (span_ms / 6.0).max(1e-3);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(10.0 * power)
}

struct Scale {
    span_ms: f64,
}

impl Scale {
    fn x(&self, at_ms: f64) -> f64 {
        LEFT + (at_ms / self.span_ms).clamp(0.0, 1.0) * (WIDTH - LEFT - RIGHT)
    }
}

/// Everything the SVG needs, derived from the live view and, once there, the report's marks.
struct Plot {
    /// One vertical stroke per bin with reads, as a single path (one DOM update per frame).
    reads_path: String,
    read_count: usize,
    /// Held spans as `(x, width)`.
    held: Vec<(f64, f64)>,
    /// Triangles where bursts were released, as one path.
    burst_marks: String,
    content_path: String,
    reasoning_path: String,
    /// Label (a word, or a metric's name said alike in every language), class, x.
    marks: Vec<(Text, &'static str, f64)>,
    ticks: Vec<(f64, String)>,
    max_count: usize,
}

/// The cumulative count of `count(bin)` as a step line over the bins.
fn step_path(scale: &Scale, bins: &TimelineBins, count: impl Fn(&Bin) -> u32, max_count: usize) -> String {
    let y = |n: usize| EVENTS_BOTTOM - (n as f64 / max_count.max(1) as f64) * (EVENTS_BOTTOM - EVENTS_TOP);
    let mut path = String::new();
    let mut total = 0usize;
    for (i, bin) in bins.bins().iter().enumerate() {
        let n = count(bin) as usize;
        if n == 0 {
            continue;
        }
        if path.is_empty() {
            path = format!("M{:.1},{:.1}", scale.x(0.0), y(0));
        }
        let x = scale.x(i as f64 * bins.bin_ms());
        path.push_str(&format!(" L{x:.1},{:.1} L{x:.1},{:.1}", y(total), y(total + n)));
        total += n;
    }
    path
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

/// Headers, TTFB and TTFT times to mark.
pub type Marks = (Option<f64>, Option<f64>, Option<f64>);

/// Spans where content was held (from the gap before a burst to the burst), ms.
pub type HeldSpans = Vec<(f64, f64)>;

fn plot(live: &LiveView, marks: Marks, span_override_ms: Option<f64>, held: &[(f64, f64)]) -> Plot {
    let last = live.last_read_ms.unwrap_or(0.0);
    let span_ms = span_override_ms.unwrap_or_else(|| live.elapsed_ms.max(last).max(1.0) * 1.02);
    let scale = Scale { span_ms };
    let bins = &live.timeline;
    let max_len = bins.max_read_bytes.max(1) as f64;
    let mut reads_path = String::with_capacity(64 * 20);
    for (i, bin) in bins.bins().iter().enumerate().filter(|(_, b)| b.reads > 0) {
        let len = bin.max_read_bytes as f64;
        let h = ((len + 1.0).log2() / (max_len + 1.0).log2()).max(0.08) * (READS_BOTTOM - READS_TOP);
        reads_path.push_str(&format!("M{:.1},{READS_BOTTOM:.1}v{:.1}", scale.x(i as f64 * bins.bin_ms()), -h));
    }
    let max_count = bins.content_total.max(bins.reasoning_total);
    let step = tick_step_ms(span_ms);
    let ticks = (0..)
        .map(|i| i as f64 * step)
        .take_while(|t| *t <= span_ms)
        .map(|t| (scale.x(t), format::ms(Some(t))))
        .collect();
    let (headers, ttfb, ttft) = marks;
    let marks = [(Text::msg(K::MarkHeaders), "mark-headers", headers), (Text::from("TTFB"), "mark-ttfb", ttfb), (Text::from("TTFT"), "mark-ttft", ttft)]
        .into_iter()
        .filter_map(|(label, class, at)| at.map(|at| (label, class, scale.x(at))))
        .collect();
    // A burst is released where its held span ends: mark it with a small triangle above the reads. Marks
    // closer than a triangle's width are drawn once, and held spans at most one per column: a long stream
    // with thousands of bursts still draws a bounded number of shapes.
    let mut burst_marks = String::new();
    let mut last_mark_x = f64::NEG_INFINITY;
    for &(_, to) in held {
        let x = scale.x(to);
        if x - last_mark_x >= 8.0 {
            burst_marks.push_str(&format!("M{x:.1},{:.1}l-4,-7h8z", READS_TOP - 1.0));
            last_mark_x = x;
        }
    }
    let held = held_rects(held.iter().map(|&(from, to)| (scale.x(from), scale.x(to))));
    Plot {
        held,
        burst_marks,
        content_path: step_path(&scale, bins, |b| b.content, max_count),
        reasoning_path: step_path(&scale, bins, |b| b.reasoning, max_count),
        reads_path,
        read_count: bins.read_total,
        marks,
        ticks,
        max_count,
    }
}

/// The timeline of the run in progress (or the last one), with held spans from the report.
#[component]
pub fn Timeline(session: Session) -> impl IntoView {
    let live = session.live.into();
    let marks = Signal::derive(move || {
        session.report.with(|r| match r {
            Some(r) => (r.headers_ms, r.ttfb_ms, r.ttft_ms),
            None => session.live.with(|l| (l.headers_ms, l.figures.ttfb_ms, l.figures.ttft_ms)),
        })
    });
    let held = Signal::derive(move || session.report.with(|r| r.as_ref().map(|r| r.held_spans_ms()).unwrap_or_default()));
    view! {
        <section class="card timeline" aria-label=word(K::Timeline)>
            <h2>{word(K::Timeline)}</h2>
            <TimelineChart live=live marks=marks held=held span_ms=Signal::derive(|| None) testid="timeline" />
            <p class="legend">
                <span class="key key-read"></span>{word(K::LegendRead)}
                <span class="key key-content"></span>{word(K::LegendContent)}
                <span class="key key-reasoning"></span>{word(K::LegendReasoning)}
                <span class="key key-held"></span>{word(K::LegendHeld)}
            </p>
        </section>
    }
}

/// One SVG timeline; `span_ms` fixes the time axis (to draw several runs on one axis).
#[component]
pub fn TimelineChart(
    live: Signal<LiveView>,
    marks: Signal<Marks>,
    held: Signal<HeldSpans>,
    span_ms: Signal<Option<f64>>,
    testid: &'static str,
) -> impl IntoView {
    let plot = Signal::derive(move || live.with(|l| held.with(|h| plot(l, marks.get(), span_ms.get(), h))));
    view! {
            <svg
                class="timeline-chart"
                data-testid=testid
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                preserveAspectRatio="none"
                role="img"
                aria-label=word(K::TimelineChart)
            >
                <text x="4" y=(READS_TOP + 34.0).to_string() class="row-label">{word(K::RowReads)}</text>
                <text x="4" y=(EVENTS_TOP + 40.0).to_string() class="row-label">{word(K::RowTokens)}</text>
                <line x1=LEFT.to_string() x2=(WIDTH - RIGHT).to_string() y1=AXIS_Y.to_string() y2=AXIS_Y.to_string() class="axis" />
                {move || plot.with(|p| {
                    let lang = use_lang();
                    let ticks = p.ticks.iter().map(|(x, label)| view! {
                        <g class="tick">
                            <line x1=x.to_string() x2=x.to_string() y1=AXIS_Y.to_string() y2=(AXIS_Y + 4.0).to_string() />
                            <text x=x.to_string() y=(AXIS_Y + 16.0).to_string() text-anchor="middle">{label.clone()}</text>
                        </g>
                    }).collect_view();
                    // Labels of marks that sit close together go on separate lines.
                    let mut last_label_x = f64::NEG_INFINITY;
                    let mut line = 0;
                    let marks = p.marks.iter().map(|(label, class, x)| {
                        line = if x - last_label_x < 60.0 { line + 1 } else { 0 };
                        last_label_x = *x;
                        let label_y = READS_TOP - 12.0 + line as f64 * 11.0;
                        view! {
                            <g class=format!("mark {class}") data-testid=format!("timeline-{class}")>
                                <line x1=x.to_string() x2=x.to_string() y1=(READS_TOP - 6.0).to_string() y2=EVENTS_BOTTOM.to_string() />
                                <text x=(x + 3.0).to_string() y=label_y.to_string()>{label.render(lang)}</text>
                            </g>
                        }
                    }).collect_view();
                    let count_label = format!("{}", p.max_count);
                    let held = p.held.iter().map(|(x, w)| view! {
                        <rect class="held" data-testid="timeline-held" x=x.to_string() y=READS_TOP.to_string() width=w.to_string() height=(EVENTS_BOTTOM - READS_TOP).to_string() />
                    }).collect_view();
                    view! {
                        {held}
                        <path class="burst-marks" data-testid="timeline-bursts" d=p.burst_marks.clone() />
                        {ticks}
                        <path class="read-bars" data-testid="timeline-reads" data-count=p.read_count.to_string() d=p.reads_path.clone() />
                        <path class="content-line" data-testid="timeline-content" d=p.content_path.clone() />
                        <path class="reasoning-line" d=p.reasoning_path.clone() />
                        <text x=(WIDTH - RIGHT).to_string() y=(EVENTS_TOP - 2.0).to_string() text-anchor="end" class="row-label">{count_label}</text>
                        {marks}
                    }
                })}
            </svg>
    }
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
