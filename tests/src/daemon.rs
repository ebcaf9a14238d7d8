//! A server process the harness starts (nginx, Caddy) in a temp directory of its own, tied to the test.
//!
//! Lifetime: dropping a [`Daemon`] sends `SIGTERM`, waits for the exit (`SIGKILL` after 5 s) and
//! removes its directory; that also happens while a panic unwinds. Should the test process itself be
//! killed, `setpriv --pdeathsig TERM` (util-linux) has the kernel send the server `SIGTERM`. The server
//! must run as one process in the foreground (nginx: `master_process off`, `daemon off`; `caddy run`),
//! so stopping it leaves nothing behind.

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

const STOP_LIMIT: Duration = Duration::from_secs(5);
const SETPRIV: &str = "/usr/bin/setpriv";
/// The server's stderr, inside its directory.
pub(crate) const STDERR_LOG: &str = "stderr.log";

/// A running server process and the directory that holds its configuration and logs.
pub(crate) struct Daemon {
    child: Child,
    dir: PathBuf,
}

impl Daemon {
    /// Starts `program` with `args` and `envs` (stdin and stdout closed, stderr to
    /// [`STDERR_LOG`] in `dir`); from then on `dir` belongs to the daemon and is removed with it
    /// (also when the start fails).
    pub fn spawn<I, S>(program: &str, args: I, envs: &[(&str, &Path)], dir: PathBuf) -> Result<Self, String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let stderr = match std::fs::File::create(dir.join(STDERR_LOG)) {
            Ok(file) => file,
            Err(err) => {
                let _ = std::fs::remove_dir_all(&dir);
                return Err(format!("cannot create {}'s stderr log in {}: {err}", program, dir.display()));
            }
        };
        let mut command = if Path::new(SETPRIV).is_file() {
            let mut command = Command::new(SETPRIV);
            command.args(["--pdeathsig", "TERM", program]);
            command
        } else {
            Command::new(program)
        };
        command.args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(stderr);
        for (name, value) in envs {
            command.env(name, value);
        }
        match command.spawn() {
            Ok(child) => Ok(Self { child, dir }),
            Err(err) => {
                let _ = std::fs::remove_dir_all(&dir);
                Err(format!("cannot start {program}: {err}"))
            }
        }
    }

    /// How the process ended, when it has.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// The named log files of the daemon's directory, one after the other, for error messages.
    pub fn logs(&self, names: &[&str]) -> String {
        names
            .iter()
            .map(|name| {
                let text = std::fs::read_to_string(self.dir.join(name)).unwrap_or_default();
                format!("--- {name}\n{text}")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Polls `ready` every 50 ms until it says yes; the error names `what` and shows the `logs` when the
    /// process exits first or `limit` passes.
    pub async fn wait_ready<F, Fut>(&mut self, limit: Duration, what: &str, logs: &[&str], mut ready: F) -> Result<(), String>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = bool>,
    {
        let started = std::time::Instant::now();
        loop {
            if let Some(status) = self.exited() {
                return Err(format!("{what} exited during start-up ({status}):\n{}", self.logs(logs)));
            }
            if ready().await {
                return Ok(());
            }
            if started.elapsed() > limit {
                return Err(format!("{what} was not ready within {limit:?}:\n{}", self.logs(logs)));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// `SIGTERM`, wait up to [`STOP_LIMIT`], then `SIGKILL` and wait.
    fn stop(&mut self) {
        if self.exited().is_some() {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM".to_string(), self.child.id().to_string()])
            .stderr(Stdio::null())
            .status();
        let started = std::time::Instant::now();
        while started.elapsed() < STOP_LIMIT {
            if self.exited().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A new directory `streamscope-<label>-<pid>-<nanos>` in the temp dir, readable by all (a server
/// started as root may read its files as another user).
pub(crate) fn fresh_dir(label: &str) -> std::io::Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("streamscope-{label}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
    Ok(dir)
}

/// The program named by the environment variable `var`, else `default`; the error names the package
/// that provides it and the variable.
pub(crate) fn program(var: &str, default: &str, needed_for: &str, package: &str) -> Result<String, String> {
    let program = std::env::var(var).unwrap_or_else(|_| default.into());
    if Path::new(&program).is_file() {
        Ok(program)
    } else {
        Err(format!(
            "{program} not found: {needed_for} need it (scripts/setup.sh installs it: apt-get install \
             {package}), or set {var}=<path>"
        ))
    }
}
