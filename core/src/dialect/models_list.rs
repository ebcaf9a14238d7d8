//! The model ids of a `GET …/models` answer, read in one pass with bounded memory.
//!
//! The answer is OpenAI's `{"data": [{"id": …}, …]}` or Ollama's `{"models": [{"name": …}, …]}` (`data`
//! wins when both keys are there; an element's `id` wins over its `name`). It comes from whatever server
//! the user typed, so nothing in it is trusted to be small:
//!
//! - the net layer reads at most [`MODELS_BODY_MAX_BYTES`] (1 MiB) of it;
//! - the body is never turned into a `serde_json::Value` (a JSON tree of 100,000 small objects takes
//!   some 50 times the bytes of its text): it is walked once with serde, and every value but the ids is
//!   skipped without being kept;
//! - the first [`MODEL_IDS_KEPT`] (1000) ids are kept and every id is counted ([`ModelIds::total`]);
//!   an id longer than [`MODEL_ID_MAX_BYTES`] (256 bytes: real ids, ARNs included, stay far below) is
//!   counted but not kept;
//! - a body cut at the read cap (or broken further on) still gives the ids read before the cut.
//!
//! The bug this avoids: the whole body was parsed into a `Value`, every id kept, and the
//! `model_not_found` finding then compared each id with every other (quadratic in the list).

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// The most bytes of a models answer the net layer reads (1 MiB: some 20,000 ids with their metadata).
pub const MODELS_BODY_MAX_BYTES: usize = 1024 * 1024;

/// How many ids are kept (the rest are only counted).
pub const MODEL_IDS_KEPT: usize = 1000;

/// The longest id kept, in bytes.
pub const MODEL_ID_MAX_BYTES: usize = 256;

/// The ids a models answer listed: the first [`MODEL_IDS_KEPT`] and how many there were in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModelIds {
    /// The first ids, in the answer's order (each at most [`MODEL_ID_MAX_BYTES`]).
    pub ids: Vec<String>,
    /// How many ids the answer listed, kept or not.
    pub total: usize,
}

impl ModelIds {
    /// Whether some listed ids were not kept.
    pub fn is_cut(&self) -> bool {
        self.total > self.ids.len()
    }
}

/// Model ids from an OpenAI-style (`{"data": [{"id": …}]}`) or Ollama (`{"models": [{"name": …}]}`)
/// answer; empty for anything else. Linear in the body, memory bounded by the caps above.
pub fn model_ids(body: &str) -> ModelIds {
    let mut lists = Lists::default();
    let mut de = serde_json::Deserializer::from_str(body);
    // An error (not JSON, or a body cut at the read cap) keeps what was read before it.
    let _ = TopLevel(&mut lists).deserialize(&mut de);
    if lists.saw_data {
        lists.data
    } else {
        lists.models
    }
}

/// The two lists an answer may carry.
#[derive(Default)]
struct Lists {
    data: ModelIds,
    models: ModelIds,
    saw_data: bool,
}

/// Walks the top-level object.
struct TopLevel<'a>(&'a mut Lists);

/// Walks one list (`data` or `models`), adding its ids.
struct IdList<'a>(&'a mut ModelIds);

/// Reads one element of a list: its `id`, else its `name`, when that is a string.
struct Element<'a>(&'a mut ModelIds);

/// Reads a value that should be a string id (anything else is skipped).
struct IdValue;

/// Accepts scalars and drains arrays and objects of a value that is not what was looked for.
macro_rules! skip_other_values {
    ($out:ty, $none:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_i64<E>(self, _: i64) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_u64<E>(self, _: u64) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_f64<E>(self, _: f64) -> Result<$out, E> {
            Ok($none)
        }
        fn visit_unit<E>(self) -> Result<$out, E> {
            Ok($none)
        }
    };
}

fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

