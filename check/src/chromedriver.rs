//! A chromedriver started by the check on a free loopback port, in its own process group so that it
//! and every browser it started are stopped together. It inherits no API key: the key reaches the
//! browser only by being typed into the page.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};
use tokio::time::Instant;

use crate::env::{Env, API_KEY_VAR, CHROMEDRIVER_VAR};

/// How long chromedriver may take to say it is ready.
const READY_LIMIT: Duration = Duration::from_secs(20);
/// How long it may take to stop before it is killed.
const STOP_LIMIT: Duration = Duration::from_secs(5);

/// A running chromedriver.
pub struct LocalDriver {
    child: Child,
    url: String,
}

impl LocalDriver {
    /// Starts [`CHROMEDRIVER_VAR`] (default `chromedriver` on `PATH`) and waits until `/status` says
    /// ready.
    pub async fn start(env: &Env) -> Result<LocalDriver, String> {
        let program = env.get(CHROMEDRIVER_VAR).unwrap_or("chromedriver").to_string();
        let port = free_port().map_err(|err| format!("no free port for chromedriver: {err}"))?;
        let mut command = Command::new(&program);
        command
            .arg(format!("--port={port}"))
            .env_remove(API_KEY_VAR)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true);
        if let Some(path) = env.get("PATH") {
            command.env("PATH", path);
        }
        let child = command.spawn().map_err(|err| {
            format!(
                "cannot start {program} ({err}): install chromedriver (Debian: chromium-driver), set {CHROMEDRIVER_VAR}, \
                 or pass --webdriver URL"
            )
        })?;
        let mut driver = LocalDriver { child, url: format!("http://127.0.0.1:{port}/") };
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = driver.child.try_wait() {
                return Err(format!("{program} exited during start-up: {status}"));
            }
            if is_ready(port).await {
                return Ok(driver);
            }
            if started.elapsed() > READY_LIMIT {
                driver.stop().await;
                return Err(format!("{program} did not answer on port {port} within {} s", READY_LIMIT.as_secs()));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The WebDriver URL, `http://127.0.0.1:<port>/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Stops chromedriver and the browsers it started (its whole process group) and reaps it.
    pub async fn stop(mut self) {
        self.signal_group("TERM");
        if tokio::time::timeout(STOP_LIMIT, self.child.wait()).await.is_err() {
            self.signal_group("KILL");
            let _ = self.child.wait().await;
        }
    }

    fn signal_group(&self, signal: &str) {
        if let Some(pid) = self.child.id() {
            // The child leads its own group (process_group(0)), so -pid names exactly what it started.
            let _ = std::process::Command::new("kill")
                .args([format!("-{signal}"), "--".into(), format!("-{pid}")])
                .env_remove(API_KEY_VAR)
                .stderr(Stdio::null())
                .status();
        }
    }
}

impl Drop for LocalDriver {
    fn drop(&mut self) {
        // Only matters when `stop` was never reached (an interrupted run).
        if matches!(self.child.try_wait(), Ok(None)) {
            self.signal_group("KILL");
        }
    }
}

/// A port that was free on 127.0.0.1 a moment ago.
fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Whether chromedriver's `/status` answers `"ready": true`.
async fn is_ready(port: u16) -> bool {
    let probe = async {
        let mut socket = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.ok()?;
        let request = "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        socket.write_all(request.as_bytes()).await.ok()?;
        // chromedriver may keep the connection open despite `Connection: close`: stop at the answer.
        let mut answer = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            let n = socket.read(&mut buffer).await.ok()?;
            answer.extend_from_slice(&buffer[..n]);
            let text = String::from_utf8_lossy(&answer);
            if text.contains("\"ready\":true") || text.contains("\"ready\": true") {
                return Some(true);
            }
            if n == 0 {
                return Some(false);
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(2), probe).await.ok().flatten().unwrap_or(false)
}
