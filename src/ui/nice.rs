//! Round numbers for chart axes: the smallest m × 10^k at or above a value, for the multiples `m` an axis
//! allows. Found by multiplying and dividing by ten: `powf` and `log10` would bring libm's `pow` and
//! `log10` into the page's wasm, 2.6 KB for a decade (issue 13's size budget).

/// The smallest `m × 10^k` at or above `x` for `m` in `multiples` (ascending, from 1 to below 10), or
/// `multiples[0]` (1) when `x` is not a positive number.
pub fn at_or_above(x: f64, multiples: &[f64]) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return multiples.first().copied().unwrap_or(1.0);
    }
    let mut decade = 1.0;
    while decade * 10.0 <= x {
        decade *= 10.0;
    }
    while decade > x {
        decade /= 10.0;
    }
    multiples.iter().map(|m| m * decade).find(|t| *t >= x).unwrap_or(10.0 * decade)
}

#[cfg(test)]
mod tests {
    use super::at_or_above;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn round_numbers_at_or_above() {
        let one_two_five = [1.0, 2.0, 5.0];
        assert_eq!(at_or_above(216.7, &one_two_five), 500.0);
        assert_eq!(at_or_above(10.0, &one_two_five), 10.0);
        assert_eq!(at_or_above(16_666.7, &one_two_five), 20_000.0);
        assert_eq!(at_or_above(6.0, &one_two_five), 10.0);
        assert_eq!(at_or_above(1.0, &one_two_five), 1.0);
        assert!((at_or_above(0.37, &one_two_five) - 0.5).abs() < 1e-12);
        assert!((at_or_above(0.001, &one_two_five) - 0.001).abs() < 1e-15);
        assert_eq!(at_or_above(2150.0, &[1.0, 2.0, 2.5, 5.0]), 2500.0);
        assert_eq!(at_or_above(0.0, &one_two_five), 1.0);
        assert_eq!(at_or_above(f64::NAN, &one_two_five), 1.0);
        assert!(at_or_above(1e300, &one_two_five) >= 1e300);
    }
}
