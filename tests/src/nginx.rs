//! A real nginx (Debian's `/usr/sbin/nginx`) in front of the lab, started from a generated config in a
//! fresh temp prefix: one `server` per [`Proxy`] on its own free 127.0.0.1 port, all `proxy_pass`ing
//! to the in-process lab; the TLS ones (HTTP/2) with a self-signed certificate made in the prefix at
//! start (`tls.rs`, the `openssl` CLI).
//!
//! Lifetime: nginx runs as one process (`master_process off`, `daemon off`), so stopping it leaves no
//! worker behind. Dropping [`Nginx`] sends `SIGTERM`, waits for the exit (`SIGKILL` after 5 s) and
//! removes the prefix; that also happens while a panic unwinds. Should the test process itself be
//! killed, `setpriv --pdeathsig TERM` (util-linux) has the kernel send nginx `SIGTERM`.

use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;

use crate::nginx_conf::{render, Proxy, TEMP_DIRS};
use crate::ports::free_ports;
use crate::tls;

const READY_LIMIT: Duration = Duration::from_secs(15);
const STOP_LIMIT: Duration = Duration::from_secs(5);
const SETPRIV: &str = "/usr/bin/setpriv";

/// A running nginx with every [`Proxy`] configuration.
pub(crate) struct Nginx {
    child: Child,
    prefix: PathBuf,
    proxies: Proxies,
}

/// Where each configuration listens; cheap to clone into a scenario.
#[derive(Debug, Clone)]
pub struct Proxies {
    servers: Vec<(Proxy, u16)>,
}

impl Proxies {
    /// `http://127.0.0.1:<port of proxy>` (`https://` for a TLS one, see [`Proxy::is_tls`]) followed by
    /// `path_and_query`.
    pub fn url(&self, proxy: Proxy, path_and_query: &str) -> String {
        let port = self
            .servers
            .iter()
            .find(|(p, _)| *p == proxy)
            .map(|(_, port)| *port)
            .unwrap_or_else(|| panic!("no nginx server for {proxy:?}"));
        format!("{}://127.0.0.1:{port}{path_and_query}", proxy.scheme())
    }

    /// The lab's chat-completions stream with `stream_params`, through `proxy`.
    pub fn stream_url(&self, proxy: Proxy, stream_params: &str) -> String {
        self.url(proxy, &format!("/v1/chat/completions?{stream_params}"))
    }
}

