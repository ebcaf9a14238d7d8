//! A run's end as the measuring worker hands it to the page: how it ended, the connection's Resource
//! Timing figures and the failure probes' answers, each a plain JS object (copied by the browser's
//! structured clone), so a run needs no JSON writer or reader: JSON is read only by an import, whose
//! code comes with the first one (`ui::on_demand`). The fields are named as the export writes them.

use js_sys::{Array, Object};
use streamscope_core::trace::{ConnectionTiming, ModelsProbe, Probes, TimeoutKind, TraceEnd};
use wasm_bindgen::{JsCast, JsValue};

use super::protocol::{get, get_f64, get_str, get_whole, opt_f64, set};

/// `value` as a JS value: a boolean, or `null` for none.
fn opt_bool(value: Option<bool>) -> JsValue {
    value.map_or(JsValue::NULL, JsValue::from_bool)
}


/// `end` as `{kind, at_ms, ...}`: `message` and `during_body` for a network error, `timeout` and
/// `limit_ms` for a time-out.
pub fn end_to_js(end: &TraceEnd) -> Object {
    let o = Object::new();
    let kind = match end {
        TraceEnd::Complete { .. } => "complete",
        TraceEnd::Cancelled { .. } => "cancelled",
        TraceEnd::NetworkError { message, during_body, .. } => {
            set(&o, "message", &JsValue::from_str(message));
            set(&o, "during_body", &JsValue::from_bool(*during_body));
            "network_error"
        }
        TraceEnd::Timeout { timeout, limit_ms, .. } => {
            set(&o, "timeout", &JsValue::from_str(timeout.as_str()));
            set(&o, "limit_ms", &JsValue::from_f64(*limit_ms));
            "timeout"
        }
    };
    set(&o, "kind", &JsValue::from_str(kind));
    set(&o, "at_ms", &JsValue::from_f64(end.at_ms()));
    o
}

/// The end [`end_to_js`] wrote; an error names what is missing or wrong.
pub fn end_from_js(value: &JsValue) -> Result<TraceEnd, String> {
    let at_ms = get_f64(value, "at_ms").ok_or("no at_ms")?;
    match get_str(value, "kind").as_deref() {
        Some("complete") => Ok(TraceEnd::Complete { at_ms }),
        Some("cancelled") => Ok(TraceEnd::Cancelled { at_ms }),
        Some("network_error") => Ok(TraceEnd::NetworkError {
            at_ms,
            message: get_str(value, "message").ok_or("no message")?,
            during_body: get(value, "during_body").as_bool().ok_or("no during_body")?,
        }),
        Some("timeout") => {
            let name = get_str(value, "timeout").ok_or("no timeout")?;
            let timeout = TimeoutKind::ALL.into_iter().find(|k| k.as_str() == name).ok_or("an unknown timeout")?;
            Ok(TraceEnd::Timeout { at_ms, timeout, limit_ms: get_f64(value, "limit_ms").ok_or("no limit_ms")? })
        }
        _ => Err("an unknown kind".into()),
    }
}

/// The connection's figures as an object (`null` when there are none).
pub fn connection_to_js(connection: Option<&ConnectionTiming>) -> JsValue {
    let Some(c) = connection else { return JsValue::NULL };
    let o = Object::new();
    set(&o, "next_hop_protocol", &c.next_hop_protocol.as_deref().map_or(JsValue::NULL, JsValue::from_str));
    for (key, value) in [
        ("dns_ms", c.dns_ms),
        ("connect_ms", c.connect_ms),
        ("tls_ms", c.tls_ms),
        ("encoded_body_bytes", c.encoded_body_bytes.map(|n| n as f64)),
        ("decoded_body_bytes", c.decoded_body_bytes.map(|n| n as f64)),
        ("request_sent_ms", c.request_sent_ms),
        ("response_start_ms", c.response_start_ms),
    ] {
        set(&o, key, &opt_f64(value));
    }
    set(&o, "timing_allowed", &opt_bool(c.timing_allowed));
    set(&o, "reused", &opt_bool(c.reused));
    o.into()
}

/// The figures [`connection_to_js`] wrote (`None` for anything but an object); a field of the wrong kind
/// reads as not known.
pub fn connection_from_js(value: &JsValue) -> Option<ConnectionTiming> {
    if !value.is_object() {
        return None;
    }
    Some(ConnectionTiming {
        next_hop_protocol: get_str(value, "next_hop_protocol"),
        dns_ms: get_f64(value, "dns_ms"),
        connect_ms: get_f64(value, "connect_ms"),
        tls_ms: get_f64(value, "tls_ms"),
        encoded_body_bytes: get_whole(value, "encoded_body_bytes"),
        decoded_body_bytes: get_whole(value, "decoded_body_bytes"),
        timing_allowed: get(value, "timing_allowed").as_bool(),
        request_sent_ms: get_f64(value, "request_sent_ms"),
        response_start_ms: get_f64(value, "response_start_ms"),
        reused: get(value, "reused").as_bool(),
    })
}

