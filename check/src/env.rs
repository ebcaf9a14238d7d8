//! The environment variables the check reads, passed in as a value (tests give their own instead of
//! changing the process's environment). `Debug` shows names only: one of them is the API key.

use std::collections::BTreeMap;

use streamscope_core::secrets::Secret;

/// The API key, typed into the page's key field; never an argument.
pub const API_KEY_VAR: &str = "STREAMSCOPE_API_KEY";
/// The chromedriver program to start (default: `chromedriver` on `PATH`).
pub const CHROMEDRIVER_VAR: &str = "CHROMEDRIVER";
/// The browser binary handed to the WebDriver session (default: `chromium` on `PATH` when the check
/// starts chromedriver itself; the WebDriver server's own choice with `--webdriver`).
pub const CHROME_VAR: &str = "CHROME";

/// A snapshot of environment variables.
#[derive(Clone, Default)]
pub struct Env {
    vars: BTreeMap<String, String>,
}

impl Env {
    /// The process's environment (variables that are not UTF-8 are left out).
    pub fn from_process() -> Env {
        let vars = std::env::vars_os()
            .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
            .collect();
        Env { vars }
    }

    /// This environment with `name` set to `value`.
    pub fn with(mut self, name: &str, value: &str) -> Env {
        self.vars.insert(name.to_string(), value.to_string());
        self
    }

    /// This environment without `name`.
    pub fn without(mut self, name: &str) -> Env {
        self.vars.remove(name);
        self
    }

    /// A variable's value, `None` when unset or empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str).filter(|v| !v.is_empty())
    }

    /// The API key from [`API_KEY_VAR`], trimmed (a secret store often adds a line break); `None`
    /// when unset or blank.
    pub fn api_key(&self) -> Option<Secret> {
        self.get(API_KEY_VAR).map(str::trim).filter(|k| !k.is_empty()).map(Secret::new)
    }
}

impl std::fmt::Debug for Env {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.vars.keys()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_trimmed_and_never_debug_printed() {
        let env = Env::default().with(API_KEY_VAR, " sk-secret-123\n");
        assert_eq!(env.api_key().expect("a key").expose(), "sk-secret-123");
        assert!(!format!("{env:?}").contains("sk-secret"), "{env:?}");
        assert!(Env::default().with(API_KEY_VAR, "  \n").api_key().is_none());
        assert!(Env::default().with(API_KEY_VAR, "x").without(API_KEY_VAR).api_key().is_none());
    }
}
