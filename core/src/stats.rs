//! Small descriptive statistics: mean, median and percentiles.
//!
//! Percentiles use linear interpolation between the closest ranks, numpy's default (`method="linear"`):
//! for sorted values `x[0..n]` the p-th percentile sits at rank `r = p/100 * (n-1)` and is
//! `x[floor(r)] + (r - floor(r)) * (x[floor(r)+1] - x[floor(r)])`. Non-finite values (NaN, infinities) are
//! ignored; an empty input has no statistics.

use serde::{Deserialize, Serialize};

fn finite_sorted(values: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    crate::sort::sort_f64(&mut v);
    v
}

/// The p-th percentile (0 to 100, clamped) of already sorted finite values, linearly interpolated.
pub fn percentile_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let p = if p.is_nan() {
        50.0
    } else {
        p.clamp(0.0, 100.0)
    };
    let rank = p / 100.0 * (n - 1) as f64;
    let lo = rank.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    let frac = rank - lo as f64;
    Some(sorted[lo] + frac * (sorted[hi] - sorted[lo]))
}

/// The p-th percentile (0 to 100) of values in any order, linearly interpolated (numpy's default).
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    percentile_sorted(&finite_sorted(values), p)
}

/// The p50 and p99 of per-read counts, over the non-zero ones (reads that completed nothing are left
/// out): how many events (or messages) the reads that carried some held.
pub fn per_read_p50_p99(counts: &[usize]) -> (Option<f64>, Option<f64>) {
    let mut nonzero: Vec<f64> = counts.iter().filter(|&&n| n > 0).map(|&n| n as f64).collect();
    crate::sort::sort_f64(&mut nonzero);
    (percentile_sorted(&nonzero, 50.0), percentile_sorted(&nonzero, 99.0))
}

/// The arithmetic mean.
pub fn mean(values: &[f64]) -> Option<f64> {
    let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        None
    } else {
        Some(v.iter().sum::<f64>() / v.len() as f64)
    }
}

/// The median (the 50th percentile: the mean of the two middle values for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    percentile(values, 50.0)
}

/// The robust standard deviation of values: 1.4826 × the median absolute deviation from the median
/// (equal to the standard deviation for normal data, unmoved by a few outliers); `None` when there is no
/// finite value, 0 for one value.
pub fn robust_sigma(values: &[f64]) -> Option<f64> {
    let center = median(values)?;
    let deviations: Vec<f64> = values.iter().filter(|x| x.is_finite()).map(|x| (x - center).abs()).collect();
    Some(1.4826 * median(&deviations)?)
}

/// A summary of a distribution, in the unit of its input (ms for gaps).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    /// The median.
    pub p50: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The 99th percentile.
    pub p99: f64,
    /// The largest value.
    pub max: f64,
    /// The arithmetic mean.
    pub mean: f64,
}

impl Percentiles {
    /// Summarises values in any order; `None` when there is no finite value.
    pub fn of(values: &[f64]) -> Option<Percentiles> {
        let sorted = finite_sorted(values);
        Some(Percentiles {
            p50: percentile_sorted(&sorted, 50.0)?,
            p90: percentile_sorted(&sorted, 90.0)?,
            p99: percentile_sorted(&sorted, 99.0)?,
            max: *sorted.last()?,
            mean: sorted.iter().sum::<f64>() / sorted.len() as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn robust_sigma_ignores_one_outlier() {
        // median 10, deviations [0, 1, 1, 90] -> MAD 1.
        assert!(close(robust_sigma(&[9.0, 10.0, 11.0, 100.0, 10.0]).unwrap(), 1.4826));
        assert_eq!(robust_sigma(&[5.0]), Some(0.0));
        assert_eq!(robust_sigma(&[]), None);
    }

    #[test]
    fn percentiles_match_numpy_linear() {
        // numpy.percentile([1,2,3,4,5,6,7,8,9,10], [50, 90, 99]) == [5.5, 9.1, 9.91]
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert!(close(percentile(&v, 50.0).unwrap(), 5.5));
        assert!(close(percentile(&v, 90.0).unwrap(), 9.1));
        assert!(close(percentile(&v, 99.0).unwrap(), 9.91));
        assert!(close(percentile(&v, 0.0).unwrap(), 1.0));
        assert!(close(percentile(&v, 100.0).unwrap(), 10.0));
    }

    #[test]
    fn order_does_not_matter_and_nan_is_ignored() {
        let v = [30.0, f64::NAN, 10.0, 20.0];
        assert_eq!(median(&v), Some(20.0));
        assert_eq!(mean(&v), Some(20.0));
        // numpy.percentile([10, 20, 30], 90) == 28.0
        assert!(close(percentile(&v, 90.0).unwrap(), 28.0));
    }

    #[test]
    fn single_value_and_empty() {
        assert_eq!(percentile(&[7.0], 99.0), Some(7.0));
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(mean(&[]), None);
        assert_eq!(Percentiles::of(&[f64::NAN]), None);
    }

    #[test]
    fn even_count_median_is_mean_of_middle_pair() {
        assert_eq!(median(&[1.0, 2.0, 3.0, 4.0]), Some(2.5));
    }

    #[test]
    fn summary_of_known_values() {
        let p = Percentiles::of(&[4.0, 1.0, 3.0, 2.0, 100.0]).unwrap();
        assert_eq!((p.p50, p.max, p.mean), (3.0, 100.0, 22.0));
        // rank 0.9*4 = 3.6 -> 4 + 0.6*(100-4) = 61.6 ; rank 3.96 -> 4 + 0.96*96 = 96.16
        assert!(close(p.p90, 61.6));
        assert!(close(p.p99, 96.16));
    }
}
