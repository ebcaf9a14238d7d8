//! Repeated runs and A/B comparisons: medians, spreads, verdict counts, cache over runs, the order of
//! runs and the sentence that explains the difference.

use streamscope_core::{FindingCode};
use streamscope_core::report::compare::{schedule, sentence, Comparison, Deltas, Side, Subject};
use streamscope_core::report::Report;
use streamscope_core::i18n::Lang;
use streamscope_core::report::runs::{RunsSummary, Spread};
use streamscope_core::trace::{Trace, TraceEnd};
use streamscope_core::verdict::Verdict;

/// A streamed run: first token at `ttft_ms`, then `tokens - 1` more every `tpot_ms`.
fn run(ttft_ms: f64, tpot_ms: f64, tokens: usize, cache_hit: u64) -> Report {
    let mut reads = vec![(5.0, "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n".to_string())];
    for i in 0..tokens {
        let at = ttft_ms + tpot_ms * i as f64;
        reads.push((at, format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\" w{i}\"}}}}]}}\n\n")));
    }
    let last = ttft_ms + tpot_ms * (tokens - 1) as f64;
    reads.push((
        last + 1.0,
        format!(
            "data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":100,\"completion_tokens\":{tokens},\"prompt_cache_hit_tokens\":{cache_hit},\"prompt_cache_miss_tokens\":{}}}}}\n\ndata: [DONE]\n\n",
            100 - cache_hit
        ),
    ));
    let trace = Trace::from_reads(200, "text/event-stream", 4.0, reads, TraceEnd::Complete { at_ms: last + 2.0 });
    Report::from_trace(&trace)
}

fn failed_run() -> Report {
    Report::from_trace(&Trace::from_reads(500, "application/json", 4.0, vec![(6.0, "{}")], TraceEnd::Complete { at_ms: 7.0 }))
}

#[test]
fn spread_of_known_values() {
    let s = Spread::of(&[10.0, 20.0, 30.0, 40.0, f64::NAN]).unwrap();
    assert_eq!((s.n, s.median, s.min, s.max, s.spread), (4, 25.0, 10.0, 40.0, 30.0));
    assert!((s.p90 - 37.0).abs() < 1e-9);
    assert!(Spread::of(&[]).is_none());
}

#[test]
fn summary_takes_medians_and_counts_verdicts() {
    let runs = vec![run(300.0, 20.0, 10, 0), run(340.0, 22.0, 10, 50), run(310.0, 21.0, 10, 100)];
    let s = RunsSummary::of(runs);
    assert_eq!(s.verdict, Verdict::Streaming);
    assert_eq!(s.ttft_ms, Some(310.0));
    assert!((s.tpot_ms.unwrap() - 21.0).abs() < 1e-9);
    assert_eq!(s.stats.ttft_ms.unwrap().spread, 40.0);
    assert_eq!(s.verdicts.get("streaming"), Some(&3));
    assert_eq!(s.runs.len(), 3);
    assert_eq!(s.content_events, 10);
    let cache = s.cache.unwrap();
    assert_eq!((cache.runs, cache.hit_tokens, cache.miss_tokens), (3, 150, 150));
    assert_eq!(cache.hit_ratio, Some(0.5));
}

#[test]
fn verdict_tie_goes_to_the_worse_one_and_findings_count_runs() {
    let s = RunsSummary::of(vec![run(300.0, 20.0, 5, 0), failed_run()]);
    assert_eq!(s.verdict, Verdict::Failed);
    let http = s.findings.iter().find(|f| f.code == FindingCode::HttpError).expect("http_error kept");
    assert_eq!(http.evidence["seen_in_runs"], 1);
    assert_eq!(s.ttft_ms, Some(300.0), "medians over the runs that have a value");
}

#[test]
fn runs_interleave_a_and_b() {
    assert_eq!(schedule(3, true), vec![Side::A, Side::B, Side::A, Side::B, Side::A, Side::B]);
    assert_eq!(schedule(2, false), vec![Side::A, Side::A]);
    assert_eq!(schedule(0, true), vec![Side::A, Side::B], "at least one run per side");
}

