//! Where the built page lives.

use std::path::PathBuf;

/// The dist directory (`STREAMSCOPE_DIST`, relative to the workspace root; default `<workspace>/dist`);
/// panics with the build command when it holds no `index.html`.
pub(crate) fn dist_dir() -> PathBuf {
    // cargo runs tests from the package directory; people type paths from the workspace root.
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf();
    let dir = workspace.join(
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
