//! Reads the body of an HTTP error answer: the JSON error shapes of the common APIs (OpenAI and
//! DeepSeek `{"error":{"message","type","code"}}`, Anthropic `{"type":"error","error":{"type","message"}}`,
//! a bare `message`/`detail`), an HTML error page from a proxy or web server (title, heading and the
//! server it names), or plain text.

use serde::Serialize;
use serde_json::Value;

use crate::text::truncate_chars;
use crate::trace::Trace;
use crate::wire::utf8::decode_lossy;

/// Which kind of error body arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorShape {
    /// `{"error": {...}}` or `{"error": "..."}` (OpenAI, DeepSeek, vLLM, most gateways).
    Openai,
    /// `{"type": "error", "error": {"type", "message"}}` (Anthropic).
    Anthropic,
    /// Some other JSON (a `message` or `detail` field, FastAPI style).
    OtherJson,
    /// An HTML page: a proxy's or web server's own error page, not the API's answer.
    Html,
    /// Plain text.
    Text,
    /// No body at all.
    Empty,
}

read_by_name!(ErrorShape {
    Openai = "openai",
    Anthropic = "anthropic",
    OtherJson = "other_json",
    Html = "html",
    Text = "text",
    Empty = "empty",
});

/// What an error body says, as far as it can be read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ErrorBody {
    /// The shape recognised (`None` only for the default value).
    pub shape: Option<ErrorShape>,
    /// The human message (`error.message`, `message`, `detail`, the HTML title, or the start of the text).
    pub message: Option<String>,
    /// `error.type` (OpenAI `invalid_request_error`, Anthropic `not_found_error`, …).
    pub error_type: Option<String>,
    /// `error.code` (OpenAI `model_not_found`, `invalid_api_key`, …), as a string.
    pub code: Option<String>,
    /// For an HTML page: the server or proxy the page names (`nginx`, `cloudflare`, …) or, failing that,
    /// the readable `Server` header.
    pub server: Option<String>,
}

/// The most characters of a message kept.
const MESSAGE_MAX_CHARS: usize = 300;

/// Servers and proxies recognised by name in an HTML error page (lower-case needle, display name).
const KNOWN_SERVERS: &[(&str, &str)] = &[
    ("openresty", "OpenResty"),
    ("nginx", "nginx"),
    ("cloudflare", "Cloudflare"),
    ("apache", "Apache"),
    ("envoy", "Envoy"),
    ("traefik", "Traefik"),
    ("haproxy", "HAProxy"),
    ("varnish", "Varnish"),
    ("caddy", "Caddy"),
    ("awselb", "AWS load balancer"),
    ("cloudfront", "CloudFront"),
    ("microsoft-azure-application-gateway", "Azure Application Gateway"),
    ("microsoft-iis", "IIS"),
    ("squid", "Squid"),
];

impl ErrorBody {
    /// Reads the whole body of `trace` (every read) as an error answer.
    pub fn of_trace(trace: &Trace) -> ErrorBody {
        let mut body = Vec::new();
        for r in &trace.reads {
            body.extend_from_slice(&r.bytes);
        }
        let mut parsed = ErrorBody::parse(&body, trace.header("content-type"));
        if parsed.shape == Some(ErrorShape::Html) && parsed.server.is_none() {
            parsed.server = trace.header("server").map(|s| server_name(s).unwrap_or_else(|| s.to_string()));
        }
        parsed
    }

    /// Parses an error body; `content_type` helps tell an HTML page. Never fails: anything unreadable is
    /// plain text.
    pub fn parse(body: &[u8], content_type: Option<&str>) -> ErrorBody {
        let (text, _) = decode_lossy(body);
        let text = text.trim();
        if text.is_empty() {
            return ErrorBody { shape: Some(ErrorShape::Empty), ..ErrorBody::default() };
        }
        if let Ok(v) = crate::json::parse_value(text) {
            if let Some(parsed) = json_error(&v) {
                return parsed;
            }
        }
        let html_type = content_type.is_some_and(|ct| ct.to_ascii_lowercase().contains("html"));
        let lower_start: String = text.chars().take(200).collect::<String>().to_ascii_lowercase();
        if html_type || lower_start.starts_with("<!doctype html") || lower_start.starts_with("<html") {
            return html_error(text);
        }
        ErrorBody {
            shape: Some(ErrorShape::Text),
            message: Some(truncate_chars(text, 200)),
            ..ErrorBody::default()
        }
    }

