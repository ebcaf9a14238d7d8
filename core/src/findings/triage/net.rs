//! Network triage: when `fetch()` failed before any response, the page's follow-up `no-cors` request tells
//! the two causes the browser hides apart.
//!
//! - `cors`: the `no-cors` request reached a server (`probes.no_cors_reached == Some(true)`), so the
//!   server answers but without the CORS headers this page needs; the finding names them.
//! - `unreachable`: nothing answered (`Some(false)`): wrong host or port, server down, firewall, DNS.
//!
//! Without a probe result (`None`) the caller keeps the generic `network_error`.

use serde_json::json;

use crate::findings::{Finding, FindingCode, Severity};
use crate::text::ms as fmt_ms;
use crate::trace::{Trace, TraceEnd};

/// The `cors` or `unreachable` finding for a run whose `fetch()` failed before response headers, or
/// `None` when the run did not end that way or no probe result is known.
pub fn network_finding(trace: &Trace) -> Option<Finding> {
    let Some(TraceEnd::NetworkError { at_ms, message, during_body: false }) = &trace.end else {
        return None;
    };
    let reached = trace.probes.no_cors_reached?;
    let page = trace.request.page_protocol.as_deref();
    if super::url::url_findings(&trace.request.url, page).iter().any(|f| f.code == FindingCode::MixedContent) {
        // The browser blocked the probe as well: its result says nothing about the server.
        return None;
    }
    let origin = origin_of(&trace.request.url);
    Some(if reached { cors(trace, *at_ms, message, origin) } else { unreachable(*at_ms, message, origin) })
}

/// What a CORS answer must carry for this request: `(needs_preflight, allow_headers, allow_methods)`.
pub fn cors_requirements(trace: &Trace) -> (bool, Vec<String>, String) {
    let method = trace.request.method.trim().to_ascii_uppercase();
    let mut headers: Vec<String> = trace.request.header_names.iter().map(|n| n.to_ascii_lowercase()).collect();
    if trace.request.body_len_bytes > 0 && !headers.iter().any(|h| h == "content-type") {
        // The page sends a body as application/json, which is not a CORS-safelisted type.
        headers.push("content-type".into());
    }
    crate::sort::sort(&mut headers);
    headers.dedup();
    let simple_method = matches!(method.as_str(), "GET" | "HEAD" | "POST" | "");
    let needs_preflight = !headers.is_empty() || !simple_method;
    let method = if method.is_empty() { "GET".to_string() } else { method };
    (needs_preflight, headers, method)
}

fn cors(trace: &Trace, at_ms: f64, message: &str, origin: &str) -> Finding {
    let (needs_preflight, headers, method) = cors_requirements(trace);
    let allow_headers = headers.join(", ");
    let preflight = if needs_preflight {
        format!(
            " This request also needs a preflight: the server must answer OPTIONS {origin}… with a 2xx status and \
             Access-Control-Allow-Origin, Access-Control-Allow-Methods: {method} and \
             Access-Control-Allow-Headers: {allow_headers}."
        )
    } else {
        String::new()
    };
    let nginx_headers = if needs_preflight {
        format!(
            " add_header Access-Control-Allow-Methods \"{method}, OPTIONS\" always; add_header \
             Access-Control-Allow-Headers \"{allow_headers}\" always; and answer OPTIONS with 204"
        )
    } else {
        String::new()
    };
    Finding::new(
        FindingCode::Cors,
        Severity::Error,
        "The server answered, but without CORS headers",
        format!(
            "fetch() failed at {} ({message}), but a no-cors request to the same URL reached the server: it is up, \
             and the browser refused to hand its answer to this page because the answer lacks CORS headers.",
            fmt_ms(at_ms)
        ),
    )
    .fix(format!(
        "Make the server (or the proxy in front of it) send Access-Control-Allow-Origin: * (or this page's origin) \
         on every response, errors included.{preflight} Optional: Access-Control-Expose-Headers: * to read headers \
         such as Retry-After, Timing-Allow-Origin: * for connection timings. nginx: add_header \
         Access-Control-Allow-Origin * always;{nginx_headers}."
    ))
    .evidence(json!({"at_ms": at_ms, "message": message, "no_cors_reached": true, "origin": origin,
        "needs_preflight": needs_preflight, "allow_headers": headers, "allow_methods": method}))
}

