//! Sweeps built from hand-made runs: the knee, the browser's queue, the levels' figures.

use super::*;
use crate::findings::FindingCode;
use crate::trace::{ConnectionTiming, Trace, TraceEnd};

/// A streamed run: started at `start` (unix ms), headers at `headers_ms`, first token `ttft_after_headers`
/// later, 10 tokens 20 ms apart.
fn run(start: f64, headers_ms: f64, ttft_after_headers: f64, protocol: &str) -> Report {
    let event = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";
    let first = headers_ms + ttft_after_headers;
    let reads: Vec<(f64, String)> = (0..10).map(|i| (first + 20.0 * i as f64, event.to_string())).collect();
    let end = first + 200.0;
    let mut t = Trace::from_reads(200, "text/event-stream", headers_ms, reads, TraceEnd::Complete { at_ms: end });
    t.started_unix_ms = Some(start);
    t.connection = Some(ConnectionTiming { next_hop_protocol: Some(protocol.into()), ..ConnectionTiming::default() });
    Report::from_trace(&t)
}

/// A server with `slots` slots and headers at once: run `i` of a round waits `i / slots` streams of
/// 500 ms before its 300 ms first token.
fn server_queue(levels: &[u32], per_level: u32, slots: u32, protocol: &str) -> Vec<(u32, Report)> {
    let mut runs = Vec::new();
    let mut t0 = 1_000_000.0;
    for &level in levels {
        for _ in 0..per_level {
            for i in 0..level {
                let wave = (i / slots) as f64;
                runs.push((level, run(t0, 4.0, 296.0 + wave * 500.0, protocol)));
            }
            t0 += 10_000.0;
        }
    }
    runs
}

#[test]
fn three_slots_give_the_knee_at_8_with_p95_rising_at_4() {
    let setup = SweepSetup { levels: vec![1, 2, 4, 8], per_level: 3 };
    let report = SweepReport::of(&server_queue(&setup.levels, 3, 3, "h2"), &setup);
    assert_eq!(report.knee, Some(8), "{}", report.summary);
    let at = |level: u32| report.sweep.iter().find(|s| s.level == level).unwrap();
    assert!(at(4).ttft_p95_ms.unwrap() > at(2).ttft_p95_ms.unwrap() + 400.0);
    assert!((at(4).ttft_p50_ms.unwrap() - 300.0).abs() < 1.0);
    assert!(at(8).ttft_p50_ms.unwrap() > 700.0);
    assert_eq!(report.sweep.iter().map(|s| s.runs).collect::<Vec<_>>(), [3, 6, 12, 24]);
    assert!(report.summary.contains("starts queueing at 8 streams"), "{}", report.summary);
    assert!(!report.findings.iter().any(|f| f.code == FindingCode::BrowserConnectionLimit));
    assert_eq!(report.verdict, Verdict::Streaming);
}

/// 12 streams over HTTP/1.1 against a server that never queues: 6 wait in the browser.
fn browser_staircase(protocol: &str) -> Vec<(u32, Report)> {
    let mut runs: Vec<(u32, Report)> = (0..3).map(|r| (1, run(1_000.0 + 10_000.0 * r as f64, 4.0, 296.0, protocol))).collect();
    let t0 = 100_000.0;
    // The first 6 end at 4 + 296 + 200 = 500 ms; the 7th..12th go out then.
    for i in 0..12 {
        let headers = if i < 6 { 4.0 } else { 504.0 + i as f64 * 0.1 };
        runs.push((12, run(t0, headers, 296.0, protocol)));
    }
    runs
}

#[test]
fn an_http1_sweep_at_12_blames_the_browser_not_the_server() {
    let setup = SweepSetup { levels: vec![1, 12], per_level: 1 };
    let report = SweepReport::of(&browser_staircase("http/1.1"), &setup);
    let f = report.findings.iter().find(|f| f.code == FindingCode::BrowserConnectionLimit).expect("browser finding");
    assert_eq!(f.evidence["queued_runs"], 6);
    assert_eq!(report.sweep[1].browser_queued, 6);
    // Measured TTFT rises for the held runs; the server's does not, so there is no knee.
    assert!(report.sweep[1].ttft_p95_ms.unwrap() > 700.0);
    assert_eq!(report.knee, None, "{}", report.summary);
    assert!(report.summary.contains("browser itself held"), "{}", report.summary);
    // A held run alone reads as a slow first token; that is the browser's queue, not a finding.
    assert!(!report.findings.iter().any(|f| f.code == FindingCode::HeadersHeld || f.code == FindingCode::SlowFirstToken));
}

