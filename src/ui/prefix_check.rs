//! The prefix check (prompt cache): paste two request bodies, press Compare, and see where their cache
//! prefixes part and what in them breaks a provider's prompt cache. Everything shown was derived by
//! `streamscope_core::prefix::check` on the click (never per keystroke); this view renders it as text
//! nodes, pasted text included, never as HTML.

use leptos::prelude::*;
use streamscope_core::findings::FindingCode;
use streamscope_core::prefix::{check, Excerpt, PrefixCheck, PrefixWarning};

use super::form::FormState;

/// A labelled textarea for one request body.
#[component]
fn BodyArea(label: &'static str, testid: &'static str, value: RwSignal<String>) -> impl IntoView {
    view! {
        <label class="field wide">
            <span>{label}</span>
            <textarea
                rows=6
                data-testid=testid
                spellcheck="false"
                placeholder="{\"model\": …, \"tools\": […], \"messages\": [{\"role\": \"system\", …}, …]} or plain text"
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

/// One cache breaker: its kind, where it is, the matched text marked, and why it matters.
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

/// What one comparison found.
#[component]
fn PrefixResult(check: PrefixCheck) -> impl IntoView {
    let finding = check.finding();
    let first_words = check.first_difference_words();
    let shared_words = check.shared_words();
    let (side_a, side_b) = (check.a.words(), check.b.words());
    let excerpts = check.diff.first.clone().map(|f| {
        view! {
            <ExcerptView side="A" testid="prefix-excerpt-a" excerpt=f.excerpt_a />
            <ExcerptView side="B" testid="prefix-excerpt-b" excerpt=f.excerpt_b />
        }
    });
    let none = check.warnings.is_empty();
    let more = check.warnings_truncated;
    let rows = check.warnings.into_iter().map(|w| view! { <WarningRow warning=w /> }).collect_view();
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
                    {f.fix.map(|fix| view! { <p class="finding-fix"><span>"Fix: "</span>{fix}</p> })}
                </div>
            })}
            <ul class="findings" data-testid="prefix-warnings">{rows}</ul>
            {none.then(|| view! {
                <p class="prefix-calm" data-testid="prefix-no-warning">
                    "Nothing found that usually breaks the cache (dates, times, ids in the stable part; tools or keys in another order)."
                </p>
            })}
            {more.then(|| view! {
                <p class="prefix-calm" data-testid="prefix-warnings-more">"More were found than shown; fix these first."</p>
            })}
        </div>
    }
}

/// The prefix check panel, collapsed until opened.
#[component]
pub fn PrefixCheckPanel(form: FormState) -> impl IntoView {
    let a = RwSignal::new(String::new());
    let b = RwSignal::new(String::new());
    let result: RwSignal<Option<PrefixCheck>> = RwSignal::new(None);
    let compare = move |_| result.set(Some(check(&a.get_untracked(), &b.get_untracked())));
    // The body the form would send now: a preset's built body, or the exact request's body as typed.
    let from_form = move |_| {
        let config = form.config();
        a.set(config.request().2.unwrap_or_else(|| config.body.clone()));
    };
    view! {
        <section class="card prefix-check" aria-label="Prefix check">
            <details>
                <summary data-testid="prefix-toggle">"Prefix check (prompt cache)"</summary>
                <p class="prefix-intro">
                    "Paste two request bodies that should share a prompt prefix (two turns, or two calls of the same \
                     agent). Providers reuse cached prompt tokens only up to the first change: keep tools, system \
                     prompt and earlier messages byte-for-byte the same (aim for a cache hit ratio of 70% or more)."
                </p>
                <div class="grid">
                    <BodyArea label="Request A body" testid="prefix-a" value=a />
                    <BodyArea label="Request B body" testid="prefix-b" value=b />
                </div>
                <div class="actions">
                    <button class="primary" data-testid="prefix-compare" on:click=compare>"Compare prefixes"</button>
                    <button data-testid="prefix-from-form" on:click=from_form>"Use the form's request body as A"</button>
                </div>
                {move || result.get().map(|c| view! { <PrefixResult check=c /> })}
            </details>
        </section>
    }
}
