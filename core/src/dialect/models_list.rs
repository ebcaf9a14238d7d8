//! The model ids of a `GET …/models` answer, read in one pass with bounded memory.
//!
//! The answer is OpenAI's `{"data": [{"id": …}, …]}` or Ollama's `{"models": [{"name": …}, …]}` (`data`
//! wins when both keys are there; an element's `id` wins over its `name`). It comes from whatever server
//! the user typed, so nothing in it is trusted to be small:
//!
//! - the net layer reads at most [`MODELS_BODY_MAX_BYTES`] (1 MiB) of it;
//! - the body is never turned into a `serde_json::Value` (a JSON tree of 100,000 small objects takes
//!   some 50 times the bytes of its text): it is walked once with core's JSON reader
//!   ([`crate::json::Reader`]), and every value but the ids is skipped without being kept, at any depth
//!   and without recursion;
//! - the first [`MODEL_IDS_KEPT`] (1000) ids are kept and every id is counted ([`ModelIds::total`]);
//!   an id longer than [`MODEL_ID_MAX_BYTES`] (256 bytes: real ids, ARNs included, stay far below) is
//!   counted but not kept;
//! - a body cut at the read cap (or broken further on) still gives the ids read before the cut.
//!
//! The bug this avoids: the whole body was parsed into a `Value`, every id kept, and the
//! `model_not_found` finding then compared each id with every other (quadratic in the list).

use crate::json::{JsonError, Reader};

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
    // An error (not JSON, or a body cut at the read cap) keeps what was read before it.
    let _ = top_level(&mut Reader::new(body), &mut lists);
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

/// Walks the top-level object (anything else lists nothing; what follows the first value is not read).
fn top_level(r: &mut Reader<'_>, lists: &mut Lists) -> Result<(), JsonError> {
    if r.peek() != Some(b'{') {
        return Ok(());
    }
    r.items(b'{', |r| {
        let list = match &*r.key()? {
            "data" => {
                lists.saw_data = true;
                &mut lists.data
            }
            "models" => &mut lists.models,
            _ => return r.skip_value(),
        };
        // A repeated key replaces the earlier list, as a JSON object does.
        *list = ModelIds::default();
        id_list(r, list)
    })
}

/// Walks one list (`data` or `models`), adding its ids; a value that is not a list is skipped.
fn id_list(r: &mut Reader<'_>, list: &mut ModelIds) -> Result<(), JsonError> {
    if r.peek() != Some(b'[') {
        return r.skip_value();
    }
    r.items(b'[', |r| element(r, list))
}

/// Reads one element of a list: its `id`, else its `name`, when that is a string; an element that is not
/// an object is skipped, and one is counted only once its object has ended.
fn element(r: &mut Reader<'_>, list: &mut ModelIds) -> Result<(), JsonError> {
    if r.peek() != Some(b'{') {
        return r.skip_value();
    }
    // `Some(None)`: the key was there with a value that is not a (keepable) string.
    let (mut id, mut name): (Option<Option<Id>>, Option<Option<Id>>) = (None, None);
    r.items(b'{', |r| {
        let slot = match &*r.key()? {
            "id" => &mut id,
            "name" => &mut name,
            _ => return r.skip_value(),
        };
        *slot = Some(id_value(r)?);
        Ok(())
    })?;
    let found = match id {
        Some(id) => id,
        None => name.flatten(),
    };
    if let Some(found) = found {
        list.total += 1;
        if let Id::Kept(id) = found {
            if list.ids.len() < MODEL_IDS_KEPT {
                list.ids.push(id);
            }
        }
    }
    Ok(())
}

/// A value that should be a string id; anything else is skipped (`None`).
fn id_value(r: &mut Reader<'_>) -> Result<Option<Id>, JsonError> {
    if r.peek() != Some(b'"') {
        r.skip_value()?;
        return Ok(None);
    }
    let id = r.string()?;
    Ok(Some(if id.len() <= MODEL_ID_MAX_BYTES {
        Id::Kept(id.into_owned())
    } else {
        Id::TooLong
    }))
}

/// A string id: kept when short enough, else only counted.
enum Id {
    Kept(String),
    TooLong,
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
    fn deep_nesting_is_walked_without_a_stack_overflow() {
        let deep = format!(
            "{{\"data\":[{{\"id\":\"a\"}},{{\"x\":{}{}}},{{\"id\":\"b\"}}]}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(ids(&deep), ["a", "b"]);
        // Unclosed, it ends the walk and keeps what came before.
        assert_eq!(ids(&format!("{{\"data\":[{{\"id\":\"a\"}},{{\"x\":{}", "[".repeat(100_000))), ["a"]);
    }

    #[test]
    fn keys_are_read_decoded_and_other_values_skipped_whatever_they_hold() {
        assert_eq!(ids(r#"{"\u0064ata":[{"\u0069d":"a"}]}"#), ["a"]);
        assert_eq!(ids(r#"{"data":[{"id":1e999,"name":"n"},{"meta":{"n":-0.5e-400,"s":"\ud83d\ude00"},"id":"b"}]}"#), ["b"]);
        assert_eq!(model_ids(r#"{"data":[{"id":"a"},{"id":"b"#).total, 1, "an element cut short is not counted");
    }
}
