//! What a run needs before any target: the page (a bundle served here, or `--page`) and a WebDriver
//! endpoint (a chromedriver started here, or `--webdriver`), and their teardown.

use std::sync::Arc;
use std::time::Duration;

use crate::args::{Options, PageSource};
use crate::browser::{binary, capabilities};
use crate::bundle::{locate, BundleServer};
use crate::chromedriver::LocalDriver;
use crate::env::Env;
use crate::output::console::Console;
use crate::session::SessionPlan;

/// The page and the WebDriver endpoint, up for the run.
pub struct Setup {
    bundle: Option<BundleServer>,
    driver: Option<LocalDriver>,
    /// What every session gets.
    pub plan: Arc<SessionPlan>,
}

impl Setup {
    /// Serves the page and starts chromedriver as the options say; the error is why nothing can run.
    pub async fn start(options: &Options, env: &Env, console: &mut Console<'_>) -> Result<Setup, String> {
        let (bundle, page) = match &options.page {
            PageSource::Url(url) => (None, url.clone()),
            PageSource::Bundle(explicit) => {
                let exe = std::env::current_exe().ok();
                let dir = locate(explicit.as_deref(), exe.as_deref())?;
                let server = BundleServer::start(&dir).await?;
                console.note(&format!("serving the page from {} at {}", dir.display(), server.url()));
                let url = server.url().to_string();
                (Some(server), url)
            }
        };
        let (driver, webdriver) = match &options.webdriver {
            Some(url) => {
                if bundle.is_some() && !is_loopback(url) {
                    console.note(&format!(
                        "warning: the page is served on this machine's loopback ({page}), which browsers of a remote \
                         WebDriver server cannot reach: use --page URL with a deployed copy"
                    ));
                }
                (None, url.clone())
            }
            None => {
                console.note("starting chromedriver");
                let driver = LocalDriver::start(env).await?;
                let url = driver.url().to_string();
                (Some(driver), url)
            }
        };
        let key = env.api_key();
        if key.is_some() {
            console.note("an API key is set (STREAMSCOPE_API_KEY): it is typed into the page, then Run is clicked");
        }
        let plan = SessionPlan {
            webdriver,
            capabilities: capabilities(binary(env, driver.is_some()).as_deref()),
            page,
            key,
            share_key: options.share_key,
            timeout: Duration::from_secs_f64(options.timeout_s),
        };
        Ok(Setup { bundle, driver, plan: Arc::new(plan) })
    }

    /// Stops chromedriver (and its browsers) and the page server.
    pub async fn stop(self) {
        if let Some(driver) = self.driver {
            driver.stop().await;
        }
        drop(self.bundle);
    }
}

/// Whether a URL's host is this machine (`localhost`, `127.x.x.x`, `[::1]`).
fn is_loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        host_port.split(']').next().map_or("", |h| &h[1..])
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for url in ["http://127.0.0.1:9515/", "http://localhost:4444/wd/hub/", "http://[::1]:9515/", "http://u:p@127.0.0.2/"] {
            assert!(is_loopback(url), "{url}");
        }
        for url in ["http://grid:4444/wd/hub/", "http://10.0.0.5:4444/", "http://127.example.com/"] {
            assert!(!is_loopback(url), "{url}");
        }
    }
}
