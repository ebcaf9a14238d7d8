//! Where the built page lives.

use std::path::PathBuf;

/// The workspace's root, read when the test runs: a test binary reused from another clone that shares
/// the cargo target folder (its fingerprint does not hold the path) would otherwise read that clone's
/// files, or a folder that no longer exists, through a path `env!` fixed when it was compiled.
pub fn workspace_dir() -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest.parent().expect("tests/ has a parent").to_path_buf()
}

/// The dist directory (`STREAMSCOPE_DIST`, relative to the workspace root; default `<workspace>/dist`);
/// panics with the build command when it holds no `index.html`.
pub(crate) fn dist_dir() -> PathBuf {
    // cargo runs tests from the package directory; people type paths from the workspace root.
    let dir = workspace_dir().join(
        std::env::var_os("STREAMSCOPE_DIST").map_or_else(|| PathBuf::from("dist"), PathBuf::from),
    );
    assert!(
        dir.join("index.html").is_file(),
        "no built page at {}: run `trunk build --release` in the workspace root first \
         (or scripts/test.sh, which builds it), or point STREAMSCOPE_DIST at a built dist directory",
        dir.join("index.html").display()
    );
    dir
}
