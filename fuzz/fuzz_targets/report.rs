//! The whole derivation on an arbitrary trace (reads with times, status, content type, headers, end,
//! probes; see `streamscope_fuzz::trace_from`): analyzer, metrics, delivery, verdict, findings, report,
//! summaries and Markdown. No panic; one finding per code; and a trace whose times a real run could have
//! gives a report that reads back from its JSON (no NaN turned into `null` where a number must be).
//! Each input runs twice when its body holds digits: as it is, and with every run of digits replaced by
//! `18446744073709551615` (u64::MAX), so that every count the stream reports is extreme at once.

#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use streamscope_core::analysis::analyze;
use streamscope_core::measure::LiveFigures;
use streamscope_core::report::campaign::{CampaignReport, CompareSetup};
use streamscope_core::report::compare::{Side, Subject};
use streamscope_core::i18n::Lang;
use streamscope_core::report::markdown::campaign_markdown;
use streamscope_core::report::runs::RunsSummary;
use streamscope_core::Report;
use streamscope_fuzz::{sane_times, trace_from, TRACE_HEADER_BYTES};

fuzz_target!(|data: &[u8]| {
    check(data);
    let head = data.len().min(TRACE_HEADER_BYTES);
    let body = &data[head..];
    if body.iter().any(u8::is_ascii_digit) {
        let mut maxed = data[..head].to_vec();
        let mut in_digits = false;
        for &b in body {
            if b.is_ascii_digit() {
                if !in_digits {
                    maxed.extend_from_slice(u64::MAX.to_string().as_bytes());
                }
                in_digits = true;
            } else {
                maxed.push(b);
                in_digits = false;
            }
        }
        check(&maxed);
    }
});

fn check(data: &[u8]) {
    let trace = trace_from(data);
    let analysis = analyze(&trace);
    let _ = (LiveFigures::of(&analysis, true), LiveFigures::of(&analysis, false));
    let report = Report::from_analysis(&trace, &analysis);

    let codes: Vec<_> = report.findings.iter().map(|f| f.code.clone()).collect();
    let unique: HashSet<_> = codes.iter().collect();
    assert_eq!(unique.len(), codes.len(), "a code twice: {codes:?}");

    let json = report.to_json_pretty();
    if sane_times(data) {
        let back = Report::from_json(&json)
            .unwrap_or_else(|e| panic!("the report does not read back ({e}): {json}"));
        assert_eq!(back.findings.len(), report.findings.len());
    }
    for lang in Lang::ALL {
        let _ = campaign_markdown(&CampaignReport::Single(Box::new(report.clone())), lang);
    }
    let summary = RunsSummary::of(vec![report.clone(), report.clone()]);
    let _ = serde_json::to_string(&summary);
    let compare = CompareSetup {
        subject: Subject::Path,
        label_a: "a".into(),
        label_b: "b".into(),
    };
    let campaign = CampaignReport::from_runs(
        vec![(Side::A, report.clone()), (Side::B, report)],
        Some(compare),
    );
    for lang in Lang::ALL {
        let _ = campaign_markdown(&campaign, lang);
    }
    let _ = campaign.to_json_pretty();
}
