//! The timeline's SVG layers and one small renderer that both the finished chart and the live one use,
//! instead of a Leptos view per shape: the shapes change every refresh, so a view bought nothing but
//! compiled code (issue 13's size budget), and the live chart needs to append pieces to a layer, which a
//! view would draw again. Shapes go in as markup the page writes from numbers; words (row labels, the
//! marks' labels) only ever as text.

use streamscope_core::i18n::keys::UiMetricsKey as K;
use streamscope_core::i18n::{Lang, Text};

use super::timeline::{AXIS_Y, EVENTS_BOTTOM, READS_TOP, WIDTH};
use streamscope_core::fixed::fixed;

/// The chart's frame and empty layers, in drawing order: the two row labels, the axis, then held spans,
/// burst marks, ticks, reads, content, reasoning, the token axis' top and the marks. Numbers from the
/// layout constants of [`super::timeline`] (a test holds them equal).
const FRAME: &str = concat!(
    r#"<text x="4" y="64" class="row-label"></text><text x="4" y="140" class="row-label"></text>"#,
    r#"<line x1="78" x2="984" y1="190" y2="190" class="axis"></line><g></g><g></g><g></g>"#,
);
const FINISHED_LAYERS: &str = "<g></g><g></g><g></g>";
/// The live chart's pieces come one by one: their layers carry the classes and test ids that the
/// finished chart puts on its one shape per layer.
const LIVE_LAYERS: &str = concat!(
    r#"<g class="read-bars" data-testid="timeline-reads" data-count="0"></g>"#,
    r#"<g class="content-line" data-testid="timeline-content"></g><g class="reasoning-line"></g>"#,
);
const TOP_AND_MARKS: &str = r#"<text x="984" y="98" text-anchor="end" class="row-label"></text><g></g>"#;

/// Appends `markup` to `layer`. Only for markup this page writes from numbers (path data, positions,
/// durations): never for a word or anything a server or a file sent.
pub(super) fn append_markup(layer: &web_sys::Element, markup: &str) {
    let _ = layer.insert_adjacent_html("beforeend", markup);
}

/// The chart's layers inside one `<svg>`, in drawing order.
pub(super) struct Layers {
    row_labels: [web_sys::Element; 2],
    /// Held spans (`rect`s) and burst releases (a path).
    pub held: web_sys::Element,
    pub bursts: web_sys::Element,
    ticks: web_sys::Element,
    pub reads: web_sys::Element,
    pub content: web_sys::Element,
    pub reasoning: web_sys::Element,
    count: web_sys::Element,
    marks: web_sys::Element,
    lang: Option<Lang>,
}

impl Layers {
    /// Replaces what `svg` holds with the frame and empty layers (`live`: the live chart's, see
    /// [`LIVE_LAYERS`]).
    pub fn new(svg: &web_sys::Element, live: bool) -> Option<Layers> {
        let layers = if live { LIVE_LAYERS } else { FINISHED_LAYERS };
        svg.set_inner_html(&[FRAME, layers, TOP_AND_MARKS].concat());
        let mut next = svg.first_element_child();
        let mut take = move || {
            let el = next.take()?;
            next = el.next_element_sibling();
            Some(el)
        };
        let row_labels = [take()?, take()?];
        let _axis = take()?;
        Some(Layers {
            row_labels,
            held: take()?,
            bursts: take()?,
            ticks: take()?,
            reads: take()?,
            content: take()?,
            reasoning: take()?,
            count: take()?,
            marks: take()?,
            lang: None,
        })
    }

    /// Says the row labels in `lang` (once per language).
    pub fn say(&mut self, lang: Lang) {
        if self.lang != Some(lang) {
            self.lang = Some(lang);
            for (label, key) in self.row_labels.iter().zip([K::RowReads, K::RowTokens]) {
                label.set_text_content(Some(&Text::msg(key).render(lang)));
            }
        }
    }

    /// Draws the time axis' ticks `(x, label)`, replacing any.
    pub fn draw_ticks(&self, ticks: &[(f64, String)]) {
        let mut markup = String::new();
        for (x, label) in ticks {
            // The labels are durations this page wrote (`format::ms`): digits, a point, a space, "ms" or "s".
            markup.push_str(&format!(
                r#"<g class="tick"><line x1="{x}" x2="{x}" y1="{}" y2="{}"></line><text x="{x}" y="{}" text-anchor="middle">{label}</text></g>"#,
                fixed(AXIS_Y, 1),
                fixed(AXIS_Y + 4.0, 1),
                fixed(AXIS_Y + 16.0, 1),
                x = fixed(*x, 1)
            ));
        }
        self.ticks.set_inner_html(&markup);
    }

    /// Writes the token axis' top.
    pub fn set_count(&self, label: &str) {
        self.count.set_text_content(Some(label));
    }

