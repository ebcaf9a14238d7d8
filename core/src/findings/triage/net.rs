//! Network triage: when `fetch()` failed before any response, the page's follow-up `no-cors` request tells
//! the two causes the browser hides apart.
//!
//! - `cors`: the `no-cors` request reached a server (`probes.no_cors_reached == Some(true)`), so the
//!   server answers but without the CORS headers this page needs; the finding names them.
//! - `unreachable`: nothing answered (`Some(false)`): wrong host or port, server down, firewall, DNS.
//!
//! Without a probe result (`None`) the caller keeps the generic `network_error`.

use crate::findings::{Finding, FindingCode, Severity};
use crate::i18n::keys::TriageNetKey as K;
use crate::i18n::Text;
use crate::text::ms as fmt_ms;
use crate::trace::{RequestSummary, Trace, TraceEnd};

/// The `cors` or `unreachable` finding for a run whose `fetch()` failed before response headers, or
/// `None` when the run did not end that way or no probe result is known.
pub fn network_finding(trace: &Trace) -> Option<Finding> {
    let Some(TraceEnd::NetworkError { at_ms, message, during_body: false }) = &trace.end else {
        return None;
    };
    let reached = trace.probes.no_cors_reached?;
    let page = trace.request.page_protocol.as_deref();
    if super::url::url_findings(&trace.request.url, page).iter().any(|f| matches!(f.code, FindingCode::MixedContent | FindingCode::UrlScheme)) {
        // The browser blocked the probe as well (or sent it nowhere): its result says nothing about the server.
        return None;
    }
    let origin = origin_of(&trace.request.url);
    Some(if reached { cors(trace, *at_ms, message, origin) } else { unreachable(*at_ms, message, origin) })
}

/// What a CORS answer must carry for this request, when cross-origin: `(needs_preflight, allow_headers,
/// allow_methods)`.
pub fn cors_requirements(request: &RequestSummary) -> (bool, Vec<String>, String) {
    let method = request.method.trim().to_ascii_uppercase();
    let mut headers: Vec<String> = request.header_names.iter().map(|n| n.to_ascii_lowercase()).collect();
    if request.body_len_bytes > 0 && !headers.iter().any(|h| h == "content-type") {
        // The page sends a body as application/json, which is not a CORS-safelisted type.
        headers.push("content-type".into());
    }
    crate::sort::sort(&mut headers);
    headers.dedup();
    let method = if method.is_empty() { "GET".to_string() } else { method };
    (needs_preflight(request), headers, method)
}

/// Whether the browser sends a CORS preflight before `request` when it goes to another origin: a method
/// other than GET, HEAD and POST, any extra header (the form's are credentials and the like, never
/// CORS-safelisted), or a body (sent as `application/json`, which is not a safelisted type).
fn needs_preflight(request: &RequestSummary) -> bool {
    let method = request.method.trim();
    let simple_method = ["GET", "HEAD", "POST", ""].iter().any(|m| method.eq_ignore_ascii_case(m));
    !simple_method || !request.header_names.is_empty() || request.body_len_bytes > 0
}

fn cors(trace: &Trace, at_ms: f64, message: &str, origin: &str) -> Finding {
    let (needs_preflight, headers, method) = cors_requirements(&trace.request);
    let allow_headers = headers.join(", ");
    let (preflight, nginx_headers) = if needs_preflight {
        let with_names = |key: K| Text::msg(key).with("method", method.as_str()).with("headers", allow_headers.as_str());
        (with_names(K::CorsPreflight).with("origin", origin), with_names(K::CorsNginxPreflight))
    } else {
        (Text::empty(), Text::empty())
    };
    Finding::new(
        FindingCode::Cors,
        Severity::Error,
        Text::msg(K::CorsTitle),
        Text::msg(K::CorsDetail).with("at", fmt_ms(at_ms)).with("message", message),
    )
    .fix(Text::msg(K::CorsFix).with("preflight", preflight).with("nginx", nginx_headers))
    .evidence(json_object!({"at_ms": at_ms, "message": message, "no_cors_reached": true, "origin": origin,
        "needs_preflight": needs_preflight, "allow_headers": headers, "allow_methods": method}))
}

