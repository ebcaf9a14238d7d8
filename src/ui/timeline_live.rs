//! The timeline's strokes, drawn by a pen that remembers what it drew. While a run plays each refresh
//! appends the strokes of the bins that changed since the last one, on scales that hold until the stream
//! outgrows them ([`Scales::stepped`]: the time axis doubles with [`TimelineBins`], the token axis steps
//! 1, 2, 5 × 10^k, the read heights a power of two of bytes), so the browser paints only the new columns.
//! The finished chart is the same pen's drawing from nothing on the run's exact scales ([`Scales::exact`]).
//!
//! Why: the chart used to scale everything to the elapsed time and the count so far while the run
//! played, so every refresh moved every shape and the browser rasterised the whole chart four times a
//! second. With the chart in or near the view that took the raster threads 160-240 ms of CPU per 10 s at
//! 50 events/s against 50-90 ms with the chart hidden (BENCHMARKS.md, "The live timeline"): CPU taken
//! from the measuring worker on a machine with few cores.

use streamscope_core::i18n::keys::UiMetricsKey as K;
use streamscope_core::i18n::{Lang, Text};

use super::format;
use super::live_view::LiveView;
use super::nice;
use super::timeline::{
    tick_step_ms, Marks, EVENTS_BOTTOM, EVENTS_TOP, LEFT, READS_BOTTOM, READS_TOP, RIGHT, WIDTH,
};
use super::timeline_bins::{Bin, TimelineBins};
use super::timeline_svg::{append_markup, Layers};
use streamscope_core::fixed::fixed;

/// Pieces a group may hold before the drawing starts over in one piece per group: the shapes stay
/// bounded however long the stream plays (a redraw every this many refreshes, 16 s at four a second).
const MAX_PIECES: usize = 64;

/// A chart's scales. A live drawing keeps [`Scales::stepped`] until the stream outgrows one of them;
/// the finished chart is drawn on [`Scales::exact`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Scales {
    /// The time axis' span.
    span_ms: f64,
    /// The top of the token axis (0 when there are no tokens).
    count_top: usize,
    /// Reads of one byte less than this draw full height.
    read_bytes_top: usize,
}

impl Scales {
    /// Scales that hold while the stream plays: the bins' span, doubled until it holds the time elapsed
    /// (a wait for the first token shows as it grows, not on an axis that ends at the last byte); the token
    /// axis' top at 10, 20, 50, 100, ...; the read heights up to a power of two of bytes.
    pub(super) fn stepped(live: &LiveView) -> Scales {
        let bins = &live.timeline;
        let mut span_ms = bins.span_ms();
        while span_ms < live.elapsed_ms && span_ms.is_finite() {
            span_ms *= 2.0;
        }
        Scales {
            span_ms,
            count_top: count_top(bins.content_total.max(bins.reasoning_total)),
            read_bytes_top: (bins.max_read_bytes.saturating_add(1)).next_power_of_two().max(2),
        }
    }

    /// Scales exact to `span_ms` and to the counts and the largest read so far.
    pub(super) fn exact(live: &LiveView, span_ms: f64) -> Scales {
        let bins = &live.timeline;
        Scales {
            span_ms,
            count_top: bins.content_total.max(bins.reasoning_total),
            read_bytes_top: bins.max_read_bytes.max(1) + 1,
        }
    }

    /// The x of `at_ms` on the time axis, clamped to the plot.
    pub(super) fn x(&self, at_ms: f64) -> f64 {
        LEFT + (at_ms / self.span_ms).clamp(0.0, 1.0) * (WIDTH - LEFT - RIGHT)
    }

    fn count_y(&self, n: usize) -> f64 {
        EVENTS_BOTTOM - (n as f64 / self.count_top.max(1) as f64) * (EVENTS_BOTTOM - EVENTS_TOP)
    }

    fn read_height(&self, bytes: u32) -> f64 {
        ((f64::from(bytes) + 1.0).log2() / (self.read_bytes_top as f64).log2()).clamp(0.08, 1.0) * (READS_BOTTOM - READS_TOP)
    }
}

/// The token axis' top: the first of 10, 20, 50, 100, 200, 500, ... at or above `n`.
fn count_top(n: usize) -> usize {
    nice::at_or_above(n as f64, &[1.0, 2.0, 5.0]).max(10.0) as usize
}

