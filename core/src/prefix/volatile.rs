//! Values that change from one request to the next and so break a prompt cache wherever they sit:
//! timestamps and dates, UUIDs, request and trace ids. Hand-written scanners (no regex crate): from each
//! position where a value may start (after a word boundary), each pattern looks at a bounded window, and
//! the scan goes on after a match. Linear in the text; the leftmost match wins an overlap, so
//! `request_id: 123e4567-…` is one request id, not also a UUID.
//!
//! Patterns (ASCII, letters case-insensitive):
//! - timestamp: ISO 8601 dates with an optional time and zone (`2026-12-01`, `2026-12-01T10:22:33.5Z`,
//!   `2026-12-01 10:22`, `2026/12/01`), `hh:mm:ss`, `12/01/2026` and `01.12.2026`, month names
//!   (`Dec 1, 2026`, `December 1st 2026`, `1 December 2026`), unix epoch seconds (10 digits) and
//!   milliseconds (13 digits) from 2001 to 2033, and phrases that introduce a date (`Today is …`,
//!   `Current time: …`) when no date follows that the other patterns caught;
//! - uuid: `8-4-4-4-12` hex digits;
//! - request id: `req_…`, `chatcmpl-…`, `trace_…`, `span_…`, `msg_…`, `resp_…` with a digit in them,
//!   labelled ids (`request_id: …`, `X-Request-ID=…`, `traceId "…"`, `correlation id: …`,
//!   `session_id: …`), and hex runs of 16 or more digits mixing letters and numbers.
//!
//! The text may be raw or the inside of a JSON string: a JSON escape before a value (`\n2026-…`) counts
//! as a boundary.

use std::ops::Range;

use serde::Serialize;

/// What kind of volatile value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VolatileKind {
    /// A date, time or epoch, or a phrase that introduces one.
    Timestamp,
    /// A UUID.
    Uuid,
    /// A request, trace or session id, or a long hex id.
    RequestId,
}

/// One volatile value found: its kind and byte range in the scanned text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VolatileMatch {
    /// What it is.
    pub kind: VolatileKind,
    /// Where it is in the scanned text (bytes).
    pub range: Range<usize>,
}

/// A phrase's extent past its start, at most (bytes).
const MAX_PHRASE_BYTES: usize = 64;
/// An id longer than this (bytes) is cut to it.
const MAX_ID_BYTES: usize = 128;

/// Phrases that introduce the current date or time.
const PHRASES: [&[u8]; 9] = [
    b"today is",
    b"today's date",
    b"todays date",
    b"current date",
    b"current time",
    b"current datetime",
    b"the date is",
    b"the time is",
    b"as of today",
];

/// Prefixes of provider and tracing ids.
const ID_PREFIXES: [&[u8]; 9] = [b"req_", b"req-", b"request_", b"chatcmpl-", b"resp_", b"msg_", b"trace_", b"trace-", b"span_"];

/// Words that, followed by `id`, label an id.
const ID_LABELS: [&[u8]; 4] = [b"request", b"trace", b"correlation", b"session"];

/// Month names; a match needs the first three letters, and may go on to the full name.
const MONTHS: [&[u8]; 12] = [
    b"january", b"february", b"march", b"april", b"may", b"june", b"july", b"august", b"september", b"october",
    b"november", b"december",
];

/// The entry of `list` (lower case, two bytes or more) that `b[i..]` starts with, letters compared
/// case-insensitively; the first two bytes are compared alone first, as this runs at most words.
fn starts_with_one_of(b: &[u8], i: usize, list: &'static [&'static [u8]]) -> Option<&'static [u8]> {
    let rest = &b[i..];
    let (Some(first), Some(second)) = (rest.first(), rest.get(1)) else { return None };
    let (first, second) = (first.to_ascii_lowercase(), second.to_ascii_lowercase());
    list.iter().copied().find(|p| {
        p[0] == first && p[1] == second && rest.len() >= p.len() && rest[..p.len()].eq_ignore_ascii_case(p)
    })
}

