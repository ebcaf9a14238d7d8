//! The page layout: request form, verdict, metrics, text, timeline, raw reads and the JSON report.

use leptos::prelude::*;
use streamscope_core::config::page_config::PageConfig;

use super::lang::{provide_lang, say, LangSwitch};
use streamscope_core::i18n::keys::UiKey;
use super::form::{FormState, RequestForm};
use super::parts::{after_text_panels, campaign_panels, ensure_parts, result_cards, verdict_card};
use super::query::{page_origin, query_pairs};
use super::report_json::ReportJson;
use super::session::Session;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let config = PageConfig::from_query(&page_origin(), &query_pairs());
    let run_on_load = config.run_on_load;
    let form = FormState::new(config);
    provide_lang(form.lang_choice());
    let session = Session::new();
    on_cleanup(move || session.cancel());
    // Start the measuring worker now, so its wasm is compiled before the first run; and fetch the parts
    // that come after the page (a run starts only once they are here).
    crate::net::worker::client::warm_up();
    leptos::task::spawn_local(async {
        let _ = ensure_parts().await;
    });

    if run_on_load {
        // The campaign itself also waits for the parts that come after the page (`Session::start_campaign`).
        when_settled(move || {
            session.start_campaign(form.run_request());
        });
    }

    view! {
        <header class="top">
            <h1>"streamscope"</h1>
            <p class="tagline">{move || say(UiKey::Tagline)}</p>
            <LangSwitch />
        </header>
        <main>
            // The verdict in plain words first: a support link (`run=1`) opens on the answer.
            {verdict_card(session)}
            <RequestForm form=form session=session />
            {campaign_panels(session)}
            {result_cards(session)}
            {after_text_panels(session, form)}
            <ReportJson session=session />
        </main>
    }
}

/// Runs `f` once the page has loaded *and* drawn itself: after the `load` event, two animation frames
/// (the first paint of the page) and an idle period. A run started earlier shares the main thread with
/// the page's own start-up, which delays every read's timestamp: measured here, 10-45 ms more TTFT when
/// fetching during load, and 10-35 ms more TTFB when fetching before the first paint.
fn when_settled(f: impl FnOnce() + 'static) {
    let after_paint = move || {
        request_animation_frame(move || request_animation_frame(move || when_idle(f)));
    };
    if document().ready_state() == "complete" {
        after_paint();
    } else {
        let f = std::cell::Cell::new(Some(after_paint));
        let handle = window_event_listener_untyped("load", move |_| {
            if let Some(f) = f.take() {
                f();
            }
        });
        // The listener fires once; keeping the handle alive for the page's life is intended.
        std::mem::forget(handle);
    }
}

/// Runs `f` when the browser is idle (`requestIdleCallback`, at most 500 ms later), or at once where the
/// browser has no such call.
fn when_idle(f: impl FnOnce() + 'static) {
    use wasm_bindgen::{closure::Closure, JsCast, JsValue};
    let window = window();
    let idle = js_sys::Reflect::get(&window, &JsValue::from_str("requestIdleCallback"))
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Function>().ok());
    let Some(idle) = idle else {
        f();
        return;
    };
    let callback = Closure::once_into_js(f);
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &JsValue::from_str("timeout"), &JsValue::from_f64(500.0));
    if idle.call2(&window, &callback, &options).is_err() {
        // Unreachable in practice; the run must still start.
        let _ = callback.dyn_ref::<js_sys::Function>().map(|f| f.call0(&JsValue::NULL));
    }
}
