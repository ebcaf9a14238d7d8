//! Monotonic time for measurements: `performance.now()` in ms (never `Date.now()`, never `Instant`).

/// Milliseconds since the page's time origin, with sub-millisecond resolution where the browser gives it.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}