    /// The message with its type and code appended, as shown to people: `msg (type: t, code: c)`.
    pub fn summary(&self) -> Option<String> {
        let message = self.message.clone()?;
        let extra: Vec<String> = [("type", &self.error_type), ("code", &self.code)]
            .iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}: {v}")))
            .collect();
        Some(if extra.is_empty() { message } else { format!("{message} ({})", extra.join(", ")) })
    }
}

/// A JSON error of a known shape, or `None` when the JSON says nothing about an error.
fn json_error(v: &Value) -> Option<ErrorBody> {
    let text = |x: Option<&Value>| match x {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(truncate_chars(s, MESSAGE_MAX_CHARS)),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    if let Some(err) = v.get("error") {
        let shape = if v.get("type").and_then(Value::as_str) == Some("error") {
            ErrorShape::Anthropic
        } else {
            ErrorShape::Openai
        };
        if err.is_string() {
            return Some(ErrorBody { shape: Some(shape), message: text(Some(err)), ..ErrorBody::default() });
        }
        if err.is_object() {
            return Some(ErrorBody {
                shape: Some(shape),
                message: text(err.get("message")),
                error_type: text(err.get("type")),
                code: text(err.get("code")),
                server: None,
            });
        }
    }
    for key in ["message", "detail"] {
        let found = match v.get(key) {
            // FastAPI's validation errors: `detail` is a list of `{msg, loc}`.
            Some(Value::Array(items)) => items.first().and_then(|i| text(i.get("msg"))),
            other => text(other),
        };
        if let Some(message) = found {
            return Some(ErrorBody {
                shape: Some(ErrorShape::OtherJson),
                message: Some(message),
                error_type: text(v.get("type")),
                code: text(v.get("code")),
                server: None,
            });
        }
    }
    None
}

/// An HTML error page: its title (or first heading) and the server it names.
fn html_error(text: &str) -> ErrorBody {
    let title = tag_text(text, "title").or_else(|| tag_text(text, "h1"));
    // nginx, OpenResty and Apache sign their pages at the bottom: `<hr><center>nginx/1.22.1</center>`.
    let signature = text
        .to_ascii_lowercase()
        .rfind("<hr")
        .and_then(|at| text.get(at..))
        .map(strip_tags)
        .filter(|s| !s.is_empty());
    let server = signature
        .as_deref()
        .and_then(server_name)
        .or_else(|| server_name(&strip_tags(text)));
    ErrorBody {
        shape: Some(ErrorShape::Html),
        message: title.map(|t| truncate_chars(&t, MESSAGE_MAX_CHARS)),
        server,
        ..ErrorBody::default()
    }
}

/// The display name of a known server mentioned in `text`, if any.
fn server_name(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    KNOWN_SERVERS
        .iter()
        .find(|(needle, _)| lower.contains(needle))
        .map(|(_, name)| name.to_string())
}

/// The text inside the first `<tag …>…</tag>`, tags removed and spaces collapsed.
fn tag_text(html: &str, tag: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let open = lower.find(&format!("<{tag}"))?;
    let content_start = open + lower.get(open..)?.find('>')? + 1;
    let close = content_start + lower.get(content_start..)?.find(&format!("</{tag}"))?;
    let inner = strip_tags(html.get(content_start..close)?);
    (!inner.is_empty()).then_some(inner)
}

/// Text without tags, whitespace collapsed.
fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    let mut words = String::with_capacity(out.len());
    for word in out.split_whitespace() {
        if !words.is_empty() {
            words.push(' ');
        }
        words.push_str(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    const NGINX_502: &str = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n\
        <center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n";

    #[test]
    fn openai_error_shape() {
        let b = ErrorBody::parse(
            br#"{"error":{"message":"The model `gpt-x` does not exist","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#,
            Some("application/json"),
        );
        assert_eq!(b.shape, Some(ErrorShape::Openai));
        assert_eq!(b.message.as_deref(), Some("The model `gpt-x` does not exist"));
        assert_eq!(b.error_type.as_deref(), Some("invalid_request_error"));
        assert_eq!(b.code.as_deref(), Some("model_not_found"));
        assert!(b.summary().unwrap().contains("code: model_not_found"));
    }

    #[test]
    fn deepseek_error_shape_is_the_openai_one() {
        let b = ErrorBody::parse(
            br#"{"error":{"message":"Authentication Fails (no such user)","type":"authentication_error","param":null,"code":"invalid_request_error"}}"#,
            None,
        );
        assert_eq!(b.shape, Some(ErrorShape::Openai));
        assert_eq!(b.error_type.as_deref(), Some("authentication_error"));
    }

    #[test]
    fn anthropic_error_shape() {
        let b = ErrorBody::parse(
            br#"{"type":"error","error":{"type":"not_found_error","message":"model: claude-x"}}"#,
            Some("application/json"),
        );
        assert_eq!(b.shape, Some(ErrorShape::Anthropic));
        assert_eq!(b.error_type.as_deref(), Some("not_found_error"));
        assert_eq!(b.message.as_deref(), Some("model: claude-x"));
        assert_eq!(b.code, None);
    }

    #[test]
    fn string_error_message_and_fastapi_detail() {
        let b = ErrorBody::parse(br#"{"error":"bad key"}"#, None);
        assert_eq!((b.shape, b.message.as_deref()), (Some(ErrorShape::Openai), Some("bad key")));
        let b = ErrorBody::parse(br#"{"detail":[{"loc":["body","model"],"msg":"field required"}]}"#, None);
        assert_eq!((b.shape, b.message.as_deref()), (Some(ErrorShape::OtherJson), Some("field required")));
        let b = ErrorBody::parse(br#"{"detail":"Not Found"}"#, None);
        assert_eq!(b.message.as_deref(), Some("Not Found"));
    }

    #[test]
    fn nginx_html_page_names_nginx() {
        let b = ErrorBody::parse(NGINX_502.as_bytes(), Some("text/html"));
        assert_eq!(b.shape, Some(ErrorShape::Html));
        assert_eq!(b.message.as_deref(), Some("502 Bad Gateway"));
        assert_eq!(b.server.as_deref(), Some("nginx"));
        // Recognised by its start even under a wrong Content-Type.
        let b = ErrorBody::parse(NGINX_502.as_bytes(), Some("application/json"));
        assert_eq!(b.shape, Some(ErrorShape::Html));
    }

    #[test]
    fn html_page_without_a_signature_uses_the_server_header() {
        let mut t = Trace::from_reads(
            503,
            "text/html",
            5.0,
            vec![(6.0, "<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>")],
            crate::trace::TraceEnd::Complete { at_ms: 7.0 },
        );
        assert_eq!(ErrorBody::of_trace(&t).server, None);
        t.headers.push(("server".into(), "cloudflare".into()));
        let b = ErrorBody::of_trace(&t);
        assert_eq!(b.message.as_deref(), Some("Service Unavailable"));
        assert_eq!(b.server.as_deref(), Some("Cloudflare"));
    }

    #[test]
    fn text_empty_and_garbage_never_panic() {
        assert_eq!(ErrorBody::parse(b"", None).shape, Some(ErrorShape::Empty));
        assert_eq!(ErrorBody::parse(b"  \n", None).shape, Some(ErrorShape::Empty));
        let b = ErrorBody::parse(b"upstream connect error", Some("text/plain"));
        assert_eq!((b.shape, b.message.as_deref()), (Some(ErrorShape::Text), Some("upstream connect error")));
        for junk in [&b"<html"[..], b"<title>", b"<title>x</titl", b"\xff\xfe<html><hr", b"{\"error\":7}", b"[1,2]", b"<h1></h1>"] {
            let _ = ErrorBody::parse(junk, Some("text/html")).summary();
        }
        assert_eq!(ErrorBody::parse(b"{\"error\":7}", None).shape, Some(ErrorShape::Text));
    }
}