#[inline]
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether position `i` starts a word: the byte before is not `word`, or is the letter of a JSON escape.
#[inline]
fn starts_word(b: &[u8], i: usize, word: fn(u8) -> bool) -> bool {
    if i == 0 || !word(b[i - 1]) {
        return true;
    }
    i >= 2 && b[i - 2] == b'\\' && matches!(b[i - 1], b'n' | b'r' | b't' | b'b' | b'f' | b'u')
}

/// Whether the value ending at `end` ends a word (the next byte is not `word`).
fn ends_word(b: &[u8], end: usize, word: fn(u8) -> bool) -> bool {
    b.get(end).is_none_or(|&c| !word(c))
}

/// The number made of the `n` digits at `i`, if they are all digits.
fn digits(b: &[u8], i: usize, n: usize) -> Option<u32> {
    let s = b.get(i..i + n)?;
    s.iter().all(u8::is_ascii_digit).then(|| s.iter().fold(0, |acc, d| acc * 10 + u32::from(d - b'0')))
}

/// One or two digits at `i`: their value and end.
fn one_or_two_digits(b: &[u8], i: usize) -> Option<(u32, usize)> {
    let first = digits(b, i, 1)?;
    match digits(b, i + 1, 1) {
        Some(second) => Some((first * 10 + second, i + 2)),
        None => Some((first, i + 1)),
    }
}

fn year_ok(y: u32) -> bool {
    (1900..2200).contains(&y)
}

/// `hh:mm`, `hh:mm:ss` or `hh:mm:ss.fff` at `i`: its end. With `need_seconds`, `hh:mm` alone does not
/// count.
fn time_of_day(b: &[u8], i: usize, need_seconds: bool) -> Option<usize> {
    let h = digits(b, i, 2)?;
    let m = (b.get(i + 2) == Some(&b':')).then(|| digits(b, i + 3, 2)).flatten()?;
    if h > 23 || m > 59 {
        return None;
    }
    let mut end = i + 5;
    match (b.get(end) == Some(&b':')).then(|| digits(b, end + 1, 2)).flatten() {
        Some(s) if s <= 60 => end += 3,
        _ if need_seconds => return None,
        _ => return Some(end),
    }
    if b.get(end) == Some(&b'.') && digits(b, end + 1, 1).is_some() {
        end += 1;
        while b.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
    }
    Some(end)
}

/// A time zone after a time: `Z`, `+02:00`, `-0500`, ` UTC`.
fn zone(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(b'Z') => i + 1,
        Some(b'+' | b'-') if digits(b, i + 1, 2).is_some() => {
            if b.get(i + 3) == Some(&b':') && digits(b, i + 4, 2).is_some() {
                i + 6
            } else if digits(b, i + 3, 2).is_some() {
                i + 5
            } else {
                i + 3
            }
        }
        _ if b.get(i..i + 4).is_some_and(|s| s.eq_ignore_ascii_case(b" utc")) => i + 4,
        _ => i,
    }
}

