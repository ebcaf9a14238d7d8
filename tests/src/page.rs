//! The page under test, driven through its automation contract (`?url=…&run=1`, `#report-json`).

use std::net::SocketAddr;
use std::time::Duration;

use fantoccini::Client;
use serde_json::Value;
use tokio::time::Instant;

use crate::url::encode_component;

/// How long a run may take before the harness gives up.
pub const REPORT_LIMIT: Duration = Duration::from_secs(60);
/// How long the app may take to mount after the page's `load` event.
const MOUNT_LIMIT: Duration = Duration::from_secs(15);
/// Mount polling is quick: it ends before any run starts (`run=1` waits for load, paint and idle).
const MOUNT_POLL_INTERVAL: Duration = Duration::from_millis(20);
/// Polling is sparse so that WebDriver round trips do not disturb the page's timing.
const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// What `#report-json` said when the run ended.
#[derive(Debug, Clone)]
pub struct Report {
    /// `data-state`: `done` or `error`.
    pub state: String,
    /// The element's text.
    pub text: String,
    /// The text parsed as JSON (`Value::Null` when it is not JSON).
    pub json: Value,
}

/// A browser tab on the page served by the lab.
#[derive(Clone)]
pub struct Page {
    client: Client,
    lab: SocketAddr,
    netlog: std::path::PathBuf,
}

/// One request the browser made, from its network log.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Requested {
    /// The URL.
    pub url: String,
    /// Chromium's traffic annotation of the request (which part of the browser made it).
    pub annotation: String,
}

impl Page {
    pub(crate) fn new(client: Client, lab: SocketAddr, netlog: std::path::PathBuf) -> Self {
        Self { client, lab, netlog }
    }

