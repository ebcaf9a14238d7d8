//! The page layout: request form, verdict, metrics, text, timeline, raw reads and the JSON report.

use leptos::prelude::*;
use streamscope_core::page_config::PageConfig;

use super::findings::Findings;
use super::form::{spec_from_form, FormState, RequestForm};
use super::metrics_panel::MetricsPanel;
use super::query::{page_origin, query_pairs};
use super::raw_view::RawView;
use super::report_json::ReportJson;
use super::session::Session;
use super::text_view::TextView;
use super::timeline::Timeline;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let config = PageConfig::from_query(&page_origin(), &query_pairs());
    let run_on_load = config.run_on_load;
    let form = FormState::new(config);
    let session = Session::new();
    on_cleanup(move || session.cancel());

    if run_on_load {
        // Start after the page's `load` event: fetching while the page still loads adds 10-45 ms to TTFT.
        when_loaded(move || session.start(spec_from_form(&form)));
    }

    view! {
        <header class="top">
            <h1>"streamscope"</h1>
            <p class="tagline">"Measure an LLM stream where your users see it: in the browser."</p>
        </header>
        <main>
            <RequestForm form=form session=session />
            <Findings session=session />
            <MetricsPanel session=session />
            <Timeline session=session />
            <TextView session=session />
            <RawView session=session />
            <ReportJson session=session />
        </main>
    }
}

/// Runs `f` once the document has finished loading (at once if it already has).
fn when_loaded(f: impl FnOnce() + 'static) {
    let complete = document().ready_state() == "complete";
    if complete {
        // Leave the current task so the first render lands before the request goes out.
        set_timeout(f, std::time::Duration::ZERO);
    } else {
        let f = std::cell::Cell::new(Some(f));
        let handle = window_event_listener_untyped("load", move |_| {
            if let Some(f) = f.take() {
                f();
            }
        });
        // The listener fires once; keeping the handle alive for the page's life is intended.
        std::mem::forget(handle);
    }
}
