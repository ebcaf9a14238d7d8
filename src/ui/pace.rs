//! How often a run's feed is drained into the live panels: every [`LIVE_REFRESH_MS`] (10 times a
//! second), and every [`FAST_REFRESH_MS`] while reads come faster than [`FAST_READS_PER_S`]; always at an
//! animation frame.
//!
//! Why not every frame: each drawing (style, layout and paint of what changed) runs in the renderer at
//! frame time, and on a machine with few cores it takes CPU from the measuring worker and the browser's
//! network threads. A late worker timestamps an event late, and finds several events waiting and reads
//! them as one: exactly the delay and merging the page measures. Measured on this 2-core machine
//! (BENCHMARKS.md, "Live refresh pace"): at 50 events/s, the per-event arrival error's 99th percentile
//! was 3.40 ms drawn every frame, 3.50 ms every ~50 ms, 1.86 ms every ~100 ms and 1.79 ms with nothing
//! drawn (peer: 0.18 ms); at 1,000 events/s (a bare `fetch` loop in a worker read 19,952-19,969 reads of
//! 20,000 events), the page read 17,452-17,987 drawn every frame, 19,205-19,435 every ~100 ms,
//! 19,649-19,675 every ~250 ms and 19,836-19,853 with nothing drawn. Ten refreshes a second keep the
//! panels live; nobody follows a stream of 100 reads a second token by token.

/// The time between refreshes of the live panels during a run, in ms.
pub const LIVE_REFRESH_MS: f64 = 100.0;

/// Reads per second (over the last drain's interval) above which the panels refresh every
/// [`FAST_REFRESH_MS`] instead.
pub const FAST_READS_PER_S: f64 = 100.0;

/// The time between refreshes while a stream is fast, in ms.
pub const FAST_REFRESH_MS: f64 = 250.0;

/// How long to wait before asking for the next drain's animation frame, given how many reads the last
/// drain took and how long it was since the drain before it.
pub fn next_drain_delay_ms(reads_taken: usize, since_previous_drain_ms: f64) -> f64 {
    // An interval under a millisecond (two drains in one task) says nothing about the rate.
    let interval_ms = since_previous_drain_ms.max(1.0);
    let reads_per_s = reads_taken as f64 * 1000.0 / interval_ms;
    if reads_per_s > FAST_READS_PER_S {
        FAST_REFRESH_MS
    } else {
        LIVE_REFRESH_MS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn panels_refresh_ten_times_a_second_and_four_while_reads_come_fast() {
        // A token every 20 ms: 5 reads in a 100 ms interval.
        assert_eq!(next_drain_delay_ms(5, 116.7), LIVE_REFRESH_MS);
        assert_eq!(next_drain_delay_ms(0, 116.7), LIVE_REFRESH_MS);
        // Exactly 100 reads/s stays at the live pace; more slows the panels down.
        assert_eq!(next_drain_delay_ms(25, 250.0), LIVE_REFRESH_MS);
        assert_eq!(next_drain_delay_ms(26, 250.0), FAST_REFRESH_MS);
        // 1,000 events/s: 117 reads in a live interval, then 267 in a slowed one; it stays slowed.
        assert_eq!(next_drain_delay_ms(117, 116.7), FAST_REFRESH_MS);
        assert_eq!(next_drain_delay_ms(267, 266.7), FAST_REFRESH_MS);
        // The stream slows down again: back to the live pace.
        assert_eq!(next_drain_delay_ms(10, 266.7), LIVE_REFRESH_MS);
        // Two drains in one task: the interval is read as 1 ms, not 0 (no division by zero).
        assert_eq!(next_drain_delay_ms(1, 0.0), FAST_REFRESH_MS);
        assert_eq!(next_drain_delay_ms(0, 0.0), LIVE_REFRESH_MS);
    }
}