/// `2026-12-01` or `2026/12/01`, then an optional `T10:22[:33[.5]]` or ` 10:22…` and zone.
fn iso_date(b: &[u8], i: usize) -> Option<usize> {
    let y = digits(b, i, 4)?;
    let sep = *b.get(i + 4)?;
    if !year_ok(y) || !matches!(sep, b'-' | b'/') || b.get(i + 7) != Some(&sep) {
        return None;
    }
    let (m, d) = (digits(b, i + 5, 2)?, digits(b, i + 8, 2)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let mut end = i + 10;
    if matches!(b.get(end), Some(b'T' | b' ')) {
        if let Some(t) = time_of_day(b, end + 1, false) {
            end = zone(b, t);
        }
    }
    ends_word(b, end, |c| c.is_ascii_digit()).then_some(end)
}

/// `hh:mm:ss` on its own (seconds required: `10:22` alone is too common to call a time).
fn clock_time(b: &[u8], i: usize) -> Option<usize> {
    let end = zone(b, time_of_day(b, i, true)?);
    ends_word(b, end, |c| c.is_ascii_digit() || c == b':').then_some(end)
}

/// `12/01/2026`, `1.12.2026`, `01-12-2026`: day and month in either order, the year last.
fn numeric_date(b: &[u8], i: usize) -> Option<usize> {
    let (first, at) = one_or_two_digits(b, i)?;
    let sep = *b.get(at)?;
    if !matches!(sep, b'/' | b'.' | b'-') {
        return None;
    }
    let (second, at) = one_or_two_digits(b, at + 1)?;
    if b.get(at) != Some(&sep) || !year_ok(digits(b, at + 1, 4)?) {
        return None;
    }
    let ok = (1..=31).contains(&first) && (1..=31).contains(&second) && (first <= 12 || second <= 12);
    let end = at + 5;
    (ok && ends_word(b, end, |c| c.is_ascii_digit())).then_some(end)
}

/// A month name at `i` (`Dec`, `Dec.`, `December`, `Sept`): its end.
fn month(b: &[u8], i: usize) -> Option<usize> {
    let len = b[i..].iter().take(10).take_while(|c| c.is_ascii_alphabetic()).count();
    if len < 3 {
        return None;
    }
    let word = &b[i..i + len];
    let first3 = [word[0].to_ascii_lowercase(), word[1].to_ascii_lowercase(), word[2].to_ascii_lowercase()];
    let known = MONTHS.iter().any(|m| m[..3] == first3 && (len == 3 || (len == m.len() && m.eq_ignore_ascii_case(word))))
        || word.eq_ignore_ascii_case(b"sept");
    if !known || !ends_word(b, i + len, |c| c.is_ascii_alphabetic()) {
        return None;
    }
    Some(if b.get(i + len) == Some(&b'.') { i + len + 1 } else { i + len })
}

/// Spaces (at least one) at `i`: their end.
fn spaces(b: &[u8], i: usize) -> Option<usize> {
    let n = b[i.min(b.len())..].iter().take(4).take_while(|c| **c == b' ').count();
    (n > 0).then_some(i + n)
}

/// `st`, `nd`, `rd`, `th` after a day number.
fn ordinal(b: &[u8], i: usize) -> usize {
    match b.get(i..i + 2) {
        Some(s) if [b"st", b"nd", b"rd", b"th"].iter().any(|o| s.eq_ignore_ascii_case(*o)) => i + 2,
        _ => i,
    }
}

/// A four-digit year at `i`: its end.
fn year(b: &[u8], i: usize) -> Option<usize> {
    (year_ok(digits(b, i, 4)?) && ends_word(b, i + 4, |c| c.is_ascii_digit())).then_some(i + 4)
}

/// `Dec 1, 2026`, `December 1st 2026`.
fn month_day_year(b: &[u8], i: usize) -> Option<usize> {
    let at = spaces(b, month(b, i)?)?;
    let (day, at) = one_or_two_digits(b, at)?;
    let mut at = ordinal(b, at);
    if b.get(at) == Some(&b',') {
        at += 1;
    }
    ((1..=31).contains(&day)).then_some(())?;
    year(b, spaces(b, at)?)
}

/// `1 December 2026`, `1st of Dec, 2026`.
fn day_month_year(b: &[u8], i: usize) -> Option<usize> {
    let (day, at) = one_or_two_digits(b, i)?;
    let mut at = spaces(b, ordinal(b, at))?;
    if b.get(at..at + 3).is_some_and(|s| s.eq_ignore_ascii_case(b"of ")) {
        at += 3;
    }
    let mut at = month(b, at)?;
    if b.get(at) == Some(&b',') {
        at += 1;
    }
    ((1..=31).contains(&day)).then_some(())?;
    year(b, spaces(b, at)?)
}

/// Unix epoch seconds (10 digits) or milliseconds (13 digits) from 2001 to 2033 (they start with `1`),
/// with an optional fraction.
fn epoch(b: &[u8], i: usize) -> Option<usize> {
    let n = b[i..].iter().take(14).take_while(|c| c.is_ascii_digit()).count();
    if !(n == 10 || n == 13) || b[i] != b'1' {
        return None;
    }
    let mut end = i + n;
    if b.get(end) == Some(&b'.') && digits(b, end + 1, 1).is_some() {
        end += 1;
        while b.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
    }
    ends_word(b, end, |c| is_word(c) || c == b'.').then_some(end)
}

/// `8-4-4-4-12` hex digits.
fn uuid(b: &[u8], i: usize) -> Option<usize> {
    let mut at = i;
    for (n, group) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if n > 0 {
            if b.get(at) != Some(&b'-') {
                return None;
            }
            at += 1;
        }
        if !b.get(at..at + group)?.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        at += group;
    }
    ends_word(b, at, |c| is_word(c) || c == b'-').then_some(at)
}

