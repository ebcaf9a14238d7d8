//! The page's automation contract on the way in: query parameters to a run configuration, and the
//! OpenAI-style preset that turns base URL + model + prompt into an exact request.

use serde::{Deserialize, Serialize};

/// Default `max_tokens` for the preset.
pub const DEFAULT_MAX_TOKENS: u32 = 256;

/// How the request is described in the form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestMode {
    /// An exact URL, method and body.
    Exact,
    /// OpenAI-style chat completions built from base URL, model and prompt.
    Preset,
}

/// Everything the page can be told through its URL (secrets never travel this way).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageConfig {
    /// Which form is in use.
    pub mode: RequestMode,
    /// Exact request URL (`url=`).
    pub url: String,
    /// HTTP method (`method=`), upper-cased; GET by default.
    pub method: String,
    /// Request body (`body=`), sent as JSON.
    pub body: String,
    /// Preset base URL (`base=`), e.g. `https://api.example.com/v1`.
    pub base: String,
    /// Preset model id (`model=`).
    pub model: String,
    /// Preset prompt (`prompt=`).
    pub prompt: String,
    /// Preset `max_tokens` (`max_tokens=`).
    pub max_tokens: u32,
    /// Start a run as soon as the page has loaded (`run=1`).
    pub run_on_load: bool,
    /// Time-outs in seconds (`headers_timeout_s`, `first_byte_timeout_s`, `idle_timeout_s`,
    /// `total_timeout_s`); 0 turns one off.
    pub timeouts_s: TimeoutsSeconds,
}

/// Time-outs as the user sets them, in seconds; `0` means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TimeoutsSeconds {
    /// Response headers must arrive within this.
    pub headers_s: f64,
    /// The first body byte must arrive within this (from the request).
    pub first_byte_s: f64,
    /// No data for this long after the first byte is a stall.
    pub idle_s: f64,
    /// The whole run must end within this.
    pub total_s: f64,
}

impl Default for TimeoutsSeconds {
    fn default() -> Self {
        TimeoutsSeconds { headers_s: 30.0, first_byte_s: 60.0, idle_s: 30.0, total_s: 300.0 }
    }
}

impl TimeoutsSeconds {
    /// A limit in ms, `None` when switched off (0, negative or not a number).
    pub fn limit_ms(seconds: f64) -> Option<f64> {
        (seconds.is_finite() && seconds > 0.0).then_some(seconds * 1000.0)
    }
}

impl PageConfig {
    /// The configuration when the page is opened at `origin` with no query: the lab's built-in reference
    /// stream, so one click measures something real.
    pub fn reference(origin: &str) -> PageConfig {
        PageConfig {
            mode: RequestMode::Preset,
            url: format!("{}/v1/chat/completions?tokens=50&cadence_ms=20&first_ms=300", origin.trim_end_matches('/')),
            method: "GET".into(),
            body: String::new(),
            base: format!("{}/v1", origin.trim_end_matches('/')),
            model: "streamscope-lab".into(),
            prompt: "Explain in one paragraph why a reverse proxy can make a streamed answer feel slow.".into(),
            max_tokens: DEFAULT_MAX_TOKENS,
            run_on_load: false,
            timeouts_s: TimeoutsSeconds::default(),
        }
    }

    /// Applies query parameters (already percent-decoded) on top of the reference configuration. An
    /// explicit `url` selects exact mode, `base` selects the preset; unknown keys are ignored.
    pub fn from_query(origin: &str, pairs: &[(String, String)]) -> PageConfig {
        let mut c = PageConfig::reference(origin);
        let mut saw_method = false;
        for (key, value) in pairs {
            let v = value.as_str();
            let seconds = || v.trim().parse::<f64>().ok();
            match key.as_str() {
                "url" => {
                    c.url = v.trim().to_string();
                    c.mode = RequestMode::Exact;
                }
                "method" => {
                    c.method = v.trim().to_ascii_uppercase();
                    saw_method = true;
                }
                "body" => c.body = v.to_string(),
                "base" => {
                    c.base = v.trim().to_string();
                    c.mode = RequestMode::Preset;
                }
                "model" => c.model = v.trim().to_string(),
                "prompt" => c.prompt = v.to_string(),
                "max_tokens" => c.max_tokens = v.trim().parse().unwrap_or(c.max_tokens),
                "run" => c.run_on_load = matches!(v, "1" | "true" | "yes"),
                "headers_timeout_s" => c.timeouts_s.headers_s = seconds().unwrap_or(c.timeouts_s.headers_s),
                "first_byte_timeout_s" => c.timeouts_s.first_byte_s = seconds().unwrap_or(c.timeouts_s.first_byte_s),
                "idle_timeout_s" => c.timeouts_s.idle_s = seconds().unwrap_or(c.timeouts_s.idle_s),
                "total_timeout_s" => c.timeouts_s.total_s = seconds().unwrap_or(c.timeouts_s.total_s),
                _ => {}
            }
        }
        // A body with no method given means the caller wants it sent.
        if !saw_method && !c.body.is_empty() && c.mode == RequestMode::Exact {
            c.method = "POST".into();
        }
        c
    }