/// How far one cumulative line (content or reasoning) has been drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct LinePen {
    /// Whether the line has its first point.
    started: bool,
    /// Events drawn so far.
    total: usize,
    /// Where the line ends (x).
    x: f64,
    /// Events drawn of the pen's bin (the last one drawn, which may still grow).
    in_bin: u32,
}

impl LinePen {
    /// Continues the step line over `bins[from..=to]` (`from` the bin drawn last, which may have grown):
    /// the same vertices the finished chart's line has at these scales, a bin's step drawn once more
    /// from where it stopped when it grew.
    fn extend(&mut self, scale: &Scales, bins: &TimelineBins, from: usize, to: usize, count: fn(&Bin) -> (u32, f64)) -> String {
        let mut path = String::new();
        for (i, bin) in bins.bins().iter().enumerate().take(to + 1).skip(from) {
            let (in_bin, first_ms) = count(bin);
            let new = if i == from { in_bin.saturating_sub(self.in_bin) } else { in_bin };
            if new == 0 {
                continue;
            }
            if path.is_empty() {
                if !self.started {
                    self.started = true;
                    self.x = scale.x(0.0);
                }
                path = format!("M{},{}", fixed(self.x, 1), fixed(scale.count_y(self.total), 1));
            }
            let x = scale.x(first_ms);
            if (x - self.x).abs() > 1e-9 {
                path.push_str(&format!(" L{},{}", fixed(x, 1), fixed(scale.count_y(self.total), 1)));
            }
            self.total += new as usize;
            self.x = x;
            path.push_str(&format!(" L{},{}", fixed(x, 1), fixed(scale.count_y(self.total), 1)));
        }
        self.in_bin = bins.bins().get(to).map_or(0, |b| count(b).0);
        path
    }
}

/// What the live drawing has put on the chart.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Pen {
    run_id: u64,
    scale: Option<Scales>,
    /// The last bin drawn (it may still grow).
    bin: usize,
    /// The height of that bin's read stroke.
    read_height: f64,
    content: LinePen,
    reasoning: LinePen,
    marks: Marks,
    /// The language the marks' labels are in.
    lang: Option<Lang>,
    /// Pieces appended since the last full drawing.
    pieces: usize,
}

