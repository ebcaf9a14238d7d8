//! The release package exactly as `scripts/package.sh` makes it from the built page: packed into a
//! temp directory, unpacked there with `tar` and checked with `sha256sum -c SHA256SUMS`. Tests serve
//! its `site/` through its own server snippets, the shipped text with only the two placeholders filled
//! in ([`Package::snippet`]). The directory is removed when the [`Package`] is dropped.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::daemon::fresh_dir;
use crate::dist::dist_dir;

/// The placeholder for the bundle's folder in the shipped snippets.
pub const SITE_PLACEHOLDER: &str = "@STREAMSCOPE_SITE@";
/// The placeholder for the streaming API (`scheme://host:port`) in the shipped snippets.
pub const UPSTREAM_PLACEHOLDER: &str = "@API_UPSTREAM@";

/// A server snippet shipped in the package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Snippet {
    /// `nginx/streamscope.conf` (from `deploy/nginx/`), included inside a `server` block.
    Nginx,
    /// `caddy/Caddyfile` (from `deploy/caddy/`), imported inside a site block.
    Caddy,
}

impl Snippet {
    /// The snippet's path inside the package.
    pub fn path(self) -> &'static str {
        match self {
            Snippet::Nginx => "nginx/streamscope.conf",
            Snippet::Caddy => "caddy/Caddyfile",
        }
    }
}

/// An unpacked, checked release package.
pub struct Package {
    dir: PathBuf,
    tarball: PathBuf,
    root: PathBuf,
    version: String,
}

impl Package {
    /// Packs the built page (`STREAMSCOPE_DIST`) with `scripts/package.sh --dist`, unpacks the tarball it
    /// printed and verifies its checksums; the error says which step failed and what it printed.
    pub fn make() -> Result<Self, String> {
        let version = workspace_version()?;
        let dir = fresh_dir("package").map_err(|err| format!("cannot create a package dir: {err}"))?;
        let package = Self { tarball: PathBuf::new(), root: dir.join(format!("streamscope-{version}")), dir, version };
        package.unpack()
    }

    fn unpack(mut self) -> Result<Self, String> {
        self.tarball = pack(&self.dir.join("out"))?;
        let expected = format!("streamscope-{}.tar.gz", self.version);
        if self.tarball.file_name().and_then(|n| n.to_str()) != Some(expected.as_str()) {
            return Err(format!("package.sh printed {}, expected a file named {expected}", self.tarball.display()));
        }
        let tarball = self.tarball.display().to_string();
        let dir = self.dir.display().to_string();
        run("tar", &["-xzf", &tarball, "-C", &dir], &self.dir)?;
        if !self.root.join("site/index.html").is_file() {
            return Err(format!("{tarball} has no {}/site/index.html", self.root.display()));
        }
        run("sha256sum", &["--quiet", "-c", "SHA256SUMS"], &self.root)?;
        Ok(self)
    }

    /// The workspace version the package is named after.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The tarball package.sh made.
    pub fn tarball(&self) -> &Path {
        &self.tarball
    }

    /// The unpacked `streamscope-<version>/` folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The bundle: `streamscope-<version>/site`.
    pub fn site(&self) -> PathBuf {
        self.root.join("site")
    }

    /// Every file of the unpacked package, relative to [`Package::root`], sorted.
    pub fn files(&self) -> Vec<String> {
        let mut files = Vec::new();
        let mut pending = vec![self.root.clone()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    pending.push(path);
                } else if let Ok(relative) = path.strip_prefix(&self.root) {
                    files.push(relative.display().to_string());
                }
            }
        }
        files.sort();
        files
    }

    /// The files `SHA256SUMS` lists, sorted.
    pub fn summed(&self) -> Vec<String> {
        let sums = std::fs::read_to_string(self.root.join("SHA256SUMS")).unwrap_or_default();
        let mut files: Vec<String> = sums
            .lines()
            .filter_map(|line| line.split_once("  ").map(|(_, name)| name.to_string()))
            .collect();
        files.sort();
        files
    }

    /// Packs the same build again into a fresh folder and returns the tarball's bytes (for the
    /// idempotency check).
    pub fn repack(&self) -> Result<Vec<u8>, String> {
        let again = pack(&self.dir.join("again"))?;
        std::fs::read(&again).map_err(|err| format!("cannot read {}: {err}", again.display()))
    }

    /// The shipped snippet's text with [`SITE_PLACEHOLDER`] replaced by this package's `site` folder and
    /// [`UPSTREAM_PLACEHOLDER`] by `upstream`; an error when the text lacks either placeholder (the test
    /// would not be testing what users fill in) or still holds an `@NAME@` after filling.
    pub fn snippet(&self, which: Snippet, upstream: &str) -> Result<String, String> {
        let path = self.root.join(which.path());
        let text = std::fs::read_to_string(&path).map_err(|err| format!("cannot read {}: {err}", path.display()))?;
        for placeholder in [SITE_PLACEHOLDER, UPSTREAM_PLACEHOLDER] {
            if !text.contains(placeholder) {
                return Err(format!("the shipped {} has no {placeholder} to fill in", which.path()));
            }
        }
        let filled = text
            .replace(SITE_PLACEHOLDER, &self.site().display().to_string())
            .replace(UPSTREAM_PLACEHOLDER, upstream);
        match leftover_placeholder(&filled) {
            Some(name) => Err(format!("the shipped {} still has {name} after filling in its placeholders", which.path())),
            None => Ok(filled),
        }
    }
}

impl Drop for Package {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `scripts/package.sh --dist <built page> --out <out>` and returns the tarball path it printed.
fn pack(out: &Path) -> Result<PathBuf, String> {
    let script = workspace().join("scripts/package.sh");
    let output = Command::new("bash")
        .arg(&script)
        .arg("--dist")
        .arg(dist_dir())
        .arg("--out")
        .arg(out)
        .stdin(Stdio::null())
        .output()
        .map_err(|err| format!("cannot run bash {}: {err}", script.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let printed = stdout.lines().last().unwrap_or_default().trim();
    if !output.status.success() || !Path::new(printed).is_file() {
        return Err(format!(
            "{} ({}) printed {printed:?} and:\n{}",
            script.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(PathBuf::from(printed))
}

/// Runs `program args` in `dir`; the error has its output.
fn run(program: &str, args: &[&str], dir: &Path) -> Result<(), String> {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|err| format!("cannot run {program}: {err}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "{program} {} in {} failed ({}):\n{}{}",
        args.join(" "),
        dir.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    ))
}

fn workspace() -> PathBuf {
    crate::dist::workspace_dir()
}

/// The app package's version in the workspace `Cargo.toml` (the first `version` under `[package]`),
/// which the tarball is named after.
fn workspace_version() -> Result<String, String> {
    let path = workspace().join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    let package = text.split("\n[package]").nth(1).ok_or_else(|| format!("no [package] in {}", path.display()))?;
    package
        .lines()
        .take_while(|line| !line.starts_with('['))
        .find_map(|line| line.strip_prefix("version = \""))
        .and_then(|rest| rest.split('"').next())
        .map(String::from)
        .ok_or_else(|| format!("no version under [package] in {}", path.display()))
}

/// The first `@NAME@` (upper case letters and `_`) left in `text`.
fn leftover_placeholder(text: &str) -> Option<&str> {
    text.match_indices('@').find_map(|(at, _)| {
        let rest = &text[at + 1..];
        let len = rest.find(|c: char| !(c.is_ascii_uppercase() || c == '_'))?;
        (len > 0 && rest[len..].starts_with('@')).then(|| &text[at..at + len + 2])
    })
}