/// An id token at `i` (`[A-Za-z0-9_.:-]`, cut at [`MAX_ID_BYTES`]) of at least `min` bytes with a digit in it.
fn id_token(b: &[u8], i: usize, min: usize) -> Option<usize> {
    let token: &[u8] = &b[i.min(b.len())..];
    let n = token.iter().take(MAX_ID_BYTES).take_while(|c| is_word(**c) || matches!(c, b'-' | b'.' | b':')).count();
    // A trailing `.` or `:` ends a sentence, not the id.
    let n = n - token[..n].iter().rev().take_while(|c| matches!(c, b'.' | b':')).count();
    (n >= min && token[..n].iter().any(u8::is_ascii_digit)).then_some(i + n)
}

/// `req_8fK2…`, `chatcmpl-…`: a provider or tracing id by its prefix.
fn prefixed_id(b: &[u8], i: usize) -> Option<usize> {
    let p = starts_with_one_of(b, i, &ID_PREFIXES)?;
    id_token(b, i + p.len(), 6)
}

/// `request_id: abc123…`, `X-Request-ID=…`, `traceId "…"`: a labelled id, label included.
fn labelled_id(b: &[u8], i: usize) -> Option<usize> {
    let label = starts_with_one_of(b, i, &ID_LABELS)?;
    let mut at = i + label.len();
    if matches!(b.get(at), Some(b'_' | b'-' | b' ')) {
        at += 1;
    }
    if !b.get(at..at + 2).is_some_and(|s| s.eq_ignore_ascii_case(b"id")) || !ends_word(b, at + 2, |c| c.is_ascii_alphabetic()) {
        return None;
    }
    at += 2;
    let skip = |b: &[u8], mut at: usize| {
        while at < b.len() && matches!(b[at], b'"' | b'\'' | b'\\' | b' ') && at < i + 48 {
            at += 1;
        }
        at
    };
    at = skip(b, at);
    if !matches!(b.get(at), Some(b':' | b'=')) {
        return None;
    }
    id_token(b, skip(b, at + 1), 6)
}