impl<'de> DeserializeSeed<'de> for TopLevel<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopLevel<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a models list")
    }

    skip_other_values!((), ());

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        drain_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<KeyName>()? {
            let list = match key {
                KeyName::Data => {
                    self.0.saw_data = true;
                    &mut self.0.data
                }
                KeyName::Models => &mut self.0.models,
                KeyName::Id | KeyName::Name | KeyName::Other => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            // A repeated key replaces the earlier list, as a JSON object does.
            *list = ModelIds::default();
            map.next_value_seed(IdList(list))?;
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for IdList<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for IdList<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of models")
    }

    skip_other_values!((), ());

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        drain_map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Element(&mut *self.0))?.is_some() {}
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Element<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Element<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a model")
    }

    skip_other_values!((), ());

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        drain_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // `Some(None)`: the key was there with a value that is not a (keepable) string.
        let (mut id, mut name): (Option<Option<Id>>, Option<Option<Id>>) = (None, None);
        while let Some(key) = map.next_key::<KeyName>()? {
            match key {
                KeyName::Id => id = Some(map.next_value_seed(IdValue)?),
                KeyName::Name => name = Some(map.next_value_seed(IdValue)?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let found = match id {
            Some(id) => id,
            None => name.flatten(),
        };
        if let Some(found) = found {
            self.0.total += 1;
            if let Id::Kept(id) = found {
                if self.0.ids.len() < MODEL_IDS_KEPT {
                    self.0.ids.push(id);
                }
            }
        }
        Ok(())
    }
}

/// A string id: kept when short enough, else only counted.
enum Id {
    Kept(String),
    TooLong,
}

impl<'de> DeserializeSeed<'de> for IdValue {
    type Value = Option<Id>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Id>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for IdValue {
    type Value = Option<Id>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a model id")
    }

    skip_other_values!(Option<Id>, None);

    fn visit_str<E>(self, s: &str) -> Result<Option<Id>, E> {
        Ok(Some(if s.len() <= MODEL_ID_MAX_BYTES {
            Id::Kept(s.to_owned())
        } else {
            Id::TooLong
        }))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Option<Id>, A::Error> {
        drain_seq(seq).map(|()| None)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<Id>, A::Error> {
        drain_map(map).map(|()| None)
    }
}

/// The object keys this reader looks at; every other key is skipped without being kept.
enum KeyName {
    Data,
    Models,
    Id,
    Name,
    Other,
}

impl<'de> serde::Deserialize<'de> for KeyName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyName, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = KeyName;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }

            fn visit_str<E>(self, s: &str) -> Result<KeyName, E> {
                Ok(match s {
                    "data" => KeyName::Data,
                    "models" => KeyName::Models,
                    "id" => KeyName::Id,
                    "name" => KeyName::Name,
                    _ => KeyName::Other,
                })
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(body: &str) -> Vec<String> {
        model_ids(body).ids
    }

    #[test]
    fn openai_and_ollama_lists() {
        assert_eq!(
            ids(r#"{"object":"list","data":[{"id":"a","owned_by":{"x":[1,2]}},{"id":"b"}]}"#),
            ["a", "b"]
        );
        assert_eq!(
            ids(r#"{"models":[{"name":"llama3","details":{"family":"llama"}}]}"#),
            ["llama3"]
        );
        assert_eq!(model_ids(r#"{"data":[{"id":"a"},{"id":"b"}]}"#).total, 2);
    }

    #[test]
    fn anything_else_lists_nothing() {
        for body in [
            "<html>",
            "",
            "[]",
            "3",
            r#"{"data": 3}"#,
            r#"{"data": {"id":"a"}}"#,
            r#"{"x":[{"id":"a"}]}"#,
            "\"s\"",
        ] {
            assert_eq!(model_ids(body), ModelIds::default(), "{body}");
        }
    }

    #[test]
    fn data_wins_over_models_and_id_over_name() {
        assert_eq!(
            ids(r#"{"models":[{"name":"m"}],"data":[{"id":"d"}]}"#),
            ["d"]
        );
        assert!(
            ids(r#"{"data":3,"models":[{"name":"m"}]}"#).is_empty(),
            "data present but not a list"
        );
        assert_eq!(
            ids(
                r#"{"data":[{"name":"n","id":"i"},{"name":"only-name"},{"id":3,"name":"x"},7,"s",[1]]}"#
            ),
            ["i", "only-name"]
        );
    }

    #[test]
    fn a_repeated_key_replaces_the_earlier_list() {
        assert_eq!(ids(r#"{"data":[{"id":"a"}],"data":[{"id":"b"}]}"#), ["b"]);
    }

    #[test]
    fn escaped_ids_are_decoded() {
        assert_eq!(ids(r#"{"data":[{"id":"a\"b\u00e9"}]}"#), ["a\"bé"]);
    }

    /// Regression: a list of 100,000 ids was kept whole (and compared id by id with every other one).
    #[test]
    fn a_list_of_100_000_ids_keeps_1000_and_counts_all() {
        let items: Vec<String> = (0..100_000)
            .map(|i| format!("{{\"id\":\"model-{i}\",\"object\":\"model\"}}"))
            .collect();
        let body = format!("{{\"object\":\"list\",\"data\":[{}]}}", items.join(","));
        let start = std::time::Instant::now();
        let list = model_ids(&body);
        assert_eq!(list.ids.len(), MODEL_IDS_KEPT);
        assert_eq!(list.total, 100_000);
        assert!(list.is_cut());
        assert_eq!(
            (list.ids[0].as_str(), list.ids[999].as_str()),
            ("model-0", "model-999")
        );
        assert!(
            start.elapsed().as_secs() < 5,
            "one pass: {:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_body_cut_at_the_read_cap_keeps_the_ids_before_the_cut() {
        let items: Vec<String> = (0..50_000)
            .map(|i| format!("{{\"id\":\"m{i}\"}}"))
            .collect();
        let body = format!("{{\"data\":[{}]}}", items.join(","));
        let cut = &body[..MODELS_BODY_MAX_BYTES.min(body.len()) / 4];
        let list = model_ids(cut);
        assert_eq!(list.ids.len(), MODEL_IDS_KEPT);
        assert!(
            list.total > MODEL_IDS_KEPT && list.total < 50_000,
            "{}",
            list.total
        );
    }

    #[test]
    fn an_overlong_id_is_counted_not_kept() {
        let long = "x".repeat(MODEL_ID_MAX_BYTES + 1);
        let list = model_ids(&format!(r#"{{"data":[{{"id":"{long}"}},{{"id":"ok"}}]}}"#));
        assert_eq!((list.ids, list.total), (vec!["ok".to_string()], 2));
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = format!(
            "{{\"data\":[{{\"id\":\"a\"}},{{\"x\":{}{}}}]}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(ids(&deep), ["a"]);
    }
}
