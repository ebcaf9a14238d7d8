//! What the check asks a WebDriver server for: headless Chromium with the flags the e2e tests use
//! (no sandbox for containers and root, no GPU, no background networking that would compete with the
//! measured stream), and which browser binary.

use serde_json::{json, Map, Value};

use crate::env::{Env, CHROME_VAR};

/// Chromium's command-line flags for a check.
pub const CHROMIUM_ARGS: [&str; 9] = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,1000",
];

/// Browsers looked for on `PATH` when chromedriver is started here and [`CHROME_VAR`] is unset.
const ON_PATH: [&str; 2] = ["chromium", "chromium-browser"];

/// The session's capabilities: Chrome(-ium) with [`CHROMIUM_ARGS`], and `binary` when one is known.
pub fn capabilities(binary: Option<&str>) -> Map<String, Value> {
    let mut options = json!({ "args": CHROMIUM_ARGS });
    if let Some(binary) = binary {
        options["binary"] = Value::from(binary);
    }
    let mut capabilities = Map::new();
    capabilities.insert("browserName".into(), Value::from("chrome"));
    capabilities.insert("goog:chromeOptions".into(), options);
    capabilities
}

/// The browser binary: [`CHROME_VAR`], else (only when chromedriver runs here: `local`) `chromium` on
/// `PATH`, else none (the WebDriver server picks its own Chrome).
pub fn binary(env: &Env, local: bool) -> Option<String> {
    if let Some(chrome) = env.get(CHROME_VAR) {
        return Some(chrome.to_string());
    }
    if !local {
        return None;
    }
    let path = env.get("PATH")?;
    std::env::split_paths(path)
        .flat_map(|dir| ON_PATH.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
        .map(|found| found.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remote_grid_gets_no_local_path_unless_told() {
        let env = Env::default().with("PATH", "/usr/bin:/bin");
        assert_eq!(binary(&env, false), None);
        assert_eq!(binary(&env.clone().with(CHROME_VAR, "/opt/chrome/chrome"), false).as_deref(), Some("/opt/chrome/chrome"));
        let caps = capabilities(None);
        assert_eq!(caps["browserName"], "chrome");
        assert!(caps["goog:chromeOptions"].get("binary").is_none());
        assert_eq!(capabilities(Some("/x"))["goog:chromeOptions"]["binary"], "/x");
    }
}
