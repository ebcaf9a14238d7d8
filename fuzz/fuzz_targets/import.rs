//! The import path on arbitrary bytes: `report::export::import`, then what the page does with an export
//! (recompute every run's report from its trace, rebuild the campaign, Markdown of both). No panic; and
//! an export that imports re-exports to a file that imports again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use streamscope_core::report::campaign::{CampaignReport, CompareSetup};
use streamscope_core::report::export::{import, Export, Imported};
use streamscope_core::i18n::Lang;
use streamscope_core::report::markdown::campaign_markdown;
use streamscope_core::Report;

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
            for lang in Lang::ALL {
                let _ = campaign_markdown(&export.report, lang);
            }
            let compare = match &export.report {
                CampaignReport::Compare(c) => Some(CompareSetup {
                    subject: c.subject,
                    label_a: c.label_a.clone(),
                    label_b: c.label_b.clone(),
                }),
                _ => None,
            };
            let runs = export
                .runs
                .iter()
                .map(|r| (r.side, Report::from_trace(&r.trace)))
                .collect();
            let recomputed = CampaignReport::from_runs(runs, compare);
            for lang in Lang::ALL {
                let _ = campaign_markdown(&recomputed, lang);
            }
            let again = Export {
                report: recomputed,
                ..*export
            };
            let text = again.to_json_pretty();
            if let Err(e) = import(&text) {
                panic!("a re-export does not import ({e}): {text}");
            }
        }
    }
});
