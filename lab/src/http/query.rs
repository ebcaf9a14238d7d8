//! Percent-decoding and `application/x-www-form-urlencoded` query parsing.

/// Decodes `%XX` escapes (and `+` as a space when `plus_is_space`), keeping malformed escapes as-is.
pub fn percent_decode(input: &str, plus_is_space: bool) -> Vec<u8> {
    let bytes = input.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                match (hex_value(bytes[i + 1]), hex_value(bytes[i + 2])) {
                    (Some(high), Some(low)) => {
                        out.push(high << 4 | low);
                        i += 3;
                    }
                    _ => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// Parsed query parameters, in order; later duplicates win on lookup.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Parses a raw query string (without the leading `?`); invalid UTF-8 is replaced.
    pub fn parse(raw: &str) -> Self {
        let pairs = raw
            .split('&')
            .filter(|part| !part.is_empty())
            .map(|part| {
                let (key, value) = part.split_once('=').unwrap_or((part, ""));
                (
                    String::from_utf8_lossy(&percent_decode(key, true)).into_owned(),
                    String::from_utf8_lossy(&percent_decode(value, true)).into_owned(),
                )
            })
            .collect();
        Self { pairs }
    }

    /// Every `(key, value)` pair, decoded, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// Returns the last value given for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_escapes_plus_and_keeps_bad_escapes() {
        assert_eq!(percent_decode("a%20b+c%zz%4", true), b"a b c%zz%4");
        assert_eq!(percent_decode("%2e%2E", false), b"..");
        assert_eq!(percent_decode("a+b", false), b"a+b");
    }

    #[test]
    fn last_duplicate_wins() {
        let query = Query::parse("tokens=5&mode=raw&tokens=7&flag");
        assert_eq!(query.get("tokens"), Some("7"));
        assert_eq!(query.get("flag"), Some(""));
        assert_eq!(query.get("missing"), None);
    }
}