    /// Draws the marks `(label, class, x)` (headers, TTFB, TTFT), replacing any; labels of marks close
    /// together go on separate lines, and a label with no room right of its mark (a collected answer's
    /// marks all sit at the end) goes left of it. The shapes are markup from numbers and the marks'
    /// classes; each label goes in as text.
    pub fn draw_marks(&self, marks: &[(Text, &'static str, f64)], lang: Lang) {
        let mut markup = String::new();
        for ((_, class, x), label_y) in marks.iter().zip(mark_label_ys(marks.iter().map(|m| m.2))) {
            let (label_x, anchor) = mark_label_x(*x);
            markup.push_str(&format!(
                r#"<g class="mark {class}" data-testid="timeline-{class}"><line x1="{x}" x2="{x}" y1="{}" y2="{}"></line><text x="{}" y="{}"{anchor}></text></g>"#,
                fixed(READS_TOP - 6.0, 1),
                fixed(EVENTS_BOTTOM, 1),
                fixed(label_x, 1),
                fixed(label_y, 1),
                x = fixed(*x, 1),
            ));
        }
        self.marks.set_inner_html(&markup);
        let mut mark = self.marks.first_element_child();
        for (label, _, _) in marks {
            let Some(g) = mark else { break };
            if let Some(text) = g.last_element_child() {
                text.set_text_content(Some(&label.render(lang)));
            }
            mark = g.next_element_sibling();
        }
    }
}

/// Where a mark's label starts or ends, and the attribute that says which: right of the mark (SVG's
/// default), or left of it where the label would run past the chart (a label is at most about 50 units
/// wide: "headers" in 11 px monospace).
fn mark_label_x(x: f64) -> (f64, &'static str) {
    if x + 56.0 > WIDTH {
        (x - 3.0, r#" text-anchor="end""#)
    } else {
        (x + 3.0, "")
    }
}

/// The y of each mark's label, the marks given by their x in order: labels of marks that sit close
/// together go on separate lines.
fn mark_label_ys(xs: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut last_label_x = f64::NEG_INFINITY;
    let mut line = 0;
    xs.map(|x| {
        line = if x - last_label_x < 60.0 { line + 1 } else { 0 };
        last_label_x = x;
        READS_TOP - 12.0 + line as f64 * 11.0
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::timeline::{EVENTS_TOP, LEFT, RIGHT, WIDTH};
    use leptos::prelude::document;
    use wasm_bindgen_test::wasm_bindgen_test;

    const SVG_NS: &str = "http://www.w3.org/2000/svg";

    #[wasm_bindgen_test]
    fn the_frame_is_drawn_where_the_layout_says() {
        let frame = [FRAME, TOP_AND_MARKS].concat();
        for (attribute, value) in [
            ("y", READS_TOP + 34.0),
            ("y", EVENTS_TOP + 40.0),
            ("x1", LEFT),
            ("x2", WIDTH - RIGHT),
            ("y1", AXIS_Y),
            ("x", WIDTH - RIGHT),
            ("y", EVENTS_TOP - 2.0),
        ] {
            assert!(frame.contains(&format!(r#"{attribute}="{value}""#)), "{attribute}={value} in {frame}");
        }
        let svg = document().create_element_ns(Some(SVG_NS), "svg").expect("an svg element");
        for live in [false, true] {
            let layers = Layers::new(&svg, live).expect("every layer");
            assert_eq!(layers.count.tag_name(), "text");
            assert_eq!(layers.marks.tag_name(), "g");
            assert_eq!(layers.reads.namespace_uri().as_deref(), Some(SVG_NS));
            assert_eq!(layers.reads.get_attribute("data-testid").is_some(), live);
            let marks = [(Text::from("TTFB"), "mark-ttfb", 100.0), (Text::from("TTFT"), "mark-ttft", 120.0)];
            layers.draw_marks(&marks, Lang::En);
            let ttft = layers.marks.last_element_child().expect("the TTFT mark");
            assert_eq!(ttft.get_attribute("data-testid").as_deref(), Some("timeline-mark-ttft"));
            assert_eq!(ttft.text_content().as_deref(), Some("TTFT"));
            assert_eq!(layers.marks.child_element_count(), 2);
        }
    }

    #[wasm_bindgen_test]
    fn a_label_goes_left_of_a_mark_at_the_chart_s_end() {
        let svg = document().create_element_ns(Some(SVG_NS), "svg").expect("an svg element");
        let layers = Layers::new(&svg, false).expect("every layer");
        let end = WIDTH - RIGHT;
        let marks = [(Text::from("headers"), "mark-headers", 100.0), (Text::from("TTFT"), "mark-ttft", end)];
        layers.draw_marks(&marks, Lang::En);
        let marks = [layers.marks.first_element_child(), layers.marks.last_element_child()];
        let labels: Vec<(Option<String>, Option<String>)> = marks
            .into_iter()
            .map(|g| g.and_then(|g| g.last_element_child()).expect("a mark's label"))
            .map(|text| (text.get_attribute("x"), text.get_attribute("text-anchor")))
            .collect();
        assert_eq!(labels[0], (Some("103.0".into()), None));
        assert_eq!(labels[1], (Some(format!("{:.1}", end - 3.0)), Some("end".into())));
    }
}
