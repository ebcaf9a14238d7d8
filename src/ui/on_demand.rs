//! Code a run never needs, in a wasm chunk of its own, `on_demand`, fetched the first time someone
//! imports, opens the prefix check or shares a run, never by a run or preloaded:
//! - reading an import (an export or a bare report, pasted, dropped or chosen): every report type and
//!   every trace from JSON, about 46 KB of the gzipped wasm;
//! - showing an import (an export's runs analysed again and its campaign recomputed, or a bare report's
//!   figures), and going back from it to what was shown before;
//! - the prefix check, opened: its two boxes, and its comparison and the view of its result:
//!   canonicalising and diffing two request bodies and naming their cache breakers
//!   (`streamscope_core::prefix`), about 24 KB;
//! - the share card's export (report, configuration and traces as JSON) and Markdown summary, built
//!   when their details are opened or a download or a copy is clicked: a run that is not shared never
//!   needs them (a run 5.0 KB less, every file 1.0 KB more; BENCHMARKS.md, Size).
//!
//! One chunk for both rather than one each: code that two chunks share goes to chunks of its own, one
//! per set of chunks that share it, and each compresses alone; two chunks made 1.5 KB more in all than
//! one, for 24 KB or 48 KB less on a first import or prefix check (BENCHMARKS.md, Size, "The prefix check
//! on demand").

use leptos::prelude::*;
use streamscope_core::i18n::Lang;
use wasm_bindgen::JsValue;

use super::form::FormState;
use super::prefix_check::PrefixCheckTool;
use super::session::Session;
use super::split::split_part;

split_part!(on_demand, preload_import;
/// Imports `source`, pasted text (a JS string) or dropped or chosen files (the first is read), as an
/// export or a bare report and shows it in `session`; `note` says what was shown, or why nothing was,
/// in `lang`. One part for both: each part costs its own glue in both chunks.
pub fn import(session: Session, source: JsValue, lang: Lang, note: RwSignal<String>) -> () {
    match source.as_string() {
        Some(text) => super::handoff::import_text(session, &text, lang, note),
        None => super::handoff::import_file(session, source, lang, note),
    }
});

split_part!(on_demand, preload_back_from_import;
/// Shows again what `session` showed before an import (offered only after an import, whose reading
/// fetched this chunk).
pub fn back_from_import(session: Session) -> () {
    session.back_from_import()
});

split_part!(on_demand, preload_export_text;
/// The export of what `session` shows now as pretty JSON, said in `lang` (`None` before any report).
pub fn export_text(session: Session, lang: Lang) -> Option<String> {
    super::handoff::current_export(session, lang).map(|export| export.to_json_pretty())
});

split_part!(on_demand, preload_markdown_text;
/// The Markdown summary of what `session` shows now, said in `lang` (`None` before any report).
pub fn markdown_text(session: Session, lang: Lang) -> Option<String> {
    super::handoff::summary_markdown(session, lang)
});

split_part!(on_demand, preload_download_export;
/// Offers the export of what `session` shows now as a file download: the note that says what happened,
/// in `lang`.
pub fn download_export(session: Session, lang: Lang) -> String {
    super::handoff::offer_export(session, lang)
});

split_part!(on_demand, preload_copy_markdown;
/// Copies the Markdown summary of what `session` shows now to the clipboard; `note` says whether it
/// did, in `lang`.
pub fn copy_markdown(session: Session, lang: Lang, note: RwSignal<String>) -> () {
    super::handoff::copy_summary(session, lang, note)
});

split_part!(on_demand, preload_prefix_tool;
/// The inside of the prefix check: two request bodies, Compare, and what the comparison found.
pub fn prefix_tool(form: FormState) -> AnyView {
    view! { <PrefixCheckTool form=form /> }.into_any()
});
