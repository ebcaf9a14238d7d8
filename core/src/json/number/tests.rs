//! Every number read here against std's `str::parse::<f64>` (correctly rounded), bit for bit: fixed hard
//! cases, random texts of every length, and the exact midpoints between neighbouring `f64`s.

use super::*;
use crate::json::tests::Rng;

/// What `read_number` makes of a whole text, as an `f64` (`None`: refused or out of range).
fn read_f64(text: &str) -> Option<f64> {
    let mut pos = 0;
    let n = read_number(text.as_bytes(), &mut pos).ok()?;
    assert_eq!(pos, text.len(), "{text}: stopped early");
    Some(match n {
        Num::Unsigned(n) => n as f64,
        Num::Negative(n) => n as f64,
        Num::Float(f) => f,
    })
}

/// Checks `text` against std: the same bits, or out of range where std says infinity.
fn check(text: &str) {
    let std: f64 = text.parse().expect("a JSON number std reads");
    match read_f64(text) {
        Some(ours) => assert_eq!(ours.to_bits(), std.to_bits(), "{text}: {ours:e} != {std:e}"),
        None => assert!(std.is_infinite(), "{text}: refused, std reads {std:e}"),
    }
}

#[test]
fn integers_are_typed_as_serde_json_types_them() {
    let num = |t: &str| read_number(t.as_bytes(), &mut 0).unwrap();
    assert_eq!(num("0"), Num::Unsigned(0));
    assert_eq!(num("18446744073709551615"), Num::Unsigned(u64::MAX));
    assert_eq!(num("18446744073709551616"), Num::Float(18446744073709551616.0));
    assert_eq!(num("-5"), Num::Negative(-5));
    assert_eq!(num("-9223372036854775808"), Num::Negative(i64::MIN));
    assert_eq!(num("-9223372036854775809"), Num::Float(-9223372036854775809.0));
    assert!(matches!(num("-0"), Num::Float(z) if z == 0.0 && z.is_sign_negative()));
    assert!(matches!(num("-0.0e5"), Num::Float(z) if z == 0.0 && z.is_sign_negative()));
    assert_eq!(num("1.0"), Num::Float(1.0));
    assert_eq!(num("1E2"), Num::Float(100.0));
}

#[test]
fn json_grammar_is_enforced() {
    for bad in ["", "-", "01", "-01", "1.", ".5", "1e", "1e+", "+1", "1.e5", "-a", "00"] {
        let mut pos = 0;
        let read = read_number(bad.as_bytes(), &mut pos);
        assert!(read.is_err() || pos < bad.len(), "{bad:?} read as {read:?}");
    }
    // A number ends where its grammar does; the caller checks what follows.
    let mut pos = 0;
    assert_eq!(read_number(b"12,3", &mut pos), Ok(Num::Unsigned(12)));
    assert_eq!(pos, 2);
    assert_eq!(read_number(b"1e400", &mut 0), Err(NumberError::OutOfRange));
    assert_eq!(read_number(b"1e99999999999999999999999", &mut 0), Err(NumberError::OutOfRange));
    assert_eq!(read_number(b"0e99999999999999999999999", &mut 0), Ok(Num::Float(0.0)));
    assert_eq!(read_number(b"1e-99999999999999999999999", &mut 0), Ok(Num::Float(0.0)));
}

#[test]
fn hard_cases_round_as_std_does() {
    for text in [
        "0.1",
        "0.30000000000000004",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "2.2250738585072011e-308",
        "2.2250738585072014e-308",
        "4.9e-324",
        "5e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "2.47032822920623272088e-324",
        "9007199254740993",
        "9007199254740992.5",
        "123456789012345678901234567890",
        "1e23",
        "8.98846567431158e307",
        "3.0540042038760143e-300",
        "7.2057594037927933e16",
        "0.000000000000000000000000000000000000000000001",
        "-1.5e-310",
    ] {
        check(text);
    }
    // Far more digits than kept, with the deciding digit at the very end.
    let half_ulp_of_one = format!("1.{}1", "0".repeat(15) + "11022302462515654042363166809082031250" + &"0".repeat(900));
    check(&half_ulp_of_one);
    check(&format!("9007199254740992.{}1", "0".repeat(2000)));
    check(&format!("9007199254740993{}", "0".repeat(2000)));
    check(&format!("0.{}1e10", "0".repeat(5000)));
}

#[test]
fn random_texts_round_as_std_does() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..40_000 {
        let x = f64::from_bits(rng.next() & !(1 << 63));
        if !x.is_finite() {
            continue;
        }
        match rng.below(4) {
            0 => check(&format!("{x:e}")),
            1 => check(&format!("{x:.*e}", rng.below(25) as usize)),
            2 => {
                let digits = 1 + rng.below(40) as usize;
                let text: String = (0..digits).map(|i| char::from((b'0' + rng.below(10) as u8) | u8::from(i == 0))).collect();
                check(&format!("{text}e{}", rng.below(700) as i64 - 350));
            }
            _ => check(&format!("-{x:?}")),
        }
    }
}

/// `a + b` halved, for two non-negative decimals written with the same number of decimals.
fn midpoint(a: &str, b: &str) -> String {
    let width = a.len().max(b.len());
    let pad = |s: &str| format!("{s:0>width$}").into_bytes();
    let (a, b) = (pad(a), pad(b));
    let mut sum = vec![b'0'; width + 1];
    let mut carry = 0;
    for i in (0..width).rev() {
        if a[i] == b'.' {
            sum[i + 1] = b'.';
            continue;
        }
        let d = (a[i] - b'0') + (b[i] - b'0') + carry;
        sum[i + 1] = b'0' + d % 10;
        carry = d / 10;
    }
    sum[0] = b'0' + carry;
    let mut out = String::new();
    let mut rest = 0;
    for &c in &sum {
        if c == b'.' {
            out.push('.');
            continue;
        }
        let d = rest * 10 + (c - b'0');
        out.push(char::from(b'0' + d / 2));
        rest = d % 2;
    }
    assert_eq!(rest, 0, "the sum has a last decimal to spare");
    // JSON allows one leading zero, before the point.
    let digits = out.trim_start_matches('0');
    if digits.starts_with('.') { format!("0{digits}") } else { digits.to_string() }
}

#[test]
fn exact_midpoints_round_to_even_and_a_hair_either_side_rounds_away() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for round in 0..600 {
        // Normal, subnormal and at the top of the range.
        let bits = match round % 3 {
            0 => rng.next() >> 1,
            1 => rng.below(1 << 53),
            _ => 0x7FEF_FFFF_FFFF_FFFF - rng.below(1000),
        };
        let (x, next) = (f64::from_bits(bits), f64::from_bits(bits + 1));
        if !next.is_finite() {
            continue;
        }
        let mid = midpoint(&format!("{x:.1100}"), &format!("{next:.1100}"));
        check(&mid);
        check(&format!("{mid}1"));
        // Just below: the midpoint less one in its last place.
        let mut below = mid.into_bytes();
        let mut i = below.len() - 1;
        loop {
            if below[i] == b'.' {
                i -= 1;
                continue;
            }
            if below[i] > b'0' {
                below[i] -= 1;
                break;
            }
            below[i] = b'9';
            i -= 1;
        }
        check(std::str::from_utf8(&below).unwrap());
    }
}
