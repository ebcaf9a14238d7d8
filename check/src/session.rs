//! One target in one WebDriver session: open the page with the target's query, type the API key and
//! click Run when there is a key (else the page runs on load, `run=1`), wait for `#report-json` to
//! say `done` or `error`, and hand back the report's JSON. Any way this cannot happen (no session,
//! the page does not load or start, no report in time) is an error message: the check could not run.
//!
//! Polling is sparse (every 250 ms) so that WebDriver round trips do not disturb the page's timing.
//! The session is always closed, whatever happened.

use std::time::Duration;

use fantoccini::wd::TimeoutConfiguration;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Map, Value};
use streamscope_core::secrets::Secret;
use tokio::time::Instant;

use crate::query::{page_url, query};
use crate::target::Target;

/// How long the page may take to mount its app once loaded.
const MOUNT_LIMIT: Duration = Duration::from_secs(30);
/// How long a run may take to start after load (or after Run is clicked).
const START_LIMIT: Duration = Duration::from_secs(30);
/// How often `#report-json` is read.
const POLL_INTERVAL: Duration = Duration::from_millis(250);
/// How often a long wait says it is still waiting.
const PROGRESS_EVERY: Duration = Duration::from_secs(15);
/// How long closing the session may take.
const CLOSE_LIMIT: Duration = Duration::from_secs(10);

/// `data-state` and `textContent` of `#report-json` (textContent: WebDriver's text of a hidden element
/// is empty).
const READ_REPORT: &str = "const e = document.getElementById('report-json'); \
    return e ? [e.getAttribute('data-state'), e.textContent] : [null, ''];";
/// Whether the key field's `<details>` is open (null when there is no key field).
const KEY_FIELD_OPEN: &str = "const i = document.querySelector('[data-testid=\"input-api-key\"]'); \
    if (!i) return null; const d = i.closest('details'); return d ? d.open : true;";
/// Opens the key field's `<details>` by script, when a click did not.
const OPEN_KEY_FIELD: &str = "const d = document.querySelector('[data-testid=\"input-api-key\"]').closest('details'); \
    if (d) d.open = true;";
/// The key field's value length (never its value).
const KEY_LENGTH: &str = "return document.querySelector('[data-testid=\"input-api-key\"]').value.length;";
/// Whether `share-key-b` is there and ticked (null when absent).
const SHARE_KEY_STATE: &str = "const c = document.querySelector('[data-testid=\"share-key-b\"]'); \
    return c ? c.checked : null;";
/// Clicks an element by test id from script (when a WebDriver click is refused).
const SCRIPT_CLICK: &str = "document.querySelector(`[data-testid=\"${arguments[0]}\"]`).click();";

/// What a session needs besides the target.
#[derive(Debug, Clone)]
pub struct SessionPlan {
    /// The WebDriver endpoint (ends with `/`).
    pub webdriver: String,
    /// The capabilities to ask for.
    pub capabilities: Map<String, Value>,
    /// The page's address.
    pub page: String,
    /// The API key to type, if any.
    pub key: Option<Secret>,
    /// Tick `share-key-b` (the key also goes to another origin).
    pub share_key: bool,
    /// The most the whole target may take.
    pub timeout: Duration,
}

/// Reports progress: a line of text for the target being checked.
pub type Progress = dyn Fn(String) + Send + Sync;

/// Runs `target` in a new session and returns the report JSON, or why the check could not run.
pub async fn measure(plan: &SessionPlan, target: &Target, progress: &Progress) -> Result<Value, String> {
    let deadline = Instant::now() + plan.timeout;
    progress("asking WebDriver for a browser".into());
    let mut builder = ClientBuilder::new(HttpConnector::new());
    builder.capabilities(plan.capabilities.clone());
    let connect = builder.connect(&plan.webdriver);
    let client = within(deadline, plan, "opening a browser session", connect)
        .await?
        .map_err(|err| format!("cannot open a browser session through WebDriver at {}: {err}", plan.webdriver))?;
    let result = drive(&client, plan, target, deadline, progress).await;
    let _ = tokio::time::timeout(CLOSE_LIMIT, client.close()).await;
    result
}

async fn drive(client: &Client, plan: &SessionPlan, target: &Target, deadline: Instant, progress: &Progress) -> Result<Value, String> {
    let timeouts = TimeoutConfiguration::new(Some(Duration::from_secs(30)), Some(Duration::from_secs(60)), Some(Duration::ZERO));
    within(deadline, plan, "setting WebDriver time-outs", client.update_timeouts(timeouts))
        .await?
        .map_err(|err| format!("cannot set WebDriver time-outs: {err}"))?;

    let with_key = plan.key.is_some();
    let url = page_url(&plan.page, &query(target, !with_key));
    progress("opening the page".into());
    within(deadline, plan, "loading the page", client.goto(&url))
        .await?
        .map_err(|err| format!("the page did not load from {}: {err}", plan.page))?;
    wait_for_mount(client, plan, deadline).await?;

    if let Some(key) = &plan.key {
        progress("typing the API key and clicking Run".into());
        within(deadline, plan, "typing the key", type_key_and_run(client, key, plan.share_key)).await??;
    }
    wait_for_report(client, plan, deadline, progress).await
}

