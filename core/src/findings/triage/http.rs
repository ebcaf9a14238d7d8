//! HTTP error triage: one finding for a status of 400 or above, as specific as the status, the readable
//! headers and the error body (see [`crate::dialect::error_body`]) allow.
//!
//! Codes, first match wins:
//! - `proxy_error_page`: the body is an HTML page (a proxy's or web server's own error page, e.g. nginx's
//!   `502 Bad Gateway`), naming the proxy when the page or the `Server` header says it;
//! - `auth`: 401 or 403 (with a separate hint when the typed key had stray whitespace, or no key was sent);
//! - `model_not_found`: 400, 404 or 422 whose error says the model does not exist (`model_not_found` code,
//!   "The model `x` does not exist", DeepSeek "Model Not Exist", Anthropic `not_found_error` about a
//!   model, Ollama "model … not found"), listing the ids the page's `…/models` probes found;
//! - `rate_limited`: 429, with `Retry-After` when the header is readable;
//! - `http_error`: everything else, with plain advice for the status.

use serde_json::Value;

use crate::dialect::models_list::{MODEL_IDS_KEPT, MODEL_ID_MAX_BYTES};
use crate::dialect::error_body::{ErrorBody, ErrorShape};
use crate::findings::{Finding, FindingCode, Severity, Suggestion};
use crate::i18n::keys::TriageHttpKey as K;
use crate::i18n::Text;
use crate::trace::Trace;

/// How many of the listed model ids `model_not_found` names in its detail.
const MODEL_IDS_SHOWN: usize = 20;

/// The triage finding for an HTTP error status, or `None` when the status is below 400 or unknown.
pub fn http_finding(trace: &Trace) -> Option<Finding> {
    let status = trace.status.filter(|&s| s >= 400)?;
    let body = ErrorBody::of_trace(trace);
    let evidence = json_object!({
        "status": status,
        "message": body.summary(),
        "error_type": body.error_type,
        "error_code": body.code,
        "body_shape": body.shape,
        "retry_after": trace.header("retry-after"),
    });
    let finding = if body.shape == Some(ErrorShape::Html) {
        proxy_error_page(status, &body)
    } else if matches!(status, 401 | 403) {
        auth(trace, status, &body)
    } else if matches!(status, 400 | 404 | 422) && is_model_not_found(&body) {
        model_not_found(trace, status, &body)
    } else if status == 429 {
        rate_limited(trace, &body)
    } else {
        let detail = match body.summary() {
            Some(m) => answered(status, Some(m)),
            None => Text::msg(K::AnsweredEmpty).with("status", status.to_string()),
        };
        Finding::new(
            FindingCode::HttpError,
            Severity::Error,
            Text::msg(K::HttpErrorTitle).with("status", status.to_string()),
            detail,
        )
        .fix(status_advice(status))
    };
    Some(merge_evidence(finding, evidence))
}

/// `The server answered HTTP {status}`, with the server's own message (verbatim) when there is one.
fn answered(status: u16, message: Option<String>) -> Text {
    match message {
        Some(m) => Text::msg(K::AnsweredMessage).with("status", status.to_string()).with("message", m),
        None => Text::msg(K::Answered).with("status", status.to_string()),
    }
}

/// Plain advice for an error status, whoever sent it.
pub fn status_advice(status: u16) -> Text {
    Text::msg(match status {
        400 => K::Advice400,
        401 => K::Advice401,
        403 => K::Advice403,
        404 => K::Advice404,
        405 => K::Advice405,
        408 => K::Advice408,
        413 => K::Advice413,
        422 => K::Advice422,
        429 => K::Advice429,
        500 => K::Advice500,
        502 => K::Advice502,
        503 => K::Advice503,
        504 | 524 => K::Advice504,
        529 => K::Advice529,
        s if s < 500 => K::AdviceClient,
        _ => K::AdviceServer,
    })
}