impl Nginx {
    /// Starts `NGINX` (default `/usr/sbin/nginx`) in front of `upstream` and waits until every server
    /// answers `/healthz` through to the lab; the error says what is missing or what nginx logged.
    pub async fn start(upstream: SocketAddr) -> Result<Self, String> {
        let program = std::env::var("NGINX").unwrap_or_else(|_| "/usr/sbin/nginx".into());
        if !Path::new(&program).is_file() {
            return Err(format!(
                "nginx not found at {program}: the nginx end-to-end tests need it \
                 (scripts/setup.sh installs it: apt-get install nginx), or set NGINX=<path>"
            ));
        }
        let prefix =
            fresh_prefix().map_err(|err| format!("cannot create an nginx prefix: {err}"))?;
        let ports = free_ports(Proxy::ALL.len())
            .map_err(|err| format!("no free ports for nginx: {err}"))?;
        let servers: Vec<(Proxy, u16)> = Proxy::ALL.into_iter().zip(ports).collect();
        if let Err(err) = tls::self_signed(&prefix) {
            let _ = std::fs::remove_dir_all(&prefix);
            return Err(err);
        }
        let conf_path = prefix.join("nginx.conf");
        std::fs::write(&conf_path, render(&prefix, upstream, &servers))
            .map_err(|err| format!("cannot write {}: {err}", conf_path.display()))?;
        let stderr = std::fs::File::create(prefix.join("stderr.log"))
            .map_err(|err| format!("cannot create nginx's stderr log: {err}"))?;

        let mut command = if Path::new(SETPRIV).is_file() {
            let mut command = Command::new(SETPRIV);
            command.args(["--pdeathsig", "TERM", &program]);
            command
        } else {
            Command::new(&program)
        };
        command
            .arg("-p")
            .arg(format!("{}/", prefix.display()))
            .arg("-c")
            .arg(&conf_path)
            .arg("-e")
            .arg(prefix.join("error.log"))
            .args(["-g", "daemon off;"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr);
        let child = match command.spawn() {
            Ok(child) => child,
            Err(err) => {
                let _ = std::fs::remove_dir_all(&prefix);
                return Err(format!("cannot start {program}: {err}"));
            }
        };
        let mut nginx = Self {
            child,
            prefix,
            proxies: Proxies { servers },
        };
        nginx.wait_ready(&program).await?;
        Ok(nginx)
    }

    /// The ports of the configurations.
    pub fn proxies(&self) -> Proxies {
        self.proxies.clone()
    }

    async fn wait_ready(&mut self, program: &str) -> Result<(), String> {
        let started = Instant::now();
        let mut waiting: Vec<(Proxy, u16)> = self.proxies.servers.clone();
        while !waiting.is_empty() {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "{program} exited during start-up ({status}):\n{}",
                    self.logs()
                ));
            }
            let mut still = Vec::new();
            for (proxy, port) in waiting {
                let ready = if proxy.is_tls() {
                    speaks_tls(port).await
                } else {
                    reaches_lab(port).await
                };
                if !ready {
                    still.push((proxy, port));
                }
            }
            waiting = still;
            if !waiting.is_empty() && started.elapsed() > READY_LIMIT {
                return Err(format!(
                    "nginx did not pass /healthz to the lab (or answer on its TLS port) within \
                     {READY_LIMIT:?} on {waiting:?}:\n{}",
                    self.logs()
                ));
            }
            if !waiting.is_empty() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        Ok(())
    }

    /// nginx's stderr and error log, for error messages.
    fn logs(&self) -> String {
        ["stderr.log", "error.log"]
            .iter()
            .map(|name| {
                let text = std::fs::read_to_string(self.prefix.join(name)).unwrap_or_default();
                format!("--- {name}\n{text}")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `SIGTERM`, wait up to [`STOP_LIMIT`], then `SIGKILL` and wait.
    fn stop(&mut self) {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            return;
        }
        signal(self.child.id(), "TERM");
        let started = std::time::Instant::now();
        while started.elapsed() < STOP_LIMIT {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.prefix);
    }
}

fn signal(pid: u32, name: &str) {
    let _ = Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .stderr(Stdio::null())
        .status();
}

/// A new directory for nginx's config, logs, pid and temp files, with the temp dirs writable by all.
fn fresh_prefix() -> std::io::Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let prefix =
        std::env::temp_dir().join(format!("streamscope-nginx-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&prefix)?;
    std::fs::set_permissions(&prefix, std::fs::Permissions::from_mode(0o755))?;
    for dir in TEMP_DIRS {
        let path = prefix.join(dir);
        std::fs::create_dir(&path)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777))?;
    }
    Ok(prefix)
}

/// Whether `GET /healthz` through the server on `port` comes back `200` from the lab.
async fn reaches_lab(port: u16) -> bool {
    plain_get_healthz(port)
        .await
        .is_some_and(|answer| answer.starts_with(b"HTTP/1.1 200"))
}

/// Whether the server on `port` is nginx's TLS server: the harness has no TLS client, but nginx
/// answers plain HTTP on a TLS port with its own `400` saying so (the e2e tests then go through TLS).
async fn speaks_tls(port: u16) -> bool {
    plain_get_healthz(port).await.is_some_and(|answer| {
        let text = String::from_utf8_lossy(&answer);
        text.starts_with("HTTP/1.1 400") && text.contains("HTTPS port")
    })
}

/// The whole answer to a plain-HTTP `GET /healthz` on `port` (`None`: no answer within 2 s).
async fn plain_get_healthz(port: u16) -> Option<Vec<u8>> {
    let probe = async {
        let mut socket = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .ok()?;
        let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        socket.write_all(request.as_bytes()).await.ok()?;
        let mut answer = Vec::new();
        socket.read_to_end(&mut answer).await.ok()?;
        Some(answer)
    };
    tokio::time::timeout(Duration::from_secs(2), probe)
        .await
        .ok()
        .flatten()
}
