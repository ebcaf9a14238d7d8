//! A real nginx (Debian's `/usr/sbin/nginx`) in front of the lab, started from a generated config in a
//! fresh temp prefix: one `server` per [`Proxy`] on its own free 127.0.0.1 port, all `proxy_pass`ing
//! to the in-process lab; the TLS ones (HTTP/2) with a self-signed certificate made in the prefix at
//! start (`tls.rs`, the `openssl` CLI).
//!
//! Lifetime: nginx runs as one process (`master_process off`, `daemon off`), so stopping it leaves no
//! worker behind; [`Daemon`] stops it and removes the prefix when [`Nginx`] is dropped (also while a
//! panic unwinds), and ties it to the test process (`setpriv --pdeathsig TERM`). [`launch`] starts any
//! generated config the same way (the bundle's sub-path servers use it too: `site_nginx.rs`).

use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

use tokio::time::Instant;

use crate::daemon::{self, Daemon, STDERR_LOG};
use crate::nginx_conf::{render, Proxy, TEMP_DIRS};
use crate::ports::free_ports;
use crate::probe::{answers_200, speaks_tls};
use crate::tls;

const READY_LIMIT: Duration = Duration::from_secs(15);

/// A running nginx with every [`Proxy`] configuration.
pub(crate) struct Nginx {
    daemon: Daemon,
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
        let program = nginx_program("the nginx end-to-end tests")?;
        let prefix =
            fresh_prefix().map_err(|err| format!("cannot create an nginx prefix: {err}"))?;
        let ports = free_ports(Proxy::ALL.len())
            .map_err(|err| format!("no free ports for nginx: {err}"))?;
        let servers: Vec<(Proxy, u16)> = Proxy::ALL.into_iter().zip(ports).collect();
        if let Err(err) = tls::self_signed(&prefix) {
            let _ = std::fs::remove_dir_all(&prefix);
            return Err(err);
        }
        let conf = render(&prefix, upstream, &servers);
        let mut nginx = Self {
            daemon: launch(&program, prefix, &conf)?,
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
            if let Some(status) = self.daemon.exited() {
                return Err(format!(
                    "{program} exited during start-up ({status}):\n{}",
                    self.logs()
                ));
            }
            let mut still = Vec::new();
            for (proxy, port) in waiting {
                // Plain servers: `GET /healthz` comes back `200` from the lab through nginx.
                let ready = if proxy.is_tls() {
                    speaks_tls(port).await
                } else {
                    answers_200(port, "/healthz").await
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
        logs(&self.daemon)
    }
}

/// nginx's stderr and error log in `daemon`'s prefix, for error messages.
pub(crate) fn logs(daemon: &Daemon) -> String {
    daemon.logs(&[STDERR_LOG, "error.log"])
}

/// `NGINX` (default `/usr/sbin/nginx`); the error says that `needed_for` needs it and how to get it.
pub(crate) fn nginx_program(needed_for: &str) -> Result<String, String> {
    daemon::program("NGINX", "/usr/sbin/nginx", needed_for, "nginx")
}

/// Writes `conf` to `prefix/nginx.conf` and starts `program` on it in the foreground, its error log in
/// the prefix; the prefix then belongs to the returned [`Daemon`] (removed with it, or at once when
/// nginx cannot be started).
pub(crate) fn launch(program: &str, prefix: PathBuf, conf: &str) -> Result<Daemon, String> {
    let conf_path = prefix.join("nginx.conf");
    if let Err(err) = std::fs::write(&conf_path, conf) {
        let _ = std::fs::remove_dir_all(&prefix);
        return Err(format!("cannot write {}: {err}", conf_path.display()));
    }
    let args = [
        "-p".into(),
        format!("{}/", prefix.display()),
        "-c".into(),
        conf_path.display().to_string(),
        "-e".into(),
        prefix.join("error.log").display().to_string(),
        "-g".into(),
        "daemon off;".into(),
    ];
    Daemon::spawn(program, args, &[], prefix)
}

/// A new directory for nginx's config, logs, pid and temp files, with the temp dirs writable by all.
pub(crate) fn fresh_prefix() -> std::io::Result<PathBuf> {
    let prefix = daemon::fresh_dir("nginx")?;
    for dir in TEMP_DIRS {
        let path = prefix.join(dir);
        std::fs::create_dir(&path)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777))?;
    }
    Ok(prefix)
}