#[test]
fn proxy_sentence_names_the_later_first_token_and_keeps_the_model_unchanged() {
    let a = RunsSummary::of(vec![run(300.0, 20.0, 20, 0)]);
    let b = RunsSummary::of(vec![run(640.0, 20.0, 20, 0)]);
    let c = Comparison::new(Subject::Path, "direct".into(), "the proxy".into(), a, b);
    assert!((c.delta_ms.ttft.unwrap() - 340.0).abs() < 1e-9);
    assert!(c.delta_ms.tpot.unwrap().abs() < 1e-9);
    assert!(c.summary.starts_with("Through the proxy (vs direct), the first token arrives 340 ms later"), "{}", c.summary);
    assert!(c.summary.contains("the model itself is unchanged (TPOT 20.0 ms vs 20.0 ms)"), "{}", c.summary);
    assert!(c.summary.contains("finishes 340 ms later"), "{}", c.summary);
}

#[test]
fn model_sentence_names_the_tpot_difference() {
    let a = RunsSummary::of(vec![run(300.0, 10.0, 20, 0)]);
    let b = RunsSummary::of(vec![run(305.0, 40.0, 20, 0)]);
    let c = Comparison::new(Subject::Model, "lab-10ms".into(), "lab-40ms".into(), a, b);
    assert!((c.delta_ms.tpot.unwrap() - 30.0).abs() < 1e-9);
    assert!(c.summary.contains("the first token arrives at the same time"), "{}", c.summary);
    // B's figure first, as in "lab-40ms (vs lab-10ms)": the side the sentence is about.
    assert!(c.summary.contains("each token takes 30.0 ms longer (TPOT 40.0 ms vs 10.0 ms)"), "{}", c.summary);
}

#[test]
fn sentence_with_a_failed_side_says_so() {
    let a = RunsSummary::of(vec![run(300.0, 10.0, 5, 0)]);
    let b = RunsSummary::of(vec![failed_run()]);
    let d = Deltas { ttft: None, tpot: None, total: None, headers: None, ttfb: None, output_tokens_per_s: None };
    assert_eq!(sentence(Subject::Path, "direct", "proxy", &a, &b, &d), "proxy failed, so timing cannot be compared; see the findings.");
}

#[test]
fn summary_round_trips_through_json() {
    let s = RunsSummary::of(vec![run(300.0, 20.0, 5, 10)]);
    let json = serde_json::to_string(&s).unwrap();
    let back: RunsSummary = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    for key in ["verdict", "ttft_ms", "tpot_ms", "total_ms", "runs", "findings", "content_events", "reads", "cache"] {
        assert!(v.get(key).is_some(), "{key} missing");
    }
}

#[test]
fn campaign_report_has_the_contract_shape_for_each_case() {
    use streamscope_core::report::campaign::{CampaignReport, CompareSetup};
    let single = CampaignReport::from_runs(vec![(Side::A, run(300.0, 20.0, 5, 0))], None);
    let v = serde_json::to_value(&single).unwrap();
    assert_eq!(v["verdict"], "streaming");
    assert!(v.get("runs").is_none() && v.get("a").is_none());

    let repeat = CampaignReport::from_runs(vec![(Side::A, run(300.0, 20.0, 5, 0)), (Side::A, run(320.0, 20.0, 5, 100))], None);
    let v = serde_json::to_value(&repeat).unwrap();
    assert_eq!(v["runs"].as_array().unwrap().len(), 2);
    assert_eq!(v["cache"]["hit_ratio"], 0.5);
    assert_eq!(v["ttft_ms"], 310.0);

    let setup = CompareSetup { subject: Subject::Path, label_a: "direct".into(), label_b: "proxy".into() };
    let runs = vec![
        (Side::A, run(300.0, 20.0, 5, 0)),
        (Side::B, run(700.0, 20.0, 5, 0)),
        (Side::A, run(310.0, 20.0, 5, 0)),
        (Side::B, run(720.0, 20.0, 5, 0)),
    ];
    let compare = CampaignReport::from_runs(runs, Some(setup));
    let v = serde_json::to_value(&compare).unwrap();
    assert_eq!(v["a"]["runs"].as_array().unwrap().len(), 2);
    assert_eq!(v["b"]["ttft_ms"], 710.0);
    assert_eq!(v["delta_ms"]["ttft"], 405.0);
    assert!(v["delta_ms"]["tpot"].as_f64().unwrap().abs() < 1e-9);
    assert!(!compare.failed());

    // Each shape reads back as itself (import relies on it).
    for report in [single, repeat, compare] {
        let back: CampaignReport = serde_json::from_str(&report.to_json_pretty()).unwrap();
        assert_eq!(back, report);
    }
}

