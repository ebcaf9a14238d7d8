//! Parts of the page whose code comes after the page (issue 13's size budget): each is a function whose
//! code the build moves out of the main module into the wasm chunk it names (wasm_split, through Leptos's
//! re-export), fetched the first time one of that chunk's functions is called or preloaded. The first
//! download then holds only what the form, the verdict and the live panels need (BENCHMARKS.md, Size,
//! "Splitting the wasm, shipped").
//!
//! Only a build with the `split` feature splits (Trunk's, with `scripts/split-wasm.sh` as its post-build
//! hook: a split build that is not split afterwards does not load). Without it (the wasm tests, a plain
//! `cargo build`) every part is an ordinary async function that cannot fail to load.
//!
//! A chunk can fail to arrive (the network dropped, or a deploy replaced the files since the page
//! opened): the part then says so in place, [`PartMissing`], and everything already measured stays.

use std::future::Future;

use leptos::prelude::*;
use streamscope_core::i18n::keys::UiKey;
use streamscope_core::i18n::Text;

use super::lang::lang_getter;

/// A part's code did not load. The load is tried again at the next call (wasm_split caches only a
/// success).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartMissing;

impl From<leptos::wasm_split::SplitLoaderError> for PartMissing {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        PartMissing
    }
}

/// Declares a part: `split_part!(chunk, preload_name; fn name(arg: Type, ...) -> Output { body })` becomes
/// `async fn name(...) -> Result<Output, PartMissing>` whose code is in chunk `split_<chunk>` (parts that
/// name the same chunk share it), and `async fn preload_name() -> Result<(), SplitLoaderError>` that
/// fetches that chunk without calling anything.
macro_rules! split_part {
    ($chunk:ident, $preload:ident; $(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        #[cfg(feature = "split")]
        $(#[$meta])*
        #[leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible, preload($preload))]
        $vis fn $name($($arg: $ty),*) -> Result<$ret, $crate::ui::split::PartMissing> {
            Ok($body)
        }

        #[cfg(not(feature = "split"))]
        $(#[$meta])*
        $vis async fn $name($($arg: $ty),*) -> Result<$ret, $crate::ui::split::PartMissing> {
            Ok($body)
        }

        /// Fetches this part's code without running it (nothing to fetch in a build that does not split).
        #[cfg(not(feature = "split"))]
        $vis async fn $preload() -> Result<(), leptos::wasm_split::SplitLoaderError> {
            Ok(())
        }
    };
}
pub(crate) use split_part;

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