    /// The exact request this configuration sends: `(method, url, body)`.
    pub fn request(&self) -> (String, String, Option<String>) {
        match self.mode {
            RequestMode::Exact => {
                let body = (!self.body.is_empty() && self.method != "GET" && self.method != "HEAD")
                    .then(|| self.body.clone());
                (self.method.clone(), self.url.clone(), body)
            }
            RequestMode::Preset => {
                let (url, body) = openai_chat_request(&self.base, &self.model, &self.prompt, self.max_tokens);
                ("POST".into(), url, Some(body))
            }
        }
    }
}

/// `POST {base}/chat/completions` with `stream: true` and `stream_options.include_usage`: the URL and JSON
/// body an OpenAI-compatible client would send. The base is used as typed except for trailing slashes and
/// surrounding whitespace (URL mistakes are diagnosed, not silently repaired).
pub fn openai_chat_request(base: &str, model: &str, prompt: &str, max_tokens: u32) -> (String, String) {
    let url = format!("{}/chat/completions", base.trim().trim_end_matches('/'));
    let body = serde_json::json!({
        "model": model,
        "messages": [{"role": "user", "content": prompt}],
        "stream": true,
        "stream_options": {"include_usage": true},
        "max_tokens": max_tokens,
    });
    (url, body.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn no_query_preselects_the_lab_reference_stream() {
        let c = PageConfig::from_query("http://127.0.0.1:8787", &[]);
        assert_eq!(c.mode, RequestMode::Preset);
        let (method, url, body) = c.request();
        assert_eq!(method, "POST");
        assert_eq!(url, "http://127.0.0.1:8787/v1/chat/completions");
        let body: serde_json::Value = serde_json::from_str(&body.unwrap()).unwrap();
        assert_eq!(body["model"], "streamscope-lab");
        assert!(!c.run_on_load);
    }

    #[test]
    fn url_query_selects_exact_mode_with_get() {
        let c = PageConfig::from_query("http://x", &q(&[("url", "http://127.0.0.1:1/s?a=1"), ("run", "1")]));
        assert_eq!(c.request(), ("GET".into(), "http://127.0.0.1:1/s?a=1".into(), None));
        assert!(c.run_on_load);
    }

    #[test]
    fn body_without_method_is_posted() {
        let c = PageConfig::from_query("http://x", &q(&[("url", "http://h/p"), ("body", "{\"a\":1}")]));
        assert_eq!(c.request(), ("POST".into(), "http://h/p".into(), Some("{\"a\":1}".into())));
        let c = PageConfig::from_query("http://x", &q(&[("url", "http://h/p"), ("method", "put"), ("body", "{}")]));
        assert_eq!(c.request().0, "PUT");
    }

    #[test]
    fn preset_builds_chat_completions_with_usage() {
        let c = PageConfig::from_query(
            "http://x",
            &q(&[("base", " https://api.example.com/v1/ "), ("model", "m1"), ("prompt", "hi"), ("max_tokens", "64")]),
        );
        let (method, url, body) = c.request();
        assert_eq!((method.as_str(), url.as_str()), ("POST", "https://api.example.com/v1/chat/completions"));
        let body: serde_json::Value = serde_json::from_str(&body.unwrap()).unwrap();
        assert_eq!(body["stream"], true);
        assert_eq!(body["stream_options"]["include_usage"], true);
        assert_eq!(body["max_tokens"], 64);
        assert_eq!(body["messages"][0]["content"], "hi");
    }

    #[test]
    fn timeouts_from_query_and_zero_turns_off() {
        let c = PageConfig::from_query("http://x", &q(&[("idle_timeout_s", "2"), ("total_timeout_s", "0"), ("headers_timeout_s", "x")]));
        assert_eq!(TimeoutsSeconds::limit_ms(c.timeouts_s.idle_s), Some(2000.0));
        assert_eq!(TimeoutsSeconds::limit_ms(c.timeouts_s.total_s), None);
        assert_eq!(c.timeouts_s.headers_s, 30.0);
    }
}