#[test]
fn the_same_sweep_over_http2_has_no_browser_finding() {
    let mut runs = browser_staircase("h2");
    // Over HTTP/2 nothing waits: the same 12 all go out at once.
    for (level, r) in runs.iter_mut() {
        if *level == 12 {
            *r = run(r.started_unix_ms.unwrap(), 4.0, 296.0, "h2");
        }
    }
    let report = SweepReport::of(&runs, &SweepSetup { levels: vec![1, 12], per_level: 1 });
    assert!(!report.findings.iter().any(|f| f.code == FindingCode::BrowserConnectionLimit));
    assert_eq!(report.sweep[1].browser_queued, 0);
    assert_eq!(report.knee, None);
}

#[test]
fn failed_runs_count_as_errors() {
    let failed = Report::from_trace(&Trace {
        end: Some(TraceEnd::NetworkError { at_ms: 3.0, message: "reset".into(), during_body: false }),
        ..Trace::default()
    });
    let runs = vec![(1, run(0.0, 4.0, 296.0, "h2")), (2, run(0.0, 4.0, 296.0, "h2")), (2, failed)];
    let report = SweepReport::of(&runs, &SweepSetup { levels: vec![1, 2], per_level: 1 });
    assert_eq!(report.sweep[1].errors, 1);
    assert_eq!(report.sweep[1].verdicts.get("failed"), Some(&1));
}

#[test]
fn a_run_the_user_cancelled_is_no_error_and_leaves_the_figures_to_the_others() {
    // Cancelled 100 ms after a late first token.
    let mut cancelled = run(0.0, 4.0, 296.0, "h2");
    cancelled.metrics.ttft_ms = Some(1000.0);
    cancelled.end = Some(TraceEnd::Cancelled { at_ms: 400.0 });
    cancelled.metrics.total_ms = Some(400.0);
    let runs = vec![(1, run(0.0, 4.0, 296.0, "h2")), (2, run(0.0, 4.0, 296.0, "h2")), (2, cancelled.clone())];
    let report = SweepReport::of(&runs, &SweepSetup { levels: vec![1, 2], per_level: 1 });
    assert_eq!((report.sweep[1].runs, report.sweep[1].errors), (2, 0));
    assert_eq!(report.sweep[1].total_p50_ms, report.sweep[0].total_p50_ms, "the cancelled run's 400 ms left out");
    assert_eq!(report.sweep[1].ttft_p50_ms, Some(300.0), "and its late first token");
    assert_eq!(report.sweep[1].server_ttft_p50_ms, Some(300.0), "in the knee's figure too");
    // A level where every run was cancelled keeps their figures, and still no error.
    let runs = vec![(1, run(0.0, 4.0, 296.0, "h2")), (2, cancelled.clone()), (2, cancelled)];
    let report = SweepReport::of(&runs, &SweepSetup { levels: vec![1, 2], per_level: 1 });
    assert_eq!((report.sweep[1].errors, report.sweep[1].total_p50_ms), (0, Some(400.0)));
}

#[test]
fn the_contract_fields_are_there() {
    let setup = SweepSetup { levels: vec![1, 2], per_level: 2 };
    let json = serde_json::to_value(SweepReport::of(&server_queue(&[1, 2], 2, 4, "h2"), &setup)).unwrap();
    for key in ["level", "ttft_p50_ms", "ttft_p95_ms", "tpot_p50_ms", "total_p50_ms", "errors"] {
        assert!(json["sweep"][0].get(key).is_some(), "{key}");
    }
    assert!(json.get("knee").is_some() && json["knee"].is_null());
    assert_eq!(json["verdict"], "streaming");
}
