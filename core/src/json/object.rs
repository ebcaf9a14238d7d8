//! `json_object!`: a flat JSON object built from `"key": value` pairs, as findings write their evidence.
//!
//! Why not `serde_json::json!`: it turns each value into JSON with `to_value(&value).unwrap()`, and every
//! `unwrap` is a panic path that formats serde_json's error (`Debug`, and through it the messages of every
//! error code): about 200 values across the findings. Turning this crate's values into JSON does not fail
//! (string keys only; a non-finite float becomes `null`), so [`to_json`] says `null` where `to_value` would
//! err, and no panic path is compiled.

use serde::Serialize;
use serde_json::Value;

/// `value` as JSON; `null` if serde_json refuses it (see the module docs).
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A JSON object of `"key": value` pairs, each value through [`to_json`]:
/// `json_object!({"at_ms": at_ms, "message": message})`.
macro_rules! json_object {
    ({ $($key:literal : $value:expr),* $(,)? }) => {{
        let mut map = serde_json::Map::new();
        $( map.insert(String::from($key), $crate::json::to_json(&$value)); )*
        serde_json::Value::Object(map)
    }};
}
