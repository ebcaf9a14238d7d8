//! The import path on arbitrary bytes: `report::export::import`, then what the page does with an export
//! (recompute the campaign from its traces, its Markdown). No panic; and
//! an export that imports re-exports to a file that imports again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use streamscope_core::report::export::{import, Export, Imported};
use streamscope_core::i18n::Lang;
use streamscope_core::report::markdown::campaign_markdown;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match import(&text) {
        Err(message) => assert!(!message.is_empty()),
        Ok(Imported::ReportOnly(report)) => {
            for lang in Lang::ALL {
                let _ = campaign_markdown(&report, lang);
            }
            let _ = report.to_json_pretty();
        }
        Ok(Imported::Export(export)) => {
            let recomputed = export.recompute();
            for lang in Lang::ALL {
                let _ = campaign_markdown(&recomputed, lang);
            }
            let again = Export::new(export.config.clone(), &recomputed, export.runs.clone(), Lang::En);
            let text = again.to_json_pretty();
            match import(&text) {
                Ok(Imported::Export(back)) => assert_eq!(back.layout(), export.layout(), "a re-export keeps its grouping"),
                Ok(other) => panic!("a re-export imports as something else ({other:?}): {text}"),
                Err(e) => panic!("a re-export does not import ({e}): {text}"),
            }
        }
    }
});