/// Adds `extra`'s keys to the finding's evidence (keeping the finding's own values).
fn merge_evidence(mut finding: Finding, extra: Value) -> Finding {
    if let (Value::Object(own), Value::Object(extra)) = (&mut finding.evidence, extra) {
        for (k, v) in extra {
            own.entry(k).or_insert(v);
        }
    }
    finding
}

fn proxy_error_page(status: u16, body: &ErrorBody) -> Finding {
    let named = |server: &String| Text::msg(K::ProxyServer).with("server", server);
    let who = body.server.as_ref().map_or_else(|| Text::msg(K::ProxyUnnamed), named);
    let title = body.message.as_deref().map_or_else(Text::empty, |t| Text::msg(K::ProxyPageTitle).with("title", t));
    let specific = |key: K| Text::msg(key).with("who", who.clone());
    let fix = match status {
        502 => specific(K::ProxyFix502),
        504 => specific(K::ProxyFix504),
        503 => specific(K::ProxyFix503),
        404 => specific(K::ProxyFix404),
        413 => specific(K::ProxyFix413),
        401 | 403 => specific(K::ProxyFixAuth),
        _ => status_advice(status),
    };
    Finding::new(
        FindingCode::ProxyErrorPage,
        Severity::Error,
        Text::msg(K::ProxyTitle)
            .with("status", status.to_string())
            .with("who", body.server.as_ref().map_or_else(|| Text::msg(K::ProxyUnnamedTitle), named)),
        Text::msg(K::ProxyDetail).with("who", who.clone()).with("status", status.to_string()).with("title", title),
    )
    .fix(fix)
    .evidence(json_object!({"server": body.server, "page_title": body.message}))
}

fn auth(trace: &Trace, status: u16, body: &ErrorBody) -> Finding {
    let key_sent = trace
        .request
        .header_names
        .iter()
        .any(|n| ["authorization", "x-api-key", "api-key"].iter().any(|k| n.eq_ignore_ascii_case(k)));
    let whitespace = trace.request.key_has_whitespace;
    let mut hints = Vec::new();
    if whitespace {
        hints.push(Text::msg(K::AuthWhitespace));
    }
    if !key_sent {
        hints.push(Text::msg(K::AuthNoKey));
    }
    hints.push(status_advice(status));
    let title = Text::msg(if status == 401 { K::AuthTitle401 } else { K::AuthTitle403 });
    Finding::new(FindingCode::Auth, Severity::Error, title, answered(status, body.summary()))
        .fix(Text::join(hints, Text::msg(K::SentenceGap)))
        .evidence(json_object!({"key_sent": key_sent, "key_has_whitespace": whitespace}))
}

/// Whether an error body says the requested model does not exist.
fn is_model_not_found(body: &ErrorBody) -> bool {
    let lower = |s: &Option<String>| s.as_deref().unwrap_or("").to_ascii_lowercase();
    let (code, kind, message) = (lower(&body.code), lower(&body.error_type), lower(&body.message));
    if code == "model_not_found" || kind == "model_not_found" {
        return true;
    }
    if !message.contains("model") {
        return false;
    }
    kind == "not_found_error"
        || ["does not exist", "not exist", "not found", "unknown model", "no such model", "invalid model"]
            .iter()
            .any(|p| message.contains(p))
}

