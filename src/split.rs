//! Functions whose code the build moves out of the page's main module into the wasm chunk they name
//! (wasm_split, through Leptos's re-export), fetched the first time one of that chunk's functions is
//! called or preloaded (issue 13's size budget; BENCHMARKS.md, Size, "Splitting the wasm, shipped"). The
//! parts themselves: `ui::parts` (what the page shows once a run starts, and reports) and
//! `net::measuring` (the reader loop, which the measuring worker loads).
//!
//! Only a build with the `split` feature splits (Trunk's, with `scripts/split-wasm.sh` as its post-build
//! hook: a split build that is not split afterwards does not load). Without it (the wasm tests, a plain
//! `cargo build`) every part is an ordinary async function that cannot fail to load.
//!
//! A chunk can fail to arrive (the network dropped, or a deploy replaced the files since the page
//! opened): each caller then says so where the part would be ([`PartMissing`]).

use std::future::Future;
use std::pin::Pin;

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
        $vis fn $name($($arg: $ty),*) -> Result<$ret, $crate::split::PartMissing> {
            Ok($body)
        }

        #[cfg(not(feature = "split"))]
        $(#[$meta])*
        $vis async fn $name($($arg: $ty),*) -> Result<$ret, $crate::split::PartMissing> {
            Ok($body)
        }

        /// Fetches this part's code without running it (nothing to fetch in a build that does not split).
        #[cfg(not(feature = "split"))]
        #[allow(dead_code)] // as in a split build, where a part's preload may go unused too
        $vis async fn $preload() -> Result<(), leptos::wasm_split::SplitLoaderError> {
            Ok(())
        }
    };
}
pub(crate) use split_part;

/// Declares several parts of one chunk, each as [`split_part!`] does, and `async fn preload_all()` that
/// fetches every one of them: `split_parts!(chunk, preload_all; preload_a; fn a(...) -> A { ... }
/// preload_b; fn b(...) -> B { ... })`. Each part's function keeps a loaded flag of its own (wasm_split's
/// loader), set only by its own preload or first call, and only a function whose flag is set is ready at
/// its first poll ([`now_or_later`], [`ready_now`]); so a caller that needs every part ready preloads
/// them all, and a part declared here cannot be left off that list.
macro_rules! split_parts {
    ($chunk:ident, $preload_all:ident; $($preload:ident; $(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block)+) => {
        $(
            $crate::split::split_part!($chunk, $preload; $(#[$meta])* $vis fn $name($($arg: $ty),*) -> $ret $body);
        )+

        /// Fetches the code of every part declared beside it and sets each one's loaded flag.
        pub async fn $preload_all() -> Result<(), $crate::split::PartMissing> {
            $($preload().await?;)+
            Ok(())
        }
    };
}
pub(crate) use split_parts;

/// Runs `then` with what `future` gives: at once when it is ready at its first poll (a part whose code
/// is already loaded), else once it is (a task of its own). A run's end uses it so that the report of a
/// run follows its last read in the same task whenever the report's part is there, as it is once
/// `ui::parts::ensure_parts` has succeeded.
pub fn now_or_later<F>(future: F, then: impl FnOnce(F::Output) + 'static)
where
    F: Future + 'static,
{
    now_or_later_boxed(Box::pin(async move { then(future.await) }))
}

/// [`now_or_later`] for every future and `then` through one boxed type: polled once with a waker that
/// does nothing, then, when pending, run as a task of its own (whose next poll replaces the waker).
fn now_or_later_boxed(mut task: Pin<Box<dyn Future<Output = ()>>>) {
    use std::task::{Context, Waker};
    if task.as_mut().poll(&mut Context::from_waker(Waker::noop())).is_pending() {
        crate::task::spawn_pinned(task)
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
