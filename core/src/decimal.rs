//! A decimal number read from text and written back exactly, without the standard library's general float
//! parser and formatter.
//!
//! `str::parse::<f64>` carries an 11 KB table of powers of five (its Eisel-Lemire step) and 5 KB of code;
//! the page's main module needed it only to read a few seconds from its form and its link, which cost
//! 14 KB gzipped of the wasm a reader waits for (issue 13). The numbers people type there are short, and
//! a short decimal has an exact one-step conversion (Clinger's fast path): a mantissa below 2^53 times
//! or divided by a power of ten up to 10^22, both exact in an `f64`, is one correctly rounded IEEE
//! operation, so the result is the very `f64` that `str::parse` returns. What needs more than that
//! (more than about 15 significant digits, or a magnitude beyond the fast path) is refused, as are
//! `inf` and `NaN`: a caller treats it like any other text that is not a number.
//!
//! [`format_decimal`] writes such a number back as `format!("{v}")` does, without `core::fmt`'s float
//! code (Grisu and Dragon, 8 KB gzipped of the main module, which wrote only the form's time-outs there).

/// 10^0 ..= 10^22: every one is exact in an `f64`.
pub(crate) const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    1e19, 1e20, 1e21, 1e22,
];

/// The largest mantissa an `f64` holds exactly with every integer below it.
const MAX_EXACT_MANTISSA: u64 = 1 << 53;

/// The largest power of ten a short decimal's value reaches: 10^22 times a mantissa of 15 digits.
const MAX_EXACT_EXPONENT: i64 = 22 + 15;

/// The smallest power of ten the fast path divides by.
const MAX_FAST_EXPONENT: i64 = 22;

/// Significant digits gathered before a further non-zero digit means the text is refused.
const MAX_DIGITS: u32 = 19;

/// Reads `text` (no surrounding whitespace) as a decimal number: an optional sign, digits with at most one
/// `.` (`5`, `2.5`, `.5`, `5.`), and an optional exponent (`1e3`, `2.5E-2`). Returns exactly what
/// `text.parse::<f64>()` returns, or `None` when the text is not such a number or needs more than the
/// exact fast path (see the module note).
pub fn parse_decimal(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let (negative, mut i) = match bytes.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let mut mantissa: u64 = 0;
    let mut digits: u32 = 0;
    let mut exponent: i64 = 0;
    let mut any_digit = false;
    let mut in_fraction = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {
                any_digit = true;
                let d = u64::from(b - b'0');
                if mantissa == 0 && d == 0 {
                    // A leading zero: it only shifts the point when it follows it.
                    exponent -= i64::from(in_fraction);
                } else if digits < MAX_DIGITS {
                    mantissa = mantissa * 10 + d;
                    digits += 1;
                    exponent -= i64::from(in_fraction);
                } else if d == 0 {
                    // A zero past the digits kept: it scales an integer part, and changes no fraction.
                    exponent += i64::from(!in_fraction);
                } else {
                    return None;
                }
            }
            b'.' if !in_fraction => in_fraction = true,
            b'e' | b'E' => break,
            _ => return None,
        }
        i += 1;
    }
    if !any_digit {
        return None;
    }
    if i < bytes.len() {
        exponent = exponent.checked_add(read_exponent(&bytes[i + 1..])?)?;
    }
    let magnitude = exact_value(mantissa, exponent)?;
    Some(if negative { -magnitude } else { magnitude })
}

