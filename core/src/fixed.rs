//! Numbers written with a fixed count of decimals, exactly as `format!("{value:.N}")` writes them, without
//! `core::fmt`'s float formatting: `<f64 as Display>` links Grisu and Dragon (shortest and exact, about
//! 17 KB of wasm) wherever any float is formatted, so the page's chunks write every float through here
//! (issue 13's size budget).

/// The most decimals [`fixed`] writes (the page writes at most 3: the timeline's held spans).
pub const MAX_DECIMALS: usize = 9;

/// `value` with `decimals` digits after the point (at most [`MAX_DECIMALS`]), exactly as
/// `format!("{value:.decimals$}")` writes it: the exact binary value rounded half to even, a `-` for any
/// negative value (`-0.0` and `-0.04` at one decimal give `-0.0`), `NaN`, `inf` and `-inf`.
pub fn fixed(value: f64, decimals: usize) -> String {
    let decimals = decimals.min(MAX_DECIMALS);
    if value.is_nan() {
        return "NaN".into();
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    if value.is_infinite() {
        return format!("{sign}inf");
    }
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    // value = mantissa × 2^power, exactly.
    let (mantissa, power) = if biased == 0 { (fraction, -1074) } else { (fraction | (1 << 52), biased - 1075) };
    // The digits of value × 10^decimals rounded to an integer, least significant first.
    let mut digits: Vec<u8> = if power >= 0 {
        // An integer: doubled `power` times in decimal, then shifted by the decimals.
        let mut digits = vec![0; decimals];
        digits.extend(decimal_digits(u128::from(mantissa)));
        for _ in 0..power {
            double(&mut digits);
        }
        digits
    } else {
        // mantissa × 10^decimals < 2^53 × 10^9 < 2^83: one shift and the remainder against one half.
        let scaled = u128::from(mantissa) * 10u128.pow(decimals as u32);
        let shift = power.unsigned_abs();
        let rounded = if shift >= 127 {
            0
        } else {
            let (quotient, half) = (scaled >> shift, 1u128 << (shift - 1));
            let remainder = scaled - (quotient << shift);
            quotient + u128::from(remainder > half || (remainder == half && quotient & 1 == 1))
        };
        decimal_digits(rounded)
    };
    // At least one digit before the point.
    while digits.len() <= decimals {
        digits.push(0);
    }
    let mut out = String::with_capacity(digits.len() + 2);
    out.push_str(sign);
    for (i, d) in digits.iter().enumerate().rev() {
        out.push(char::from(b'0' + d));
        if i == decimals && decimals > 0 {
            out.push('.');
        }
    }
    out
}

/// The decimal digits of `n`, least significant first (none for 0).
fn decimal_digits(mut n: u128) -> Vec<u8> {
    let mut digits = Vec::new();
    while n > 0 {
        digits.push((n % 10) as u8);
        n /= 10;
    }
    digits
}

/// Doubles the number whose decimal digits (least significant first) are `digits`.
fn double(digits: &mut Vec<u8>) {
    let mut carry = 0;
    for d in digits.iter_mut() {
        let twice = *d * 2 + carry;
        *d = twice % 10;
        carry = twice / 10;
    }
    if carry > 0 {
        digits.push(carry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn std_fixed(value: f64, decimals: usize) -> String {
        format!("{value:.decimals$}")
    }

    #[test]
    fn writes_what_std_writes_for_ties_signs_and_the_ends_of_the_range() {
        let values = [
            0.0, -0.0, 0.25, 0.5, 1.5, 2.5, 0.125, 0.375, -0.04, 0.05, 0.95, 9.95, 99.95, 999.5, 1e300, -1e300,
            f64::MAX, f64::MIN_POSITIVE, 5e-324, 1e-10, 123_456_789.987_654_3, 4503599627370495.5, 9007199254740993.0,
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY,
        ];
        for v in values {
            for d in 0..=MAX_DECIMALS {
                assert_eq!(fixed(v, d), std_fixed(v, d), "{v:e} at {d} decimals");
            }
        }
    }

    #[test]
    fn writes_what_std_writes_for_many_numbers() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for i in 0..60_000 {
            let r = next();
            let v = match i % 4 {
                // Any bit pattern: every exponent, subnormals, huge values.
                0 => f64::from_bits(r),
                // Timings and sizes as the page shows them, many of them ties at some precision.
                1 => (r % 2_000_000) as f64 / 8.0,
                2 => (r % 100_000_000) as f64 / 1000.0,
                _ => (r % 10_000) as f64 * 0.05 - 100.0,
            };
            let d = (next() % 4) as usize;
            assert_eq!(fixed(v, d), std_fixed(v, d), "{v:e} at {d} decimals");
        }
    }
}
