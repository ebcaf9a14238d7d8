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
            Some(url) => (None, url.clone()),
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
