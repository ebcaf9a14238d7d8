//! Helpers for the page's parts that come after it ([`super::parts`]; the mechanism is
//! [`crate::split`]): run what a part gives at once when its code is loaded, wait for one at most so
//! long, and show a panel from its part with a note in its place when its code did not arrive.

use std::future::Future;

pub(crate) use crate::split::{split_part, PartMissing};

use leptos::prelude::*;
use streamscope_core::i18n::keys::UiKey;
use streamscope_core::i18n::Text;

use super::lang::lang_getter;

/// Runs `then` with what `future` gives: at once when it is ready at its first poll (a part whose code
/// is already loaded), else once it is (a task of its own). A run's end uses it so that the report of a
/// run follows its last read in the same task whenever the report's part is there, as it is once
/// [`super::parts::ensure_parts`] has succeeded.
pub fn now_or_later<F>(future: F, then: impl FnOnce(F::Output) + 'static)
where
    F: Future + 'static,
{
    use std::task::{Context, Poll, Waker};
    let mut future = Box::pin(future);
    match future.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => then(output),
        // The next poll (the task's) replaces the waker.
        Poll::Pending => leptos::task::spawn_local(async move { then(future.await) }),
    }
}

/// What `future` gives if it is ready at its first poll (a part whose code is loaded), else `None` (the
/// future is dropped; a part's load it started goes on in the browser).
pub fn ready_now<F: Future>(future: F) -> Option<F::Output> {
    use std::task::{Context, Poll, Waker};
    match std::pin::pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => Some(output),
        Poll::Pending => None,
    }
}

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
pub fn lazy_panel<F>(part: &'static str, load: F) -> impl IntoView
where
    F: Future<Output = Result<AnyView, PartMissing>> + Send + 'static,
{
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
}
