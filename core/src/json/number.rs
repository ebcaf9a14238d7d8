//! A JSON number read to the very value `serde_json` (with `float_roundtrip`) gives: an unsigned or
//! negative integer when it fits, else the correctly rounded `f64`.
//!
//! Correct rounding without std's float parser or serde_json's: a decimal of at most 19 significant
//! digits below 2^53 with a power of ten up to 10^22 is one exact IEEE operation (Clinger's fast path,
//! as [`crate::decimal`] reads the form's numbers). Anything else (17 digits like `0.30000000000000004`,
//! huge or tiny magnitudes, long digit strings) is divided out exactly in big integers: the quotient's
//! 55 or 56 leading bits and whether anything was left over decide the rounding, half to even, with
//! subnormals and overflow handled where the bits are put together. Past [`MAX_DIGITS`] significant
//! digits only whether any further digit is non-zero can matter (every value halfway between two
//! `f64`s has at most 767), so the digits kept are bounded whatever the text's length.

use crate::decimal::POWERS_OF_TEN;

/// A number as JSON text holds it, typed as serde_json types it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A non-negative integer that fits a `u64`.
    Unsigned(u64),
    /// A negative integer that fits an `i64`.
    Negative(i64),
    /// Anything else: a fraction, an exponent, `-0`, or an integer beyond 64 bits.
    Float(f64),
}

/// Significant digits kept for the exact path: every midpoint between two `f64`s has at most 767.
const MAX_DIGITS: usize = 800;

/// Why a number was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberError {
    /// Not JSON's number grammar.
    Invalid,
    /// Beyond the largest `f64`.
    OutOfRange,
}

/// The parts of a number's text: its sign, integer and fraction digits and its exponent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumberText<'a> {
    negative: bool,
    int_digits: &'a [u8],
    frac_digits: &'a [u8],
    /// The exponent's value (saturated far beyond any value that is not zero or out of range).
    exponent: i64,
    has_exponent: bool,
}

/// Reads the number at `bytes[*pos..]` (JSON's grammar: `-`, no leading zero, at least one digit after a
/// `.` and after an exponent's sign) and moves `*pos` past it. What follows is the caller's to check.
pub fn read_number(bytes: &[u8], pos: &mut usize) -> Result<Num, NumberError> {
    scan_number(bytes, pos)?.value()
}

/// The grammar half of [`read_number`]: checks the number at `bytes[*pos..]` and moves past it, without
/// working out its value (what skipping a value needs).
pub fn scan_number<'a>(bytes: &'a [u8], pos: &mut usize) -> Result<NumberText<'a>, NumberError> {
    let negative = bytes.get(*pos) == Some(&b'-');
    *pos += usize::from(negative);
    let int_start = *pos;
    match bytes.get(*pos) {
        Some(b'0') => {
            *pos += 1;
            if bytes.get(*pos).is_some_and(u8::is_ascii_digit) {
                return Err(NumberError::Invalid);
            }
        }
        Some(b'1'..=b'9') => *pos += digits_from(bytes, *pos),
        _ => return Err(NumberError::Invalid),
    }
    let int_digits = &bytes[int_start..*pos];
    let mut frac_digits: &[u8] = &[];
    if bytes.get(*pos) == Some(&b'.') {
        let n = digits_from(bytes, *pos + 1);
        if n == 0 {
            return Err(NumberError::Invalid);
        }
        frac_digits = &bytes[*pos + 1..*pos + 1 + n];
        *pos += 1 + n;
    }
    let mut exponent: i64 = 0;
    let has_exponent = matches!(bytes.get(*pos), Some(b'e' | b'E'));
    if has_exponent {
        *pos += 1;
        let exp_negative = bytes.get(*pos) == Some(&b'-');
        *pos += usize::from(matches!(bytes.get(*pos), Some(b'-' | b'+')));
        let n = digits_from(bytes, *pos);
        if n == 0 {
            return Err(NumberError::Invalid);
        }
        for &d in &bytes[*pos..*pos + n] {
            exponent = (exponent * 10 + i64::from(d - b'0')).min(1 << 40);
        }
        *pos += n;
        if exp_negative {
            exponent = -exponent;
        }
    }
    Ok(NumberText { negative, int_digits, frac_digits, exponent, has_exponent })
}