/// Waits until the app has mounted (`#report-json` carries a `data-state`).
async fn wait_for_mount(client: &Client, plan: &SessionPlan, deadline: Instant) -> Result<(), String> {
    let started = Instant::now();
    let limit = (started + MOUNT_LIMIT).min(deadline);
    loop {
        if report_element(client).await.0.is_some() {
            return Ok(());
        }
        if Instant::now() >= limit {
            // The wait actually made: MOUNT_LIMIT, or less when --timeout-s ends first.
            return Err(format!(
                "the page at {} did not start: no #report-json after {:.0} s (is it the streamscope page, built with \
                 trunk build --release?)",
                plan.page,
                (limit - started).as_secs_f64()
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens the key field (`more-options`), types the key, ticks `share-key-b` when asked, clicks Run.
async fn type_key_and_run(client: &Client, key: &Secret, share_key: bool) -> Result<(), String> {
    match client.execute(KEY_FIELD_OPEN, vec![]).await {
        Ok(Value::Bool(true)) => {}
        Ok(Value::Bool(false)) => {
            if let Ok(summary) = client.find(Locator::Css("[data-testid=\"more-options\"]")).await {
                let _ = summary.click().await;
            }
            if client.execute(KEY_FIELD_OPEN, vec![]).await.ok() != Some(Value::Bool(true)) {
                let _ = client.execute(OPEN_KEY_FIELD, vec![]).await;
            }
        }
        _ => return Err("the page has no API key field (data-testid=input-api-key)".into()),
    }
    let field = client
        .find(Locator::Css("[data-testid=\"input-api-key\"]"))
        .await
        .map_err(|err| format!("cannot find the API key field: {err}"))?;
    field.send_keys(key.expose()).await.map_err(|err| format!("cannot type into the API key field: {err}"))?;
    let typed = client.execute(KEY_LENGTH, vec![]).await.ok().and_then(|v| v.as_u64());
    if typed != Some(key.expose().chars().count() as u64) {
        return Err(format!(
            "the API key field holds {} characters after typing {} (did the page change?)",
            typed.map_or("no".into(), |n| n.to_string()),
            key.expose().chars().count()
        ));
    }
    if share_key && client.execute(SHARE_KEY_STATE, vec![]).await.ok() == Some(Value::Bool(false)) {
        click(client, "share-key-b").await?;
    }
    click(client, "run").await
}

/// Clicks the element with this test id: a WebDriver click, else a script click.
async fn click(client: &Client, testid: &str) -> Result<(), String> {
    let css = format!("[data-testid=\"{testid}\"]");
    let clicked = match client.find(Locator::Css(&css)).await {
        Ok(element) => element.click().await.is_ok(),
        Err(err) => return Err(format!("the page has no {testid} button: {err}")),
    };
    if !clicked {
        client.execute(SCRIPT_CLICK, vec![Value::from(testid)]).await.map_err(|err| format!("cannot click {testid}: {err}"))?;
    }
    Ok(())
}

/// Polls `#report-json` until `data-state` is `done` or `error` and returns its JSON.
async fn wait_for_report(client: &Client, plan: &SessionPlan, deadline: Instant, progress: &Progress) -> Result<Value, String> {
    let started = Instant::now();
    let mut next_progress = started + PROGRESS_EVERY;
    let mut saw_start = false;
    loop {
        let (state, text) = report_element(client).await;
        match state.as_deref() {
            Some("done" | "error") => {
                return serde_json::from_str(&text).map_err(|err| {
                    format!("#report-json (data-state={}) is not JSON: {err}", state.as_deref().unwrap_or_default())
                });
            }
            Some("idle") if !saw_start && started.elapsed() > START_LIMIT => {
                return Err(format!("the run did not start within {} s of loading the page", START_LIMIT.as_secs()));
            }
            Some("idle") | None => {}
            Some(_) => saw_start = true,
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(format!(
                "no report within {} s (--timeout-s): #report-json data-state={}",
                plan.timeout.as_secs_f64(),
                state.as_deref().unwrap_or("missing")
            ));
        }
        if now >= next_progress {
            progress(format!("{} ({} s)", state.as_deref().unwrap_or("waiting"), started.elapsed().as_secs()));
            next_progress = now + PROGRESS_EVERY;
        }
        tokio::time::sleep(POLL_INTERVAL.min(deadline - now)).await;
    }
}

/// `data-state` (`None` when the element is missing or the script failed) and text of `#report-json`.
async fn report_element(client: &Client) -> (Option<String>, String) {
    match client.execute(READ_REPORT, vec![]).await {
        Ok(Value::Array(parts)) => (
            parts.first().and_then(Value::as_str).map(String::from),
            parts.get(1).and_then(Value::as_str).unwrap_or_default().to_string(),
        ),
        _ => (None, String::new()),
    }
}

/// Awaits `fut` until `deadline`; past it, the error names what was going on.
async fn within<T>(deadline: Instant, plan: &SessionPlan, what: &str, fut: impl std::future::Future<Output = T>) -> Result<T, String> {
    tokio::time::timeout_at(deadline, fut)
        .await
        .map_err(|_| format!("time-out while {what}: the target took more than {} s (--timeout-s)", plan.timeout.as_secs_f64()))
}
