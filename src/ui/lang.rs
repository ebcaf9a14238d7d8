//! The page's language: the one a link or the user chose (`lang=`, the switcher), else the first of the
//! browser's `navigator.languages` the catalogues cover. Switching re-renders the words of what is on the
//! page (the run stays); codes, numbers and `#report-json`'s fields never change with it.
//!
//! The wasm carries the English words of its form only: the rest of English's (findings, reports,
//! panels) are fetched at once, and a language whose words are not here yet when it is wanted
//! (`net::catalogue`); it is spoken once it arrives; until then, and if it cannot be loaded (said beside
//! the switcher), the page speaks English.

use leptos::prelude::*;
use super::erased::effect;
use streamscope_core::i18n::keys::UiKey;
use streamscope_core::i18n::{self, Key, Lang, Text};

/// The page's language (`Copy`), provided as context by [`provide_lang`].
#[derive(Clone, Copy)]
pub struct UiLang {
    /// The chosen language, carried by the permalink; `None` follows the browser.
    chosen: RwSignal<Option<Lang>>,
    /// The browser's choice, read once.
    browser: Lang,
    /// How many catalogues arrived: read by [`UiLang::get`], so the page speaks a language once its
    /// words are here.
    installed: RwSignal<u32>,
    /// Why the wanted language's words could not be loaded.
    load_error: RwSignal<Option<String>>,
}

impl UiLang {
    /// The language to speak now (tracked): the wanted one once its words are here, else English.
    pub fn get(&self) -> Lang {
        let wanted = self.wanted();
        self.installed.track();
        if i18n::is_available(wanted) {
            wanted
        } else {
            Lang::En
        }
    }

    /// The language the link, the reader or the browser asks for (tracked), here or not yet.
    pub fn wanted(&self) -> Lang {
        self.chosen.get().unwrap_or(self.browser)
    }

    /// The language chosen by the link or the switcher, if any (tracked): what a permalink carries.
    pub fn chosen(&self) -> Option<Lang> {
        self.chosen.get()
    }

    /// Speaks `lang` from now on.
    pub fn set(&self, lang: Lang) {
        self.chosen.set(Some(lang));
    }
}

/// The browser's preferred languages, best first (`navigator.languages`, else `navigator.language`).
fn browser_languages() -> Vec<String> {
    let navigator = window().navigator();
    let list: Vec<String> = navigator.languages().iter().filter_map(|v| v.as_string()).collect();
    if list.is_empty() {
        navigator.language().into_iter().collect()
    } else {
        list
    }
}

/// Makes the page's language available to every component and keeps `<html lang>` in step with it;
/// `chosen` is the form's choice (the permalink carries it).
pub fn provide_lang(chosen: RwSignal<Option<Lang>>) -> UiLang {
    let languages = browser_languages();
    let lang = UiLang {
        chosen,
        browser: Lang::negotiate(languages.iter().map(String::as_str)),
        installed: RwSignal::new(0),
        load_error: RwSignal::new(None),
    };
    provide_context(lang);
    effect(move || {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", lang.get().tag());
        }
    });
    // The English words the wasm does not carry (findings, reports, panels): asked for at once, spoken
    // where they are shown once here. A run waits for them (`parts::ensure_parts`), which also says when
    // they could not be loaded, and asks again.
    if !i18n::is_available(Lang::En) {
        leptos::task::spawn_local(async move {
            if crate::net::catalogue::english_words().await.is_ok() {
                lang.installed.update(|n| *n += 1);
            }
        });
    }
    // Each missing language is asked for once in the page's life.
    let asked: StoredValue<Vec<Lang>> = StoredValue::new(Vec::new());
    effect(move || {
        let wanted = lang.wanted();
        if wanted == Lang::En || i18n::is_available(wanted) || asked.with_value(|a| a.contains(&wanted)) {
            return;
        }
        asked.update_value(|a| a.push(wanted));
        leptos::task::spawn_local(async move {
            match crate::net::catalogue::load(wanted).await {
                Ok(()) => lang.installed.update(|n| *n += 1),
                Err(reason) => lang.load_error.set(Some(reason)),
            }
        });
    });
    lang
}

/// The page's language from context (English outside [`provide_lang`], as in component tests).
pub fn use_lang() -> Lang {
    use_context::<UiLang>().map_or(Lang::En, |l| l.get())
}

/// The page's language as a `Copy` getter, for event handlers (which run outside any owner, where a
/// context lookup finds nothing): call it while building the component.
pub fn lang_getter() -> impl Fn() -> Lang + Copy {
    let lang = use_context::<UiLang>();
    move || lang.map_or(Lang::En, |l| l.get())
}

/// The language a permalink carries (the explicit choice only), as a `Copy` getter like [`lang_getter`].
pub fn chosen_getter() -> impl Fn() -> Option<Lang> + Copy {
    let lang = use_context::<UiLang>();
    move || lang.and_then(|l| l.chosen())
}

/// A word of the page in its language now (tracked).
pub fn say(key: impl Into<Key>) -> String {
    Text::msg(key).render(use_lang())
}

/// A word of the page that follows its language, for a view's text or attribute:
/// `<span>{word(UiFormKey::Url)}</span>`, `title=word(UiMetricsKey::TtftHint)`.
///
/// Every call returns the same closure type (made by the non-generic [`word_of`]), so a hundred labels
/// cost one instantiation of the renderer, not a hundred.
pub fn word(key: impl Into<Key>) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    word_of(key.into())
}

/// [`word`]'s one closure type.
fn word_of(key: Key) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || Text::msg(key).render(use_lang())
}

/// The language switcher: one option per catalogue, in its own name.
#[component]
pub fn LangSwitch() -> impl IntoView {
    let lang = use_context::<UiLang>();
    // The switcher shows the language asked for, also while its words are on their way.
    let current = move || lang.map_or(Lang::En, |l| l.wanted());
    let load_error = move || lang.and_then(|l| l.load_error.get());
    view! {
        <label class="lang-switch">
            <span class="visually-hidden">{move || say(UiKey::LanguageLabel)}</span>
            <select
                data-testid="lang-switch"
                prop:value=move || current().tag()
                on:change=move |ev| {
                    if let (Some(l), Some(chosen)) = (lang, Lang::from_tag(&event_target_value(&ev))) {
                        l.set(chosen);
                    }
                }
            >
                {Lang::ALL.into_iter().map(|l| view! {
                    <option value=l.tag() selected=move || current() == l>{l.native_name()}</option>
                }).collect_view()}
            </select>
            {move || load_error().map(|reason| view! {
                <span class="lang-error" data-testid="lang-error">
                    {Text::msg(UiKey::LanguageUnavailable).with("reason", reason).render(use_lang())}
                </span>
            })}
        </label>
    }
}
