//! Size floor (scripts/size-ablation.sh, not shipped): the page's `main` with no view at all. It keeps the
//! measuring worker and calls, once each, what the views call into core for: reading an import (an export
//! is recomputed from its traces), the Markdown, `#report-json`, the export's JSON, the prefix check, the
//! link's configuration. The input comes from the page's URL so that nothing is folded away at compile
//! time; the output goes to `window.__floor` so that nothing is dropped as unused.

use streamscope_core::config::page_config::PageConfig;
use streamscope_core::i18n::Lang;
use streamscope_core::report::export::{import_in, report_json_text, Export, Imported};
use streamscope_core::report::markdown::campaign_markdown;

/// The page's allocator (src/main.rs).
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    console_error_panic_hook::set_once();
    if streamscope::net::worker::serve::in_worker() {
        streamscope::net::worker::serve::serve();
        return;
    }
    let window = web_sys::window().expect("a window");
    let search = window.location().search().unwrap_or_default();
    let lang = if search.len() % 2 == 0 { Lang::En } else { Lang::ZhCn };
    let mut out = String::new();
    match import_in(&search, lang) {
        Ok(Imported::Export(export)) => {
            let report = export.recompute();
            out.push_str(&campaign_markdown(&report, lang));
            out.push_str(&report_json_text(&report, None, lang));
            let again = Export::new(export.config.clone(), &report, export.runs.clone(), lang);
            out.push_str(&again.to_json_pretty());
        }
        Ok(Imported::ReportOnly(report)) => out.push_str(&report_json_text(&report, None, lang)),
        Err(message) => out.push_str(&message),
    }
    let check = streamscope_core::prefix::check(&search, &out);
    out.push_str(&check.first_difference_words().render(lang));
    let config = PageConfig::from_query(&search, &[(search.clone(), out.clone())]);
    out.push_str(&config.to_query());
    let _ = js_sys::Reflect::set(&window, &"__floor".into(), &out.into());
}