fn model_not_found(trace: &Trace, status: u16, body: &ErrorBody) -> Finding {
    let model = body.message.as_deref().and_then(quoted_model);
    let mut ids: Vec<String> = Vec::new();
    // The ids kept so far, sorted: a binary search per id listed (an imported trace may list any number),
    // at most MODEL_IDS_KEPT insertions; no hash set and its hashing code in the wasm.
    let mut seen: Vec<&str> = Vec::new();
    let mut probed = Vec::new();
    // The most ids one answer listed (a list cut at MODEL_IDS_KEPT says how long it was).
    let mut listed = 0;
    for p in &trace.probes.models {
        probed.push(json_object!({"url": p.url, "status": p.status}));
        listed = listed.max(p.ids_listed());
        // An imported trace may list any number: the finding keeps as many as a probe does.
        for id in &p.ids {
            if ids.len() < MODEL_IDS_KEPT {
                if let Err(at) = seen.binary_search(&id.as_str()) {
                    seen.insert(at, id.as_str());
                    ids.push(id.clone());
                }
            }
        }
    }
    let closest = model.as_deref().and_then(|m| closest_id(m, &ids));
    // Joined as `String`s, the one `join` instance the page's code has.
    let shown = ids.iter().take(MODEL_IDS_SHOWN).cloned().collect::<Vec<String>>().join(", ");
    let alternatives = if ids.is_empty() {
        Text::msg(K::ModelNoList)
    } else if listed > ids.len() {
        Text::msg(K::ModelListedCut).count("listed", listed).with("ids", shown)
    } else {
        let more = if ids.len() > MODEL_IDS_SHOWN { Text::msg(K::ModelListedMore) } else { Text::empty() };
        Text::msg(K::ModelListed).count("n", ids.len()).with("ids", shown).with("more", more)
    };
    let mean = closest.as_deref().map_or_else(Text::empty, |c| Text::msg(K::ModelMean).with("id", c));
    let title =
        model.as_deref().map_or_else(|| Text::msg(K::ModelTitle), |m| Text::msg(K::ModelTitleNamed).with("model", m));
    let finding = Finding::new(
        FindingCode::ModelNotFound,
        Severity::Error,
        title,
        Text::msg(K::ModelDetail)
            .with("answered", answered(status, Some(body.summary().unwrap_or_default())))
            .with("alternatives", alternatives)
            .with("mean", mean),
    )
    .fix(Text::msg(K::ModelFix))
    .evidence(json_object!({"model": model, "alternatives": ids, "closest": closest, "probes": probed}));
    if ids.is_empty() {
        finding
    } else {
        finding.suggest(Suggestion::Models { ids, closest })
    }
}

/// The model id quoted in an error message: between backticks or quotes, or after `model: `.
fn quoted_model(message: &str) -> Option<String> {
    for q in ['`', '"', '\''] {
        let mut parts = message.split(q);
        if let (Some(_), Some(inner), Some(_)) = (parts.next(), parts.next(), parts.next()) {
            if !inner.trim().is_empty() && !inner.contains(' ') {
                return Some(inner.to_string());
            }
        }
    }
    let lower = message.to_ascii_lowercase();
    let at = lower.find("model: ")? + "model: ".len();
    message.get(at..)?.split_whitespace().next().map(|m| m.trim_end_matches(['.', ',']).to_string())
}

/// The listed id closest to `model` (edit distance at most a third of its length), if any. Ids whose
/// length alone differs by more than that are not compared, and a `model` longer than any id kept
/// ([`MODEL_ID_MAX_BYTES`]) has none: the work stays bounded by the ids kept.
fn closest_id(model: &str, ids: &[String]) -> Option<String> {
    if model.len() > MODEL_ID_MAX_BYTES {
        return None;
    }
    let target = model.to_ascii_lowercase();
    let target_chars = target.chars().count();
    let limit = (target_chars / 3).max(1);
    ids.iter()
        .filter(|id| id.len() <= MODEL_ID_MAX_BYTES && id.chars().count().abs_diff(target_chars) <= limit)
        .map(|id| (edit_distance(&target, &id.to_ascii_lowercase()), id))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, id)| id.clone())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb)).min(up + 1).min(row[j] + 1);
            diagonal = up;
        }
    }
    row[b.len()]
}

