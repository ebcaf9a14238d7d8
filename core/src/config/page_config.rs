//! The page's automation contract on the way in: query parameters to a run configuration, and the
//! OpenAI-style preset that turns base URL + model + prompt into an exact request.

use serde::{Deserialize, Serialize};

use super::presets::ApiPreset;
use crate::i18n::keys::UiFormKey;
use crate::i18n::{Lang, Text};
use crate::findings::triage::url::ENDPOINT_SUFFIXES;

/// The most runs per target one page will do.
pub const MAX_REPEAT: usize = 50;

/// The most levels one concurrency sweep runs.
pub const MAX_LEVELS: usize = 12;
/// The most streams one sweep level starts together.
pub const MAX_LEVEL: u32 = 64;
/// The most rounds per sweep level.
pub const MAX_ROUNDS_PER_LEVEL: u32 = 20;
/// Rounds per sweep level when `per_level` is not given: enough for a p50 and a rough p95 at every level.
pub const DEFAULT_ROUNDS_PER_LEVEL: u32 = 3;
/// The most hops one ladder measures.
pub const MAX_HOPS: usize = 8;
/// The most runs one press of Run measures: every run's trace is kept for the export, so a campaign's
/// memory grows with it (a sweep of 1 to 64 streams over 20 rounds would be thousands).
pub const MAX_CAMPAIGN_RUNS: usize = 500;

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
    /// Which API the preset speaks (`preset=`, default `openai-chat`).
    #[serde(default)]
    pub preset: ApiPreset,
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
    /// Compare with this second URL (`vs=`): the same method, body and headers sent there too.
    pub vs_url: Option<String>,
    /// Compare with this second model on the same base (`vs_model=`, preset only).
    pub vs_model: Option<String>,
    /// Runs per target (`repeat=N`, 1 to [`MAX_REPEAT`]).
    pub repeat: usize,
    /// In a comparison, send A and B of each round at the same time (`at_once=1`) instead of one after
    /// the other.
    #[serde(default)]
    pub at_once: bool,
    /// Time-outs in seconds (`headers_timeout_s`, `first_byte_timeout_s`, `idle_timeout_s`,
    /// `total_timeout_s`); 0 turns one off.
    pub timeouts_s: TimeoutsSeconds,
    /// A concurrency sweep (`concurrency=1,2,4,8`): streams started together at each level, increasing;
    /// empty for none.
    #[serde(default)]
    pub concurrency: Vec<u32>,
    /// Rounds per sweep level (`per_level=`).
    #[serde(default = "default_per_level")]
    pub per_level: u32,
    /// A hop ladder (`hops=URL1,URL2,...`): the same request at each hop, in path order (request URLs in
    /// exact mode, base URLs in the preset); empty for none.
    #[serde(default)]
    pub hops: Vec<String>,
    /// Names of the hops (`hop_labels=model server,gateway,CDN`); missing ones are named after the URL.
    #[serde(default)]
    pub hop_labels: Vec<String>,
    /// The language the page speaks (`lang=zh-CN|en`), when the link or the user chose one; `None`
    /// follows the browser's languages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<Lang>,
}

fn default_per_level() -> u32 {
    DEFAULT_ROUNDS_PER_LEVEL
}

/// Sweep levels from `1,2,4,8` (spaces and `;` also separate): each 1 to [`MAX_LEVEL`], sorted, without
/// repeats, at most [`MAX_LEVELS`]; anything else is left out.
pub fn parse_levels(text: &str) -> Vec<u32> {
    // Marked in a table of the 64 possible levels rather than sorted: sorted and without repeats at once,
    // and the page's main module (which reads the form) compiles no sort.
    let mut seen = [false; MAX_LEVEL as usize + 1];
    for level in text.split([',', ';', ' ']).filter_map(|p| p.trim().parse::<u32>().ok()) {
        if (1..=MAX_LEVEL).contains(&level) {
            seen[level as usize] = true;
        }
    }
    (1..=MAX_LEVEL).filter(|&l| seen[l as usize]).take(MAX_LEVELS).collect()
}

