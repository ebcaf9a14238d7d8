//! The release cadence of a run: how regularly content deliveries came and how many content events each
//! carried. A relay or CDN that forwards whatever it holds on a timer leaves its own clock in the reads:
//! deliveries a fixed period apart, each holding the several tokens the model produced meanwhile.
//!
//! - A **release** is a content delivery (see [`super::delivery`]: reads within 2 ms of each other that
//!   completed at least one content event).
//! - The **period** is the median interval from one release's start to the next one's.
//! - The **regular share** is the share of those intervals within [`REGULAR_TOLERANCE`] (±25%) of the
//!   period: near 1 for a timer, lower for a model whose pace wanders.
//! - **Events per release** is the mean content events per release: the period divided by the token
//!   cadence when a timer sets the pace, 1 when nothing merged the tokens.
//! - The **server spread** (when content events carry the server's send time `server_ms`) is the median,
//!   over releases holding at least 2 timestamped content events, of the latest stamp minus the earliest:
//!   about 0 when the server itself wrote those events together (an engine's micro-batching), about the
//!   period when they were produced one by one and held on the way.

use serde::{Deserialize, Serialize};

use crate::stats::median;

/// How far from the period, as a share of it, an interval still counts as regular.
pub const REGULAR_TOLERANCE: f64 = 0.25;

/// One content delivery as the cadence sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Release {
    /// When its first read resolved.
    pub start_ms: f64,
    /// Content events it completed.
    pub events: usize,
    /// The earliest and the latest `server_ms` of its content events, when at least one carried one.
    pub server_span_ms: Option<(f64, f64)>,
    /// Content events that carried a `server_ms`.
    pub stamped_events: usize,
}

/// How regularly content was released (see the module docs for every definition).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReleaseCadence {
    /// Content deliveries.
    pub releases: usize,
    /// Median interval between the starts of consecutive releases.
    pub period_p50_ms: Option<f64>,
    /// Share (0 to 1) of the intervals within ±25% of the period.
    pub regular_share: Option<f64>,
    /// Mean content events per release.
    pub events_per_release_mean: Option<f64>,
    /// Median spread of the server's timestamps inside a release of several stamped content events.
    pub server_spread_p50_ms: Option<f64>,
}

impl ReleaseCadence {
    /// The cadence of `releases`, in arrival order.
    pub fn of(releases: &[Release]) -> ReleaseCadence {
        let intervals: Vec<f64> = releases.windows(2).map(|w| w[1].start_ms - w[0].start_ms).collect();
        let period = median(&intervals);
        let regular_share = period.filter(|&p| p > 0.0).map(|p| {
            let regular = intervals.iter().filter(|&&i| (i - p).abs() <= p * REGULAR_TOLERANCE).count();
            regular as f64 / intervals.len() as f64
        });
        let events: usize = releases.iter().map(|r| r.events).sum();
        let spreads: Vec<f64> = releases
            .iter()
            .filter(|r| r.stamped_events >= 2)
            .filter_map(|r| r.server_span_ms.map(|(lo, hi)| hi - lo))
            .collect();
        ReleaseCadence {
            releases: releases.len(),
            period_p50_ms: period,
            regular_share,
            events_per_release_mean: (!releases.is_empty()).then(|| events as f64 / releases.len() as f64),
            server_spread_p50_ms: median(&spreads),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(start_ms: f64, events: usize) -> Release {
        Release { start_ms, events, server_span_ms: None, stamped_events: 0 }
    }

    #[test]
    fn a_timer_gives_a_regular_period() {
        let r: Vec<Release> = (0..8).map(|i| release(300.0 + 250.0 * i as f64, 3 + usize::from(i % 4 == 3))).collect();
        let c = ReleaseCadence::of(&r);
        assert_eq!((c.releases, c.period_p50_ms, c.regular_share), (8, Some(250.0), Some(1.0)));
        assert_eq!(c.events_per_release_mean, Some(26.0 / 8.0));
        assert_eq!(c.server_spread_p50_ms, None);
    }

    #[test]
    fn a_wandering_pace_is_not_regular() {
        let starts = [0.0, 100.0, 400.0, 450.0, 900.0, 1000.0, 1600.0];
        let r: Vec<Release> = starts.iter().map(|&s| release(s, 1)).collect();
        let c = ReleaseCadence::of(&r);
        assert_eq!(c.period_p50_ms, Some(200.0));
        assert!(c.regular_share.unwrap() < 0.6, "{c:?}");
    }

    #[test]
    fn server_spread_needs_two_stamped_events_in_a_release() {
        let mut r = vec![release(0.0, 3), release(250.0, 3), release(500.0, 1)];
        r[0].server_span_ms = Some((10.0, 170.0));
        r[0].stamped_events = 3;
        r[1].server_span_ms = Some((250.0, 410.0));
        r[1].stamped_events = 3;
        r[2].server_span_ms = Some((490.0, 490.0));
        r[2].stamped_events = 1;
        assert_eq!(ReleaseCadence::of(&r).server_spread_p50_ms, Some(160.0));
    }

    #[test]
    fn no_release_has_no_figures() {
        assert_eq!(ReleaseCadence::of(&[]), ReleaseCadence::default());
        let one = ReleaseCadence::of(&[release(5.0, 2)]);
        assert_eq!((one.period_p50_ms, one.regular_share, one.events_per_release_mean), (None, None, Some(2.0)));
    }
}
