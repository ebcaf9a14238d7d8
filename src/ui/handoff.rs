//! Hand the result to someone else: download the export (report + traces), copy a Markdown summary for a
//! ticket, a permalink that reruns the same configuration (never the key or a header value), and import:
//! paste, drop or choose an export and the page shows it as it was. What builds, reads and hands over
//! (the export, the summary, the import) is code fetched the first time one is asked for
//! (`super::on_demand`).

use leptos::prelude::*;
use super::erased::{effect, show_or, show_when};
use streamscope_core::report::campaign::CampaignReport;
use streamscope_core::i18n::keys::{UiFormKey, UiKey};
use streamscope_core::i18n::{Lang, Text};
use streamscope_core::report::export::{import_in, Export, ExportedRun, Imported};
use wasm_bindgen::{JsCast, JsValue};

use super::on_demand::{copy_markdown, download_export, export_text, import, markdown_text};
use super::lang::{chosen_getter, lang_getter, word};
use super::split::{now_or_later, PartMissing};
use super::query::page_origin;
use streamscope_core::config::page_config::PageConfig;
use super::session::Session;

/// The export of what the session shows now.
pub(super) fn current_export(session: Session, lang: Lang) -> Option<Export> {
    if session.campaign.with_untracked(Option::is_none) {
        return None;
    }
    let runs = session
        .records
        .with_untracked(|r| r.iter().map(|r| ExportedRun { side: r.side, group: r.group, trace: r.trace.clone() }).collect());
    let config = session.config.get_untracked().map(|c| c.redacted());
    // The report is read where it is, not copied: an export is the report said in `lang` anyway.
    session.campaign.with_untracked(|report| report.as_ref().map(|report| Export::new(config, report, runs, lang)))
}

/// Offers `text` as a file download.
fn download(file_name: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let a: web_sys::HtmlElement = document().create_element("a")?.unchecked_into();
    a.set_attribute("href", &url)?;
    a.set_attribute("download", file_name)?;
    a.click();
    web_sys::Url::revoke_object_url(&url)
}

/// `navigator.clipboard.writeText(text)`: whether the browser copied it (it may refuse at once, or
/// later through the promise, e.g. without a recent click).
async fn copy_to_clipboard(text: &str) -> bool {
    let write = || -> Result<js_sys::Promise, JsValue> {
        let clipboard = js_sys::Reflect::get(&window().navigator(), &"clipboard".into())?;
        let write: js_sys::Function = js_sys::Reflect::get(&clipboard, &"writeText".into())?.dyn_into()?;
        write.call1(&clipboard, &JsValue::from_str(text))?.dyn_into()
    };
    match write() {
        Ok(promise) => wasm_bindgen_futures::JsFuture::from(promise).await.is_ok(),
        Err(_) => false,
    }
}

/// Offers the export of what `session` shows now as a file download: the note that says what happened,
/// in `lang` (`on_demand`'s code).
pub(super) fn offer_export(session: Session, lang: Lang) -> String {
    let Some(export) = current_export(session, lang) else {
        return Text::msg(UiFormKey::NoteNothingToExport).render(lang);
    };
    let file = "streamscope-report.json";
    match download(file, &export.to_json_pretty()) {
        Ok(()) => Text::msg(UiFormKey::NoteDownloaded).with("file", file).render(lang),
        Err(e) => Text::msg(UiFormKey::NoteDownloadFailed).with("error", format!("{e:?}")).render(lang),
    }
}

/// The Markdown summary of what `session` shows now, said in `lang` (`None` before any report;
/// `on_demand`'s code).
pub(super) fn summary_markdown(session: Session, lang: Lang) -> Option<String> {
    session.campaign.with_untracked(|c| c.as_ref().map(|c| streamscope_core::report::markdown::campaign_markdown(c, lang)))
}

