//! Judging a report against a target's criteria.
//!
//! A report is read as a list of *subjects*, each with the figures that are checked, by the report's
//! shape (the automation contract):
//!
//! | report | subjects | verdict checked | times checked |
//! |---|---|---|---|
//! | one run | the run | its verdict | `ttft_ms`, `tpot_ms`, `total_ms` |
//! | repeated (`runs`) | the summary | the most frequent verdict | the medians at the top level |
//! | compare (`a`, `b`) | side A, side B | each side's | each side's medians |
//! | hop ladder (`hops`) | every hop | each hop's | each hop's medians |
//! | sweep (`sweep`) | the sweep, every level | the sweep's (its lowest level's) | each level's `ttft_p50_ms`, `tpot_p50_ms`, `total_p50_ms` |
//!
//! A limit on a figure the report does not have (no token arrived, one token has no TPOT) fails:
//! a check that cannot be verified does not pass.

use serde_json::Value;
use streamscope_core::text::ms;

use crate::criteria::Criteria;

/// The figures of one subject.
#[derive(Debug, Clone, PartialEq)]
pub struct Subject {
    /// Empty for a single report; `A (label)`, `hop 2 (label)`, `level 8` otherwise.
    pub label: String,
    /// The verdict, when this subject's verdict is checked.
    pub verdict: Option<String>,
    /// TTFT, TPOT and total in ms, when this subject's times are checked.
    pub times_ms: Option<Times>,
    /// Finding codes, once each.
    pub findings: Vec<String>,
}

/// The three times a limit can apply to.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Times {
    /// Time to first token.
    pub ttft_ms: Option<f64>,
    /// Time per output token.
    pub tpot_ms: Option<f64>,
    /// Time to the last byte.
    pub total_ms: Option<f64>,
}

/// The judgement of one report.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    /// Which figures were checked, in words (`one run`, `3 runs: medians, most frequent verdict`, …).
    pub scope: String,
    /// What was checked.
    pub subjects: Vec<Subject>,
    /// Why it failed (empty: passed).
    pub failures: Vec<String>,
}

impl Assessment {
    /// Whether every verdict and limit held.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// Every finding code of every subject, once, in order.
    pub fn finding_codes(&self) -> Vec<String> {
        let mut codes: Vec<String> = Vec::new();
        for code in self.subjects.iter().flat_map(|s| &s.findings) {
            if !codes.contains(code) {
                codes.push(code.clone());
            }
        }
        codes
    }
}

/// Judges `report` against `criteria`.
pub fn assess(report: &Value, criteria: &Criteria) -> Assessment {
    let (scope, subjects) = subjects(report);
    let mut failures = Vec::new();
    for subject in &subjects {
        let prefix = if subject.label.is_empty() { String::new() } else { format!("{}: ", subject.label) };
        if let Some(verdict) = &subject.verdict {
            if !criteria.expect.accepts(verdict) {
                failures.push(format!("{prefix}verdict {verdict}, expected {}", criteria.expect.describe()));
            }
        }
        if let Some(times) = subject.times_ms {
            let limits = criteria.limits;
            for (name, flag, value, limit) in [
                ("TTFT", "--max-ttft-ms", times.ttft_ms, limits.max_ttft_ms),
                ("TPOT", "--max-tpot-ms", times.tpot_ms, limits.max_tpot_ms),
                ("total", "--max-total-ms", times.total_ms, limits.max_total_ms),
            ] {
                let Some(limit) = limit else { continue };
                match value {
                    Some(v) if v <= limit => {}
                    Some(v) => failures.push(format!("{prefix}{name} {} > {} ({flag})", ms(v), ms(limit))),
                    None => failures.push(format!("{prefix}{name} not measured ({flag} {})", ms(limit))),
                }
            }
        }
    }
    Assessment { scope, subjects, failures }
}

/// The report's shape in words and its subjects.
fn subjects(report: &Value) -> (String, Vec<Subject>) {
    if report["a"].is_object() && report["b"].is_object() {
        let side = |key: &str, label_key: &str| {
            let label = report[label_key].as_str().map_or(key.to_uppercase(), |l| format!("{} ({l})", key.to_uppercase()));
            summary(label, &report[key])
        };
        let runs = run_count(&report["a"]).max(run_count(&report["b"]));
        return (format!("compare, each side{}", medians_note(runs)), vec![side("a", "label_a"), side("b", "label_b")]);
    }
    if let Some(hops) = report["hops"].as_array() {
        let subjects = hops
            .iter()
            .enumerate()
            .map(|(i, hop)| {
                let number = hop["index"].as_u64().map_or(i + 1, |n| n as usize + 1);
                let label = hop["label"].as_str().map_or(format!("hop {number}"), |l| format!("hop {number} ({l})"));
                summary(label, hop)
            })
            .collect();
        let runs = hops.iter().filter_map(|h| h["runs"].as_u64()).max().unwrap_or(1) as usize;
        return (format!("hops, every hop{}", medians_note(runs)), subjects);
    }
    if let Some(levels) = report["sweep"].as_array() {
        let mut subjects = vec![Subject {
            label: "sweep".into(),
            verdict: report["verdict"].as_str().map(String::from),
            times_ms: None,
            findings: codes(&report["findings"]),
        }];
        subjects.extend(levels.iter().map(|level| Subject {
            label: format!("level {}", level["level"].as_u64().unwrap_or(0)),
            verdict: None,
            times_ms: Some(Times {
                ttft_ms: level["ttft_p50_ms"].as_f64(),
                tpot_ms: level["tpot_p50_ms"].as_f64(),
                total_ms: level["total_p50_ms"].as_f64(),
            }),
            findings: Vec::new(),
        }));
        return ("sweep: verdict of the lowest level, p50 times of every level".into(), subjects);
    }
    let runs = run_count(report);
    let scope = if runs > 1 { format!("{runs} runs: medians, most frequent verdict") } else { "one run".into() };
    (scope, vec![summary(String::new(), report)])
}