fn unreachable(at_ms: f64, message: &str, origin: &str) -> Finding {
    Finding::new(
        FindingCode::Unreachable,
        Severity::Error,
        Text::msg(K::UnreachableTitle),
        Text::msg(K::UnreachableDetail).with("at", fmt_ms(at_ms)).with("message", message).with("origin", origin),
    )
    .fix(Text::msg(K::UnreachableFix))
    .evidence(json_object!({"at_ms": at_ms, "message": message, "no_cors_reached": false, "origin": origin}))
}

/// Whether `request` went to another origin than the page's and was not a simple request, so that the
/// browser sent a CORS preflight (`OPTIONS`) before it; `None` when the page's origin was not recorded or
/// either origin cannot be read.
pub fn preflighted(request: &RequestSummary) -> Option<bool> {
    let (page, target) = (origin_parts(request.page_origin.as_deref()?)?, origin_parts(&request.url)?);
    let same = page.0.eq_ignore_ascii_case(target.0) && page.1.eq_ignore_ascii_case(target.1) && page.2 == target.2;
    Some(!same && needs_preflight(request))
}

/// A URL's origin as browsers compare it: `(scheme, host, port)`, without credentials, the port written
/// out for `http` (80) and `https` (443); `None` without a scheme or host. Scheme and host compare
/// without case.
fn origin_parts(url: &str) -> Option<(&str, &str, &str)> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    // A port follows the last colon, unless that colon is inside an IPv6 literal (`[::1]`).
    let (host, port) = match host_port.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => (host, port),
        _ => (host_port, ""),
    };
    let port = match port {
        "" if scheme.eq_ignore_ascii_case("http") => "80",
        "" if scheme.eq_ignore_ascii_case("https") => "443",
        port => port,
    };
    (!host.is_empty()).then_some((scheme, host, port))
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
    use crate::findings::testkit::said_in_both;
    use crate::i18n::Lang;
    use crate::trace::{Probes, RequestSummary};

    /// [`super::network_finding`], its finding checked to be said from the catalogue in every word, and in
    /// Chinese too.
    fn network_finding(trace: &Trace) -> Option<Finding> {
        super::network_finding(trace).map(said_in_both)
    }

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

    /// The browser's message, the origin and the header names go into every language as they are.
    #[test]
    fn the_header_names_and_the_message_stay_verbatim_in_chinese() {
        let f = network_finding(&failed(Some(true), "POST", &["Authorization"], 120)).unwrap().localize(Lang::ZhCn);
        assert!(f.detail.starts_with("fetch() 在 12.0 ms 失败（Failed to fetch），"), "{}", f.detail);
        let fix = f.fix.unwrap();
        for needed in [
            "这个请求还需要预检：服务端必须以 2xx 状态码响应 OPTIONS http://10.0.0.5:8000…",
            "Access-Control-Allow-Methods: POST 和 Access-Control-Allow-Headers: authorization, content-type。",
            "add_header Access-Control-Allow-Headers \"authorization, content-type\" always; 并对 OPTIONS 请求返回 204。",
        ] {
            assert!(fix.contains(needed), "{needed} missing from {fix}");
        }
        let fix = network_finding(&failed(Some(true), "GET", &[], 0)).unwrap().localize(Lang::ZhCn).fix.unwrap();
        assert!(fix.ends_with("always;。") && !fix.contains("预检"), "{fix}");
        let f = network_finding(&failed(Some(false), "POST", &[], 10)).unwrap().localize(Lang::ZhCn);
        assert!(f.detail.contains("对 http://10.0.0.5:8000 的 no-cors 请求也没有得到应答"), "{}", f.detail);
    }

    #[test]
    fn odd_urls_never_panic() {
        for url in ["", "://", "http://h", "h?x", "ü://é/"] {
            assert!(!origin_of(url).contains('/') || url.contains("://"));
        }
        assert_eq!(origin_of("https://h:1?x"), "https://h:1");
    }
}
