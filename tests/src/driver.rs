//! A chromedriver process on a free port, in its own process group so that it and every browser it
//! started can be stopped together.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};
use tokio::time::Instant;

use crate::ports::free_ports;

const READY_LIMIT: Duration = Duration::from_secs(20);

/// A running chromedriver.
pub(crate) struct Driver {
    child: Child,
    /// The WebDriver URL, `http://127.0.0.1:<port>`.
    pub url: String,
}

impl Driver {
    /// Starts `CHROMEDRIVER` (default `/usr/bin/chromedriver`) and waits until `/status` says ready.
    pub async fn start() -> Result<Self, String> {
        let program =
            std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
        let port = free_ports(1).map_err(|err| format!("no free port for chromedriver: {err}"))?[0];
        let child = Command::new(&program)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|err| {
                format!(
                    "cannot start {program} ({err}); install chromium-driver or set CHROMEDRIVER"
                )
            })?;
        let mut driver = Self {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
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
                return Err(format!(
                    "{program} did not answer on port {port} within {READY_LIMIT:?}"
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Stops chromedriver and the browsers it started (its whole process group) and reaps it.
    pub async fn stop(mut self) {
        self.signal_group("TERM");
        if tokio::time::timeout(Duration::from_secs(5), self.child.wait())
            .await
            .is_err()
        {
            self.signal_group("KILL");
            let _ = self.child.wait().await;
        }
    }

    fn signal_group(&self, signal: &str) {
        if let Some(pid) = self.child.id() {
            // The child leads its own group (process_group(0)), so -pid names exactly what it started.
            let _ = std::process::Command::new("kill")
                .args([format!("-{signal}"), "--".into(), format!("-{pid}")])
                .stderr(Stdio::null())
                .status();
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // Only matters when `stop` was never reached (a panic during set-up).
        if matches!(self.child.try_wait(), Ok(None)) {
            self.signal_group("KILL");
        }
    }
}

async fn is_ready(port: u16) -> bool {
    let probe = async {
        let mut socket = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .ok()?;
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
    tokio::time::timeout(Duration::from_secs(2), probe)
        .await
        .ok()
        .flatten()
        .unwrap_or(false)
}
