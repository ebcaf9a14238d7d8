//! JSON text to a `serde_json::Value`, the very value `serde_json::from_str::<Value>` gives (and an error
//! where it gives one), read by [`super::Reader`].

use serde_json::{Map, Number, Value};

use super::number::Num;
use super::reader::{JsonError, Reader};

/// The deepest nesting read, as serde_json's: 127 arrays or objects inside one another; deeper is an
/// error, not a stack overflow.
const MAX_DEPTH: u32 = 127;

/// The value of a whole JSON text (whitespace around it allowed, nothing else).
pub fn parse_value(text: &str) -> Result<Value, JsonError> {
    let mut reader = Reader::new(text);
    let value = value(&mut reader, MAX_DEPTH)?;
    reader.end()?;
    Ok(value)
}

fn value(r: &mut Reader<'_>, depth_left: u32) -> Result<Value, JsonError> {
    // Too deep: the bracket that would open one level more is where the text is refused.
    let container = |r: &mut Reader<'_>| match depth_left {
        0 => Err(JsonError { at: r.offset() }),
        _ => Ok(()),
    };
    Ok(match r.peek() {
        Some(b'"') => Value::String(r.string()?.into_owned()),
        Some(b'n') => {
            r.literal("null")?;
            Value::Null
        }
        Some(b't') => {
            r.literal("true")?;
            Value::Bool(true)
        }
        Some(b'f') => {
            r.literal("false")?;
            Value::Bool(false)
        }
        Some(b'[') => {
            container(r)?;
            let mut items = Vec::new();
            r.items(b'[', |r| {
                items.push(value(r, depth_left - 1)?);
                Ok(())
            })?;
            Value::Array(items)
        }
        Some(b'{') => {
            container(r)?;
            let mut map = Map::new();
            r.items(b'{', |r| {
                let key = r.key()?.into_owned();
                // A repeated key keeps its last value, as serde_json's map does.
                map.insert(key, value(r, depth_left - 1)?);
                Ok(())
            })?;
            Value::Object(map)
        }
        _ => Value::Number(match r.number()? {
            Num::Unsigned(n) => Number::from(n),
            Num::Negative(n) => Number::from(n),
            // Never `None`: a number read is finite.
            Num::Float(f) => Number::from_f64(f).unwrap_or_else(|| Number::from(0u8)),
        }),
    })
}
