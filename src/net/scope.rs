//! The global scope the net layer runs in: the page's `window`, or a dedicated worker's `self` (where
//! the measurement normally runs). Everything that needs `fetch`, timers, `performance` or the location
//! goes through [`Scope`], so the same reader loop runs in both.

use js_sys::{Function, Promise};
use wasm_bindgen::JsCast;
use web_sys::{Performance, RequestInit, Window, WorkerGlobalScope};

/// The page's window or a worker's global scope.
#[derive(Clone)]
pub enum Scope {
    /// The page's main thread.
    Window(Window),
    /// A (dedicated) worker.
    Worker(WorkerGlobalScope),
}

impl Scope {
    /// The scope this code runs in; `None` only in an unknown host (no window, no worker). Looked up
    /// once per thread: the type check behind it (a JS `instanceof`, which throws and is caught in a
    /// worker, where `Window` does not exist) must not run before every timestamp.
    pub fn current() -> Option<Scope> {
        thread_local! {
            static CURRENT: Option<Scope> = {
                let global = js_sys::global();
                match global.dyn_ref::<Window>() {
                    Some(window) => Some(Scope::Window(window.clone())),
                    None => global.dyn_ref::<WorkerGlobalScope>().map(|w| Scope::Worker(w.clone())),
                }
            };
        }
        CURRENT.with(Clone::clone)
    }

    /// Whether this is a worker (the measurement runs off the page's main thread).
    pub fn is_worker(&self) -> bool {
        matches!(self, Scope::Worker(_))
    }

    /// `fetch(url, init)`.
    pub fn fetch(&self, url: &str, init: &RequestInit) -> Promise {
        match self {
            Scope::Window(w) => w.fetch_with_str_and_init(url, init),
            Scope::Worker(w) => w.fetch_with_str_and_init(url, init),
        }
    }

    /// The scope's `performance` object.
    pub fn performance(&self) -> Option<Performance> {
        match self {
            Scope::Window(w) => w.performance(),
            Scope::Worker(w) => w.performance(),
        }
    }

    /// `setTimeout(callback, delay_ms)`; `None` when the host refused.
    pub fn set_timeout(&self, callback: &Function, delay_ms: i32) -> Option<i32> {
        match self {
            Scope::Window(w) => w.set_timeout_with_callback_and_timeout_and_arguments_0(callback, delay_ms).ok(),
            Scope::Worker(w) => w.set_timeout_with_callback_and_timeout_and_arguments_0(callback, delay_ms).ok(),
        }
    }

    /// `clearTimeout(id)`.
    pub fn clear_timeout(&self, id: i32) {
        match self {
            Scope::Window(w) => w.clear_timeout_with_handle(id),
            Scope::Worker(w) => w.clear_timeout_with_handle(id),
        }
    }

    /// The scheme of the page's (or the worker script's, which shares the page's origin) URL: `https:`.
    pub fn protocol(&self) -> Option<String> {
        match self {
            Scope::Window(w) => w.location().protocol().ok(),
            Scope::Worker(w) => Some(w.location().protocol()),
        }
    }

    /// The page's origin (`https://host:port`; a worker's is the page's).
    pub fn origin(&self) -> Option<String> {
        match self {
            Scope::Window(w) => w.location().origin().ok(),
            Scope::Worker(w) => Some(w.location().origin()),
        }
    }
}