/// What one refresh adds to the chart.
#[derive(Debug, Default)]
pub(super) struct Strokes {
    /// Everything drawn so far is to go first (the run or a scale changed, or the pieces reached
    /// [`MAX_PIECES`]): the strokes below are then the whole chart.
    redraw: bool,
    /// Read strokes (`M x,bottom v-h` each).
    reads: String,
    content: String,
    reasoning: String,
    /// The marks to draw (all of them) when they changed: label, class, x.
    marks: Option<Vec<(Text, &'static str, f64)>>,
    /// With a redraw: the time axis' ticks (x, label) and the token axis' top.
    ticks: Vec<(f64, String)>,
    count_top: usize,
}

impl Pen {
    /// The strokes that bring the chart from what this pen drew to `live` on `scale`, with `marks`
    /// labelled in `lang`. A pen that never drew draws it whole.
    pub(super) fn advance(&mut self, live: &LiveView, scale: Scales, marks: Marks, lang: Lang) -> Strokes {
        let redraw = self.run_id != live.run_id || self.scale != Some(scale) || self.pieces >= MAX_PIECES;
        let mut strokes = Strokes { redraw, ..Strokes::default() };
        if redraw {
            *self = Pen { run_id: live.run_id, scale: Some(scale), ..Pen::default() };
            let step = tick_step_ms(scale.span_ms);
            strokes.ticks = (0..)
                .map(|i| i as f64 * step)
                .take_while(|t| *t <= scale.span_ms)
                .map(|t| (scale.x(t), format::ms(Some(t))))
                .collect();
            strokes.count_top = scale.count_top;
        }
        let bins = &live.timeline;
        if let Some(last_ms) = live.last_read_ms {
            let (from, to) = (self.bin, bins.index_of(last_ms).max(self.bin));
            for (i, bin) in bins.bins().iter().enumerate().take(to + 1).skip(from).filter(|(_, b)| b.reads > 0) {
                let h = scale.read_height(bin.max_read_bytes);
                if i == from && h <= self.read_height {
                    continue;
                }
                strokes.reads.push_str(&format!("M{},{}v{}", fixed(scale.x(bin.first_read_ms), 1), fixed(READS_BOTTOM, 1), fixed(-h, 1)));
            }
            self.read_height = match bins.bins().get(to) {
                Some(bin) if bin.reads > 0 => scale.read_height(bin.max_read_bytes),
                _ => 0.0,
            };
            strokes.content = self.content.extend(&scale, bins, from, to, |b| (b.content, b.first_content_ms));
            strokes.reasoning = self.reasoning.extend(&scale, bins, from, to, |b| (b.reasoning, b.first_reasoning_ms));
            self.bin = to;
        }
        if redraw || marks != self.marks || self.lang != Some(lang) {
            (self.marks, self.lang) = (marks, Some(lang));
            strokes.marks = Some(mark_positions(marks, |at| scale.x(at)));
        }
        if !(strokes.reads.is_empty() && strokes.content.is_empty() && strokes.reasoning.is_empty()) {
            self.pieces += 1;
        }
        strokes
    }
}

impl Strokes {
    /// Puts these strokes on `layers`; `read_count` is the reads so far. `whole`: the finished chart's
    /// one shape per layer, with its class and test id (drawn even when empty); else the live chart's
    /// pieces, appended.
    pub(super) fn draw(self, layers: &Layers, read_count: usize, lang: Lang, whole: bool) {
        if self.redraw {
            for layer in [&layers.reads, &layers.content, &layers.reasoning] {
                layer.set_text_content(None);
            }
            layers.draw_ticks(&self.ticks);
            layers.set_count(&self.count_top.to_string());
        }
        let shapes = [
            (&layers.reads, &self.reads, r#"class="read-bars" data-testid="timeline-reads""#),
            (&layers.content, &self.content, r#"class="content-line" data-testid="timeline-content""#),
            (&layers.reasoning, &self.reasoning, r#"class="reasoning-line""#),
        ];
        for (i, (layer, d, attributes)) in shapes.into_iter().enumerate() {
            if whole {
                let count = if i == 0 { format!(r#" data-count="{read_count}""#) } else { String::new() };
                append_markup(layer, &format!(r#"<path {attributes}{count} d="{d}"></path>"#));
            } else if !d.is_empty() {
                append_markup(layer, &format!(r#"<path d="{d}"></path>"#));
            }
        }
        if !whole {
            let _ = layers.reads.set_attribute("data-count", &read_count.to_string());
        }
        if let Some(marks) = &self.marks {
            layers.draw_marks(marks, lang);
        }
    }
}

/// The marks known of `marks` as (label, class, x); a run that did not complete has a `mark-stop` where
/// it stopped, labelled with how.
fn mark_positions(marks: Marks, x: impl Fn(f64) -> f64) -> Vec<(Text, &'static str, f64)> {
    let (headers, ttfb, ttft, stop) = marks;
    let mut shown: Vec<_> =
        [(Text::msg(K::MarkHeaders), "mark-headers", headers), (Text::from("TTFB"), "mark-ttfb", ttfb), (Text::from("TTFT"), "mark-ttft", ttft)]
            .into_iter()
            .filter_map(|(label, class, at)| at.map(|at| (label, class, x(at))))
            .collect();
    if let Some((at, how)) = stop {
        shown.push((Text::msg(how), "mark-stop", x(at)));
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamscope_core::trace::ReadChunk;

    impl Pen {
        /// A live refresh, as the page draws it.
        fn advance_live(&mut self, live: &LiveView) -> Strokes {
            let marks = (live.headers_ms, live.figures.ttfb_ms, live.figures.ttft_ms, None);
            self.advance(live, Scales::stepped(live), marks, Lang::En)
        }
    }
    use wasm_bindgen_test::wasm_bindgen_test;

    /// The corners of the line that SVG paths of `M`/`L` commands draw, in order: a path that starts
    /// where the last one ended goes on from there, and points on one vertical run count once at each
    /// end (a step drawn in two refreshes is the same step).
    fn corners(paths: &[String]) -> Vec<(String, String)> {
        let mut points: Vec<(String, String)> = Vec::new();
        for path in paths {
            for (i, command) in path.split(' ').enumerate() {
                let (x, y) = command[1..].split_once(',').expect("x,y");
                let point = (x.to_string(), y.to_string());
                if i == 0 && points.last() == Some(&point) {
                    continue;
                }
                let n = points.len();
                if n >= 2 && points[n - 1].0 == point.0 && points[n - 2].0 == point.0 {
                    points[n - 1] = point;
                } else {
                    points.push(point);
                }
            }
        }
        points
    }

    fn live_with(reads: &[(f64, usize)], content_per_read: usize) -> LiveView {
        let mut live = LiveView::new(1);
        for &(at_ms, len) in reads {
            live.add_reads(&[ReadChunk::new(at_ms, vec![b'x'; len])]);
            for _ in 0..content_per_read {
                live.timeline.add_content(at_ms);
            }
        }
        live
    }

    #[wasm_bindgen_test]
    fn appended_pieces_draw_what_one_drawing_of_the_same_scale_draws() {
        // 30 reads 0.1 ms apart (bins of 0.25 ms: a bin may be drawn in two refreshes), drawn in refreshes
        // of 4 reads, on scales that hold: the same line and strokes as one drawing at the end.
        let reads: Vec<(f64, usize)> = (0..30).map(|i| (100.0 + i as f64 * 0.1, 60)).collect();
        let mut pen = Pen::default();
        let (mut content, mut stroke_count, mut redraws) = (Vec::new(), 0, 0);
        for n in (4..=reads.len()).step_by(4).chain([reads.len()]) {
            let strokes = pen.advance_live(&live_with(&reads[..n], 1));
            if strokes.redraw {
                redraws += 1;
                content.clear();
                stroke_count = 0;
            }
            stroke_count += strokes.reads.matches('M').count();
            if !strokes.content.is_empty() {
                content.push(strokes.content);
            }
        }
        assert!(content.len() >= 2, "pieces since the last redraw: {content:?}");
        let whole = Pen::default().advance_live(&live_with(&reads, 1));
        assert_eq!(corners(&content), corners(std::slice::from_ref(&whole.content)), "pieces {content:?} whole {:?}", whole.content);
        // A stroke is drawn again only when its bin's largest read grew: here never.
        assert_eq!(stroke_count, whole.reads.matches('M').count());
        assert!(redraws <= 3, "{redraws} redraws: the scales changed only as the counts crossed 10 and 20");
    }

    #[wasm_bindgen_test]
    fn a_run_that_did_not_complete_is_marked_where_it_stopped_and_how() {
        use super::super::timeline::report_marks;
        use streamscope_core::report::Report;
        use streamscope_core::trace::{Trace, TraceEnd};
        let content = "data: {\"choices\":[{\"delta\":{\"content\":\"w\"}}]}\n\n".to_string();
        let end = TraceEnd::NetworkError { at_ms: 504.0, message: "TypeError: network error".into(), during_body: true };
        let report = Report::from_trace(&Trace::from_reads(200, "text/event-stream", 3.0, vec![(300.0, content.clone())], end));
        let marks = report_marks(&report);
        assert_eq!(marks.3, Some((504.0, K::MarkNetworkError)));
        let shown = mark_positions(marks, |t| t);
        let stop = shown.iter().find(|m| m.1 == "mark-stop").expect("a stop mark");
        assert_eq!((stop.0.render(Lang::En).as_str(), stop.2), ("network error", 504.0));
        let timed_out = mark_positions((None, None, None, Some((2_000.0, K::MarkTimeout))), |t| t);
        assert_eq!(timed_out[0].0.render(Lang::En), "time-out");
        // A complete run has no stop mark.
        let done = Report::from_trace(&Trace::from_reads(200, "text/event-stream", 3.0, vec![(300.0, content)], TraceEnd::Complete { at_ms: 301.0 }));
        assert!(mark_positions(report_marks(&done), |t| t).iter().all(|m| m.1 != "mark-stop"));
    }

    #[wasm_bindgen_test]
    fn a_short_run_s_reads_and_steps_are_drawn_where_they_came_not_at_their_bin_s_start() {
        // An error answered in 4 ms: its one read at 3.9 ms is the first byte, so its stroke and the
        // line's step sit on the TTFB mark, not up to a bin earlier.
        let live = live_with(&[(3.9, 152)], 1);
        let scale = Scales::exact(&live, 4.6);
        let strokes = Pen::default().advance(&live, scale, (Some(3.0), Some(3.9), Some(3.9), None), Lang::En);
        let ttfb_x = format!("{:.1}", scale.x(3.9));
        assert!(strokes.reads.starts_with(&format!("M{ttfb_x},")), "{} against TTFB at {ttfb_x}", strokes.reads);
        // The line starts at the axis' left end, then steps up at 3.9 ms.
        let left_x = format!("{LEFT:.1}");
        let step_xs: Vec<String> = corners(std::slice::from_ref(&strokes.content)).into_iter().map(|(x, _)| x).filter(|x| *x != left_x).collect();
        assert_eq!(step_xs, [ttfb_x.clone(), ttfb_x], "{}", strokes.content);
    }

    #[wasm_bindgen_test]
    fn a_wait_for_the_first_token_grows_the_live_axis() {
        // Headers and the role chunk at once, then nothing yet: the axis holds the time elapsed, in steps.
        let mut live = live_with(&[(3.7, 120)], 0);
        let mut pen = Pen::default();
        let at_start = pen.advance_live(&live);
        assert!(at_start.redraw && at_start.ticks.last().is_some_and(|(_, label)| label == "15.0 ms"), "{:?}", at_start.ticks);
        live.elapsed_ms = 250.0;
        let waiting = pen.advance_live(&live);
        assert!(waiting.redraw && waiting.ticks.iter().any(|(_, label)| label == "250 ms"), "{:?}", waiting.ticks);
        assert!(waiting.ticks.last().is_some_and(|(x, _)| *x <= WIDTH - RIGHT), "{:?}", waiting.ticks);
        // The read is still drawn where it came, now near the axis' start.
        assert!(waiting.reads.starts_with(&format!("M{:.1},", Scales::stepped(&live).x(3.7))), "{}", waiting.reads);
        let same = pen.advance_live(&live);
        assert!(!same.redraw && same.reads.is_empty(), "{same:?}");
    }

    #[wasm_bindgen_test]
    fn a_refresh_with_nothing_new_draws_nothing_and_a_new_scale_draws_everything() {
        let reads: Vec<(f64, usize)> = (0..5).map(|i| (50.0 + i as f64 * 20.0, 100)).collect();
        let live = live_with(&reads, 1);
        let mut pen = Pen::default();
        let first = pen.advance_live(&live);
        assert!(first.redraw && !first.reads.is_empty() && !first.content.is_empty());
        assert_eq!(first.count_top, 10);
        let again = pen.advance_live(&live);
        assert!(!again.redraw && again.reads.is_empty() && again.content.is_empty() && again.marks.is_none(), "{again:?}");
        // Past the time axis' span (256 ms): the bins double, everything is drawn again on the new axis.
        let longer: Vec<(f64, usize)> = reads.iter().copied().chain([(300.0, 100)]).collect();
        let doubled = pen.advance_live(&live_with(&longer, 1));
        assert!(doubled.redraw && doubled.reads.matches('M').count() == 6, "{doubled:?}");
        assert!(doubled.ticks.iter().any(|(_, label)| label == "500 ms"), "{:?}", doubled.ticks);
        // A bin whose largest read grew gets a taller stroke over the old one.
        let mut bigger = live_with(&longer, 1);
        bigger.add_reads(&[ReadChunk::new(300.2, vec![b'x'; 4000])]);
        let taller = pen.advance_live(&bigger);
        assert!(taller.redraw, "the read heights' scale changed (4,000 B > 128)");
    }

    #[wasm_bindgen_test]
    fn the_pieces_stay_bounded_on_a_long_stream() {
        let mut live = LiveView::new(3);
        let mut pen = Pen::default();
        let mut most_pieces = 0;
        let mut held = 0;
        for refresh in 0..1000 {
            let at_ms = 1000.0 + refresh as f64;
            live.add_reads(&[ReadChunk::new(at_ms, vec![b'x'; 10])]);
            live.timeline.add_content(at_ms);
            let strokes = pen.advance_live(&live);
            assert!(!strokes.content.is_empty(), "refresh {refresh} adds its event");
            held = if strokes.redraw { 1 } else { held + 1 };
            most_pieces = most_pieces.max(held);
        }
        assert!(most_pieces <= MAX_PIECES, "{most_pieces} pieces held at once");
    }

    #[wasm_bindgen_test]
    fn token_axis_tops_step_one_two_five() {
        assert_eq!([0, 10, 11, 20, 21, 50, 51, 100, 101, 4999].map(count_top), [10, 10, 20, 20, 50, 50, 100, 100, 200, 5000]);
    }
}
