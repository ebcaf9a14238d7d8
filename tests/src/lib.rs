//! End-to-end harness: the built page in headless Chromium, driven through its automation contract,
//! against an in-process lab, directly or through a real nginx.
//!
//! [`with_page`] starts everything (lab, chromedriver, a browser session with a fresh profile), runs a
//! scenario, and cleans up even when the scenario panics; [`with_page_and_nginx`] also starts nginx in
//! front of the lab with every [`Proxy`] configuration (two of them HTTP/2 over TLS with a self-signed
//! certificate: [`Proxies::url`] gives their `https://` URLs, and the test browser ignores certificate
//! errors); [`relay`] puts a byte relay with a
//! [`RelayPolicy`] (timer flushes, headers held until the first body byte) in front of the same lab.
//! [`Package`] runs `scripts/package.sh` and unpacks its tarball; [`SiteNginx`] and [`SiteCaddy`] serve
//! that bundle under a sub-path through the shipped server snippets, filled in, next to the lab's API.
//! [`with_lab`] and [`with_lab_and_nginx`] start the same servers without a browser, for tools that
//! drive one of their own (streamscope-check's tests).
//! Scenarios run one at a time: a 2-core machine cannot time streams honestly with two browsers busy.
//!
//! Environment: `STREAMSCOPE_DIST` (built page, default `<workspace>/dist`), `CHROMEDRIVER` (default
//! `/usr/bin/chromedriver`), `CHROMIUM` (default `/usr/bin/chromium`), `NGINX` (default
//! `/usr/sbin/nginx`), `OPENSSL` (default `openssl`, for the TLS servers' certificate), `CADDY` (default
//! `/usr/bin/caddy`).

mod browser;
mod caddy;
mod check;
mod daemon;
mod dist;
mod driver;
pub mod fidelity;
mod lab;
mod nginx;
mod nginx_conf;
mod package;
mod page;
mod ports;
mod probe;
mod relay;
mod site_nginx;
mod tls;
mod url;

use std::future::Future;
use std::net::SocketAddr;

pub use caddy::SiteCaddy;
pub use check::{finding, Check, Outcomes};
pub use dist::workspace_dir;
pub use nginx::Proxies;
pub use nginx_conf::Proxy;
pub use package::{Package, Snippet, SITE_PLACEHOLDER, UPSTREAM_PLACEHOLDER};
pub use page::{Page, Report, Requested, REPORT_LIMIT};
pub use relay::relay;
pub use site_nginx::SiteNginx;
pub use streamscope_lab::relay::RelayPolicy;
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
    in_browser(lab_addr, None, scenario).await;
}

/// Like [`with_page`], in a browser whose language is `locale` (`zh-CN`): its `navigator.languages`
/// starts with it.
pub async fn with_page_in_locale<F, Fut>(locale: &str, scenario: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let _serial = SERIAL.lock().await;
    let lab_addr = lab::shared(dist::dist_dir());
    in_browser(lab_addr, Some(locale), scenario).await;
}

/// Like [`with_page`], with nginx started in front of the lab (every [`Proxy`] on its own port) for
/// the scenario and stopped after it, panic or not. Fails with a clear message when nginx is missing.
pub async fn with_page_and_nginx<F, Fut>(scenario: F)
where
    F: FnOnce(Page, Proxies) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let _serial = SERIAL.lock().await;
    let lab_addr = lab::shared(dist::dist_dir());
    let nginx = nginx::Nginx::start(lab_addr)
        .await
        .unwrap_or_else(|err| panic!("{err}"));
    let proxies = nginx.proxies();
    // A panic re-raised here unwinds through `nginx`, whose drop stops it and waits for it.
    in_browser(lab_addr, None, move |page| scenario(page, proxies)).await;
    drop(nginx);
}

/// Runs `scenario` with the shared lab (serving the built page) at the given address, but no browser:
/// for tools that drive a browser of their own (streamscope-check's tests). One scenario at a time,
/// like the others.
pub async fn with_lab<F, Fut>(scenario: F)
where
    F: FnOnce(SocketAddr) -> Fut,
    Fut: Future<Output = ()>,
{
    let _serial = SERIAL.lock().await;
    scenario(lab::shared(dist::dist_dir())).await;
}

/// Like [`with_lab`], with nginx started in front of the lab (every [`Proxy`] on its own port) and
/// stopped after the scenario, panic or not.
pub async fn with_lab_and_nginx<F, Fut>(scenario: F)
where
    F: FnOnce(SocketAddr, Proxies) -> Fut,
    Fut: Future<Output = ()>,
{
    let _serial = SERIAL.lock().await;
    let lab_addr = lab::shared(dist::dist_dir());
    let nginx = nginx::Nginx::start(lab_addr)
        .await
        .unwrap_or_else(|err| panic!("{err}"));
    // A panic in the scenario unwinds through `nginx`, whose drop stops it and waits for it.
    scenario(lab_addr, nginx.proxies()).await;
    drop(nginx);
}

/// The shared lab's address (it serves the built page and the reference streams), started on first
/// use: for a server a tool puts in front of it before opening browsers with [`with_page`].
pub fn shared_lab() -> SocketAddr {
    lab::shared(dist::dist_dir())
}

/// A lab of its own serving `static_dir` (a changed copy of the built page), with the reference
/// streams like the shared one; it lives as long as the test process. Open it with [`Page::open_url`].
pub fn private_lab(static_dir: std::path::PathBuf) -> SocketAddr {
    lab::private(static_dir)
}

/// When the browser sent a run's request, in ms after `fetch()` (the report's
/// `connection.request_sent_ms`, Resource Timing's `requestStart`; 0 when the report has none). The lab's
/// schedule starts when the request reaches it: a test that holds a TTFT to the schedule adds this, so
/// that a host slow to send the request (measured 6-14 ms in the flakes of 2026-12-06, against 2-5 ms
/// usually) is not taken for the page measuring the stream late. The TTFT the page reports still counts
/// from `fetch()`.
pub fn request_sent_ms(report: &serde_json::Value) -> f64 {
    report["connection"]["request_sent_ms"].as_f64().unwrap_or(0.0)
}

/// The built page's directory (`STREAMSCOPE_DIST`, default `<workspace>/dist`); panics with the build
/// command when it holds no `index.html`.
pub fn built_page_dir() -> std::path::PathBuf {
    dist::dist_dir()
}

async fn in_browser<F, Fut>(lab_addr: SocketAddr, locale: Option<&str>, scenario: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let driver = driver::Driver::start()
        .await
        .unwrap_or_else(|err| panic!("{err}"));
    let browser = browser::Browser::open(&driver, locale)
        .await
        .unwrap_or_else(|err| panic!("{err}"));
    let page = Page::new(browser.client.clone(), lab_addr, browser.netlog_path());

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
