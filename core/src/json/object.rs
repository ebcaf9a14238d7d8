//! `json_object!`: a flat JSON object built from `"key": value` pairs, as findings write their evidence.
//!
//! Why not `serde_json::json!`: it turns each value into JSON with `to_value(&value).unwrap()`, and every
//! `unwrap` is a panic path that formats serde_json's error (`Debug`, and through it the messages of every
//! error code): about 200 values across the findings. Nor `to_value` without the `unwrap`: serde's `Value`
//! serializer is compiled again for every type a value has. [`ToJson`] writes the few kinds evidence
//! holds (numbers, strings, options, lists, the report's named enums) straight into a `Value`, the same
//! JSON `to_value` gives (a non-finite float as `null`; a test compares them).

use serde_json::Value;

/// A value evidence holds, as JSON: written directly, not through serde (whose `Value` serializer was
/// compiled again for every type a finding put in its evidence).
pub trait ToJson {
    /// The value as JSON (a non-finite float as `null`).
    fn to_json(&self) -> Value;
}

/// `value` as JSON.
pub fn to_json<T: ToJson + ?Sized>(value: &T) -> Value {
    value.to_json()
}

macro_rules! to_json_from {
    ($($t:ty),*) => { $( impl ToJson for $t { fn to_json(&self) -> Value { Value::from(*self) } } )* };
}
to_json_from!(f64, u64, u32, u16, u8, usize, i64, i32, bool);

impl ToJson for str {
    fn to_json(&self) -> Value {
        Value::String(self.to_owned())
    }
}

impl ToJson for String {
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl ToJson for Value {
    fn to_json(&self) -> Value {
        self.clone()
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_json)
    }
}

impl<T: ToJson> ToJson for [T] {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        self.as_slice().to_json()
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn to_json(&self) -> Value {
        self.as_slice().to_json()
    }
}

/// A JSON object of `"key": value` pairs, each value through [`to_json`]:
/// `json_object!({"at_ms": at_ms, "message": message})`.
macro_rules! json_object {
    ({ $($key:literal : $value:expr),* $(,)? }) => {
        $crate::json::object_of(&[$($key),*], &mut [$($crate::json::to_json(&$value)),*])
    };
}

/// The object of `keys[i]: values[i]`, what [`json_object!`] builds: one call per object, its keys static
/// data, instead of an allocation and an insert written out for every key.
pub fn object_of(keys: &[&str], values: &mut [Value]) -> Value {
    debug_assert_eq!(keys.len(), values.len(), "a key for every value");
    let mut map = serde_json::Map::new();
    for (key, value) in keys.iter().zip(values) {
        map.insert((*key).to_owned(), std::mem::take(value));
    }
    Value::Object(map)
}

/// The enums evidence holds, written as their names in reports (each enum's `as_str` is its serde name).
macro_rules! to_json_by_name {
    ($($t:ty),*) => { $( impl ToJson for $t { fn to_json(&self) -> Value { Value::String(self.as_str().to_owned()) } } )* };
}
to_json_by_name!(
    crate::dialect::Dialect,
    crate::dialect::error_body::ErrorShape,
    crate::findings::FindingCode,
    crate::wire::framing::Framing,
    crate::dialect::StopReason,
    crate::trace::TimeoutKind,
    crate::verdict::Verdict
);

impl ToJson for serde_json::Map<String, Value> {
    fn to_json(&self) -> Value {
        Value::Object(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dialect, FindingCode, StopReason, Verdict};

    /// What `to_json` writes is what serde's `to_value` wrote before it.
    fn same<T: ToJson + serde::Serialize + ?Sized>(v: &T) {
        assert_eq!(to_json(v), serde_json::to_value(v).unwrap_or(Value::Null));
    }

    #[test]
    fn the_same_json_as_serde() {
        for f in [0.0, -1.5, 1e300, f64::NAN, f64::INFINITY] {
            same(&f);
        }
        same(&(u64::MAX, 7u32).0);
        same(&usize::MAX);
        same(&-3i64);
        same(&true);
        same("a \"quoted\" ☃");
        same(&Some(2.5));
        same(&None::<u32>);
        same(&vec![Some("x"), None]);
        same(&[1u32, 2, 3]);
        same(&[Dialect::AiSdk, Dialect::LlamaCpp]);
        same(&FindingCode::Other("new_code".into()));
        same(&FindingCode::Bursts);
        same(&StopReason::Other("pause_turn".into()));
        same(&Verdict::Buffered);
        same(&crate::wire::framing::Framing::Ndjson);
        same(&crate::trace::TimeoutKind::FirstByte);
        same(&crate::trace::TimeoutKind::AfterEnd);
        same(&crate::dialect::error_body::ErrorShape::OtherJson);
        same(&serde_json::json!({"a": [1, {"b": null}]}));
    }

    #[test]
    fn an_object_holds_each_key_with_its_own_value() {
        let message = String::from("reset");
        let object = json_object!({"at_ms": 12.5, "message": message, "events": None::<u32>, "dialect": Dialect::Gemini});
        assert_eq!(object, serde_json::json!({"at_ms": 12.5, "message": "reset", "events": null, "dialect": "gemini"}));
        assert_eq!(message, "reset", "values are borrowed, not moved");
    }
}