fn rate_limited(trace: &Trace, body: &ErrorBody) -> Finding {
    let retry_after = trace.header("retry-after").map(str::trim).filter(|v| !v.is_empty());
    let message = body.summary().unwrap_or_default();
    let lower = message.to_ascii_lowercase();
    let quota = ["quota", "insufficient", "billing", "credit", "balance"].iter().any(|w| lower.contains(w));
    // Inserted one by one: collecting into the map (a BTreeMap) sorts the pairs first, with a stable sort
    // of its own in the wasm (issue 13's size budget). A header sent twice keeps its last value either way.
    let mut limits = serde_json::Map::new();
    for (n, v) in trace.headers.iter().filter(|(n, _)| n.starts_with("x-ratelimit-") || n.starts_with("anthropic-ratelimit-")) {
        limits.insert(n.clone(), Value::from(v.as_str()));
    }
    let when = match retry_after {
        Some(v) if crate::decimal::parse_decimal(v).is_some() => Text::msg(K::RetryAfterSeconds).with("after", v),
        Some(v) => Text::msg(K::RetryAfter).with("after", v),
        None => Text::msg(K::NoRetryAfter),
    };
    let (title, fix) = if quota { (K::QuotaTitle, K::QuotaFix) } else { (K::RateTitle, K::RateFix) };
    let said = (!message.is_empty()).then_some(message);
    Finding::new(
        FindingCode::RateLimited,
        Severity::Error,
        Text::msg(title),
        Text::msg(K::RateDetail).with("answered", answered(429, said)).with("when", when),
    )
    .fix(Text::msg(fix))
    .evidence(json_object!({"retry_after": retry_after, "quota": quota, "limits": limits}))
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use super::*;
    use crate::dialect::models_list::model_ids;
    use crate::findings::testkit::said_in_both;
    use crate::i18n::Lang;
    use crate::trace::{ModelsProbe, TraceEnd};

    fn error(status: u16, ct: &str, body: &str) -> Trace {
        Trace::from_reads(status, ct, 40.0, vec![(50.0, body.to_string())], TraceEnd::Complete { at_ms: 51.0 })
    }

    fn json_error(status: u16, body: &str) -> Trace {
        error(status, "application/json", body)
    }

    /// The finding for `t`, every word of it from the catalogue and said in Chinese too.
    fn finding(t: &Trace) -> Finding {
        said_in_both(http_finding(t).expect("a finding"))
    }

    fn openai(message: &str, kind: &str, code: &str) -> String {
        json!({"error": {"message": message, "type": kind, "param": null, "code": code}}).to_string()
    }

    fn anthropic(kind: &str, message: &str) -> String {
        json!({"type": "error", "error": {"type": kind, "message": message}}).to_string()
    }

    #[test]
    fn no_finding_below_400() {
        assert!(http_finding(&json_error(200, "{}")).is_none());
        assert!(http_finding(&Trace::default()).is_none());
    }

    #[test]
    fn each_plain_status_has_its_own_advice() {
        let cases = [
            (400, "request body"),
            (404, "/v1/v1"),
            (408, "timed out"),
            (413, "client_max_body_size"),
            (422, "parameter"),
            (500, "logs"),
            (502, "upstream"),
            (503, "overloaded"),
            (504, "proxy_read_timeout"),
        ];
        for (status, words) in cases {
            let f = finding(&json_error(status, &openai("something went wrong", "server_error", "x")));
            assert_eq!(f.code, FindingCode::HttpError, "{status}");
            assert_eq!(f.severity, Severity::Error);
            assert!(f.fix.as_deref().unwrap().contains(words), "{status}: {:?}", f.fix);
            assert!(f.detail.contains("something went wrong"), "{status}: {}", f.detail);
            assert_eq!(f.evidence["status"], status);
        }
        let f = finding(&json_error(500, ""));
        assert!(f.detail.contains("empty body"), "{}", f.detail);
    }

    #[test]
    fn auth_on_401_and_403_in_every_shape() {
        for (status, body) in [
            (401, openai("Incorrect API key provided: sk-abc.", "invalid_request_error", "invalid_api_key")),
            (401, openai("Authentication Fails (no such user)", "authentication_error", "invalid_request_error")),
            (401, anthropic("authentication_error", "invalid x-api-key")),
            (403, anthropic("permission_error", "Your API key does not have permission")),
            (401, String::new()),
        ] {
            let f = finding(&json_error(status, &body));
            assert_eq!(f.code, FindingCode::Auth, "{status} {body}");
            assert_eq!(f.evidence["status"], status);
        }
        let f = finding(&json_error(403, "{}"));
        assert!(f.title.contains("403") && f.fix.unwrap().contains("permissions"));
    }

    #[test]
    fn auth_hints_for_whitespace_and_a_missing_key() {
        let mut t = json_error(401, &openai("Incorrect API key provided", "invalid_request_error", "invalid_api_key"));
        let f = finding(&t);
        assert!(f.fix.as_deref().unwrap().starts_with("No API key was sent"), "{:?}", f.fix);
        assert_eq!(f.evidence["key_sent"], false);
        t.request.header_names = vec!["Authorization".into()];
        t.request.key_has_whitespace = true;
        let f = finding(&t);
        assert!(f.fix.as_deref().unwrap().starts_with("The API key typed in the form starts or ends with whitespace"));
        assert_eq!((f.evidence["key_sent"].clone(), f.evidence["key_has_whitespace"].clone()), (json!(true), json!(true)));
        t.request.key_has_whitespace = false;
        assert!(!finding(&t).fix.unwrap().contains("whitespace (a space"));
    }

    #[test]
    fn model_not_found_in_every_shape() {
        for (status, body) in [
            (404, openai("The model `gpt-5x` does not exist or you do not have access to it.", "invalid_request_error", "model_not_found")),
            (400, openai("Model Not Exist", "invalid_request_error", "invalid_request_error")),
            (404, anthropic("not_found_error", "model: claude-3-opus-20990101")),
            (404, json!({"error": "model \"llama9\" not found, try pulling it first"}).to_string()),
            (400, openai("The model `x` does not exist", "invalid_request_error", "")),
        ] {
            let f = finding(&json_error(status, &body));
            assert_eq!(f.code, FindingCode::ModelNotFound, "{body}");
        }
        let f = finding(&json_error(404, &anthropic("not_found_error", "model: claude-x")));
        assert_eq!(f.evidence["model"], "claude-x");
        // A 404 about something else is a wrong path, a 400 about max_tokens a bad body.
        assert_eq!(finding(&json_error(404, &openai("Invalid URL (POST /v1/v1/chat/completions)", "invalid_request_error", ""))).code, FindingCode::HttpError);
        assert_eq!(finding(&json_error(400, &openai("max_tokens is too large for this model", "invalid_request_error", ""))).code, FindingCode::HttpError);
        assert_eq!(finding(&json_error(500, &openai("model server crashed; model not found", "server_error", ""))).code, FindingCode::HttpError);
    }

    #[test]
    fn model_not_found_lists_the_probed_models_and_the_closest() {
        let mut t = json_error(404, &openai("The model `lab-20ms` does not exist", "invalid_request_error", "model_not_found"));
        let f = finding(&t);
        assert!(f.detail.contains("No models list"), "{}", f.detail);
        t.probes.models = vec![
            ModelsProbe { url: "http://lab/v1/models".into(), status: Some(200), ids: vec!["streamscope-lab".into(), "lab-10ms".into(), "lab-40ms".into()], ids_total: None },
            ModelsProbe { url: "http://lab/v1/v1/models".into(), status: Some(404), ids: vec![], ids_total: None },
        ];
        let f = finding(&t);
        assert_eq!(f.evidence["model"], "lab-20ms");
        assert_eq!(f.evidence["alternatives"], json!(["streamscope-lab", "lab-10ms", "lab-40ms"]));
        assert!(f.detail.contains("streamscope-lab, lab-10ms, lab-40ms"), "{}", f.detail);
        assert!(f.evidence["closest"] == "lab-10ms" || f.evidence["closest"] == "lab-40ms");
        assert_eq!(f.evidence["probes"][1]["status"], 404);
    }

    /// Regression: the probed ids were de-duplicated with `Vec::contains` (quadratic: two lists of
    /// 100,000 ids took minutes) and all kept in the finding.
    #[test]
    fn model_not_found_with_two_lists_of_100_000_ids_is_quick_and_bounded() {
        let mut t = json_error(404, &openai("The model `model-77` does not exist", "invalid_request_error", "model_not_found"));
        let many: Vec<String> = (0..100_000).map(|i| format!("model-{i}")).collect();
        t.probes.models = vec![
            ModelsProbe { url: "http://lab/models".into(), status: Some(200), ids: many.clone(), ids_total: None },
            ModelsProbe { url: "http://lab/v1/models".into(), status: Some(200), ids: many, ids_total: None },
        ];
        let start = std::time::Instant::now();
        let f = finding(&t);
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
        assert_eq!(f.evidence["alternatives"].as_array().unwrap().len(), MODEL_IDS_KEPT);
        assert_eq!(f.evidence["closest"], "model-77");
        assert!(f.detail.contains("The server lists 100000 models, among them: model-0, model-1,"), "{}", f.detail);
    }

    /// A list the probe cut (its answer held more ids than it kept) says how many there were.
    #[test]
    fn model_not_found_says_how_long_a_cut_list_was() {
        let items: Vec<String> = (0..5000).map(|i| format!("{{\"id\":\"m-{i}\"}}")).collect();
        let list = model_ids(&format!("{{\"data\":[{}]}}", items.join(",")));
        let mut t = json_error(404, &openai("The model `m-x` does not exist", "invalid_request_error", "model_not_found"));
        t.probes.models = vec![ModelsProbe { url: "http://lab/v1/models".into(), status: Some(200), ids: list.ids,
            ids_total: Some(list.total) }];
        let f = finding(&t);
        assert!(f.detail.contains("The server lists 5000 models, among them: m-0, m-1,"), "{}", f.detail);
        let long_model = "x".repeat(MODEL_ID_MAX_BYTES + 1);
        assert_eq!(closest_id(&long_model, std::slice::from_ref(&long_model)), None);
    }

    #[test]
    fn rate_limited_with_and_without_retry_after() {
        let mut t = json_error(429, &openai("Rate limit reached for requests", "rate_limit_error", "rate_limit_exceeded"));
        let f = finding(&t);
        assert_eq!(f.code, FindingCode::RateLimited);
        assert!(f.detail.contains("No Retry-After"), "{}", f.detail);
        t.headers.push(("retry-after".into(), "7".into()));
        t.headers.push(("x-ratelimit-remaining-requests".into(), "0".into()));
        let f = finding(&t);
        assert!(f.detail.contains("retry after 7 s"), "{}", f.detail);
        assert_eq!(f.evidence["retry_after"], "7");
        assert_eq!(f.evidence["limits"]["x-ratelimit-remaining-requests"], "0");
        let f = finding(&json_error(429, &openai("You exceeded your current quota", "insufficient_quota", "insufficient_quota")));
        assert_eq!((f.code.as_str(), f.evidence["quota"].clone()), ("rate_limited", json!(true)));
        assert!(f.fix.unwrap().contains("retrying will not help"));
        assert_eq!(finding(&json_error(429, &anthropic("rate_limit_error", "slow down"))).code, FindingCode::RateLimited);
    }

    #[test]
    fn nginx_html_page_is_a_proxy_error_page() {
        let page = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n";
        let f = finding(&error(502, "text/html", page));
        assert_eq!(f.code, FindingCode::ProxyErrorPage);
        assert_eq!(f.evidence["server"], "nginx");
        assert_eq!(f.evidence["page_title"], "502 Bad Gateway");
        assert!(f.title.contains("nginx") && f.detail.contains("HTML error page"), "{} / {}", f.title, f.detail);
        assert!(f.fix.unwrap().contains("proxy_pass"));
        let f = finding(&error(504, "text/html", &page.replace("502 Bad Gateway", "504 Gateway Time-out")));
        assert!(f.fix.unwrap().contains("proxy_read_timeout"));
        // An HTML 401 from a proxy is the proxy's refusal, not the API's.
        let f = finding(&error(401, "text/html", "<html><head><title>401 Authorization Required</title></head></html>"));
        assert_eq!(f.code, FindingCode::ProxyErrorPage);
        assert!(f.detail.starts_with("A proxy or web server"), "{}", f.detail);
    }

    #[test]
    fn every_status_advice_is_said_in_chinese() {
        for status in 400..600 {
            let advice = status_advice(status);
            assert!(advice.is_worded(), "{status}");
            assert_ne!(advice.render(Lang::En), advice.render(Lang::ZhCn), "{status}");
        }
    }

    /// What the server said (its message, a model id, the listed ids, its name) goes into every language
    /// as it is; only the words around it change.
    #[test]
    fn the_server_s_own_words_stay_verbatim_in_chinese() {
        let zh = |f: &Finding| f.localize(Lang::ZhCn);
        let f = finding(&json_error(500, &openai("something went wrong", "server_error", "x")));
        assert_eq!(zh(&f).title, "HTTP 500 错误");
        assert!(zh(&f).detail.starts_with("服务端返回了 HTTP 500：something went wrong"), "{}", zh(&f).detail);
        assert_eq!(zh(&finding(&json_error(500, ""))).detail, "服务端返回了 HTTP 500，响应体为空。");

        let mut t = json_error(404, &openai("The model `lab-20ms` does not exist", "invalid_request_error", "model_not_found"));
        t.probes.models = vec![ModelsProbe { url: "http://lab/v1/models".into(), status: Some(200),
            ids: vec!["streamscope-lab".into(), "lab-10ms".into()], ids_total: None }];
        let f = zh(&finding(&t));
        assert_eq!(f.title, "这里没有模型 lab-20ms");
        assert!(f.detail.contains("The model `lab-20ms` does not exist"), "{}", f.detail);
        assert!(f.detail.contains("服务端列出了 2 个模型：streamscope-lab, lab-10ms。是不是想用 lab-10ms？"), "{}", f.detail);

        let page = "<html><head><title>502 Bad Gateway</title></head><body><center>nginx/1.22.1</center></body></html>";
        let f = zh(&finding(&error(502, "text/html", page)));
        assert_eq!(f.title, "nginx 返回了 HTTP 502");
        assert!(f.detail.starts_with("nginx 用自己的 HTML 错误页（标题「502 Bad Gateway」）返回了 HTTP 502，"), "{}", f.detail);
        assert!(f.fix.unwrap().starts_with("nginx 连不上模型服务端"));
        let f = zh(&finding(&error(401, "text/html", "<html><head><title>401</title></head></html>")));
        assert_eq!(f.title, "代理返回了 HTTP 401");
        assert!(f.detail.starts_with("代理或 Web 服务器用自己的 HTML 错误页"), "{}", f.detail);

        let mut t = json_error(429, &openai("slow down", "rate_limit_error", "x"));
        t.headers.push(("retry-after".into(), "7".into()));
        let f = zh(&finding(&t));
        assert!(f.detail.ends_with("。服务端要求 7 s 之后再重试（Retry-After）。"), "{}", f.detail);
    }

    #[test]
    fn auth_hints_follow_one_another_without_spaces_in_chinese() {
        let mut t = json_error(401, "{}");
        t.request.key_has_whitespace = true;
        let f = finding(&t);
        let fix = f.localize(Lang::ZhCn).fix.unwrap();
        assert!(fix.starts_with("表单里填的 API Key 开头或结尾带有空白字符"), "{fix}");
        assert!(fix.contains("删掉后再运行一次。没有发送 API Key：") && fix.contains("发送）。API Key 缺失"), "{fix}");
    }

    #[test]
    fn garbage_bodies_never_panic() {
        for body in ["\u{0}\u{1}", "{", "<html><title>", "`", "model: ", "`model` `", "\"model\" does not exist"] {
            for status in [400, 401, 404, 429, 502, 599] {
                let _ = finding(&json_error(status, body));
            }
        }
        assert_eq!(quoted_model("model: "), None);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