#[test]
fn a_sweep_and_a_ladder_read_back_as_themselves() {
    use streamscope_core::report::campaign::{CampaignReport, Layout, RunTag};
    use streamscope_core::report::export::{import, Imported};
    use streamscope_core::report::hops::HopsSetup;
    use streamscope_core::report::sweep::SweepSetup;

    let tag = |group: u32| RunTag { side: Side::A, group };
    let slow = |ms: f64| run(ms, 20.0, 5, 0);
    let sweep = CampaignReport::of(
        vec![(tag(0), slow(300.0)), (tag(0), slow(310.0)), (tag(1), slow(305.0)), (tag(1), slow(900.0)), (tag(2), slow(1500.0)), (tag(2), slow(1600.0))],
        &Layout::Sweep(SweepSetup { levels: vec![1, 2, 4], per_level: 2 }),
    );
    let ladder = CampaignReport::of(
        vec![(tag(0), slow(300.0)), (tag(1), slow(320.0)), (tag(2), failed_run())],
        &Layout::Hops(HopsSetup { urls: vec!["http://a/".into(), "http://b/".into(), "http://c/".into()], labels: vec!["a".into(), "b".into(), "c".into()] }),
    );
    assert!(matches!(sweep, CampaignReport::Sweep(_)) && matches!(ladder, CampaignReport::Hops(_)));
    for report in [sweep, ladder] {
        match import(&report.to_json_pretty()) {
            Ok(Imported::ReportOnly(back)) => assert_eq!(*back, report),
            other => panic!("expected a bare report, got {other:?}"),
        }
    }
}

#[test]
fn export_round_trips_and_import_explains_bad_input() {
    use streamscope_core::report::campaign::CampaignReport;
    use streamscope_core::report::export::{import, Export, ExportedRun, Imported, EXPORT_VERSION};
    use streamscope_core::config::page_config::PageConfig;

    let report = run(300.0, 20.0, 5, 0);
    let trace = Trace::from_reads(200, "text/event-stream", 4.0, vec![(5.0, "data: {}\n\n")], TraceEnd::Complete { at_ms: 6.0 });
    let export = Export {
        streamscope_export: EXPORT_VERSION,
        lang: Lang::En,
        config: Some(PageConfig::reference("http://127.0.0.1:8787")),
        report: CampaignReport::Single(Box::new(report.clone())),
        runs: vec![ExportedRun { side: Side::A, group: 0, trace }],
    };
    match import(&export.to_json_pretty()).unwrap() {
        Imported::Export(back) => {
            // Of the file's report, only how its runs were grouped is read.
            assert_eq!((back.lang, &back.config, back.layout(), &back.runs), (export.lang, &export.config, export.report.layout(), &export.runs));
        }
        other => panic!("expected an export, got {other:?}"),
    }
    match import(&report.to_json_pretty()).unwrap() {
        Imported::ReportOnly(r) => assert_eq!(*r, CampaignReport::Single(Box::new(report))),
        other => panic!("expected a bare report, got {other:?}"),
    }
    assert!(import("").unwrap_err().starts_with("Nothing to import"));
    assert!(import("{not json").unwrap_err().starts_with("This is not JSON"));
    assert!(import("{\"streamscope_export\": 9}").unwrap_err().contains("version 9"));
    assert!(import("{\"streamscope_export\": 1, \"runs\": 3}").unwrap_err().contains("damaged"));
    assert!(import("{\"hello\": 1}").unwrap_err().contains("neither"));
}

