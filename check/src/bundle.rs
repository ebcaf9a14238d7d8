//! The built page served on loopback: the lab crate's static serving (the page's
//! Content-Security-Policy, `Referrer-Policy: no-referrer`, `nosniff`), started in this process on
//! `127.0.0.1:0` and stopped with the check. The lab's API routes answer on that port too; nothing
//! outside this machine can reach it.

use std::path::{Path, PathBuf};

use streamscope_lab::{Lab, LabConfig};
use tokio::task::JoinHandle;

/// Finds the bundle: `explicit` (`--bundle`), else `dist/` next to the executable, else `./dist`.
/// The directory must hold an `index.html`.
pub fn locate(explicit: Option<&Path>, exe: Option<&Path>) -> Result<PathBuf, String> {
    let has_page = |dir: &Path| dir.join("index.html").is_file();
    if let Some(dir) = explicit {
        if !dir.is_dir() {
            return Err(format!("--bundle {}: no such directory", dir.display()));
        }
        if !has_page(dir) {
            return Err(format!("--bundle {}: no index.html in it (is it the output of trunk build --release?)", dir.display()));
        }
        return Ok(dir.to_path_buf());
    }
    let candidates: Vec<PathBuf> =
        exe.and_then(Path::parent).map(|d| d.join("dist")).into_iter().chain([PathBuf::from("dist")]).collect();
    candidates.iter().find(|d| has_page(d)).cloned().ok_or_else(|| {
        let looked: Vec<String> = candidates.iter().map(|d| d.display().to_string()).collect();
        format!(
            "no built page found (looked in {}): build it with `trunk build --release` and pass --bundle DIR, \
             or use a deployed page with --page URL",
            looked.join(", ")
        )
    })
}

/// The page served from a directory, until dropped.
pub struct BundleServer {
    url: String,
    task: JoinHandle<()>,
}

impl BundleServer {
    /// Serves `dir` on a free loopback port.
    pub async fn start(dir: &Path) -> Result<BundleServer, String> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|err| format!("cannot listen on 127.0.0.1 to serve the page: {err}"))?;
        let addr = listener.local_addr().map_err(|err| format!("cannot read the page server's address: {err}"))?;
        let lab = Lab::new(LabConfig { static_dir: Some(dir.to_path_buf()), ..LabConfig::default() });
        let task = tokio::spawn(lab.serve(listener));
        Ok(BundleServer { url: format!("http://{addr}/"), task })
    }

    /// The page's address, `http://127.0.0.1:<port>/`.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for BundleServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_empty_bundle_is_named() {
        let err = locate(Some(Path::new("/no/such/dir")), None).unwrap_err();
        assert!(err.contains("no such directory"), "{err}");
        let empty = std::env::temp_dir();
        let err = locate(Some(&empty), None).unwrap_err();
        assert!(err.contains("no index.html"), "{err}");
        let err = locate(None, Some(Path::new("/no/such/bin/streamscope-check"))).unwrap_err();
        assert!(err.contains("/no/such/bin/dist") && err.contains("--page URL"), "{err}");
    }
}
