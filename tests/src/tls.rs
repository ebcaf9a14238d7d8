//! A throw-away self-signed certificate for `127.0.0.1`, made at test time with the `openssl` CLI for
//! nginx's TLS servers. Nothing trusts it but the test Chromium, which runs with
//! `--ignore-certificate-errors` (see `browser.rs`); it is valid for 2 days and lives in nginx's temp
//! prefix, removed with it.

use std::path::Path;
use std::process::{Command, Stdio};

/// The certificate's file name inside the prefix.
pub(crate) const CERT_FILE: &str = "tls-cert.pem";
/// The private key's file name inside the prefix.
pub(crate) const KEY_FILE: &str = "tls-key.pem";

/// Writes a P-256 key and a self-signed certificate for `IP:127.0.0.1` into `dir` with `OPENSSL`
/// (default `openssl` on the `PATH`); the error says what is missing or what openssl printed.
pub(crate) fn self_signed(dir: &Path) -> Result<(), String> {
    let program = std::env::var("OPENSSL").unwrap_or_else(|_| "openssl".into());
    let output = Command::new(&program)
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"])
        .args(["-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1"])
        .arg("-keyout")
        .arg(dir.join(KEY_FILE))
        .arg("-out")
        .arg(dir.join(CERT_FILE))
        .stdin(Stdio::null())
        .output()
        .map_err(|err| {
            format!(
                "cannot run {program}: {err}; the TLS (HTTP/2) nginx servers need the openssl CLI \
                 (scripts/setup.sh installs it: apt-get install openssl), or set OPENSSL=<path>"
            )
        })?;
    if !output.status.success() {
        return Err(format!(
            "{program} req could not make a self-signed certificate ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(())
}
