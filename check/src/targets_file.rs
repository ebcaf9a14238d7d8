//! `--targets FILE`: many targets from one file, in either of two shapes:
//!
//! - one target per line: a URL, or a JSON object (blank lines and lines starting with `#` are skipped);
//! - a JSON list whose items are URLs or objects.
//!
//! An object's fields: `url`, `name`, `method`, `body` (a string, `@file` relative to the targets
//! file, or any JSON value, sent as written), `vs`, `hops` and `hop_labels` (a list or a
//! comma-separated string), `repeat`, `expect` (a verdict, a list or a comma-separated string),
//! `max_ttft_ms`, `max_tpot_ms`, `max_total_ms`, `page_params` (an object). An unknown field is an
//! error, so a typo never silently checks less.

use std::path::Path;

use serde_json::{Map, Value};
use streamscope_core::config::page_config::{parse_hop_labels, parse_hops};

use crate::criteria::{parse_limit_ms, Expect};
use crate::target::{read_body, TargetSpec};

/// The fields an object may have.
pub const FIELDS: [&str; 13] = [
    "url", "name", "method", "body", "vs", "hops", "hop_labels", "repeat", "expect", "max_ttft_ms", "max_tpot_ms",
    "max_total_ms", "page_params",
];

/// Reads the targets file at `path`.
pub fn read(path: &Path) -> Result<Vec<TargetSpec>, String> {
    let text = std::fs::read_to_string(path).map_err(|err| format!("--targets: cannot read {}: {err}", path.display()))?;
    let base_dir = path.parent().unwrap_or(Path::new("."));
    parse(&text, base_dir).map_err(|err| format!("--targets {}: {err}", path.display()))
}

/// Parses a targets file's text (`@file` bodies relative to `base_dir`).
pub fn parse(text: &str, base_dir: &Path) -> Result<Vec<TargetSpec>, String> {
    let specs = if text.trim_start().starts_with('[') {
        let list: Value = serde_json::from_str(text).map_err(|err| format!("not a JSON list: {err}"))?;
        let items = list.as_array().ok_or("not a JSON list")?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| from_item(item, base_dir).map_err(|err| format!("item {}: {err}", i + 1)))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        let mut specs = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let spec = if line.starts_with('{') {
                serde_json::from_str::<Value>(line)
                    .map_err(|err| format!("not a JSON object: {err}"))
                    .and_then(|v| from_item(&v, base_dir))
            } else if line.contains(char::is_whitespace) {
                Err("expected one URL or one JSON object".to_string())
            } else {
                Ok(TargetSpec { url: Some(line.to_string()), ..TargetSpec::default() })
            };
            specs.push(spec.map_err(|err| format!("line {}: {err}", i + 1))?);
        }
        specs
    };
    if specs.is_empty() {
        return Err("no targets in the file".into());
    }
    Ok(specs)
}

fn from_item(item: &Value, base_dir: &Path) -> Result<TargetSpec, String> {
    match item {
        Value::String(url) => Ok(TargetSpec { url: Some(url.clone()), ..TargetSpec::default() }),
        Value::Object(fields) => from_object(fields, base_dir),
        _ => Err("expected a URL or an object".into()),
    }
}

fn from_object(fields: &Map<String, Value>, base_dir: &Path) -> Result<TargetSpec, String> {
    let mut spec = TargetSpec::default();
    for (key, value) in fields {
        let text = || value.as_str().map(str::to_string).ok_or_else(|| format!("{key}: expected a string"));
        match key.as_str() {
            "url" => spec.url = Some(text()?),
            "name" => spec.name = Some(text()?),
            "method" => spec.method = Some(text()?),
            "vs" => spec.vs = Some(text()?),
            "body" => {
                spec.body = Some(match value {
                    Value::String(body) => read_body(body, base_dir).map_err(|err| format!("body: {err}"))?,
                    other => other.to_string(),
                })
            }
            "hops" => spec.hops = Some(list(key, value, parse_hops)?),
            "hop_labels" => spec.hop_labels = Some(list(key, value, parse_hop_labels)?),
            "repeat" => {
                let repeat = value.as_u64().ok_or("repeat: expected a whole number")?;
                spec.repeat = Some(usize::try_from(repeat).map_err(|_| "repeat: too large")?);
            }
            "expect" => {
                let names = match value {
                    Value::Array(items) => {
                        items.iter().map(|v| v.as_str().ok_or("expect: expected strings")).collect::<Result<Vec<_>, _>>()?.join(",")
                    }
                    _ => text()?,
                };
                spec.expect = Some(Expect::parse(&names).map_err(|err| format!("expect: {err}"))?);
            }
            "max_ttft_ms" | "max_tpot_ms" | "max_total_ms" => {
                let ms = match value {
                    Value::Number(n) => parse_limit_ms(key, &n.to_string())?,
                    _ => return Err(format!("{key}: expected a number")),
                };
                match key.as_str() {
                    "max_ttft_ms" => spec.max_ttft_ms = Some(ms),
                    "max_tpot_ms" => spec.max_tpot_ms = Some(ms),
                    _ => spec.max_total_ms = Some(ms),
                }
            }
            "page_params" => {
                let params = value.as_object().ok_or("page_params: expected an object")?;
                for (name, v) in params {
                    let v = match v {
                        Value::String(s) => s.clone(),
                        Value::Number(_) | Value::Bool(_) => v.to_string(),
                        _ => return Err(format!("page_params.{name}: expected a string or a number")),
                    };
                    spec.page_params.push((name.clone(), v));
                }
            }
            other => return Err(format!("unknown field {other:?} (known: {})", FIELDS.join(", "))),
        }
    }
    Ok(spec)
}

