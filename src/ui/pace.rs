//! How often a run's feed is drained into the live panels: every [`LIVE_REFRESH_MS`] (four times a
//! second), always at an animation frame.
//!
//! Why not every frame, nor ten times a second: each drawing (the drain's own work, then style, layout,
//! paint and compositing of what changed) runs in the renderer, and on a machine with few cores any of
//! the page's main-thread work takes CPU from the measuring worker and the browser's network threads. A
//! late worker timestamps an event late, and finds several events waiting and reads them as one: exactly
//! the delay and merging the page measures. Measured on this 2-core machine (BENCHMARKS.md, "Live refresh
//! pace" and "Where the page's CPU goes"): 10 ms of plain script every 100 ms on the main thread, drawing
//! nothing, raised a bare worker loop's per-event arrival error p99 at 50 events/s from 0.6-0.7 ms to
//! 1.7-3.9 ms; the page drawn every ~100 ms read 1.2-3.9 ms (7 runs of 14 above the 2 ms goal), every
//! ~250 ms 0.8-2.0 ms (2 of 9 above, one of them a repeat where the bare loop read 3.3 ms too). At
//! 1,000 events/s the page read 17,452-17,987 reads of 20,000 events drawn every frame, 19,205-19,435
//! every ~100 ms and 19,649-19,675 every ~250 ms (a bare loop in a worker: 19,952-19,969). Four refreshes
//! a second keep the figures and the text live; the replay button steps through the answer at its real
//! pace afterwards.

/// The time between refreshes of the live panels during a run, in ms.
pub const LIVE_REFRESH_MS: f64 = 250.0;
