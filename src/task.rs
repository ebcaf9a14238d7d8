//! One task type for every task the page and its worker start. `wasm_bindgen_futures::spawn_local`
//! compiles its task, its JSPI branch and their promise plumbing once per future type it is given;
//! [`spawn`] boxes the future first, into the type Leptos's own `spawn_local` hands it, so that they are
//! compiled once for the whole page (BENCHMARKS.md, Size, "One Show, one effect, one task").

use std::future::Future;
use std::pin::Pin;

/// Runs `future` to its end as a task of its own (on the page or in the worker, where Leptos's
/// executor is not set up).
pub fn spawn(future: impl Future<Output = ()> + 'static) {
    spawn_pinned(Box::pin(future))
}

/// [`spawn`] for a future already boxed.
pub fn spawn_pinned(future: Pin<Box<dyn Future<Output = ()>>>) {
    wasm_bindgen_futures::spawn_local(future)
}