    /// Every request the browser (page, worker and the browser itself) has started so far, read from
    /// Chromium's network log (`--log-net-log`, written as it goes): each URL with the traffic
    /// annotation of the request that carried it. A page's and its worker's requests share one
    /// annotation (Blink's resource loader); the browser's own housekeeping has others.
    pub fn requested(&self) -> Vec<Requested> {
        let text = std::fs::read_to_string(&self.netlog).unwrap_or_default();
        let mut out = Vec::new();
        // Events are small JSON objects; a request's start holds `"traffic_annotation":N,"url":"…"`.
        for (at, _) in text.match_indices("\"traffic_annotation\":") {
            let rest = &text[at + 21..];
            let annotation: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let object_end = rest.find('}').unwrap_or(rest.len());
            if let Some(u) = rest[..object_end].find("\"url\":\"") {
                let url_start = &rest[u + 7..object_end];
                let url: String = url_start.chars().take_while(|&c| c != '"').collect();
                out.push(Requested { url, annotation: annotation.clone() });
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The WebDriver client, for anything the helpers do not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Sizes the browser window as the environment variable `var` says (`WxH`, e.g. `1280x1000`; unset or
    /// malformed: left as it is), and returns the page's view then (`[innerWidth, innerHeight]`).
    pub async fn size_window_from_env(&self, var: &str) -> Option<Value> {
        let size = std::env::var(var).ok().and_then(|s| {
            let (w, h) = s.split_once('x')?;
            Some((w.parse().ok()?, h.parse().ok()?))
        });
        if let Some((w, h)) = size {
            self.client.set_window_size(w, h).await.unwrap_or_else(|err| panic!("{var}: {err}"));
        }
        self.client.execute("return [innerWidth, innerHeight]", vec![]).await.ok()
    }

    /// `http://127.0.0.1:<lab>` followed by `path_and_query`.
    pub fn lab_url(&self, path_and_query: &str) -> String {
        format!("http://{}{path_and_query}", self.lab)
    }

    /// A page query that runs on load against the lab's chat-completions stream with `stream_params`,
    /// plus `extra` page parameters (e.g. `idle_timeout_s=2`).
    pub fn stream_query(&self, stream_params: &str, extra: &str) -> String {
        let target = self.lab_url(&format!("/v1/chat/completions?{stream_params}"));
        self.query_for(&target, extra)
    }

    /// A page query that runs on load against `target_url` (any origin), plus `extra` page parameters.
    pub fn query_for(&self, target_url: &str, extra: &str) -> String {
        let mut query = format!("url={}&run=1", encode_component(target_url));
        if !extra.is_empty() {
            query.push('&');
            query.push_str(extra);
        }
        query
    }

    /// Fetches `url` from the open page (cross-origin rules apply as for the page's own code), reads
    /// the whole body, and returns the status and the `names` response headers as script sees them
    /// (`None` where absent or not exposed).
    pub async fn fetch_headers(&self, url: &str, names: &[&str]) -> (u16, Vec<Option<String>>) {
        let script = "const [url, names, done] = arguments; \
                      fetch(url).then(async r => { await r.arrayBuffer(); \
                        done([r.status, names.map(n => r.headers.get(n))]); }) \
                      .catch(e => done([0, [String(e)]]));";
        let names_json = Value::from(names.iter().map(|n| Value::from(*n)).collect::<Vec<_>>());
        let answer = self
            .client
            .execute_async(script, vec![Value::from(url), names_json])
            .await
            .unwrap_or_else(|err| panic!("fetch {url} from the page: {err}"));
        let status = answer[0].as_u64().unwrap_or(0) as u16;
        let values = answer[1]
            .as_array()
            .map(|values| values.iter().map(|v| v.as_str().map(String::from)).collect())
            .unwrap_or_default();
        (status, values)
    }

    /// Opens `/?<query>` and returns the report JSON once `data-state` is `done` or `error`.
    pub async fn run_page(&self, query: &str) -> Value {
        let report = self.run_report(query).await;
        if report.json.is_null() {
            panic!(
                "#report-json (data-state={}) is not JSON: {}",
                report.state, report.text
            );
        }
        report.json
    }

    /// Opens `/?<query>` and waits for the report, keeping its state and raw text.
    pub async fn run_report(&self, query: &str) -> Report {
        self.report_at(&self.lab_url(&format!("/?{query}"))).await
    }

    /// Opens the page at any full `url` (another server, a sub-path: e.g.
    /// `http://127.0.0.1:<port>/tools/streamscope/?url=…&run=1`) and waits for the report.
    pub async fn report_at(&self, url: &str) -> Report {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|err| panic!("cannot open {url}: {err}"));
        self.wait_for_report(REPORT_LIMIT).await
    }

    /// Polls `#report-json` until its `data-state` is `done` or `error`; on time-out panics with the
    /// current state and the page text.
    pub async fn wait_for_report(&self, limit: Duration) -> Report {
        let started = Instant::now();
        loop {
            let (state, text) = self.report_element().await;
            if let Some(state) = state.as_deref().filter(|s| *s == "done" || *s == "error") {
                let state = state.to_string();
                let json = serde_json::from_str(&text).unwrap_or(Value::Null);
                return Report { state, text, json };
            }
            if started.elapsed() > limit {
                let body = self.body_text().await;
                panic!(
                    "no report after {limit:?}: #report-json data-state={state:?}, text={text:?}\npage text:\n{}",
                    body.chars().take(4000).collect::<String>()
                );
            }
            tokio::time::sleep(POLL_INTERVAL).await;
        }
    }

    /// `data-state` and `textContent` of `#report-json` (`None` state when the element is missing).
    pub async fn report_element(&self) -> (Option<String>, String) {
        // textContent, not WebDriver's element text: the latter is empty when the element is hidden.
        let script = "const e = document.getElementById('report-json'); \
                      return e ? [e.getAttribute('data-state'), e.textContent] : [null, ''];";
        match self.client.execute(script, vec![]).await {
            Ok(Value::Array(parts)) => (
                parts.first().and_then(Value::as_str).map(String::from),
                parts
                    .get(1)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            ),
            Ok(_) | Err(_) => (None, String::new()),
        }
    }

    /// The page's visible text (`document.body.innerText`).
    pub async fn body_text(&self) -> String {
        match self
            .client
            .execute(
                "return document.body ? document.body.innerText : '';",
                vec![],
            )
            .await
        {
            Ok(Value::String(text)) => text,
            Ok(other) => other.to_string(),
            Err(err) => format!("<cannot read the page: {err}>"),
        }
    }

    /// The `textContent` of the element with this `data-testid` (`None` when there is none).
    pub async fn testid_text(&self, testid: &str) -> Option<String> {
        let script = "const e = document.querySelector(`[data-testid=\"${arguments[0]}\"]`); \
                      return e ? e.textContent : null;";
        match self.client.execute(script, vec![Value::from(testid)]).await {
            Ok(Value::String(text)) => Some(text),
            _ => None,
        }
    }

    /// Waits until the `textContent` of the element with this `data-testid` satisfies `ready` and returns
    /// it; panics with the last text after `limit`. For what a click shows: `details` fires its `toggle`
    /// event as a task and the app renders on the next frame, so reading right after the click races it.
    pub async fn wait_for_testid_text(&self, testid: &str, limit: Duration, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let text = self.testid_text(testid).await.unwrap_or_default();
            if ready(&text) {
                return text;
            }
            assert!(Instant::now() < deadline, "[data-testid={testid}] not ready after {limit:?}: {text:?}");
            tokio::time::sleep(MOUNT_POLL_INTERVAL).await;
        }
    }

    /// Waits until `count` elements carry this `data-testid` (see [`Page::wait_for_testid_text`]).
    pub async fn wait_for_testid_count(&self, testid: &str, count: usize, limit: Duration) {
        let deadline = Instant::now() + limit;
        loop {
            let now = self.testid_count(testid).await;
            if now == count {
                return;
            }
            assert!(Instant::now() < deadline, "{now} elements [data-testid={testid}] after {limit:?}, expected {count}");
            tokio::time::sleep(MOUNT_POLL_INTERVAL).await;
        }
    }

    /// An attribute of the element with this `data-testid` (`None` when there is no such element or
    /// attribute).
    pub async fn testid_attr(&self, testid: &str, attribute: &str) -> Option<String> {
        let script = "const e = document.querySelector(`[data-testid=\"${arguments[0]}\"]`); \
                      return e ? e.getAttribute(arguments[1]) : null;";
        match self.client.execute(script, vec![Value::from(testid), Value::from(attribute)]).await {
            Ok(Value::String(text)) => Some(text),
            _ => None,
        }
    }

    /// A DOM property (e.g. a textarea's `value`) of the element with this `data-testid`.
    pub async fn testid_prop(&self, testid: &str, property: &str) -> Option<String> {
        let script = "const e = document.querySelector(`[data-testid=\"${arguments[0]}\"]`); \
                      return e ? String(e[arguments[1]]) : null;";
        match self.client.execute(script, vec![Value::from(testid), Value::from(property)]).await {
            Ok(Value::String(text)) => Some(text),
            _ => None,
        }
    }

    /// Opens the share card's *Export as text* and returns the export it shows (empty after `limit`): the
    /// details' toggle event arrives after the click, and the export is built on it.
    pub async fn export_text(&self, limit: Duration) -> String {
        self.folded_value("export-text-toggle", "export-text", limit, |text| !text.is_empty()).await
    }

    /// Opens the share card's Markdown (if it is not open) and returns the Markdown it shows once
    /// `accept` holds for it, or what it shows after `limit`: the Markdown is built when the details open
    /// (and again when the run or the language changes), by code fetched the first time.
    pub async fn markdown_where(&self, limit: Duration, accept: impl Fn(&str) -> bool) -> String {
        self.folded_value("markdown-toggle", "markdown", limit, accept).await
    }

    /// [`Page::markdown_where`] for any Markdown at all (empty after `limit`).
    pub async fn markdown(&self, limit: Duration) -> String {
        self.markdown_where(limit, |text| !text.is_empty()).await
    }

    /// Opens the `<details>` whose summary is `toggle` (unless it is open), then waits until the `value`
    /// of `testid` satisfies `accept` and returns it (what it is after `limit` otherwise).
    async fn folded_value(&self, toggle: &str, testid: &str, limit: Duration, accept: impl Fn(&str) -> bool) -> String {
        let open = "const e = document.querySelector(`[data-testid=\"${arguments[0]}\"]`); \
                    return e ? String(e.parentElement.open) : 'none';";
        // Not there yet ('none'): the click waits for it.
        let state = self.client.execute(open, vec![Value::from(toggle)]).await;
        if !matches!(state, Ok(Value::String(ref s)) if s == "true") {
            self.click(toggle).await;
        }
        let deadline = Instant::now() + limit;
        loop {
            let text = self.testid_prop(testid, "value").await.unwrap_or_default();
            if accept(&text) || Instant::now() >= deadline {
                return text;
            }
            tokio::time::sleep(MOUNT_POLL_INTERVAL).await;
        }
    }

    /// How many elements carry this `data-testid`.
    pub async fn testid_count(&self, testid: &str) -> usize {
        let script = "return document.querySelectorAll(`[data-testid=\"${arguments[0]}\"]`).length;";
        match self.client.execute(script, vec![Value::from(testid)]).await {
            Ok(v) => v.as_u64().unwrap_or(0) as usize,
            Err(_) => 0,
        }
    }

    /// The element with this `data-testid` (and its CSS selector), waiting up to 10 s for it to be in the
    /// DOM: a panel may be drawn a moment after the page mounts (a lazily loaded one, BENCHMARKS.md,
    /// "Splitting the wasm"), and an action on it must not race that.
    async fn element(&self, testid: &str) -> (String, fantoccini::elements::Element) {
        let css = format!("[data-testid=\"{testid}\"]");
        let element = self
            .client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(fantoccini::Locator::Css(&css))
            .await
            .unwrap_or_else(|err| panic!("no element {css} within 10 s: {err}"));
        (css, element)
    }

    /// Types `text` into the element with this `data-testid`.
    pub async fn type_into(&self, testid: &str, text: &str) {
        let (css, element) = self.element(testid).await;
        element.send_keys(text).await.unwrap_or_else(|err| panic!("cannot type into {css}: {err}"));
    }

    /// Sets the value of the input or textarea with this `data-testid` at once, as a paste does, and
    /// fires its `input` event (typing a large export key by key would take minutes).
    pub async fn paste(&self, testid: &str, text: &str) {
        self.element(testid).await;
        let script = "const e = document.querySelector(`[data-testid=\"${arguments[0]}\"]`); \
                      e.value = arguments[1]; e.dispatchEvent(new Event('input', {bubbles: true}));";
        self.client.execute(script, vec![Value::from(testid), Value::from(text)]).await.expect("paste");
    }

    /// Pastes `text` into the import box and applies it. A script click: while a run draws, the layout
    /// moves and a WebDriver click can land on a neighbour. What the import did shows later (the import's
    /// code comes with the first one): wait for it.
    pub async fn apply_import(&self, text: &str) {
        self.paste("import-text", text).await;
        let click = "document.querySelector('[data-testid=\"import-apply\"]').click(); return 1;";
        self.client.execute(click, vec![]).await.expect("apply the import");
    }

    /// Chooses the file at `path` in the file input with this `data-testid` (as a reader who picks it does).
    pub async fn choose_file(&self, testid: &str, path: &std::path::Path) {
        let (css, element) = self.element(testid).await;
        let path = path.to_str().unwrap_or_else(|| panic!("not UTF-8: {path:?}"));
        element.send_keys(path).await.unwrap_or_else(|err| panic!("cannot choose {path} in {css}: {err}"));
    }

    /// Clicks the element with this `data-testid`.
    pub async fn click(&self, testid: &str) {
        let (css, element) = self.element(testid).await;
        element.click().await.unwrap_or_else(|err| panic!("cannot click {css}: {err}"));
    }

    /// Opens `/?<query>` without waiting for a report (for scenarios that fill the form first).
    /// Opens the page with `query` and waits until the app has mounted (its wasm loads after the `load`
    /// event `goto` waits for, so reading the page any earlier races its start-up).
    pub async fn open(&self, query: &str) {
        self.open_url(&self.lab_url(&format!("/?{query}"))).await;
    }

    /// Opens the page at any full `url` (another server, a sub-path) and waits until the app has mounted.
    pub async fn open_url(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|err| panic!("cannot open {url}: {err}"));
        let deadline = Instant::now() + MOUNT_LIMIT;
        while self.testid_attr("report-json", "data-state").await.is_none() {
            assert!(Instant::now() < deadline, "the page did not mount within {MOUNT_LIMIT:?}: {url}");
            tokio::time::sleep(MOUNT_POLL_INTERVAL).await;
        }
    }
}
