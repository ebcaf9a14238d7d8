//! The knee of a concurrency sweep: the first level at which the server starts queueing, read from the
//! TTFT median.
//!
//! "Clearly above level 1" comes from level 1's own spread, not a fixed factor: a level's TTFT p50 must
//! exceed level 1's p50 by more than [`KNEE_NOISE_SIGMAS`] robust standard deviations of level 1's TTFTs
//! (1.4826 × their median absolute deviation: what one run differs from the next when nothing queues).
//! Two floors keep a handful of identical runs (spread near 0) from calling jitter a knee: the rise must
//! also pass [`KNEE_MIN_RISE_SHARE`] of level 1's p50 and [`KNEE_MIN_RISE_MS`]. The TTFTs are the
//! server's: a run the browser itself held back (its HTTP/1.1 connection limit, [`super::browser_queue`])
//! counts from when it went out, so the page's own queue is never called the server's knee.

use serde::{Deserialize, Serialize};

use crate::stats::{median, robust_sigma};

/// How many robust standard deviations of level 1's TTFT a rise must pass.
pub const KNEE_NOISE_SIGMAS: f64 = 3.0;
/// The smallest rise that counts, as a share of level 1's TTFT p50 (TTFTs vary in proportion to their size).
pub const KNEE_MIN_RISE_SHARE: f64 = 0.10;
/// The smallest rise that counts, ms: a loaded browser's timestamps move by a few ms from run to run.
pub const KNEE_MIN_RISE_MS: f64 = 10.0;

/// The figures the knee was read from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KneeRule {
    /// Level 1's (the lowest level's) server-side TTFT p50.
    pub baseline_p50_ms: f64,
    /// Level 1's robust standard deviation of TTFT.
    pub baseline_sigma_ms: f64,
    /// How far above the baseline a level's p50 must be to be the knee.
    pub threshold_ms: f64,
}

impl KneeRule {
    /// The rule from the lowest level's server-side TTFTs; `None` without any.
    pub fn from_baseline(ttfts_ms: &[f64]) -> Option<KneeRule> {
        let baseline_p50_ms = median(ttfts_ms)?;
        let baseline_sigma_ms = robust_sigma(ttfts_ms)?;
        let threshold_ms = (KNEE_NOISE_SIGMAS * baseline_sigma_ms)
            .max(KNEE_MIN_RISE_SHARE * baseline_p50_ms)
            .max(KNEE_MIN_RISE_MS);
        Some(KneeRule { baseline_p50_ms, baseline_sigma_ms, threshold_ms })
    }

    /// Whether a level's p50 rises clearly above the baseline.
    pub fn risen(&self, p50_ms: f64) -> bool {
        p50_ms - self.baseline_p50_ms > self.threshold_ms
    }
}

/// The knee: the first level after the lowest whose server-side TTFT p50 rises clearly above the lowest
/// level's, from `(level, server-side TTFTs)` in increasing level order. `None` when no level rises (or
/// the lowest level has no TTFT).
pub fn knee(levels: &[(u32, Vec<f64>)]) -> (Option<u32>, Option<KneeRule>) {
    let Some((_, baseline)) = levels.first() else { return (None, None) };
    let Some(rule) = KneeRule::from_baseline(baseline) else { return (None, None) };
    let knee = levels.iter().skip(1).find(|(_, ttfts)| median(ttfts).is_some_and(|p50| rule.risen(p50))).map(|(l, _)| *l);
    (knee, Some(rule))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression guard for issue 11's test: a server with 3 slots, 3 rounds per level, 300 ms to the
    /// first token and 1 s per stream. TTFT p95 rises at 4 (one queued run in four), the p50 at 8.
    #[test]
    fn three_slots_swept_at_1_2_4_8_have_their_knee_at_8() {
        let ttfts = |level: usize| -> Vec<f64> {
            (0..3 * level).map(|i| 300.0 + (i % level / 3) as f64 * 1000.0 + (i % 7) as f64).collect()
        };
        let levels: Vec<(u32, Vec<f64>)> = [1, 2, 4, 8].iter().map(|&l| (l as u32, ttfts(l))).collect();
        let (knee, rule) = knee(&levels);
        assert_eq!(knee, Some(8));
        assert!(rule.unwrap().threshold_ms >= KNEE_MIN_RISE_MS);
    }

    #[test]
    fn jitter_within_the_spread_is_no_knee() {
        let levels = vec![(1, vec![300.0, 340.0, 280.0, 320.0]), (2, vec![330.0, 350.0, 310.0]), (4, vec![345.0, 360.0, 300.0])];
        assert_eq!(knee(&levels).0, None);
    }

    #[test]
    fn a_noisy_baseline_needs_a_larger_rise() {
        // sigma ≈ 1.48 × 50 = 74 ms: threshold 222 ms. +150 is noise, +400 is a knee.
        let base = vec![200.0, 250.0, 300.0, 350.0, 400.0];
        assert_eq!(knee(&[(1, base.clone()), (2, vec![450.0])]).0, None);
        assert_eq!(knee(&[(1, base), (2, vec![450.0]), (4, vec![700.0])]).0, Some(4));
    }

    #[test]
    fn identical_fast_runs_use_the_floors() {
        let rule = KneeRule::from_baseline(&[5.0, 5.0, 5.0]).unwrap();
        assert_eq!(rule.threshold_ms, KNEE_MIN_RISE_MS);
        assert!(!rule.risen(14.0) && rule.risen(16.0));
        let rule = KneeRule::from_baseline(&[1000.0, 1000.0]).unwrap();
        assert_eq!(rule.threshold_ms, 100.0);
    }

    #[test]
    fn no_ttft_at_level_one_gives_no_knee() {
        assert_eq!(knee(&[(1, vec![]), (2, vec![900.0])]), (None, None));
        assert_eq!(knee(&[]), (None, None));
    }
}
