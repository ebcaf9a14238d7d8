//! The prefix check (prompt cache): paste two request bodies, press Compare, and see where their cache
//! prefixes part and what in them breaks a provider's prompt cache. Everything shown was derived by
//! `streamscope_core::prefix::check` from the two bodies as they were at the click (never per
//! keystroke). All but the folded card is the `on_demand` chunk's code, fetched the first time the card
//! is opened ([`super::on_demand`]); this view renders what was found as text nodes, pasted text
//! included, never as HTML.

use leptos::prelude::*;
use streamscope_core::findings::FindingCode;
use streamscope_core::i18n::keys::{UiKey, UiPanelsKey as K};
use streamscope_core::i18n::Lang;
use streamscope_core::prefix::{Excerpt, PrefixCheck, PrefixWarning};

use super::form::FormState;
use super::lang::{lang_getter, word};
use super::erased::show_when;
use super::on_demand::prefix_tool;
use super::split::lazy_panel;
use streamscope_core::prefix::check;

/// A labelled textarea for one request body.
#[component]
fn BodyArea(label: K, testid: &'static str, value: RwSignal<String>) -> impl IntoView {
    view! {
        <label class="field wide">
            <span>{word(label)}</span>
            <textarea
                rows=6
                data-testid=testid
                spellcheck="false"
                placeholder=word(K::BodyPlaceholder)
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            ></textarea>
        </label>
    }
}

/// One side's text around the first difference, the differing run marked.
#[component]
fn ExcerptView(side: &'static str, testid: &'static str, excerpt: Excerpt) -> impl IntoView {
    let Excerpt { before, differing, after, cut_before, cut_differing, cut_after } = excerpt;
    view! {
        <div class="prefix-excerpt">
            <span class="prefix-side">{side}</span>
            <pre data-testid=testid>
                {cut_before.then_some("…")}{before}<mark>{differing}{cut_differing.then_some("…")}</mark>{after}{cut_after.then_some("…")}
            </pre>
        </div>
    }
}

/// One cache breaker: its kind, where it is, the matched text marked, and why it matters (its message
/// already said in the page's language).
#[component]
fn WarningRow(warning: PrefixWarning) -> impl IntoView {
    let PrefixWarning { kind, side, path, text, other_text, message, .. } = warning;
    let (first_label, other) = match other_text {
        Some(other) => ("A: ", Some(other)),
        None => ("", None),
    };
    view! {
        <li
            class="finding sev-warning prefix-warning"
            data-testid="prefix-warning"
            data-code=FindingCode::UnstablePrefix.as_str().to_string()
            data-kind=kind.as_str()
            data-side=side.as_str()
        >
            <div class="finding-head">
                <code class="finding-code">{kind.as_str()}</code>
                <span class="prefix-path">{path}</span>
            </div>
            <p class="prefix-matched">
                {first_label}<mark data-testid="prefix-warning-text">{text}</mark>
                {other.map(|o| view! { " B: "<mark data-testid="prefix-warning-other">{o}</mark> })}
            </p>
            <p class="finding-detail">{message}</p>
        </li>
    }
}

