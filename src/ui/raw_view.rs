//! The raw stream, read by read with arrival times: `curl -N`, with a clock.

use leptos::prelude::*;

use super::format;
use super::live_view::RawRow;
use super::session::Session;

/// One row per `reader.read()`.
#[component]
pub fn RawView(session: Session) -> impl IntoView {
    let count = move || session.raw_rows.with(|r| r.len());
    view! {
        <section class="card raw" aria-label="Raw stream">
            <details>
                <summary>"Raw stream, per read (" <span data-testid="raw-count">{count}</span> " reads)"</summary>
                <div class="raw-rows" data-testid="raw-view">
                    <For
                        each=move || session.raw_rows.get()
                        key=|row: &RawRow| row.index
                        children=move |row: RawRow| view! {
                            <div class="raw-row">
                                <span class="raw-at">{format!("+{:>9.1} ms", row.at_ms)}</span>
                                <span class="raw-len">{format::bytes(row.len_bytes)}</span>
                                <pre class="raw-bytes">{row.preview.to_string()}{(row.hidden_bytes > 0).then(|| format!(" … {} more not shown", format::bytes(row.hidden_bytes)))}</pre>
                            </div>
                        }
                    />
                </div>
            </details>
        </section>
    }
}