/// Hop URLs from a list separated by commas or line breaks (a URL's own commas must be
/// percent-encoded), at most [`MAX_HOPS`], blanks left out.
pub fn parse_hops(text: &str) -> Vec<String> {
    text.split([',', '\n']).map(str::trim).filter(|u| !u.is_empty()).take(MAX_HOPS).map(str::to_string).collect()
}

/// Hop names separated by commas or line breaks (blanks kept, so a name keeps its position).
pub fn parse_hop_labels(text: &str) -> Vec<String> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    text.split([',', '\n']).map(|l| l.trim().to_string()).take(MAX_HOPS).collect()
}

/// What one press of Run measures, from a configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CampaignKind {
    /// One target, `repeat` times.
    Runs,
    /// A and B.
    Compare,
    /// A concurrency sweep.
    Sweep,
    /// A hop ladder.
    Hops,
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
            preset: ApiPreset::OpenaiChat,
            base: format!("{}/v1", origin.trim_end_matches('/')),
            model: "streamscope-lab".into(),
            prompt: "Explain in one paragraph why a reverse proxy can make a streamed answer feel slow.".into(),
            max_tokens: DEFAULT_MAX_TOKENS,
            run_on_load: false,
            vs_url: None,
            vs_model: None,
            repeat: 1,
            at_once: false,
            timeouts_s: TimeoutsSeconds::default(),
            concurrency: Vec::new(),
            per_level: DEFAULT_ROUNDS_PER_LEVEL,
            hops: Vec::new(),
            hop_labels: Vec::new(),
            lang: None,
        }
    }

    /// Applies query parameters (already percent-decoded) on top of the reference configuration. An
    /// explicit `url` selects exact mode, `base` selects the preset; unknown keys are ignored.
    pub fn from_query(origin: &str, pairs: &[(String, String)]) -> PageConfig {
        let mut c = PageConfig::reference(origin);
        let mut saw_method = false;
        for (key, value) in pairs {
            let v = value.as_str();
            let seconds = || crate::decimal::parse_decimal(v.trim());
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
                "preset" => {
                    c.preset = ApiPreset::from_name(v).unwrap_or(c.preset);
                    c.mode = RequestMode::Preset;
                }
                "prompt" => c.prompt = v.to_string(),
                "max_tokens" => c.max_tokens = v.trim().parse().unwrap_or(c.max_tokens),
                "run" => c.run_on_load = matches!(v, "1" | "true" | "yes"),
                "vs" => c.vs_url = Some(v.trim().to_string()).filter(|u| !u.is_empty()),
                "vs_model" => c.vs_model = Some(v.trim().to_string()).filter(|m| !m.is_empty()),
                "at_once" => c.at_once = matches!(v, "1" | "true" | "yes"),
                "repeat" => c.repeat = v.trim().parse::<usize>().unwrap_or(1).clamp(1, MAX_REPEAT),
                "headers_timeout_s" => c.timeouts_s.headers_s = seconds().unwrap_or(c.timeouts_s.headers_s),
                "first_byte_timeout_s" => c.timeouts_s.first_byte_s = seconds().unwrap_or(c.timeouts_s.first_byte_s),
                "idle_timeout_s" => c.timeouts_s.idle_s = seconds().unwrap_or(c.timeouts_s.idle_s),
                "total_timeout_s" => c.timeouts_s.total_s = seconds().unwrap_or(c.timeouts_s.total_s),
                "concurrency" => c.concurrency = parse_levels(v),
                "per_level" => {
                    c.per_level = v.trim().parse::<u32>().unwrap_or(c.per_level).clamp(1, MAX_ROUNDS_PER_LEVEL)
                }
                "hops" => c.hops = parse_hops(v),
                "hop_labels" => c.hop_labels = parse_hop_labels(v),
                "lang" => c.lang = Lang::from_tag(v).or(c.lang),
                _ => {}
            }
        }
        // A body with no method given means the caller wants it sent.
        if !saw_method && !c.body.is_empty() && c.mode == RequestMode::Exact {
            c.method = "POST".into();
        }
        c
    }

    /// This configuration with every credential in its URLs (`url`, `base`, `vs`) redacted
    /// ([`crate::secrets::redact_url`]): what a permalink and an export carry.
    pub fn redacted(&self) -> PageConfig {
        let redact = |u: &str| crate::secrets::redact_url(u).into_owned();
        PageConfig {
            url: redact(&self.url),
            base: redact(&self.base),
            vs_url: self.vs_url.as_deref().map(redact),
            hops: self.hops.iter().map(|h| redact(h)).collect(),
            ..self.clone()
        }
    }

    /// Whether a URL of this configuration carries a credential (the form warns).
    pub fn carries_credential(&self) -> bool {
        let urls = [Some(self.url.as_str()), Some(self.base.as_str()), self.vs_url.as_deref()];
        if self.hops.iter().any(|h| crate::secrets::url_has_credential(h)) {
            return true;
        }
        match self.mode {
            RequestMode::Exact => {
                urls[0].is_some_and(crate::secrets::url_has_credential) || urls[2].is_some_and(crate::secrets::url_has_credential)
            }
            RequestMode::Preset => crate::secrets::url_has_credential(&self.base),
        }
    }

    /// The query string (without `?`) that reproduces this configuration with `run=1`: what a permalink
    /// carries. It holds no secret: the API key and extra headers are not part of a `PageConfig`, and a
    /// credential in a URL is redacted (the user adds it again; the form says the URL carried one).
    pub fn to_query(&self) -> String {
        self.redacted().query_pairs()
    }

    fn query_pairs(&self) -> String {
        let mut pairs: Vec<(&str, String)> = Vec::new();
        match self.mode {
            RequestMode::Exact => {
                pairs.push(("url", self.url.clone()));
                pairs.push(("method", self.method.clone()));
                if !self.body.is_empty() {
                    pairs.push(("body", self.body.clone()));
                }
                if let Some(vs) = &self.vs_url {
                    pairs.push(("vs", vs.clone()));
                }
            }
            RequestMode::Preset => {
                if self.preset != ApiPreset::default() {
                    pairs.push(("preset", self.preset.name().to_string()));
                }
                pairs.push(("base", self.base.clone()));
                pairs.push(("model", self.model.clone()));
                pairs.push(("prompt", self.prompt.clone()));
                pairs.push(("max_tokens", self.max_tokens.to_string()));
                if let Some(vs) = &self.vs_model {
                    pairs.push(("vs_model", vs.clone()));
                }
            }
        }
        if self.repeat > 1 {
            pairs.push(("repeat", self.repeat.to_string()));
        }
        if !self.concurrency.is_empty() {
            let levels: Vec<String> = self.concurrency.iter().map(u32::to_string).collect();
            pairs.push(("concurrency", levels.join(",")));
            if self.per_level != DEFAULT_ROUNDS_PER_LEVEL {
                pairs.push(("per_level", self.per_level.to_string()));
            }
        }
        if !self.hops.is_empty() {
            pairs.push(("hops", self.hops.join(",")));
            if !self.hop_labels.is_empty() {
                pairs.push(("hop_labels", self.hop_labels.join(",")));
            }
        }
        if self.at_once && self.compares() {
            pairs.push(("at_once", "1".into()));
        }
        let d = TimeoutsSeconds::default();
        let t = self.timeouts_s;
        for (key, value, default) in [
            ("headers_timeout_s", t.headers_s, d.headers_s),
            ("first_byte_timeout_s", t.first_byte_s, d.first_byte_s),
            ("idle_timeout_s", t.idle_s, d.idle_s),
            ("total_timeout_s", t.total_s, d.total_s),
        ] {
            // Written as `Display` would, without std's float formatting: every time-out the form or a link
            // sets is a short decimal; one that is not (an imported configuration's 1e-30) is left out, as
            // the link's reader would refuse it anyway.
            if let Some(value) = (value != default).then(|| crate::decimal::format_decimal(value)).flatten() {
                pairs.push((key, value));
            }
        }
        if let Some(lang) = self.lang {
            pairs.push(("lang", lang.tag().into()));
        }
        pairs.push(("run", "1".into()));
        pairs.iter().map(|(k, v)| format!("{k}={}", percent_encode(v))).collect::<Vec<_>>().join("&")
    }

    /// What one press of Run measures: a hop ladder when hops are given, else a sweep when levels are,
    /// else a comparison when a second target is, else one target (`repeat` times).
    pub fn campaign_kind(&self) -> CampaignKind {
        if !self.hops.is_empty() {
            CampaignKind::Hops
        } else if !self.concurrency.is_empty() {
            CampaignKind::Sweep
        } else if self.compares() {
            CampaignKind::Compare
        } else {
            CampaignKind::Runs
        }
    }

    /// How many runs one press of Run measures with this configuration.
    pub fn planned_runs(&self) -> usize {
        match self.campaign_kind() {
            CampaignKind::Hops => self.hops.len() * self.repeat,
            CampaignKind::Sweep => self.concurrency.iter().map(|&l| l as usize).sum::<usize>() * self.per_level as usize,
            CampaignKind::Compare => 2 * self.repeat,
            CampaignKind::Runs => self.repeat,
        }
    }

    /// Why this configuration cannot run, in words the form shows: more than [`MAX_CAMPAIGN_RUNS`] runs.
    pub fn plan_error(&self) -> Option<Text> {
        let planned = self.planned_runs();
        (planned > MAX_CAMPAIGN_RUNS)
            .then(|| Text::msg(UiFormKey::TooManyRuns).count("planned", planned).count("max", MAX_CAMPAIGN_RUNS))
    }

    /// The request sent to hop `index`: this configuration's request with the hop's URL (exact mode) or
    /// base URL (preset) in place of its own.
    pub fn request_at_hop(&self, index: usize) -> Option<(String, String, Option<String>)> {
        let hop = self.hops.get(index)?;
        let mut at = self.clone();
        match self.mode {
            RequestMode::Exact => at.url = hop.clone(),
            RequestMode::Preset => at.base = hop.clone(),
        }
        Some(at.request())
    }

    /// Whether a second target is configured (`vs` in exact mode, `vs_model` in the preset).
    pub fn compares(&self) -> bool {
        match self.mode {
            RequestMode::Exact => self.vs_url.is_some(),
            RequestMode::Preset => self.vs_model.is_some(),
        }
    }

    /// The second target's request: the same request sent to `vs` (exact mode) or with model `vs_model`
    /// (preset). `None` when there is no second target.
    pub fn request_b(&self) -> Option<(String, String, Option<String>)> {
        match self.mode {
            RequestMode::Exact => {
                let (method, _, body) = self.request();
                self.vs_url.clone().map(|url| (method, url, body))
            }
            RequestMode::Preset => self.vs_model.as_ref().map(|model| {
                let (url, body) = self.preset.request(&self.base, model, &self.prompt, self.max_tokens);
                ("POST".to_string(), url, Some(body))
            }),
        }
    }

    /// The method and URL this configuration sends to, as [`PageConfig::request`] has them, without
    /// building the body: what the form's request line shows (the page's main module builds no JSON).
    pub fn target(&self) -> (String, String) {
        match self.mode {
            RequestMode::Exact => (self.method.clone(), self.url.clone()),
            RequestMode::Preset => ("POST".into(), self.preset.url(&self.base, &self.model)),
        }
    }

    /// The URL side B sends to, as [`PageConfig::request_b`] has it.
    pub fn target_b(&self) -> Option<String> {
        match self.mode {
            RequestMode::Exact => self.vs_url.clone(),
            RequestMode::Preset => self.vs_model.as_ref().map(|model| self.preset.url(&self.base, model)),
        }
    }

    /// The URL hop `index` sends to, as [`PageConfig::request_at_hop`] has it.
    pub fn target_at_hop(&self, index: usize) -> Option<String> {
        let hop = self.hops.get(index)?;
        Some(match self.mode {
            RequestMode::Exact => hop.clone(),
            RequestMode::Preset => self.preset.url(hop, &self.model),
        })
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
                let (url, body) = self.preset.request(&self.base, &self.model, &self.prompt, self.max_tokens);
                ("POST".into(), url, Some(body))
            }
        }
    }
}