/// What one comparison found, its warnings and finding said in `lang` (the `prefix` chunk's:
/// [`super::on_demand`]).
#[component]
pub(super) fn PrefixResult(check: PrefixCheck, lang: Lang) -> impl IntoView {
    let finding = check.finding().map(|f| f.localize(lang));
    let first_words = check.first_difference_words().render(lang);
    let shared_words = check.shared_words().render(lang);
    let (side_a, side_b) = (check.a.words().render(lang), check.b.words().render(lang));
    let excerpts = check.diff.first.clone().map(|f| {
        view! {
            <ExcerptView side="A" testid="prefix-excerpt-a" excerpt=f.excerpt_a />
            <ExcerptView side="B" testid="prefix-excerpt-b" excerpt=f.excerpt_b />
        }
    });
    let none = check.warnings.is_empty();
    let more = check.warnings_truncated;
    let rows = check.warnings.iter().map(|w| view! { <WarningRow warning=w.localize(lang) /> }).collect_view();
    view! {
        <div class="prefix-result" data-testid="prefix-result">
            <p class="prefix-sides">
                <span>"A: "</span><span data-testid="prefix-side-a">{side_a}</span><br />
                <span>"B: "</span><span data-testid="prefix-side-b">{side_b}</span>
            </p>
            <p class="prefix-first-diff" data-testid="prefix-first-diff">{first_words}</p>
            <p class="prefix-shared" data-testid="prefix-shared">{shared_words}</p>
            {excerpts}
            {finding.map(|f| view! {
                <div class="finding sev-warning" data-testid="prefix-finding">
                    <div class="finding-head">
                        <code class="finding-code">{f.code.to_string()}</code>
                        <strong>{f.title}</strong>
                    </div>
                    {f.fix.map(|fix| view! { <p class="finding-fix"><span>{word(UiKey::FixLabel)}</span>{fix}</p> })}
                </div>
            })}
            <ul class="findings" data-testid="prefix-warnings">{rows}</ul>
            {none.then(|| view! {
                <p class="prefix-calm" data-testid="prefix-no-warning">{word(K::NoCacheBreaker)}</p>
            })}
            {more.then(|| view! {
                <p class="prefix-calm" data-testid="prefix-warnings-more">{word(K::MoreCacheBreakers)}</p>
            })}
        </div>
    }
}

/// The prefix check panel, collapsed until opened. What is inside (the two boxes, Compare, what a
/// comparison found) is [`PrefixCheckTool`], `on_demand`'s code ([`super::on_demand::prefix_tool`]):
/// fetched at the first opening, kept once opened, never by a run.
#[component]
pub fn PrefixCheckPanel(form: FormState) -> impl IntoView {
    let opened = RwSignal::new(false);
    view! {
        <section class="card prefix-check" aria-label=word(K::PrefixCheck)>
            <details on:toggle=move |ev| {
                if event_target::<web_sys::HtmlElement>(&ev).has_attribute("open") {
                    opened.set(true);
                }
            }>
                <summary data-testid="prefix-toggle">{word(K::PrefixCheckToggle)}</summary>
                {show_when(move || opened.get(), move || lazy_panel("prefix-check", prefix_tool(form)))}
            </details>
        </section>
    }
}

/// Inside the prefix check: the two bodies, Compare, the form's body in one click, and what the last
/// comparison found, built again when the page's language changes (the warnings are said in it).
#[component]
pub fn PrefixCheckTool(form: FormState) -> impl IntoView {
    let lang = lang_getter();
    let a = RwSignal::new(String::new());
    let b = RwSignal::new(String::new());
    // The two bodies as they were at the last click of Compare.
    let compared: RwSignal<Option<(String, String)>> = RwSignal::new(None);
    let compare = move |_| compared.set(Some((a.get_untracked(), b.get_untracked())));
    // The body the form would send now: a preset's built body, or the exact request's body as typed.
    let from_form = move |_| {
        let config = form.config();
        a.set(config.request().2.unwrap_or_else(|| config.body.clone()));
    };
    view! {
        <p class="prefix-intro">{word(K::PrefixIntro)}</p>
        <div class="grid">
            <BodyArea label=K::BodyA testid="prefix-a" value=a />
            <BodyArea label=K::BodyB testid="prefix-b" value=b />
        </div>
        <div class="actions">
            <button class="primary" data-testid="prefix-compare" on:click=compare>{word(K::ComparePrefixes)}</button>
            <button data-testid="prefix-from-form" on:click=from_form>{word(K::UseFormBody)}</button>
        </div>
        {move || {
            let lang = lang();
            compared.get().map(|(a, b)| view! { <PrefixResult check=check(&a, &b) lang=lang /> })
        }}
    }
}
