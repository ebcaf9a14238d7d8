//! Reading our own types from JSON text: [`from_str`] is `serde_json::from_str` that reads a struct from
//! a JSON object only, never from an array.
//!
//! Why: `serde_json` reads a struct from `{...}` or from `[...]`, so every derived reader carries a
//! second, array-shaped copy of its field logic (`visit_seq`) that nothing we write ever needs (every
//! struct is written as an object). Reading through [`Objects`], which asks `serde_json` for a map
//! wherever serde asks for a struct, leaves that copy unreachable, and the compiler drops it: 58.7 KB of
//! 1,227 KB raw, 13.4 KB gzipped (BENCHMARKS.md, "Size"). Everything else (errors with their line and
//! column, defaults, unknown fields ignored, enums, options) is `serde_json`'s own behaviour.
//!
//! Every typed read of the page's own data goes through here (exports, reports, the worker's messages),
//! so each type's reader is compiled once; `serde_json::Value` is read with plain `serde_json`.

use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};

/// `serde_json::from_str` for our own types, reading structs from objects only (see the module docs).
pub fn from_str<'a, T: Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Objects(&mut de))?;
    de.end()?;
    Ok(value)
}

/// A deserializer that hands every request to `D`, except that a struct is asked for as a map, and
/// wraps whatever `D` passes on (nested values, elements, map values, enum contents) the same way.
pub struct Objects<D>(pub D);

/// A visitor passing every value through to `V`, wrapping the deserializers and accessors it is given.
struct Wrap<V>(V);

/// Forwards `deserialize_<kind>(visitor)` to the inner deserializer with the visitor wrapped.
macro_rules! forward {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(Wrap(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Objects<D> {
    type Error = D::Error;

    forward! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_option deserialize_unit deserialize_seq
        deserialize_map deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Wrap(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Wrap(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Wrap(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, Wrap(visitor))
    }

    /// The one change: a struct is read as a map (an array where a struct belongs is an "invalid type").
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Wrap(visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, Wrap(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// Passes `visit_<kind>(value)` straight to the inner visitor.
macro_rules! pass {
    ($($method:ident($ty:ty))*) => {$(
        fn $method<E: de::Error>(self, value: $ty) -> Result<V::Value, E> {
            self.0.$method(value)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    pass! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64) visit_i128(i128)
        visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64) visit_u128(u128) visit_f32(f32)
        visit_f64(f64) visit_char(char) visit_str(&str) visit_borrowed_str(&'de str) visit_string(String)
        visit_bytes(&[u8]) visit_borrowed_bytes(&'de [u8]) visit_byte_buf(Vec<u8>)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Objects(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Objects(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Wrap(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Wrap(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Wrap(data))
    }
}

/// A seed whose value is read through [`Objects`].
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Objects(d))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Wrap<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Wrap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Wrap<A> {
    type Error = A::Error;
    type Variant = Wrap<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Wrap<A::Variant>), A::Error> {
        self.0.variant_seed(Seed(seed)).map(|(value, variant)| (value, Wrap(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Wrap<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap(visitor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Shape {
        Dot,
        Line(f64),
        Pair(u8, u8),
        Box { w: u32 },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Inner {
        at_ms: f64,
        #[serde(default)]
        label: Option<String>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Outer {
        n: u64,
        inner: Inner,
        maybe: Option<Inner>,
        list: Vec<Inner>,
        shapes: Vec<Shape>,
        pairs: Vec<(String, String)>,
        map: BTreeMap<String, usize>,
        #[serde(default)]
        missing: usize,
    }

    const OUTER: &str = r#"{"n": 3, "unknown": [1, {"a": 2}], "inner": {"at_ms": 1.5},
        "maybe": {"at_ms": 2, "label": "x"}, "list": [{"at_ms": 0.25}],
        "shapes": ["dot", {"line": 2.5}, {"pair": [1, 2]}, {"box": {"w": 7}}],
        "pairs": [["a", "b"]], "map": {"k": 9}}"#;

    #[test]
    fn reads_what_serde_json_reads_from_objects() {
        let ours: Outer = from_str(OUTER).unwrap();
        let theirs: Outer = serde_json::from_str(OUTER).unwrap();
        assert_eq!(ours, theirs);
        assert_eq!(ours.maybe.unwrap().label.as_deref(), Some("x"));
        assert_eq!(ours.shapes, [Shape::Dot, Shape::Line(2.5), Shape::Pair(1, 2), Shape::Box { w: 7 }]);
    }

    #[test]
    fn refuses_a_struct_written_as_an_array_and_keeps_serde_jsons_errors() {
        assert!(serde_json::from_str::<Inner>("[1.5, null]").is_ok(), "serde_json alone reads it");
        let e = from_str::<Inner>("[1.5, null]").unwrap_err();
        assert!(e.to_string().starts_with("invalid type: sequence, expected struct Inner"), "{e}");
        let e = from_str::<Outer>(&OUTER.replace(r#""n": 3"#, r#""n": "3""#)).unwrap_err();
        assert_eq!(e.to_string(), serde_json::from_str::<Outer>(&OUTER.replace(r#""n": 3"#, r#""n": "3""#)).unwrap_err().to_string());
        assert!(e.to_string().contains("line 1 column"), "{e}");
        let e = from_str::<Inner>(r#"{"label": "x"}"#).unwrap_err();
        assert!(e.to_string().starts_with("missing field `at_ms`"), "{e}");
        assert!(from_str::<Inner>(r#"{"at_ms": 1} x"#).is_err(), "trailing characters");
    }
}
