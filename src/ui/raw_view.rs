//! The raw stream, read by read with arrival times: `curl -N`, with a clock. Only a window of
//! [`ROWS_PER_PAGE`] rows is ever in the DOM, and none while the section is closed: the newest rows by
//! default (following the stream), older ones a page at a time on demand.
//!
//! The rows are written to the DOM by [`DrawnRows`], not by a keyed `<For>`: following the stream, a
//! refresh appends the new reads' rows and drops as many of the oldest, so its work is what is new; and
//! the keyed list's diffing cost the page more wasm than these few DOM calls.

use leptos::prelude::*;
use super::erased::effect;
use streamscope_core::i18n::keys::UiMetricsKey as K;
use streamscope_core::i18n::Text;

use super::format;
use super::lang::{say, use_lang, word};
use streamscope_core::i18n::Lang;
use super::live_view::RawRow;
use super::session::Session;
use streamscope_core::fixed::fixed;

/// Rows shown at once.
pub const ROWS_PER_PAGE: usize = 200;

/// One row per `reader.read()`, windowed.
#[component]
pub fn RawView(session: Session) -> impl IntoView {
    let count = move || session.raw_rows.with(|r| r.len());
    let open = RwSignal::new(false);
    // `None` follows the newest rows; `Some(start)` holds a window still.
    let start = RwSignal::new(None::<usize>);
    let window = move || {
        let len = count();
        let first = start.get().unwrap_or(len.saturating_sub(ROWS_PER_PAGE)).min(len.saturating_sub(1));
        (first, (first + ROWS_PER_PAGE).min(len))
    };
    let rows_el = NodeRef::<leptos::html::Div>::new();
    let drawn = StoredValue::new_local(DrawnRows::default());
    effect(move || {
        let Some(el) = rows_el.get() else { return };
        let lang = use_lang();
        if open.get() {
            let (from, to) = window();
            session.raw_rows.with(|rows| drawn.update_value(|d| d.draw(&el, rows, from, to, lang)));
        } else {
            drawn.update_value(|d| d.draw(&el, &[], 0, 0, lang));
        }
    });
    let shown = move || {
        let (from, to) = window();
        if to == 0 { say(K::RawWindowNone) } else { format!("{}–{}", from + 1, to) }
    };
    let page = move |delta: isize| {
        let (from, _) = window();
        let len = count();
        let next = (from as isize + delta * ROWS_PER_PAGE as isize).clamp(0, len.saturating_sub(ROWS_PER_PAGE) as isize) as usize;
        start.set(if next + ROWS_PER_PAGE >= len { None } else { Some(next) });
    };
    view! {
        <section class="card raw" aria-label=word(K::RawSection)>
            <details on:toggle=move |ev| {
                let el: web_sys::HtmlDetailsElement = wasm_bindgen::JsCast::unchecked_into(event_target::<web_sys::HtmlElement>(&ev));
                open.set(el.open());
            }>
                <summary data-testid="raw-toggle">{word(K::RawSummaryHead)}<span data-testid="raw-count">{count}</span>{word(K::RawSummaryTail)}</summary>
                <div class="raw-pager">
                    <button data-testid="raw-first" on:click=move |_| start.set(Some(0))>{word(K::RawFirst)}</button>
                    <button data-testid="raw-older" on:click=move |_| page(-1)>{word(K::RawOlder)}</button>
                    <span data-testid="raw-window">{shown}</span>
                    <button data-testid="raw-newer" on:click=move |_| page(1)>{word(K::RawNewer)}</button>
                    <button data-testid="raw-latest" on:click=move |_| start.set(None)>{word(K::RawLatest)}</button>
                </div>
                <div class="raw-rows" data-testid="raw-view" node_ref=rows_el></div>
            </details>
        </section>
    }
}

/// The rows in the DOM: rows `from..to` of the run's, `last` the newest of them as drawn, in `lang`.
#[derive(Default)]
struct DrawnRows {
    from: usize,
    to: usize,
    last: Option<RawRow>,
    lang: Option<Lang>,
}

impl DrawnRows {
    /// Makes `el` show `rows[from..to]`. When the window only moved forward over the same run's rows in
    /// the same language (the view following the stream), it drops the rows that left and appends the
    /// new ones; otherwise it draws the window again.
    fn draw(&mut self, el: &web_sys::Element, rows: &[RawRow], from: usize, to: usize, lang: Lang) {
        let to = to.min(rows.len());
        let from = from.min(to);
        if from == to && self.from == self.to {
            return;
        }
        let same_rows = self.lang == Some(lang) && self.to > 0 && rows.get(self.to - 1) == self.last.as_ref();
        let (mut first_new, mut to_drop) = (from, 0);
        if same_rows && self.from <= from && from < self.to && self.to <= to {
            (first_new, to_drop) = (self.to, from - self.from);
        } else {
            el.set_text_content(None);
        }
        for _ in 0..to_drop {
            if let Some(oldest) = el.first_element_child() {
                oldest.remove();
            }
        }
        for row in &rows[first_new..to] {
            if let Some(row) = row_element(row, lang) {
                let _ = el.append_child(&row);
            }
        }
        *self = DrawnRows { from, to, last: to.checked_sub(1).map(|i| rows[i].clone()), lang: Some(lang) };
    }
}

/// One read's row: when it came, its size, and its bytes as text (set as text, never as markup: they
/// are the server's).
fn row_element(row: &RawRow, lang: Lang) -> Option<web_sys::Element> {
    let line = document().create_element("div").ok()?;
    line.set_class_name("raw-row");
    line.set_attribute("data-testid", "raw-row").ok()?;
    let mut bytes = row.preview.to_string();
    if row.hidden_bytes > 0 {
        bytes.push_str(&Text::msg(K::RawMoreNotShown).with("size", format::bytes(row.hidden_bytes)).render(lang));
    }
    for (tag, class, text) in [
        ("span", "raw-at", format!("+{:>9} ms", fixed(row.at_ms, 1))),
        ("span", "raw-len", format::bytes(row.len_bytes)),
        ("pre", "raw-bytes", bytes),
    ] {
        let part = document().create_element(tag).ok()?;
        part.set_class_name(class);
        part.set_text_content(Some(&text));
        line.append_child(&part).ok()?;
    }
    Some(line)
}