/// The probes' answers as `{no_cors_reached, models: [{url, status, ids, ids_total}]}`.
pub fn probes_to_js(probes: &Probes) -> Object {
    let o = Object::new();
    set(&o, "no_cors_reached", &opt_bool(probes.no_cors_reached));
    let models: Array = probes
        .models
        .iter()
        .map(|m| {
            let p = Object::new();
            set(&p, "url", &JsValue::from_str(&m.url));
            set(&p, "status", &opt_f64(m.status.map(f64::from)));
            set(&p, "ids", &m.ids.iter().map(|id| JsValue::from_str(id)).collect::<Array>());
            set(&p, "ids_total", &opt_f64(m.ids_total.map(|n| n as f64)));
            JsValue::from(p)
        })
        .collect();
    set(&o, "models", &models);
    o
}

/// The answers [`probes_to_js`] wrote (none for anything else); an entry that is not a probe is skipped.
pub fn probes_from_js(value: &JsValue) -> Probes {
    let models = get(value, "models").dyn_into::<Array>().map(|a| a.iter().filter_map(|p| probe_from_js(&p)).collect());
    Probes { no_cors_reached: get(value, "no_cors_reached").as_bool(), models: models.unwrap_or_default() }
}

fn probe_from_js(value: &JsValue) -> Option<ModelsProbe> {
    let ids = get(value, "ids").dyn_into::<Array>().ok()?.iter().filter_map(|id| id.as_string()).collect();
    Some(ModelsProbe {
        url: get_str(value, "url")?,
        status: get_whole(value, "status").and_then(|s| u16::try_from(s).ok()),
        ids,
        ids_total: get_whole(value, "ids_total").and_then(|n| usize::try_from(n).ok()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn every_end_comes_back_as_it_was_sent() {
        let ends = [
            TraceEnd::Complete { at_ms: 12.5 },
            TraceEnd::Cancelled { at_ms: 0.0 },
            TraceEnd::NetworkError { at_ms: 3.25, message: "TypeError: Failed to fetch".into(), during_body: false },
            TraceEnd::Timeout { at_ms: 30_000.0, timeout: TimeoutKind::FirstByte, limit_ms: 30_000.0 },
            TraceEnd::Timeout { at_ms: 9.0, timeout: TimeoutKind::Idle, limit_ms: 8.0 },
        ];
        let every_time_out = TimeoutKind::ALL.map(|timeout| TraceEnd::Timeout { at_ms: 2.5, timeout, limit_ms: 2.0 });
        for end in ends.into_iter().chain(every_time_out) {
            assert_eq!(end_from_js(&end_to_js(&end).into()), Ok(end));
        }
    }

    #[wasm_bindgen_test]
    fn a_malformed_end_is_refused_with_what_is_wrong() {
        assert_eq!(end_from_js(&JsValue::NULL).err().as_deref(), Some("no at_ms"));
        let o = end_to_js(&TraceEnd::Timeout { at_ms: 1.0, timeout: TimeoutKind::Total, limit_ms: 1.0 });
        set(&o, "timeout", &JsValue::from_str("forever"));
        assert_eq!(end_from_js(&o.into()).err().as_deref(), Some("an unknown timeout"));
        let o = end_to_js(&TraceEnd::Complete { at_ms: 1.0 });
        set(&o, "kind", &JsValue::from_str("exploded"));
        assert_eq!(end_from_js(&o.into()).err().as_deref(), Some("an unknown kind"));
    }

    #[wasm_bindgen_test]
    fn connection_figures_and_probes_come_back_as_they_were_sent() {
        let full = ConnectionTiming {
            next_hop_protocol: Some("h2".into()),
            dns_ms: Some(1.5),
            connect_ms: Some(2.0),
            tls_ms: None,
            encoded_body_bytes: Some(4_096),
            decoded_body_bytes: Some(0),
            timing_allowed: Some(true),
            request_sent_ms: Some(3.0),
            response_start_ms: None,
            reused: Some(false),
        };
        assert_eq!(connection_from_js(&connection_to_js(Some(&full))), Some(full));
        assert_eq!(connection_from_js(&connection_to_js(Some(&ConnectionTiming::default()))), Some(ConnectionTiming::default()));
        assert_eq!(connection_from_js(&connection_to_js(None)), None);

        let probes = Probes {
            no_cors_reached: Some(false),
            models: vec![
                ModelsProbe { url: "http://x/v1/models".into(), status: Some(200), ids: vec!["a".into(), "b".into()], ids_total: Some(1_500) },
                ModelsProbe { url: "http://x/models".into(), status: None, ids: Vec::new(), ids_total: None },
            ],
        };
        assert_eq!(probes_from_js(&probes_to_js(&probes).into()), probes);
        assert_eq!(probes_from_js(&JsValue::NULL), Probes::default());
    }
}
