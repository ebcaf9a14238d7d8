//! A run's spec as the page hands it to the measuring worker: a plain JS object (copied by the
//! browser's structured clone, in memory), so neither side compiles a JSON writer or reader for it. Header
//! values are secrets: they travel as the request needs them, as they did as JSON text, and nowhere else.

use js_sys::{Array, Object};
use streamscope_core::secrets::Secret;
use wasm_bindgen::{JsCast, JsValue};

use super::protocol::{get, get_f64, get_str, opt_f64, pair, pairs, set};
use crate::net::request::{RunSpec, Timeouts};

/// `spec` as a JS object: `{url, method, body, headers: [[name, value]], timeouts: {headers_ms,
/// first_byte_ms, idle_ms, total_ms}, key_has_whitespace}` (a missing body or limit is `null`).
pub fn to_js(spec: &RunSpec) -> Object {
    let o = Object::new();
    set(&o, "url", &JsValue::from_str(&spec.url));
    set(&o, "method", &JsValue::from_str(&spec.method));
    set(&o, "body", &spec.body.as_deref().map_or(JsValue::NULL, JsValue::from_str));
    set(&o, "headers", &pairs(spec.headers.iter().map(|(name, value)| (name.as_str(), value.expose()))));
    let limits = Object::new();
    let t = &spec.timeouts;
    for (key, limit) in [("headers_ms", t.headers_ms), ("first_byte_ms", t.first_byte_ms), ("idle_ms", t.idle_ms), ("total_ms", t.total_ms)] {
        set(&limits, key, &opt_f64(limit));
    }
    set(&o, "timeouts", &limits);
    set(&o, "key_has_whitespace", &JsValue::from_bool(spec.key_has_whitespace));
    o
}

/// The spec [`to_js`] wrote; an error names the first field that is not what it says.
pub fn from_js(value: &JsValue) -> Result<RunSpec, String> {
    let text = |key: &str| get_str(value, key).ok_or_else(|| format!("no {key}"));
    let (url, method) = (text("url")?, text("method")?);
    let body = match get(value, "body") {
        v if v.is_null() || v.is_undefined() => None,
        v => Some(v.as_string().ok_or("a body that is not text")?),
    };
    let headers = get(value, "headers")
        .dyn_into::<Array>()
        .map_err(|_| "no headers")?
        .iter()
        .map(|value| pair(&value).map(|(name, value)| (name, Secret::new(value))))
        .collect::<Result<Vec<_>, _>>()?;
    let limits = get(value, "timeouts");
    if !limits.is_object() {
        return Err("no timeouts".into());
    }
    let limit = |key: &str| get_f64(&limits, key);
    Ok(RunSpec {
        url,
        method,
        body,
        headers,
        timeouts: Timeouts {
            headers_ms: limit("headers_ms"),
            first_byte_ms: limit("first_byte_ms"),
            idle_ms: limit("idle_ms"),
            total_ms: limit("total_ms"),
        },
        key_has_whitespace: get(value, "key_has_whitespace").as_bool().ok_or("no key_has_whitespace")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_spec_comes_back_as_it_was_sent() {
        let spec = RunSpec {
            url: "https://example.test/v1/chat/completions".into(),
            method: "POST".into(),
            body: Some("{\"stream\":true}".into()),
            headers: vec![("Authorization".into(), Secret::new("Bearer sk-test")), ("X-Empty".into(), Secret::new(""))],
            timeouts: Timeouts { headers_ms: Some(30_000.0), first_byte_ms: None, idle_ms: Some(1.5), total_ms: None },
            key_has_whitespace: true,
        };
        assert!(from_js(&to_js(&spec).into()) == Ok(spec.clone()));
        let without_body = RunSpec { body: None, ..spec };
        assert!(from_js(&to_js(&without_body).into()) == Ok(without_body));
    }

    #[wasm_bindgen_test]
    fn a_malformed_spec_is_refused_with_the_field() {
        assert_eq!(from_js(&JsValue::NULL).err().as_deref(), Some("no url"));
        let spec = RunSpec {
            url: "u".into(),
            method: "GET".into(),
            body: None,
            headers: Vec::new(),
            timeouts: Timeouts::default(),
            key_has_whitespace: false,
        };
        let o = to_js(&spec);
        set(&o, "headers", &Array::of1(&JsValue::from_str("not a pair")));
        assert_eq!(from_js(&o.into()).err().as_deref(), Some("a header that is not a pair"));
    }
}
