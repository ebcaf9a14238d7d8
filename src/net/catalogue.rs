//! Fetches the words of a language the page's wasm does not carry (`zh-CN.txt`, a file beside the
//! page) and installs them in core. Runs on the page when it starts in, or switches to, that language;
//! never in the measuring worker.

use streamscope_core::i18n::{self, Lang};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{RequestCache, RequestInit, Response};

use super::measure::describe;
use super::race::{race_with_deadline, Raced};
use super::scope::Scope;

/// How long the file may take before the page gives up and stays in English.
const LOAD_LIMIT_MS: f64 = 15_000.0;

/// The file of `lang`'s words, relative to the page (so it is found under any sub-path).
pub fn file_name(lang: Lang) -> String {
    format!("{}.txt", lang.tag())
}

/// Fetches `lang`'s file and installs it; the error says what went wrong, with the file's name.
pub async fn load(lang: Lang) -> Result<(), String> {
    let name = file_name(lang);
    let scope = Scope::current().ok_or("no window to fetch from")?;
    let init = RequestInit::new();
    // Revalidated, never taken stale from the cache: a file of another version of the page is refused.
    init.set_cache(RequestCache::NoCache);
    let response: Response = match race_with_deadline(scope.fetch(&name, &init), Some(LOAD_LIMIT_MS)).await {
        Raced::Value(v) => v.unchecked_into(),
        Raced::Rejected(e) => return Err(format!("{name}: {}", describe(e))),
        Raced::TimedOut => return Err(format!("{name}: no answer within {} s", LOAD_LIMIT_MS / 1000.0)),
    };
    if !response.ok() {
        return Err(format!("{name}: HTTP {}", response.status()));
    }
    let text = response.text().map_err(|e| format!("{name}: {}", describe(e)))?;
    let text = JsFuture::from(text).await.map_err(|e| format!("{name}: {}", describe(e)))?;
    let installed = i18n::install(&text.as_string().unwrap_or_default()).map_err(|e| format!("{name}: {e}"))?;
    if installed == lang {
        Ok(())
    } else {
        Err(format!("{name}: holds the words of {}", installed.tag()))
    }
}
