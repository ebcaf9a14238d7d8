//! Fetches the words the page's wasm does not carry (files beside the page) and installs them in core:
//! the English words of findings, reports and panels (`en.txt`, [`english_words`]) once the page has
//! mounted, before any run; a language's (`zh-CN.txt`) when the page starts in, or switches to, it.
//! Never in the measuring worker.

use streamscope_core::i18n::{self, Lang};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{RequestCache, RequestInit, Response};

use super::measure::describe;
use super::race::{race_with_deadline, Raced};
use super::scope::Scope;

/// How long the file may take before the page gives up and stays in English. Whole seconds: said as an
/// integer, so the main module needs no float formatting (issue 13).
const LOAD_LIMIT_S: u32 = 15;

/// The file of `lang`'s words, relative to the page (so it is found under any sub-path).
pub fn file_name(lang: Lang) -> String {
    format!("{}.txt", lang.tag())
}

thread_local! {
    /// The English words' load in flight or done (a failed one is dropped, to be tried again).
    static ENGLISH: std::cell::RefCell<Option<js_sys::Promise>> = const { std::cell::RefCell::new(None) };
}

/// Installs the English words the wasm does not carry (once; a failure is tried again at the next call),
/// shared by every caller.
pub async fn english_words() -> Result<(), String> {
    if i18n::is_available(Lang::En) {
        return Ok(());
    }
    let loading = ENGLISH.with(|slot| {
        slot.borrow_mut()
            .get_or_insert_with(|| {
                wasm_bindgen_futures::future_to_promise(async {
                    fetch_and_install(Lang::En).await.map(|()| wasm_bindgen::JsValue::UNDEFINED).map_err(|e| e.into())
                })
            })
            .clone()
    });
    match JsFuture::from(loading).await {
        Ok(_) => Ok(()),
        Err(reason) => {
            ENGLISH.with(|slot| *slot.borrow_mut() = None);
            Err(reason.as_string().unwrap_or_default())
        }
    }
}

/// Fetches `lang`'s file and installs it (after the English words, which its placeholders are checked
/// against); the error says what went wrong, with the file's name.
pub async fn load(lang: Lang) -> Result<(), String> {
    english_words().await?;
    if lang == Lang::En {
        return Ok(());
    }
    fetch_and_install(lang).await
}

async fn fetch_and_install(lang: Lang) -> Result<(), String> {
    let name = file_name(lang);
    let scope = Scope::current().ok_or("no window to fetch from")?;
    let init = RequestInit::new();
    // Revalidated, never taken stale from the cache: a file of another version of the page is refused.
    init.set_cache(RequestCache::NoCache);
    let response: Response = match race_with_deadline(scope.fetch(&name, &init), Some(f64::from(LOAD_LIMIT_S) * 1000.0)).await {
        Raced::Value(v) => v.unchecked_into(),
        Raced::Rejected(e) => return Err(format!("{name}: {}", describe(e))),
        Raced::TimedOut => return Err(format!("{name}: no answer within {LOAD_LIMIT_S} s")),
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
