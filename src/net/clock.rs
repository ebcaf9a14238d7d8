//! Monotonic time for measurements: `performance.now()` in ms (never `Date.now()`, never `Instant`).
//!
//! A worker's `performance.now()` counts from the worker's own `timeOrigin`; [`time_origin_ms`] lets a
//! time taken there be put on the page's clock (`origin_worker + t - origin_page`).

use super::scope::Scope;

thread_local! {
    /// This scope's `performance`, looked up once: reading the clock is one call.
    static PERFORMANCE: Option<web_sys::Performance> = Scope::current().and_then(|s| s.performance());
}

/// Milliseconds since this scope's time origin, with sub-millisecond resolution where the browser gives it.
pub fn now_ms() -> f64 {
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, |p| p.now()))
}

/// This scope's `performance.timeOrigin` (unix ms, high resolution), or 0 when unknown.
pub fn time_origin_ms() -> f64 {
    Scope::current().and_then(|s| s.performance()).map(|p| p.time_origin()).unwrap_or(0.0)
}
