//! How deep a line of JSON leaves its value: for a JSON value written over several lines (a
//! pretty-printed answer, as OpenAI's non-streamed `chat.completion`), whose lines are not JSON one by one.

/// The nesting depth after `line`, from `depth` before it: objects and arrays opened minus those closed,
/// outside strings (a JSON string never spans lines); `None` when the line closes more than is open.
pub fn nesting_after(line: &str, mut depth: usize) -> Option<usize> {
    let (mut in_string, mut escaped) = (false, false);
    for byte in line.bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.checked_sub(1)?,
            _ => {}
        }
    }
    Some(depth)
}

#[cfg(test)]
mod tests {
    use super::nesting_after;

    #[test]
    fn opens_closes_and_strings() {
        assert_eq!(nesting_after("{", 0), Some(1));
        assert_eq!(nesting_after(r#"  "choices": [{"text": "a } ] { \" \\"}"#, 1), Some(2));
        assert_eq!(nesting_after("  ]", 3), Some(2));
        assert_eq!(nesting_after("}}", 1), None);
        assert_eq!(nesting_after(r#"{"a": 1}"#, 0), Some(0));
    }
}
