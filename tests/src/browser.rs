//! A WebDriver session on headless Chromium with a throw-away profile.

use std::path::PathBuf;
use std::time::Duration;

use fantoccini::wd::TimeoutConfiguration;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;

use crate::driver::Driver;

/// The network log's file name inside the profile directory.
pub(crate) const NETLOG_FILE: &str = "netlog.json";

/// An open browser session and its profile directory.
pub(crate) struct Browser {
    /// The WebDriver client.
    pub client: Client,
    profile_dir: PathBuf,
}

impl Browser {
    /// Opens a session on `CHROMIUM` (default `/usr/bin/chromium`) through `driver`, in the machine's
    /// locale, or with `locale` (a BCP 47 tag such as `zh-CN`) as the browser's language and the first of
    /// its `navigator.languages`.
    pub async fn open(driver: &Driver, locale: Option<&str>) -> Result<Self, String> {
        let binary = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let profile_dir = fresh_profile_dir()
            .map_err(|err| format!("cannot create a browser profile dir: {err}"))?;
        let args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            // Exact `performance.memory` figures (the benchmark reads the JS heap).
            "--enable-precise-memory-info",
            // nginx's TLS servers use a self-signed certificate made at test time (`tls.rs`); only
            // this throw-away browser trusts it.
            "--ignore-certificate-errors",
        ]
        .iter()
        .map(|flag| flag.to_string())
        .chain([
            format!("--user-data-dir={}", profile_dir.display()),
            // Every request the browser makes, for the tests that check where the page connects.
            format!("--log-net-log={}", profile_dir.join(NETLOG_FILE).display()),
            "--net-log-capture-mode=Default".to_string(),
        ])
        .chain(locale.map(|l| format!("--lang={l}")))
        .collect::<Vec<_>>();
        let mut options = json!({ "binary": binary, "args": args });
        if let Some(locale) = locale {
            // `navigator.languages` comes from the profile's Accept-Language list, not from --lang.
            options["prefs"] = json!({ "intl.accept_languages": locale });
        }
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": options,
        });
        let serde_json::Value::Object(capabilities) = capabilities else {
            unreachable!("a JSON object")
        };
        let client = match ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&driver.url)
            .await
        {
            Ok(client) => client,
            Err(err) => {
                let _ = std::fs::remove_dir_all(&profile_dir);
                return Err(format!(
                    "cannot open a {binary} session through {}: {err}",
                    driver.url
                ));
            }
        };
        let timeouts = TimeoutConfiguration::new(
            Some(Duration::from_secs(30)),
            Some(Duration::from_secs(30)),
            Some(Duration::from_secs(0)),
        );
        if let Err(err) = client.update_timeouts(timeouts).await {
            let _ = client.clone().close().await;
            let _ = std::fs::remove_dir_all(&profile_dir);
            return Err(format!("cannot set WebDriver time-outs: {err}"));
        }
        Ok(Self {
            client,
            profile_dir,
        })
    }

    /// Where the browser writes its network log.
    pub fn netlog_path(&self) -> PathBuf {
        self.profile_dir.join(NETLOG_FILE)
    }

    /// Ends the session (the browser quits) and returns the profile directory, to be removed once the
    /// browser processes are gone.
    pub async fn close(self) -> PathBuf {
        let _ = tokio::time::timeout(Duration::from_secs(10), self.client.close()).await;
        self.profile_dir
    }
}

fn fresh_profile_dir() -> std::io::Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("streamscope-e2e-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