/// A run or a summary of runs: its verdict, top-level times and findings.
fn summary(label: String, report: &Value) -> Subject {
    Subject {
        label,
        verdict: Some(report["verdict"].as_str().unwrap_or("<none>").to_string()),
        times_ms: Some(Times {
            ttft_ms: report["ttft_ms"].as_f64(),
            tpot_ms: report["tpot_ms"].as_f64(),
            total_ms: report["total_ms"].as_f64(),
        }),
        findings: codes(&report["findings"]),
    }
}

fn run_count(summary: &Value) -> usize {
    summary["runs"].as_array().map_or_else(|| summary["runs"].as_u64().unwrap_or(1) as usize, Vec::len)
}

fn medians_note(runs: usize) -> String {
    if runs > 1 {
        format!(" ({runs} runs: medians, most frequent verdict)")
    } else {
        String::new()
    }
}

/// Finding codes from a list of finding objects (`{code, …}`) or of bare codes, once each.
fn codes(findings: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in findings.as_array().into_iter().flatten() {
        if let Some(code) = f.as_str().or_else(|| f["code"].as_str()) {
            if !out.iter().any(|c| c == code) {
                out.push(code.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::criteria::{Expect, Limits};

    fn criteria(expect: &str, ttft: Option<f64>, tpot: Option<f64>) -> Criteria {
        Criteria {
            expect: Expect::parse(expect).unwrap(),
            limits: Limits { max_ttft_ms: ttft, max_tpot_ms: tpot, max_total_ms: None },
        }
    }

    #[test]
    fn one_run_both_ways() {
        let report = json!({"verdict": "streaming", "ttft_ms": 306.1, "tpot_ms": 20.0, "total_ms": 1290.0,
            "findings": [{"code": "role_only_first_chunk"}]});
        let a = assess(&report, &criteria("streaming", Some(2000.0), Some(80.0)));
        assert!(a.passed(), "{a:?}");
        assert_eq!((a.scope.as_str(), a.finding_codes()), ("one run", vec!["role_only_first_chunk".to_string()]));
        let a = assess(&report, &criteria("streaming", Some(100.0), None));
        assert_eq!(a.failures, vec!["TTFT 306 ms > 100 ms (--max-ttft-ms)".to_string()]);
    }

    #[test]
    fn a_wrong_verdict_and_an_unmeasured_time_both_fail() {
        let report = json!({"verdict": "failed", "ttft_ms": null, "tpot_ms": null, "findings": [{"code": "auth"}]});
        let a = assess(&report, &criteria("streaming", None, Some(80.0)));
        assert_eq!(a.failures, vec!["verdict failed, expected streaming".to_string(), "TPOT not measured (--max-tpot-ms 80.0 ms)".to_string()]);
        assert!(!assess(&report, &Criteria::default()).passed(), "failed never passes by default");
    }

    #[test]
    fn compare_checks_each_side() {
        let report = json!({
            "a": {"verdict": "streaming", "ttft_ms": 300.0, "tpot_ms": 20.0, "runs": [{}, {}], "findings": []},
            "b": {"verdict": "buffered", "ttft_ms": 900.0, "tpot_ms": 5.0, "runs": [{}, {}], "findings": [{"code": "bursts"}]},
            "label_a": "lab", "label_b": "nginx", "delta_ms": {}});
        let a = assess(&report, &criteria("streaming", Some(500.0), None));
        assert_eq!(a.scope, "compare, each side (2 runs: medians, most frequent verdict)");
        assert_eq!(a.failures, vec![
            "B (nginx): verdict buffered, expected streaming".to_string(),
            "B (nginx): TTFT 900 ms > 500 ms (--max-ttft-ms)".to_string(),
        ]);
        assert_eq!(a.finding_codes(), vec!["bursts".to_string()]);
    }

    #[test]
    fn hops_check_every_hop_and_a_sweep_every_level() {
        let report = json!({"verdict": "buffered", "first_bad_hop": 1, "hops": [
            {"index": 0, "label": "model", "verdict": "streaming", "ttft_ms": 300.0, "runs": 1, "findings": []},
            {"index": 1, "label": "CDN", "verdict": "buffered", "ttft_ms": 700.0, "runs": 1, "findings": ["bursts"]}]});
        let a = assess(&report, &criteria("streaming", None, None));
        assert_eq!(a.failures, vec!["hop 2 (CDN): verdict buffered, expected streaming".to_string()]);
        assert_eq!(a.scope, "hops, every hop");

        let report = json!({"verdict": "streaming", "findings": [], "sweep": [
            {"level": 1, "ttft_p50_ms": 300.0, "tpot_p50_ms": 20.0}, {"level": 8, "ttft_p50_ms": 1900.0, "tpot_p50_ms": 21.0}]});
        let a = assess(&report, &criteria("streaming", Some(1500.0), None));
        assert_eq!(a.failures, vec!["level 8: TTFT 1.90 s > 1.50 s (--max-ttft-ms)".to_string()]);
    }

    #[test]
    fn repeated_runs_are_judged_by_their_summary() {
        let report = json!({"verdict": "streaming", "ttft_ms": 310.0, "tpot_ms": 20.0, "runs": [{}, {}, {}], "findings": []});
        let a = assess(&report, &criteria("streaming", Some(400.0), None));
        assert!(a.passed());
        assert_eq!(a.scope, "3 runs: medians, most frequent verdict");
    }
}