/// A list field: a JSON list of strings, or one string split by `split`.
fn list(key: &str, value: &Value, split: fn(&str) -> Vec<String>) -> Result<Vec<String>, String> {
    match value {
        Value::String(s) => Ok(split(s)),
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map(|s| s.trim().to_string()).ok_or_else(|| format!("{key}: expected strings")))
            .collect(),
        _ => Err(format!("{key}: expected a list or a comma-separated string")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_urls_and_objects() {
        let text = "# production\nhttps://a.example/v1/chat/completions\n\n  {\"url\": \"https://b.example/x\", \"name\": \"b\", \"body\": {\"model\": \"m\"}, \"repeat\": 3, \"expect\": [\"streaming\", \"buffered\"], \"max_ttft_ms\": 900, \"hops\": \"http://h1/x, http://h2/x\", \"page_params\": {\"idle_timeout_s\": 2}}\n";
        let specs = parse(text, Path::new(".")).unwrap();
        assert_eq!(specs.len(), 2);
        assert_eq!(specs[0].url.as_deref(), Some("https://a.example/v1/chat/completions"));
        let b = &specs[1];
        assert_eq!((b.name.as_deref(), b.body.as_deref(), b.repeat), (Some("b"), Some("{\"model\":\"m\"}"), Some(3)));
        assert_eq!(b.hops.as_deref(), Some(&["http://h1/x".to_string(), "http://h2/x".to_string()][..]));
        assert_eq!(b.max_ttft_ms, Some(900.0));
        assert_eq!(b.page_params, vec![("idle_timeout_s".to_string(), "2".to_string())]);
        assert!(b.expect.as_ref().unwrap().accepts("buffered"));
    }

    #[test]
    fn a_json_list_of_urls_and_objects() {
        let specs = parse("[\"http://a/x\", {\"url\": \"http://b/x\", \"method\": \"post\"}]", Path::new(".")).unwrap();
        assert_eq!(specs[1].method.as_deref(), Some("post"));
    }

    #[test]
    fn a_body_file_is_read_relative_to_the_targets_file() {
        let dir = std::env::temp_dir().join(format!("streamscope-check-targets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("req.json"), "{\"stream\":true}").unwrap();
        let specs = parse("{\"url\": \"http://a/x\", \"body\": \"@req.json\"}", &dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(specs[0].body.as_deref(), Some("{\"stream\":true}"));
    }

    #[test]
    fn mistakes_say_where() {
        let cases = [
            ("http://a/x\n{\"url\": \"http://b\", \"ur1\": 1}", "line 2: unknown field \"ur1\""),
            ("http://a/x with words", "line 1: expected one URL"),
            ("[1]", "item 1: expected a URL or an object"),
            ("[{\"url\": 5}]", "item 1: url: expected a string"),
            ("{\"url\": \"http://a\", \"max_tpot_ms\": \"fast\"}", "line 1: max_tpot_ms: expected a number"),
            ("{\"url\": \"http://a\", \"expect\": \"quick\"}", "line 1: expect: not a verdict"),
            ("{\"url\": \"http://a\", \"body\": \"@/no/such/file\"}", "line 1: body: cannot read"),
            ("# nothing\n\n", "no targets"),
            ("[{\"url\": ", "not a JSON list"),
        ];
        for (text, expected) in cases {
            let err = parse(text, Path::new(".")).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }
}