/// Copies the Markdown summary of what `session` shows now to the clipboard, and says in `note` whether
/// it did, in `lang`; when the browser refuses, opens the summary below to copy by hand (`on_demand`'s
/// code, called in the click's task when it is loaded).
pub(super) fn copy_summary(session: Session, lang: Lang, note: RwSignal<String>) {
    let Some(text) = summary_markdown(session, lang) else {
        return note.set(Text::msg(UiFormKey::NoteNothingToExport).render(lang));
    };
    leptos::task::spawn_local(async move {
        if copy_to_clipboard(&text).await {
            note.set(Text::msg(UiFormKey::NoteMarkdownCopied).render(lang));
        } else {
            // The note says to copy the summary below by hand: open it (its toggle builds it).
            let summary = document().query_selector("[data-testid=markdown-toggle]").ok().flatten();
            if let Some(details) = summary.and_then(|s| s.parent_element()) {
                let _ = details.set_attribute("open", "");
            }
            note.set(Text::msg(UiFormKey::NoteClipboardRefused).render(lang));
        }
    });
}

/// Reads `text` as an export or a bare report, shows it in `session` and says in `note` what was shown,
/// or why nothing was, in `lang` (`on_demand`'s code): an export's runs analysed again from their
/// traces and its campaign recomputed, a bare report's figures as written in the file, marked so.
pub(super) fn import_text(session: Session, text: &str, lang: Lang, note: RwSignal<String>) {
    note.set(match import_in(text, lang) {
        Ok(Imported::Export(export)) => {
            session.show_export(*export);
            Text::msg(UiFormKey::NoteImportedExport).render(lang)
        }
        Ok(Imported::ReportOnly(report)) => {
            session.show_report_only(*report);
            Text::msg(UiFormKey::NoteImportedReport).render(lang)
        }
        Err(why) => why,
    })
}

/// Reads the first dropped or chosen file of `files`, then imports its text as [`import_text`] does
/// (`on_demand`'s code).
pub(super) fn import_file(session: Session, files: JsValue, lang: Lang, note: RwSignal<String>) {
    let file = js_sys::Reflect::get(&files, &JsValue::from_f64(0.0)).unwrap_or(JsValue::UNDEFINED);
    if file.is_undefined() {
        return;
    }
    let Ok(text_fn) = js_sys::Reflect::get(&file, &"text".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) else {
        return;
    };
    let Ok(promise) = text_fn.call0(&file).and_then(|p| p.dyn_into::<js_sys::Promise>()) else {
        return;
    };
    leptos::task::spawn_local(async move {
        if let Ok(text) = wasm_bindgen_futures::JsFuture::from(promise).await {
            import_text(session, &text.as_string().unwrap_or_default(), lang, note);
        }
    });
}

/// Whether dropped or chosen `files` hold one at least (a drop of text, or a file dialog cancelled, holds
/// none): only then is the import's code fetched.
fn holds_a_file(files: &JsValue) -> bool {
    js_sys::Reflect::get(files, &"length".into()).ok().and_then(|n| n.as_f64()).is_some_and(|n| n > 0.0)
}

/// What `build` (code fetched the first time it is called) writes of the session's report while `open`
/// holds, built again when the report or the language changes; empty while closed. An export with long
/// traces is large, and a run that is not shared never needs the code.
fn built_while_open<F>(session: Session, open: RwSignal<bool>, build: fn(Session, Lang) -> F) -> RwSignal<String>
where
    F: std::future::Future<Output = Result<Option<String>, PartMissing>> + 'static,
{
    let lang = lang_getter();
    let shown = RwSignal::new(String::new());
    effect(move || {
        session.campaign.track();
        let lang = lang();
        if !open.get() {
            shown.set(String::new());
            return;
        }
        now_or_later(build(session, lang), move |text| {
            // Closed again while the code was on its way.
            if open.get_untracked() {
                shown.set(text.ok().flatten().unwrap_or_default());
            }
        });
    });
    shown
}

