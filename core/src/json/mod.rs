//! JSON read by core's own small reader: [`parse_value`] gives the `serde_json::Value` that
//! `serde_json::from_str` gives, [`Reader`] walks a text without building it, and
//! [`decode_string_literal`] decodes one string.
//!
//! Why not serde_json's reader for this: it carries an exact float parser (`float_roundtrip`, for an
//! import to read back the very numbers it wrote) with its tables, about 16 KB gzipped, and every chunk
//! of the page that reads a stream's events or a models list needed it (issue 13). What a run reads
//! goes through here instead and comes out the same, floats bit for bit (`number.rs`); serde_json's
//! reader stays for what the page imports, its own typed data (`json_in`). The tests compare the two
//! on generated and mutated texts.
//!
//! The other way, `json_object!` (`object.rs`, with [`to_json`]) builds a flat JSON object of values, as findings write
//! their evidence, without the panic path `serde_json::json!` compiles for every value.

#[macro_use]
mod object;
mod nesting;
mod number;
mod reader;
mod value;

pub use nesting::nesting_after;
pub use number::Num;
pub use object::{object_of, to_json};
pub use reader::{JsonError, Reader};
pub use value::parse_value;

/// Decodes one JSON string literal (its quotes included, nothing around it) as serde_json decodes it;
/// `None` when it is not exactly one valid literal.
pub fn decode_string_literal(literal: &str) -> Option<String> {
    let mut reader = Reader::new(literal);
    if literal.as_bytes().first() != Some(&b'"') {
        return None;
    }
    let text = reader.string().ok()?;
    (reader.offset() == literal.len()).then(|| text.into_owned())
}

#[cfg(test)]
mod tests;