impl NumberText<'_> {
    /// The number's value, typed as serde_json types it.
    pub fn value(&self) -> Result<Num, NumberError> {
        let negative = self.negative;
        if self.frac_digits.is_empty() && !self.has_exponent {
            if let Some(n) = small_integer(self.int_digits) {
                if !negative {
                    return Ok(Num::Unsigned(n));
                }
                // serde_json's rule: `-0` and magnitudes beyond i64 are floats.
                let neg = (n as i64).wrapping_neg();
                return Ok(if neg >= 0 { Num::Float(-(n as f64)) } else { Num::Negative(neg) });
            }
        }
        decimal_to_f64(self.int_digits, self.frac_digits, self.exponent, negative)
            .map(Num::Float)
            .ok_or(NumberError::OutOfRange)
    }
}

/// How many ASCII digits start at `bytes[from..]`.
fn digits_from(bytes: &[u8], from: usize) -> usize {
    bytes.get(from..).map_or(0, |rest| rest.iter().take_while(|b| b.is_ascii_digit()).count())
}

/// The digits as a `u64`, or `None` past `u64::MAX`.
fn small_integer(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')))
}

/// `int.frac × 10^exponent`, correctly rounded (half to even); `None` beyond the largest `f64`.
fn decimal_to_f64(int: &[u8], frac: &[u8], exponent: i64, negative: bool) -> Option<f64> {
    let all = || int.iter().chain(frac).copied();
    let leading_zeros = all().take_while(|&d| d == b'0').count();
    let total = int.len() + frac.len();
    let trailing_zeros = all().rev().take_while(|&d| d == b'0').count();
    let signed = |v: f64| if negative { -v } else { v };
    if leading_zeros == total {
        return Some(signed(0.0));
    }
    // The value is D × 10^e, D the significant digits as an integer of `n` digits.
    let n = (total - leading_zeros - trailing_zeros) as i64;
    let e = exponent - frac.len() as i64 + trailing_zeros as i64;
    if n + e >= 310 {
        return None;
    }
    if n + e <= -324 {
        return Some(signed(0.0));
    }
    let significant = || all().skip(leading_zeros).take(n as usize);
    if n <= 19 {
        let d = significant().fold(0u64, |d, c| d * 10 + u64::from(c - b'0'));
        if d <= 1 << 53 && (-22..=22).contains(&e) {
            let power = POWERS_OF_TEN[e.unsigned_abs() as usize];
            let exact = if e >= 0 { d as f64 * power } else { d as f64 / power };
            return Some(signed(exact));
        }
    }
    let (mut num, mut kept, mut more) = (Big::default(), 0i64, false);
    for d in significant() {
        if kept < MAX_DIGITS as i64 {
            num.mul_add_small(10, u32::from(d - b'0'));
            kept += 1;
        } else if d != b'0' {
            more = true;
            break;
        }
    }
    // The digits dropped scale what was kept; a non-zero one among them is "a little more" (module doc).
    let mut e = e + (n - kept);
    if more {
        num.mul_add_small(10, 1);
        e -= 1;
    }
    let mut den = Big::from_small(1);
    if e >= 0 {
        num.mul_pow10(e as u32);
    } else {
        den.mul_pow10(e.unsigned_abs() as u32);
    }
    // Scale so that num / den is in [2^54, 2^56): its leading 55 or 56 bits then hold the 53 kept, a
    // rounding bit and at least one more.
    let k = num.bit_len() as i64 - den.bit_len() as i64 - 55;
    if k >= 0 {
        den.shl(k as u32);
    } else {
        num.shl(k.unsigned_abs() as u32);
    }
    let (q, rest) = num.div_small_quotient(&den, 56);
    round_to_f64(q, k, rest, negative)
}

