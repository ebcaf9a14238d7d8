//! The reader against serde_json itself: the same value (floats bit for bit) or an error where serde_json
//! errs, on fixed edge cases, on generated documents and on those documents damaged at random.

use serde_json::Value;

use super::*;

/// A small deterministic generator (xorshift64*), for these tests and the number's.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len() as u64) as usize]
    }
}

/// Equal as values, and floats equal as bits (`-0.0` is not `0.0` here).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_u64(), x.as_i64(), x.is_f64()) == (y.as_u64(), y.as_i64(), y.is_f64())
                && x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits)
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        _ => a == b,
    }
}

/// Checks one text against serde_json.
fn check(text: &str) {
    let ours = parse_value(text);
    match serde_json::from_str::<Value>(text) {
        Ok(theirs) => {
            let ours = ours.unwrap_or_else(|e| panic!("{text:?}: refused at {} but serde_json reads {theirs}", e.at));
            assert!(same(&ours, &theirs), "{text:?}: {ours} != {theirs}");
        }
        Err(e) => assert!(ours.is_err(), "{text:?}: read as {} but serde_json says {e}", ours.unwrap()),
    }
}

#[test]
fn edge_cases_read_as_serde_json_reads_them() {
    for text in [
        "null", "true", "false", "nul", "nulll", "True", " 1 ", "1 2", "", " ", "[]", "{}", "[1,]", "[,1]", "[1,,2]",
        "{\"a\":1,}", "{,}", "{\"a\"}", "{\"a\":}", "{1:2}", "{\"a\":1 \"b\":2}", "[1 2]", "{\"a\":1,\"a\":2}",
        "\"\\u00e9\"", "\"\\uD83D\\uDE00\"", "\"\\uD83D\"", "\"\\uDE00\"", "\"\\uD83Dx\"", "\"\\uD83D\\n\"",
        "\"\\uD83D\\u0041\"", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"a\u{1}b\"", "\"tab\there\"", "\"\\/\\b\\f\"",
        "\"unterminated", "\"\\", "-0", "-0.0", "1e400", "-1e400", "1e-400", "0.30000000000000004", "01", "[01]",
        "18446744073709551616", "-9223372036854775809", "\u{feff}1", "1\u{a0}", "[\"é\", \"中文\"]",
        "{\"choices\":[{\"delta\":{\"content\":\"hi\"},\"index\":0,\"finish_reason\":null}],\"created\":1733500000}",
    ] {
        check(text);
    }
}

#[test]
fn nesting_stops_where_serde_json_stops() {
    for depth in [126, 127, 128, 129, 100_000] {
        check(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
        check(&format!("{}1{}", "{\"a\":[".repeat(depth / 2), "]}".repeat(depth / 2)));
    }
}

/// A random document of `depth` levels at most, with random whitespace.
fn document(rng: &mut Rng, depth: u32, out: &mut String) {
    let ws = |rng: &mut Rng, out: &mut String| out.push_str(rng.pick(&["", "", "", " ", "\n", "\t ", "\r\n"]));
    ws(rng, out);
    match rng.below(if depth == 0 { 4 } else { 6 }) {
        0 => out.push_str(rng.pick(&["null", "true", "false"])),
        1 => {
            let number = rng.pick(&[
                "0", "-0", "7", "-12", "3.25", "1e3", "2.5E-3", "1e308", "4.9e-324", "0.1", "123456789012345678901",
                "-9223372036854775808", "18446744073709551615", "0.30000000000000004", "1.7976931348623157e308",
                "2.2250738585072011e-308", "6.02214076e23",
            ]);
            out.push_str(number);
        }
        2 => {
            out.push('"');
            for _ in 0..rng.below(6) {
                out.push_str(rng.pick(&[
                    "a", "héllo", "中", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\uD83D\\uDE00", "\\t", " ", "\\u0000",
                ]));
            }
            out.push('"');
        }
        3 => {
            let digits: String = (0..1 + rng.below(30)).map(|_| char::from(b'0' + rng.below(10) as u8)).collect();
            out.push_str(&format!("{}.{digits}e{}", rng.below(10), rng.below(80) as i64 - 40));
        }
        4 => {
            out.push('[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                document(rng, depth - 1, out);
            }
            ws(rng, out);
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                ws(rng, out);
                out.push_str(rng.pick(&["\"id\"", "\"content\"", "\"a\"", "\"\\u0061\"", "\"delta\""]));
                ws(rng, out);
                out.push(':');
                document(rng, depth - 1, out);
            }
            ws(rng, out);
            out.push('}');
        }
    }
    ws(rng, out);
}

#[test]
fn generated_and_damaged_documents_read_as_serde_json_reads_them() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let damage = ["", ",", "]", "}", "[", "{", "\"", "\\", ":", "-", ".", "e", "0", "\u{1}", "x", "😀", " "];
    for _ in 0..30_000 {
        let mut text = String::new();
        document(&mut rng, 4, &mut text);
        check(&text);
        // The same with one character replaced, removed or added.
        let chars: Vec<char> = text.chars().collect();
        let at = rng.below(chars.len() as u64 + 1) as usize;
        let mut damaged: String = chars[..at].iter().collect();
        damaged.push_str(rng.pick(&damage));
        let skip = usize::from(rng.below(2) == 0);
        damaged.extend(chars.iter().skip(at + skip));
        check(&damaged);
    }
}

#[test]
fn a_string_literal_decodes_as_serde_json_decodes_it() {
    for literal in ["\"\"", "\"a\"", "\"a\\\"b\"", "\"\\uD83D\\uDE00\"", "\"\\uDE00\"", "\"a", "a\"", "\"a\" ", " \"a\"", "\"a\"\"b\""] {
        let theirs = serde_json::from_str::<String>(literal).ok().filter(|_| literal.starts_with('"') && literal.ends_with('"'));
        assert_eq!(decode_string_literal(literal), theirs, "{literal:?}");
    }
}

#[test]
fn skip_value_walks_what_parse_value_reads() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for _ in 0..10_000 {
        let mut text = String::new();
        document(&mut rng, 5, &mut text);
        let mut reader = Reader::new(&text);
        assert_eq!(reader.skip_value().and_then(|()| reader.end()).is_ok(), parse_value(&text).is_ok(), "{text:?}");
    }
    // Skipping never recurses: nesting far deeper than a value may be is still walked.
    let deep = format!("{}1{}", "[{\"a\":".repeat(200_000), "}]".repeat(200_000));
    assert_eq!(Reader::new(&deep).skip_value(), Ok(()));
}