fn unreachable(at_ms: f64, message: &str, origin: &str) -> Finding {
    Finding::new(
        FindingCode::Unreachable,
        Severity::Error,
        "Nothing answered at this address",
        format!(
            "fetch() failed at {} ({message}), and a no-cors request to {origin} got no answer either: no server \
             answered there (this is not a CORS problem).",
            fmt_ms(at_ms)
        ),
    )
    .fix(
        "Check the host name and port in the URL (http vs https, 8000 vs 8080), that the server is running and \
         listening on that address (0.0.0.0, not only 127.0.0.1, when reached from another machine), and that no \
         firewall, VPN or DNS problem is in the way: try the URL with curl from this machine.",
    )
    .evidence(json!({"at_ms": at_ms, "message": message, "no_cors_reached": false, "origin": origin}))
}

/// `scheme://host:port` of a URL (the whole string when it has no path).
fn origin_of(url: &str) -> &str {
    let url = url.trim();
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let end = url[after_scheme..].find(['/', '?', '#']).map_or(url.len(), |i| after_scheme + i);
    &url[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Probes, RequestSummary};

    fn failed(reached: Option<bool>, method: &str, headers: &[&str], body_len_bytes: usize) -> Trace {
        Trace {
            request: RequestSummary {
                url: "http://10.0.0.5:8000/v1/chat/completions?x=1".into(),
                method: method.into(),
                body_len_bytes,
                header_names: headers.iter().map(|h| h.to_string()).collect(),
                ..RequestSummary::default()
            },
            end: Some(TraceEnd::NetworkError { at_ms: 12.0, message: "Failed to fetch".into(), during_body: false }),
            probes: Probes { no_cors_reached: reached, models: vec![] },
            ..Trace::default()
        }
    }

    #[test]
    fn cors_when_the_no_cors_probe_reached_the_server() {
        let f = network_finding(&failed(Some(true), "POST", &["Authorization"], 120)).expect("cors");
        assert_eq!((f.code, f.severity), (FindingCode::Cors, Severity::Error));
        let fix = f.fix.unwrap();
        for needed in [
            "Access-Control-Allow-Origin",
            "Access-Control-Allow-Headers: authorization, content-type",
            "Access-Control-Allow-Methods: POST",
            "OPTIONS",
        ] {
            assert!(fix.contains(needed), "{needed} missing from {fix}");
        }
        assert_eq!(f.evidence["needs_preflight"], true);
        assert_eq!(f.evidence["origin"], "http://10.0.0.5:8000");
    }

    #[test]
    fn a_simple_get_needs_no_preflight() {
        let f = network_finding(&failed(Some(true), "GET", &[], 0)).expect("cors");
        assert_eq!(f.evidence["needs_preflight"], false);
        let fix = f.fix.unwrap();
        assert!(fix.contains("Access-Control-Allow-Origin") && !fix.contains("preflight"), "{fix}");
    }

    #[test]
    fn unreachable_when_nothing_answered() {
        let f = network_finding(&failed(Some(false), "POST", &[], 10)).expect("unreachable");
        assert_eq!(f.code, FindingCode::Unreachable);
        assert!(f.detail.contains("not a CORS problem"));
        assert!(f.fix.unwrap().contains("port"));
    }

    #[test]
    fn no_probe_result_or_a_break_during_the_body_is_left_to_network_error() {
        assert!(network_finding(&failed(None, "GET", &[], 0)).is_none());
        let mut t = failed(Some(true), "GET", &[], 0);
        t.end = Some(TraceEnd::NetworkError { at_ms: 900.0, message: "reset".into(), during_body: true });
        assert!(network_finding(&t).is_none());
        t.end = Some(TraceEnd::Complete { at_ms: 1.0 });
        assert!(network_finding(&t).is_none());
    }

    #[test]
    fn mixed_content_leaves_the_probe_unread() {
        let mut t = failed(Some(false), "GET", &[], 0);
        t.request.page_protocol = Some("https:".into());
        assert!(network_finding(&t).is_none());
        t.request.page_protocol = Some("http:".into());
        assert_eq!(network_finding(&t).unwrap().code, FindingCode::Unreachable);
    }

    #[test]
    fn odd_urls_never_panic() {
        for url in ["", "://", "http://h", "h?x", "ü://é/"] {
            assert!(!origin_of(url).contains('/') || url.contains("://"));
        }
        assert_eq!(origin_of("https://h:1?x"), "https://h:1");
    }
}
