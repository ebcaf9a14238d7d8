//! Helpers for the page's parts that come after it ([`super::parts`]; the mechanism is
//! [`crate::split`]): run what a part gives at once when its code is loaded, wait for one at most so
//! long, and show a panel from its part with a note in its place when its code did not arrive.

use std::future::Future;
use std::pin::Pin;

pub(crate) use crate::split::{now_or_later, ready_now, split_part, split_parts, PartMissing};

use leptos::prelude::*;
use streamscope_core::i18n::keys::UiKey;
use streamscope_core::i18n::Text;

use super::lang::lang_getter;

/// Waits for `future` at most `limit_ms`: `None` when the time ran out first (the future is dropped; a
/// part's load goes on in the browser and counts at the next call).
pub async fn within_ms<F: Future>(limit_ms: i32, future: F) -> Option<F::Output> {
    use std::task::Poll;
    let window = web_sys::window();
    let mut timer_id = None;
    let timer = js_sys::Promise::new(&mut |resolve, _reject| {
        timer_id = window.as_ref().and_then(|w| w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, limit_ms).ok());
    });
    let mut timer = std::pin::pin!(wasm_bindgen_futures::JsFuture::from(timer));
    let mut future = std::pin::pin!(future);
    let outcome = std::future::poll_fn(|cx| {
        if let Poll::Ready(output) = future.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        match timer.as_mut().poll(cx) {
            Poll::Ready(_) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    })
    .await;
    // No timer left to fire later (during a run).
    if let (Some(window), Some(id)) = (window, timer_id) {
        window.clear_timeout_with_handle(id);
    }
    outcome
}

/// A panel from its part: nothing until its code is there, then the panel, or a note in its place that
/// it did not load. `part` names it in that note (and in `data-part`).
pub fn lazy_panel<F>(part: &'static str, load: F) -> AnyView
where
    F: Future<Output = Result<AnyView, PartMissing>> + Send + 'static,
{
    lazy_panel_boxed(part, Box::pin(load))
}

/// [`lazy_panel`] for any part through one boxed future: `Suspend` compiles its polling and its views
/// once per future type, which was once per part (about 9 KB of the main module; BENCHMARKS.md, Size).
fn lazy_panel_boxed(part: &'static str, load: Pin<Box<dyn Future<Output = Result<AnyView, PartMissing>> + Send>>) -> AnyView {
    let lang = lang_getter();
    Suspend::new(async move {
        match load.await {
            Ok(panel) => panel,
            Err(PartMissing) => view! {
                <section class="card part-missing" data-testid="part-missing" data-part=part role="alert">
                    <p>{move || Text::msg(UiKey::PartUnavailable).with("part", part).render(lang())}</p>
                </section>
            }
            .into_any(),
        }
    })
    .into_any()
}
