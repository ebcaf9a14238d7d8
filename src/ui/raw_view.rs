//! The raw stream, read by read with arrival times: `curl -N`, with a clock. Only a window of
//! [`ROWS_PER_PAGE`] rows is ever in the DOM, and none while the section is closed: the newest rows by
//! default (following the stream), older ones a page at a time on demand.

use leptos::prelude::*;
use streamscope_core::i18n::keys::UiMetricsKey as K;
use streamscope_core::i18n::Text;

use super::format;
use super::lang::{say, use_lang, word};
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
    let rows = move || {
        if !open.get() {
            return Vec::new();
        }
        let (from, to) = window();
        session.raw_rows.with(|r| r.get(from..to).map(<[RawRow]>::to_vec).unwrap_or_default())
    };
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
                <div class="raw-rows" data-testid="raw-view">
                    <For
                        each=rows
                        key=|row: &RawRow| row.index
                        children=move |row: RawRow| view! {
                            <div class="raw-row" data-testid="raw-row">
                                <span class="raw-at">{format!("+{:>9} ms", fixed(row.at_ms, 1))}</span>
                                <span class="raw-len">{format::bytes(row.len_bytes)}</span>
                                <pre class="raw-bytes">{row.preview.to_string()}{(row.hidden_bytes > 0).then(|| {
                                    let size = format::bytes(row.hidden_bytes);
                                    move || Text::msg(K::RawMoreNotShown).with("size", size.clone()).render(use_lang())
                                })}</pre>
                            </div>
                        }
                    />
                </div>
            </details>
        </section>
    }
}
