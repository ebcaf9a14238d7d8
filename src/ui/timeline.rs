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

/// Merges `(x_from, x_to)` spans, in time order, that overlap or lie within a unit of each other, into
/// `(x, width)` rectangles.
fn merge_touching(spans: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (from, to) in spans {
        match out.last_mut() {
            Some((x, w)) if from <= *x + *w + 1.0 => *w = (to - *x).max(*w),
            _ => out.push((from, to - from)),
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
    // closer than a triangle's width and spans that touch are drawn once: a long stream with thousands of
    // bursts still draws at most one shape per column.
    let mut burst_marks = String::new();
    let mut last_mark_x = f64::NEG_INFINITY;
    for &(_, to) in held {
        let x = scale.x(to);
        if x - last_mark_x >= 8.0 {
            burst_marks.push_str(&format!("M{x:.1},{:.1}l-4,-7h8z", READS_TOP - 1.0));
            last_mark_x = x;
        }
    }
    let held = merge_touching(held.iter().map(|&(from, to)| (scale.x(from), scale.x(to).max(scale.x(from) + 1.0))));
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
    let held = Signal::derive(move || session.report.with(|r| r.as_ref().map(held_spans).unwrap_or_default()));
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

/// Held spans of a report: the gap before each burst.
pub fn held_spans(report: &streamscope_core::report::Report) -> HeldSpans {
    report.delivery.bursts.iter().map(|b| (b.start_ms - b.gap_before_ms, b.start_ms)).collect()
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
    use super::tick_step_ms;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn held_spans_that_touch_are_drawn_once() {
        let spans = (0..10_000).map(|i| (i as f64 * 0.1, i as f64 * 0.1 + 0.05));
        let merged = super::merge_touching(spans);
        assert_eq!(merged.len(), 1, "{:?}", &merged[..merged.len().min(3)]);
        assert!((merged[0].1 - 999.95).abs() < 1e-6);
        let apart = [(0.0, 2.0), (10.0, 12.0)].into_iter();
        assert_eq!(super::merge_touching(apart), vec![(0.0, 2.0), (10.0, 2.0)]);
    }

    #[wasm_bindgen_test]
    fn tick_steps_are_nice() {
        assert_eq!(tick_step_ms(1300.0), 500.0);
        assert_eq!(tick_step_ms(60.0), 10.0);
        assert_eq!(tick_step_ms(100_000.0), 20_000.0);
    }
}