/// A hex run of 16 or more digits with letters and numbers in it (trace ids, hashes of a request).
fn hex_id(b: &[u8], i: usize) -> Option<usize> {
    let n = b[i..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
    let run = &b[i..i + n];
    let mixed = run.iter().any(u8::is_ascii_digit) && run.iter().any(u8::is_ascii_alphabetic);
    (n >= 16 && mixed && ends_word(b, i + n, is_word)).then_some(i + n.min(MAX_ID_BYTES))
}

/// A matcher: the end of a match starting at the position, if there is one.
type Matcher = fn(&[u8], usize) -> Option<usize>;

/// The patterns that name a concrete date or time (a phrase is reported only without one of these).
const DATES: [Matcher; 6] = [iso_date, numeric_date, day_month_year, clock_time, epoch, month_day_year];

/// Whether a concrete date or time starts anywhere in `range`.
fn date_within(b: &[u8], range: Range<usize>) -> bool {
    range.into_iter().any(|j| starts_word(b, j, is_word) && DATES.iter().any(|p| p(b, j).is_some()))
}

/// `Today is …`, `Current time: …`: the phrase and what follows it, to the end of the sentence, line or
/// string (at most [`MAX_PHRASE_BYTES`]); `None` when a concrete date follows (that is reported instead).
fn phrase(b: &[u8], i: usize) -> Option<usize> {
    let p = starts_with_one_of(b, i, &PHRASES)?;
    if !ends_word(b, i + p.len(), |c| c.is_ascii_alphabetic()) {
        return None;
    }
    let limit = (i + MAX_PHRASE_BYTES).min(b.len());
    let mut end = i + p.len();
    // A `.` ends the sentence unless a digit follows (`10.5`).
    let ends_phrase = |end: usize| match b[end] {
        b'\\' | b'"' | b'\n' | b'\r' => true,
        b'.' => !b.get(end + 1).is_some_and(u8::is_ascii_digit),
        _ => false,
    };
    while end < limit && !ends_phrase(end) {
        end += 1;
    }
    // The end may fall inside a multi-byte character: back to its start (continuation bytes are 10xxxxxx).
    while end < b.len() && end > i && (b[end] & 0xC0) == 0x80 {
        end -= 1;
    }
    (!date_within(b, i + p.len()..end)).then_some(end)
}

/// A pattern: its kind, the first bytes it can start with (a [`starts`] mask), and the matcher returning
/// the end of a match.
struct Pattern {
    kind: VolatileKind,
    starts: u32,
    find: Matcher,
}

/// The mask bit of an ASCII letter (either case) or digit (all digits share bit 26); 0 for anything else.
const fn start_bit(c: u8) -> u32 {
    match c {
        b'a'..=b'z' => 1 << (c - b'a'),
        b'A'..=b'Z' => 1 << (c - b'A'),
        b'0'..=b'9' => 1 << 26,
        _ => 0,
    }
}

/// The mask of the bytes in `set`.
const fn starts(set: &[u8]) -> u32 {
    let mut mask = 0;
    let mut i = 0;
    while i < set.len() {
        mask |= start_bit(set[i]);
        i += 1;
    }
    mask
}

const DIGIT: u32 = starts(b"0");
const HEX: u32 = starts(b"0abcdef");

/// Every pattern, in the order tried at one position.
const PATTERNS: [Pattern; 11] = [
    Pattern { kind: VolatileKind::RequestId, starts: starts(b"rtcs"), find: labelled_id },
    Pattern { kind: VolatileKind::RequestId, starts: starts(b"rcmts"), find: prefixed_id },
    Pattern { kind: VolatileKind::Uuid, starts: HEX, find: uuid },
    Pattern { kind: VolatileKind::Timestamp, starts: DIGIT, find: iso_date },
    Pattern { kind: VolatileKind::Timestamp, starts: DIGIT, find: numeric_date },
    Pattern { kind: VolatileKind::Timestamp, starts: DIGIT, find: day_month_year },
    Pattern { kind: VolatileKind::Timestamp, starts: starts(b"jfmasond"), find: month_day_year },
    Pattern { kind: VolatileKind::Timestamp, starts: DIGIT, find: clock_time },
    Pattern { kind: VolatileKind::Timestamp, starts: DIGIT, find: epoch },
    Pattern { kind: VolatileKind::RequestId, starts: HEX, find: hex_id },
    Pattern { kind: VolatileKind::Timestamp, starts: starts(b"tca"), find: phrase },
];

/// Patterns that can start with any byte of the mask.
const ANY_START: u32 = {
    let mut mask = 0;
    let mut i = 0;
    while i < PATTERNS.len() {
        mask |= PATTERNS[i].starts;
        i += 1;
    }
    mask
};

/// The volatile values in `text`, left to right, at most `max` of them (see the module doc). At each word
/// start only the patterns that can start with its first byte are tried.
pub fn volatile_values(text: &str, max: usize) -> Vec<VolatileMatch> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() && out.len() < max {
        let bit = start_bit(b[i]);
        if bit & ANY_START != 0 && starts_word(b, i, is_word) {
            let found = PATTERNS
                .iter()
                .filter(|p| p.starts & bit != 0)
                .find_map(|p| (p.find)(b, i).map(|end| (p.kind, end)));
            if let Some((kind, end)) = found {
                out.push(VolatileMatch { kind, range: i..end });
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(VolatileKind, &str)> {
        volatile_values(text, 50).into_iter().map(|m| (m.kind, &text[m.range])).collect()
    }

    #[test]
    fn dates_and_times_in_their_common_spellings() {
        use VolatileKind::Timestamp as T;
        for (text, value) in [
            ("Current time: 2026-12-01T10:22:33Z.", "2026-12-01T10:22:33Z"),
            ("at 2026-12-01 10:22 local", "2026-12-01 10:22"),
            ("ts=2026-12-01T10:22:33.123+02:00;", "2026-12-01T10:22:33.123+02:00"),
            ("Today is Dec 1, 2026.", "Dec 1, 2026"),
            ("Date: December 1st 2026", "December 1st 2026"),
            ("le 1 December 2026", "1 December 2026"),
            ("on 12/01/2026 and", "12/01/2026"),
            ("Stand: 01.12.2026", "01.12.2026"),
            ("epoch 1764584553 s", "1764584553"),
            ("now_ms=1764584553123", "1764584553123"),
            ("clock 10:22:33 UTC", "10:22:33 UTC"),
            ("\\n2026-12-01\\n", "2026-12-01"),
        ] {
            assert_eq!(found(text), [(T, value)], "{text}");
        }
        assert_eq!(found("Today is Monday. Be kind."), [(T, "Today is Monday")]);
    }

    #[test]
    fn ids_uuids_and_what_is_not_one() {
        use VolatileKind::{RequestId as R, Uuid as U};
        assert_eq!(found("id 123e4567-e89b-12d3-a456-426614174000 ok"), [(U, "123e4567-e89b-12d3-a456-426614174000")]);
        assert_eq!(found("request_id: 123e4567-e89b-12d3-a456-426614174000"), [(R, "request_id: 123e4567-e89b-12d3-a456-426614174000")]);
        assert_eq!(found("See req_8fK2x9Qa1 for it"), [(R, "req_8fK2x9Qa1")]);
        assert_eq!(found("X-Request-ID=ab12cd34ef."), [(R, "Request-ID=ab12cd34ef")]);
        assert_eq!(found("trace 4bf92f3577b34da6a3ce929d0e0e4736 end"), [(R, "4bf92f3577b34da6a3ce929d0e0e4736")]);
        for calm in [
            "You are a helpful assistant. Version 2.1, 10:22 slots, 123456789, 12345678901, request the id",
            "deadbeefdeadbeef (letters only), 1234567890123456 (digits only), trace-level logging",
            "May the 4th, 99 problems, 2026 is a year",
        ] {
            assert!(found(calm).is_empty(), "{calm}: {:?}", found(calm));
        }
    }

    #[test]
    fn bounded_and_safe_on_any_text() {
        let many = "2026-12-01 ".repeat(1000);
        assert_eq!(volatile_values(&many, 20).len(), 20);
        for hostile in ["Today is", "today is é日本語 and on", "2026-", "req_", "request_id:", "1", "\\", "Dec 1,", "12/01/"] {
            let _ = found(hostile);
        }
        let long = format!("Today is {}", "日".repeat(40));
        let m = volatile_values(&long, 5);
        assert!(long.is_char_boundary(m[0].range.end));
    }
}