/// The `…/models` URLs to probe when a request to `request_url` failed with 404 or an unknown model:
/// `{base}/models` and `{base}/v1/models`, where the base is the URL without its query and without a
/// known endpoint suffix (`/chat/completions`, `/completions`, `/responses`, `/messages`). Empty when
/// the URL has no scheme.
pub fn models_probe_urls(request_url: &str) -> Vec<String> {
    let url = request_url.trim();
    if !url.contains("://") {
        return Vec::new();
    }
    let without_query = url.split(['?', '#']).next().unwrap_or(url).trim_end_matches('/');
    let base = ENDPOINT_SUFFIXES
        .iter()
        .find_map(|suffix| without_query.strip_suffix(suffix))
        .unwrap_or(without_query);
    vec![format!("{base}/models"), format!("{base}/v1/models")]
}

/// `body` (a JSON object) with its `model` replaced by `model`; `None` when the body is not a JSON object
/// with a `model` field.
pub fn body_with_model(body: &str, model: &str) -> Option<String> {
    let mut v = crate::json::parse_value(body).ok()?;
    let slot = v.as_object_mut()?.get_mut("model")?;
    *slot = serde_json::Value::from(model);
    Some(v.to_string())
}

/// Percent-encodes a query value (everything but unreserved characters, RFC 3986).
pub fn percent_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `POST {base}/chat/completions` with `stream: true` and `stream_options.include_usage`: the URL and JSON
/// body an OpenAI-compatible client would send (the default preset).
pub fn openai_chat_request(base: &str, model: &str, prompt: &str, max_tokens: u32) -> (String, String) {
    ApiPreset::OpenaiChat.request(base, model, prompt, max_tokens)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_permalink_never_carries_a_url_credential() {
        let mut c = PageConfig::reference("http://127.0.0.1:1");
        c.mode = RequestMode::Exact;
        c.url = "https://g.example/v1beta/models/m:streamGenerateContent?alt=sse&key=AIzaSECRET1".into();
        c.vs_url = Some("https://u:pw@other.example/v1/chat/completions".into());
        assert!(c.carries_credential());
        let q = c.to_query();
        assert!(!q.contains("AIzaSECRET1") && !q.contains("pw"), "{q}");
        assert!(q.contains("key%3DREDACTED") && q.contains("REDACTED%40other.example"), "{q}");
        assert_eq!(c.redacted().url, "https://g.example/v1beta/models/m:streamGenerateContent?alt=sse&key=REDACTED");
        assert!(!PageConfig::reference("http://127.0.0.1:1").carries_credential());
    }

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
    fn sweeps_and_hop_ladders_from_the_query() {
        let c = PageConfig::from_query("http://o", &q(&[("concurrency", "8, 1,2,2,x,0,65,4"), ("per_level", "99")]));
        assert_eq!((c.concurrency.clone(), c.per_level), (vec![1, 2, 4, 8], MAX_ROUNDS_PER_LEVEL));
        let every: Vec<String> = (1..=MAX_LEVEL + 1).rev().map(|l| l.to_string()).collect();
        assert_eq!(parse_levels(&every.join(";")), (1..=MAX_LEVELS as u32).collect::<Vec<_>>(), "the smallest, in order");
        assert_eq!(c.campaign_kind(), CampaignKind::Sweep);
        let c = PageConfig::from_query(
            "http://o",
            &q(&[("url", "http://a/v1/x"), ("hops", "http://a/v1/x, http://b/v1/x\nhttp://c/v1/x?key=sk-123"), ("hop_labels", "model,,CDN")]),
        );
        assert_eq!(c.campaign_kind(), CampaignKind::Hops);
        assert_eq!(c.hops, ["http://a/v1/x", "http://b/v1/x", "http://c/v1/x?key=sk-123"]);
        assert_eq!(c.hop_labels, ["model", "", "CDN"]);
        assert_eq!(c.request_at_hop(1).unwrap().1, "http://b/v1/x");
        assert!(c.carries_credential());
        let query = c.to_query();
        assert!(!query.contains("sk-123"), "{query}");
        let again = PageConfig::from_query("http://o", &decode(&query));
        assert_eq!(again.hops[2], "http://c/v1/x?key=REDACTED");
        assert_eq!(again.hop_labels, c.hop_labels);
        let sweep = PageConfig::from_query("http://o", &q(&[("concurrency", "1,4"), ("per_level", "2")]));
        let again = PageConfig::from_query("http://o", &decode(&sweep.to_query()));
        assert_eq!((again.concurrency, again.per_level), (vec![1, 4], 2));
    }

    #[test]
    fn a_campaign_of_more_than_500_runs_is_refused_with_a_reason() {
        let c = PageConfig::from_query("http://o", &q(&[("concurrency", "1,2,4,8,16,32,64"), ("per_level", "4")]));
        assert_eq!(c.planned_runs(), 127 * 4);
        assert!(c.plan_error().unwrap().render(Lang::En).contains("508 runs"));
        let c = PageConfig::from_query("http://o", &q(&[("concurrency", "1,2,4,8,16"), ("per_level", "3")]));
        assert_eq!((c.planned_runs(), c.plan_error()), (93, None));
        let c = PageConfig::from_query("http://o", &q(&[("vs", "http://b"), ("url", "http://a"), ("repeat", "50")]));
        assert_eq!(c.planned_runs(), 100);
    }

    #[test]
    fn vs_and_repeat_describe_a_comparison() {
        let c = PageConfig::from_query("http://x", &q(&[("url", "http://proxy/s"), ("vs", "http://direct/s"), ("repeat", "3")]));
        assert!(c.compares());
        assert_eq!(c.repeat, 3);
        assert_eq!(c.request_b(), Some(("GET".into(), "http://direct/s".into(), None)));
        let c = PageConfig::from_query("http://x", &q(&[("base", "http://h/v1"), ("model", "a"), ("vs_model", "b"), ("repeat", "999")]));
        assert_eq!(c.repeat, MAX_REPEAT);
        let (_, url, body) = c.request_b().unwrap();
        assert_eq!(url, "http://h/v1/chat/completions");
        assert!(body.unwrap().contains("\"model\":\"b\""));
        let c = PageConfig::from_query("http://x", &q(&[("url", "http://h/s"), ("repeat", "zero")]));
        assert!(!c.compares());
        assert_eq!(c.repeat, 1);
        assert_eq!(c.request_b(), None);
    }

    /// Decodes what [`percent_encode`] wrote (test helper: the page uses the browser's decoder).
    fn decode(q: &str) -> Vec<(String, String)> {
        q.split('&')
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap();
                let mut bytes = Vec::new();
                let mut it = v.bytes();
                while let Some(b) = it.next() {
                    if b == b'%' {
                        let hex = [it.next().unwrap(), it.next().unwrap()];
                        bytes.push(u8::from_str_radix(std::str::from_utf8(&hex).unwrap(), 16).unwrap());
                    } else {
                        bytes.push(b);
                    }
                }
                (k.to_string(), String::from_utf8(bytes).unwrap())
            })
            .collect()
    }

    #[test]
    fn permalink_query_reproduces_the_configuration() {
        let mut c = PageConfig::from_query(
            "http://x",
            &q(&[("url", "http://h/p?a=1&b=2"), ("body", "{\"k\": \"é &\"}"), ("vs", "http://d/p"), ("repeat", "4"), ("idle_timeout_s", "2"), ("at_once", "1")]),
        );
        let query = c.to_query();
        assert!(!query.contains(' ') && !query.contains('é'), "{query}");
        let back = PageConfig::from_query("http://x", &decode(&query));
        assert!(back.run_on_load);
        c.run_on_load = true;
        assert_eq!(back, c);
        let preset = PageConfig::from_query("http://x", &q(&[("preset", "anthropic"), ("base", "http://h/v1"), ("model", "m"), ("vs_model", "n")]));
        assert_eq!(preset.request().1, "http://h/v1/messages");
        let mut back = PageConfig::from_query("http://x", &decode(&preset.to_query()));
        back.run_on_load = false;
        assert_eq!(back, preset);
    }

    #[test]
    fn the_language_rides_in_the_permalink_and_an_unknown_tag_is_ignored() {
        let c = PageConfig::from_query("http://x", &q(&[("lang", "zh-CN")]));
        assert_eq!(c.lang, Some(Lang::ZhCn));
        assert!(c.to_query().contains("lang=zh-CN"), "{}", c.to_query());
        assert_eq!(PageConfig::from_query("http://x", &decode(&c.to_query())).lang, Some(Lang::ZhCn));
        assert_eq!(PageConfig::from_query("http://x", &q(&[("lang", "tlh")])).lang, None);
        assert!(!PageConfig::reference("http://x").to_query().contains("lang="));
    }

    #[test]
    fn models_probes_strip_the_endpoint_and_try_with_and_without_v1() {
        assert_eq!(
            models_probe_urls("http://h:1/chat/completions?x=1"),
            vec!["http://h:1/models".to_string(), "http://h:1/v1/models".to_string()]
        );
        assert_eq!(models_probe_urls(" http://h/v1/messages/ ")[0], "http://h/v1/models");
        assert!(models_probe_urls("not a url").is_empty());
    }

    #[test]
    fn body_with_model_replaces_only_the_model() {
        let b = body_with_model(r#"{"model":"x","stream":true}"#, "y").unwrap();
        assert_eq!(serde_json::from_str::<serde_json::Value>(&b).unwrap(), serde_json::json!({"model":"y","stream":true}));
        assert_eq!(body_with_model(r#"{"stream":true}"#, "y"), None);
        assert_eq!(body_with_model("not json", "y"), None);
    }

    #[test]
    fn timeouts_from_query_and_zero_turns_off() {
        let c = PageConfig::from_query("http://x", &q(&[("idle_timeout_s", "2"), ("total_timeout_s", "0"), ("headers_timeout_s", "x")]));
        assert_eq!(TimeoutsSeconds::limit_ms(c.timeouts_s.idle_s), Some(2000.0));
        assert_eq!(TimeoutsSeconds::limit_ms(c.timeouts_s.total_s), None);
        assert_eq!(c.timeouts_s.headers_s, 30.0);
    }

    #[test]
    fn the_targets_are_the_requests_without_their_bodies() {
        let hops = vec!["http://a/v1/".to_string(), "http://b/v1".to_string()];
        for preset in ApiPreset::ALL {
            for mode in [RequestMode::Exact, RequestMode::Preset] {
                let c = PageConfig {
                    mode: mode.clone(),
                    preset,
                    vs_url: Some("http://direct/s".into()),
                    vs_model: Some("other".into()),
                    hops: hops.clone(),
                    ..PageConfig::reference("http://o")
                };
                let (method, url, _) = c.request();
                assert_eq!(c.target(), (method, url), "{preset:?} {mode:?}");
                assert_eq!(c.target_b(), c.request_b().map(|(_, url, _)| url), "{preset:?} {mode:?}");
                for i in 0..3 {
                    assert_eq!(c.target_at_hop(i), c.request_at_hop(i).map(|(_, url, _)| url), "{preset:?} {mode:?} {i}");
                }
            }
        }
    }

    #[test]
    fn timeouts_are_short_decimals_and_anything_else_keeps_the_default() {
        let c = PageConfig::from_query("http://x", &q(&[("idle_timeout_s", " 2.5 "), ("total_timeout_s", "1e3"), ("headers_timeout_s", ".75")]));
        assert_eq!((c.timeouts_s.idle_s, c.timeouts_s.total_s, c.timeouts_s.headers_s), (2.5, 1000.0, 0.75));
        let d = TimeoutsSeconds::default();
        for odd in ["inf", "NaN", "0.30000000000000004", "2,5", "5s"] {
            let c = PageConfig::from_query("http://x", &q(&[("idle_timeout_s", odd)]));
            assert_eq!(c.timeouts_s.idle_s, d.idle_s, "{odd}");
        }
    }
}