/// Writes `value` as `format!("{value}")` does (shortest digits that read back, no exponent: `2.5`, `30`,
/// `0.001`, `-0`), when it is a short decimal: one that [`parse_decimal`] reads back to the same bits.
/// Every value `parse_decimal` returns is one; past 15 significant digits the last digit may differ from
/// `Display`'s (two decimals can read back to the same bits), never the bits read back. `None` for any
/// other value (more digits than an `f64` keeps exactly, NaN, an infinity, beyond 10^37 or below
/// 10^-22).
pub fn format_decimal(value: f64) -> Option<String> {
    if !value.is_finite() {
        return None;
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    let magnitude = value.abs();
    if magnitude == 0.0 {
        return Some(format!("{sign}0"));
    }
    // The fewest digits first: the largest power of ten whose multiple reads back exactly.
    let (mut mantissa, mut exponent) = (-MAX_FAST_EXPONENT..=MAX_EXACT_EXPONENT).rev().find_map(|e: i64| {
        let power = |e: i64| POWERS_OF_TEN[e.unsigned_abs().min(22) as usize];
        let scaled = if e > 22 {
            magnitude / power(22) / power(e - 22)
        } else if e >= 0 {
            magnitude / power(e)
        } else {
            magnitude * power(e)
        };
        // `scaled` is within 3 of the mantissa that reads back (at most three roundings of a value below
        // 2^53 + 1): try each whole number that near, the nearest first.
        let nearest = scaled.round();
        let toward = if scaled >= nearest { 1.0 } else { -1.0 };
        [0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0].into_iter().map(|d| nearest + d * toward).find_map(|m| {
            (m >= 1.0 && m <= MAX_EXACT_MANTISSA as f64)
                .then_some(m as u64)
                .filter(|&m| exact_value(m, e).map(f64::to_bits) == Some(magnitude.to_bits()))
                .map(|m| (m, e))
        })
    })?;
    while mantissa.is_multiple_of(10) {
        mantissa /= 10;
        exponent += 1;
    }
    let digits = mantissa.to_string();
    Some(if exponent >= 0 {
        format!("{sign}{digits}{}", "0".repeat(exponent as usize))
    } else {
        let fraction = exponent.unsigned_abs() as usize;
        if digits.len() > fraction {
            let (int, frac) = digits.split_at(digits.len() - fraction);
            format!("{sign}{int}.{frac}")
        } else {
            format!("{sign}0.{}{digits}", "0".repeat(fraction - digits.len()))
        }
    })
}

/// The digits after `e`: an optional sign and at least one digit (saturated far beyond any exact value).
fn read_exponent(bytes: &[u8]) -> Option<i64> {
    let (negative, digits) = match bytes.first() {
        Some(b'-') => (true, &bytes[1..]),
        Some(b'+') => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        value = (value * 10 + i64::from(b - b'0')).min(1_000_000);
    }
    Some(if negative { -value } else { value })
}

/// `mantissa` × 10^`exponent` as the nearest `f64`, when one exact operation gives it.
fn exact_value(mut mantissa: u64, mut exponent: i64) -> Option<f64> {
    if mantissa == 0 {
        return Some(0.0);
    }
    while mantissa > MAX_EXACT_MANTISSA && mantissa.is_multiple_of(10) {
        mantissa /= 10;
        exponent += 1;
    }
    // Past 10^22, digits moved from the power into the mantissa keep the operation exact while it fits.
    while exponent > 22 && mantissa <= MAX_EXACT_MANTISSA / 10 {
        mantissa *= 10;
        exponent -= 1;
    }
    if mantissa > MAX_EXACT_MANTISSA || exponent.unsigned_abs() > 22 {
        return None;
    }
    let power = POWERS_OF_TEN[exponent.unsigned_abs() as usize];
    let m = mantissa as f64;
    Some(if exponent >= 0 { m * power } else { m / power })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift64 generator from `seed`: the same numbers on every run of the tests.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// The same bits as `str::parse` (so `0.0` and `-0.0` differ), or refused.
    fn assert_exact(text: &str) {
        match parse_decimal(text) {
            Some(v) => {
                let std = text.parse::<f64>().unwrap_or_else(|e| panic!("{text:?}: ours {v}, std refused: {e}"));
                assert_eq!(v.to_bits(), std.to_bits(), "{text:?}: ours {v:e}, std {std:e}");
            }
            None => panic!("{text:?} refused, std reads {:?}", text.parse::<f64>()),
        }
    }

    #[test]
    fn reads_what_people_type_exactly() {
        for text in [
            "0", "5", "30", "300", "2.5", "0.5", ".5", "5.", "0.1", "0.2", "0.3", "1.1", "2.675", "10.75", "+7", "-3.25",
            "-0", "-0.0", "007", "0.000001", "1e3", "1E3", "2.5e-2", "1e+2", "0e5", "123456789012345", "9007199254740992",
            "1e22", "1e-22", "1e30", "1.5e30", "1e23", "1e37", "3600", "86400.000", "1000000000000000000000",
        ] {
            assert_exact(text);
        }
    }

    #[test]
    fn matches_the_standard_parser_on_a_grid_of_mantissas_and_exponents() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut read = 0;
        for _ in 0..20_000 {
            let digits = 1 + next() % 16;
            let mantissa = next() % 10u64.pow(digits as u32);
            let exponent = (next() % 60) as i64 - 30;
            let point = (next() % (digits + 1)) as usize;
            let text = mantissa.to_string();
            let (int, frac) = text.split_at(point.min(text.len()));
            for candidate in [format!("{int}.{frac}e{exponent}"), format!("{mantissa}e{exponent}"), format!("{int}.{frac}")] {
                if let Some(v) = parse_decimal(&candidate) {
                    read += 1;
                    assert_eq!(v.to_bits(), candidate.parse::<f64>().unwrap().to_bits(), "{candidate}");
                }
            }
        }
        assert!(read > 40_000, "most short decimals are on the exact path: {read} of 60,000");
    }

    #[test]
    fn reads_back_every_short_value_the_page_writes() {
        // Permalinks write timeouts with `{}`: what Display prints for a value of up to 15 digits reads back.
        let mut seed: u64 = 12345;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let cents = (seed >> 20) % 100_000_000;
            let value = cents as f64 / 100.0;
            assert_eq!(parse_decimal(&format!("{value}")), Some(value), "{value}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_short_decimal() {
        for text in [
            "", " ", "+", "-", ".", "e3", "1e", "1e+", "1.2.3", "1,5", " 5", "5 ", "0x10", "inf", "-inf", "infinity", "NaN",
            "1_000", "5s", "1e3.5", "--1",
        ] {
            assert_eq!(parse_decimal(text), None, "{text:?}");
        }
        // Beyond the one-step exact path: refused rather than read approximately.
        for text in ["12345678901234567", "0.12345678901234567", "0.30000000000000004", "1e38", "1e-23", "1e400", "1e-400", "9007199254740993"] {
            assert_eq!(parse_decimal(text), None, "{text:?}");
        }
    }

    #[test]
    fn writes_short_decimals_as_display_does() {
        for v in [0.0, -0.0, 30.0, 300.0, 2.5, 0.5, 0.1, 0.3, 1.1, 2.675, -3.25, 1e-7, 0.001, 1e15, 1e16, 1e21, 1e22, 1e23, 1e30, 1e37, 1e-22, 123456.789, 1.0 / 3.0] {
            assert_eq!(format_decimal(v).as_deref(), Some(format!("{v}").as_str()), "{v:e}");
        }
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.1 + 0.2, 1e38, 1e-23, 1.0 / 7.0] {
            assert_eq!(format_decimal(v), None, "{v:e}");
        }
    }

    #[test]
    fn writes_every_value_it_reads_as_display_does_and_reads_it_back() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..50_000 {
            let digits = 1 + next() % 19;
            let text = format!("{}e{}", next() % 10u64.pow(digits as u32), (next() % 50) as i64 - 25);
            let Some(value) = parse_decimal(&text) else { continue };
            let written = format_decimal(value).unwrap_or_else(|| panic!("{text} read as {value:e} but not written"));
            // Up to 15 digits the shortest decimal is unique; past them two may read back to the same bits,
            // and Display picks by the exact value, which this does not compute.
            if digits <= 15 {
                assert_eq!(written, format!("{value}"), "{text}");
            }
            assert_eq!(parse_decimal(&written).map(f64::to_bits), Some(value.to_bits()), "{text}");
        }
    }

    #[test]
    fn zeros_past_the_kept_digits_scale_or_vanish() {
        assert_exact("10000000000000000000000000000");
        assert_exact("1.00000000000000000000000000000");
        assert_exact("0.000000000000000000001");
        assert_eq!(parse_decimal("1000000000000000000001"), None);
    }
}