/// `q × 2^k`, and a little more when `sticky`, rounded half to even to an `f64` (subnormals included);
/// `None` when it exceeds the largest `f64`. `q` has at most 56 bits.
fn round_to_f64(q: u64, k: i64, sticky: bool, negative: bool) -> Option<f64> {
    let bits = 64 - i64::from(q.leading_zeros());
    // The exponent of the result's last mantissa bit: 53 bits below the top, or the subnormals' floor.
    let mut unit = (k + bits - 53).max(-1074);
    let drop = unit - k;
    let (mut m, half, below) = if drop <= 0 {
        (q << (-drop) as u32, false, sticky)
    } else if drop > 64 {
        (0, false, sticky || q != 0)
    } else {
        let m = if drop == 64 { 0 } else { q >> drop };
        let half = (q >> (drop - 1)) & 1 == 1;
        (m, half, sticky || q & ((1u64 << (drop - 1)) - 1) != 0)
    };
    if half && (below || m & 1 == 1) {
        m += 1;
        if m == 1 << 53 {
            m >>= 1;
            unit += 1;
        }
    }
    let magnitude = if m < 1 << 52 {
        // Subnormal (or zero): `unit` is the floor here.
        f64::from_bits(m)
    } else {
        let biased = unit + 1075;
        if biased >= 2047 {
            return None;
        }
        f64::from_bits(((biased as u64) << 52) | (m & ((1 << 52) - 1)))
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// A non-negative big integer, 32-bit limbs, least significant first.
#[derive(Debug, Clone, Default)]
struct Big(Vec<u32>);

impl Big {
    fn from_small(v: u32) -> Big {
        Big(vec![v])
    }

    /// `self = self × m + a`.
    fn mul_add_small(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    /// `self ×= 10^e`.
    fn mul_pow10(&mut self, mut e: u32) {
        while e >= 9 {
            self.mul_add_small(1_000_000_000, 0);
            e -= 9;
        }
        self.mul_add_small(10u32.pow(e), 0);
    }

    fn bit_len(&self) -> u32 {
        let top = self.0.iter().rposition(|&l| l != 0);
        top.map_or(0, |i| i as u32 * 32 + (32 - self.0[i].leading_zeros()))
    }

    /// `self <<= by`.
    fn shl(&mut self, by: u32) {
        let (limbs, bits) = ((by / 32) as usize, by % 32);
        if bits != 0 {
            let mut carry = 0;
            for limb in &mut self.0 {
                let v = (*limb << bits) | carry;
                carry = *limb >> (32 - bits);
                *limb = v;
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    /// `self >>= 1`.
    fn shr1(&mut self) {
        let mut carry = 0;
        for limb in self.0.iter_mut().rev() {
            let v = (*limb >> 1) | carry;
            carry = *limb << 31;
            *limb = v;
        }
    }

    /// `self >= other`.
    fn ge(&self, other: &Big) -> bool {
        let len = self.0.len().max(other.0.len());
        for i in (0..len).rev() {
            let (a, b) = (self.0.get(i).copied().unwrap_or(0), other.0.get(i).copied().unwrap_or(0));
            if a != b {
                return a > b;
            }
        }
        true
    }

    /// `self -= other` (`self >= other`).
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let v = i64::from(*limb) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = i64::from(v < 0);
            *limb = v.rem_euclid(1 << 32) as u32;
        }
    }

    /// `self / den` by long division when the quotient is below 2^`bits`; whether a remainder was left.
    fn div_small_quotient(mut self, den: &Big, bits: u32) -> (u64, bool) {
        let mut shifted = den.clone();
        shifted.shl(bits - 1);
        let mut q = 0u64;
        for i in (0..bits).rev() {
            if self.ge(&shifted) {
                self.sub(&shifted);
                q |= 1 << i;
            }
            shifted.shr1();
        }
        (q, self.bit_len() != 0)
    }
}

#[cfg(test)]
mod tests;