/// Share and import.
#[component]
pub fn Handoff(session: Session) -> impl IntoView {
    let (lang, chosen) = (lang_getter(), chosen_getter());
    // The language chosen on the page (after the run, too) rides in the link; the browser's own does not.
    let permalink = move || {
        let chosen = chosen();
        session.config.with(|c| {
            c.as_ref().map(|c| {
                let path = window().location().pathname().unwrap_or_else(|_| "/".into());
                let c = PageConfig { lang: chosen.or(c.lang), ..c.clone() };
                format!("{}{path}?{}", page_origin(), c.to_query())
            })
        })
    };
    let note = RwSignal::new(String::new());
    let pasted = RwSignal::new(String::new());
    // The reading and showing code comes with the first import (`on_demand`); once it is here the note
    // is set in the same task as the click.
    let imported = move |done: Result<(), PartMissing>| {
        if let Err(PartMissing) = done {
            note.set(Text::msg(UiKey::PartUnavailable).with("part", "import").render(lang()));
        }
    };
    // Both build what they hand over with code fetched the first time (`on_demand`), and run in the
    // click's task once it is here, so that the browser sees the click.
    let export_json = move |_| {
        now_or_later(download_export(session, lang()), move |said| {
            note.set(said.unwrap_or_else(|PartMissing| Text::msg(UiKey::PartUnavailable).with("part", "export").render(lang())))
        })
    };
    let export_open = RwSignal::new(false);
    let export_shown = built_while_open(session, export_open, export_text);
    let markdown_open = RwSignal::new(false);
    let markdown_shown = built_while_open(session, markdown_open, markdown_text);
    let copy_md = move |_| {
        now_or_later(copy_markdown(session, lang(), note), move |copied| {
            if let Err(PartMissing) = copied {
                note.set(Text::msg(UiKey::PartUnavailable).with("part", "export").render(lang()));
            }
        })
    };
    let has_report = move || session.campaign.with(|c: &Option<CampaignReport>| c.is_some());
    view! {
        <section class="card handoff" aria-label=word(UiFormKey::HandoffAria)>
            <h2>{word(UiFormKey::Share)}</h2>
            {show_or(has_report, move || view! {
                <div class="actions">
                    <button data-testid="export-json" on:click=export_json>{word(UiFormKey::DownloadJson)}</button>
                    <button data-testid="copy-markdown" on:click=copy_md>{word(UiFormKey::CopyMarkdown)}</button>
                    {move || permalink().map(|href| view! {
                        <a class="permalink" data-testid="permalink" href=href.clone()>{word(UiFormKey::Permalink)}</a>
                    })}
                </div>
                {show_when(move || session.imported.get().is_some(), move || view! {
                    <p class="imported" data-testid="imported-banner">{word(UiFormKey::ImportedBanner)}</p>
                }.into_any())}
                <details on:toggle=move |ev| {
                    export_open.set(event_target::<web_sys::HtmlElement>(&ev).has_attribute("open"));
                }>
                    <summary data-testid="export-text-toggle">{word(UiFormKey::ExportText)}</summary>
                    <textarea
                        class="markdown"
                        data-testid="export-text"
                        readonly
                        rows=8
                        prop:value=move || export_shown.get()
                    ></textarea>
                </details>
                <details on:toggle=move |ev| {
                    markdown_open.set(event_target::<web_sys::HtmlElement>(&ev).has_attribute("open"));
                }>
                    <summary data-testid="markdown-toggle">{word(UiFormKey::MarkdownSummary)}</summary>
                    <textarea class="markdown" data-testid="markdown" readonly rows=10 prop:value=move || markdown_shown.get()></textarea>
                </details>
            }.into_any(), || view! { <p class="muted">{word(UiFormKey::ShareFirst)}</p> }.into_any())}
            <h2>{word(UiFormKey::Import)}</h2>
            <div
                class="dropzone"
                data-testid="import-drop"
                on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    if let Some(files) = ev.data_transfer().and_then(|d| d.files()).map(JsValue::from).filter(holds_a_file) {
                        now_or_later(import(session, files, lang(), note), imported);
                    }
                }
            >
                <textarea
                    data-testid="import-text"
                    rows=3
                    placeholder=word(UiFormKey::ImportPlaceholder)
                    prop:value=move || pasted.get()
                    on:input=move |ev| pasted.set(event_target_value(&ev))
                ></textarea>
                <div class="actions">
                    <button data-testid="import-apply" on:click=move |_| now_or_later(import(session, pasted.get_untracked().into(), lang(), note), imported)>{word(UiFormKey::ImportApply)}</button>
                    <input
                        type="file"
                        accept="application/json,.json"
                        data-testid="import-file"
                        on:change=move |ev| {
                            let files = js_sys::Reflect::get(&event_target::<web_sys::HtmlElement>(&ev), &"files".into()).unwrap_or(JsValue::UNDEFINED);
                            if holds_a_file(&files) {
                                now_or_later(import(session, files, lang(), note), imported);
                            }
                        }
                    />
                </div>
            </div>
            <p class="note" data-testid="handoff-note">{move || note.get()}</p>
        </section>
    }
}
