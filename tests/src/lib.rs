//! End-to-end harness: the built page in headless Chromium, driven through its automation contract,
//! against an in-process lab.
//!
//! [`with_page`] starts everything (lab, chromedriver, a browser session with a fresh profile), runs a
//! scenario, and cleans up even when the scenario panics. Scenarios run one at a time: a 2-core machine
//! cannot time streams honestly with two browsers busy.
//!
//! Environment: `STREAMSCOPE_DIST` (built page, default `<workspace>/dist`), `CHROMEDRIVER` (default
//! `/usr/bin/chromedriver`), `CHROMIUM` (default `/usr/bin/chromium`).

mod browser;
mod dist;
mod driver;
mod lab;
mod page;
mod url;

use std::future::Future;

pub use page::{Page, Report, REPORT_LIMIT};
pub use url::encode_component;

/// One browser at a time across all tests of the process.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Runs `scenario` against the built page in a fresh headless Chromium, then tears the browser down;
/// a panic in the scenario is re-raised after cleanup.
pub async fn with_page<F, Fut>(scenario: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let _serial = SERIAL.lock().await;
    let lab_addr = lab::shared(dist::dist_dir());
    let driver = driver::Driver::start()
        .await
        .unwrap_or_else(|err| panic!("{err}"));
    let browser = browser::Browser::open(&driver)
        .await
        .unwrap_or_else(|err| panic!("{err}"));
    let page = Page::new(browser.client.clone(), lab_addr);

    let outcome = tokio::spawn(scenario(page)).await;

    let profile_dir = browser.close().await;
    driver.stop().await;
    let _ = std::fs::remove_dir_all(profile_dir);
    if let Err(err) = outcome {
        if err.is_panic() {
            std::panic::resume_unwind(err.into_panic());
        }
        panic!("scenario did not finish: {err}");
    }
}