/// 60 tokens released by a proxy in three 20-event reads, 400 ms apart.
fn buffered_run() -> Report {
    let mut reads = vec![(5.0, "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n".to_string())];
    for burst in 0..3 {
        let body: String = (0..20)
            .map(|i| format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\" w{burst}{i}\"}}}}]}}\n\n"))
            .collect();
        reads.push((700.0 + 400.0 * burst as f64, body));
    }
    reads.push((1501.0, "data: [DONE]\n\n".to_string()));
    Report::from_trace(&Trace::from_reads(200, "text/event-stream", 4.0, reads, TraceEnd::Complete { at_ms: 1502.0 }))
}

#[test]
fn proxy_sentence_describes_the_bursts_it_saw() {
    let b = buffered_run();
    assert_eq!(b.verdict, Verdict::Buffered, "the fixture must be buffered: {:?}", b.findings);
    let a = RunsSummary::of(vec![run(300.0, 20.0, 60, 0)]);
    let c = Comparison::new(Subject::Path, "direct".into(), "nginx".into(), a, RunsSummary::of(vec![b]));
    assert!(
        c.summary.starts_with(
            "Through nginx (vs direct), the first token arrives 400 ms later and the text comes in bursts of about \
             1010 B every 400 ms (buffered) where direct's streams; TPOT through nginx reflects the holding, not the model."
        ),
        "{}",
        c.summary
    );
}

/// Regression: the prompt cache summed over runs with `+`, so two runs reporting `u64::MAX` cache hits
/// panicked (debug) or wrapped (release).
#[test]
fn cache_over_runs_of_u64_max_tokens_saturates() {
    let max = u64::MAX;
    let usage = format!(
        "data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":{max},\"completion_tokens\":{max},\"prompt_cache_hit_tokens\":{max},\"prompt_cache_miss_tokens\":{max}}}}}\n\ndata: [DONE]\n\n"
    );
    let content = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n";
    let trace = Trace::from_reads(
        200,
        "text/event-stream",
        10.0,
        vec![(20.0, content.to_string()), (30.0, content.to_string()), (40.0, usage)],
        TraceEnd::Complete { at_ms: 41.0 },
    );
    let report = Report::from_trace(&trace);
    assert_eq!(report.tpot_n, Some(max));
    assert!(report.tpot_ms.is_some_and(f64::is_finite));
    let summary = RunsSummary::of(vec![report.clone(), report]);
    let cache = summary.cache.unwrap();
    assert_eq!((cache.hit_tokens, cache.miss_tokens), (max, max));
    assert_eq!(cache.hit_ratio, Some(0.5));
}

/// A run whose start was held until 500 ms: 21 tokens at once, the last 9 at 590 ms.
fn held_start_run() -> Report {
    let token = |i: usize| format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\" w{i}\"}}}}]}}\n\n");
    let first: String = (0..21).map(token).collect();
    let rest: String = (21..30).map(token).collect::<String>() + "data: [DONE]\n\n";
    Report::from_trace(&Trace::from_reads(200, "text/event-stream", 4.0, vec![(500.0, first), (590.0, rest)], TraceEnd::Complete { at_ms: 591.0 }))
}

#[test]
fn path_sentence_names_a_held_start_by_its_least_wait_not_by_its_one_cut_short_gap() {
    let a = RunsSummary::of(vec![run(300.0, 10.0, 30, 0)]);
    let b = RunsSummary::of(vec![held_start_run(), held_start_run()]);
    assert_eq!(b.verdict, Verdict::Buffered);
    let c = Comparison::new(Subject::Path, "direct".into(), "proxy".into(), a, b);
    assert!(c.summary.contains("the text starts only after a hold of at least 200 ms (buffered) where direct's streams"), "{}", c.summary);
    assert!(!c.summary.contains("every"), "{}", c.summary);
}
