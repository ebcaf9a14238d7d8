//! The one line per target on stdout: status, name, each subject's verdict and times, finding codes,
//! which figures were checked, and why it failed.
//!
//! `PASS lab: streaming, TTFT 306 ms, TPOT 20.0 ms, total 1.29 s; findings: role_only_first_chunk [one run]`
//! `FAIL proxy: buffered, TTFT 1.10 s, …; findings: bursts [one run] — verdict buffered, expected streaming`
//! `ERROR proxy: could not run: no report within 300 s (--timeout-s): …`

use streamscope_core::text::ms_or;

use crate::assess::Subject;
use crate::exit::Exit;
use crate::outcome::{Outcome, TargetResult};
use crate::redact::Redactor;

/// The status word of a result.
pub fn status(result: &TargetResult) -> &'static str {
    match result.exit() {
        Exit::Pass => "PASS",
        Exit::Fail => "FAIL",
        Exit::CouldNotRun => "ERROR",
    }
}

/// The line for `result` (redacted).
pub fn line(result: &TargetResult, redactor: &Redactor) -> String {
    let name = result.target.display_name();
    let body = match &result.outcome {
        Outcome::CouldNotRun(reason) => format!("could not run: {reason}"),
        Outcome::Checked { assessment, .. } => {
            let subjects: Vec<String> = assessment.subjects.iter().map(subject).collect();
            let codes = assessment.finding_codes();
            let findings = if codes.is_empty() { "none".to_string() } else { codes.join(", ") };
            let mut text = format!("{}; findings: {findings} [{}]", subjects.join(" | "), assessment.scope);
            if !assessment.failures.is_empty() {
                text.push_str(" — ");
                text.push_str(&assessment.failures.join("; "));
            }
            text
        }
    };
    redactor.text(&format!("{} {name}: {body}", status(result)))
}

fn subject(s: &Subject) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(verdict) = &s.verdict {
        parts.push(verdict.clone());
    }
    if let Some(t) = s.times_ms {
        parts.push(format!("TTFT {}", ms_or(t.ttft_ms, "–")));
        parts.push(format!("TPOT {}", ms_or(t.tpot_ms, "–")));
        parts.push(format!("total {}", ms_or(t.total_ms, "–")));
    }
    let figures = parts.join(", ");
    if s.label.is_empty() {
        figures
    } else {
        format!("{}: {figures}", s.label)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::json;

    use super::*;
    use crate::assess::assess;
    use crate::criteria::Expect;
    use crate::target::TargetSpec;

    fn result(url: &str, report: serde_json::Value, expect: &str) -> TargetResult {
        let mut target = TargetSpec { url: Some(url.into()), ..TargetSpec::default() }.resolve(0).unwrap();
        target.criteria.expect = Expect::parse(expect).unwrap();
        let assessment = assess(&report, &target.criteria);
        TargetResult { target, elapsed: Duration::from_secs(2), outcome: Outcome::Checked { report, assessment } }
    }

    #[test]
    fn a_failed_line_names_the_verdict_the_findings_and_the_reason() {
        let report = json!({"verdict": "buffered", "ttft_ms": 1102.0, "tpot_ms": 3.1, "total_ms": 1400.0,
            "findings": [{"code": "bursts"}, {"code": "headers_held"}]});
        let r = result("http://u:pw@h/v1/chat?key=sk-abcdefgh12", report, "streaming");
        assert_eq!(
            line(&r, &Redactor::default()),
            "FAIL http://REDACTED@h/v1/chat?key=REDACTED: buffered, TTFT 1.10 s, TPOT 3.1 ms, total 1.40 s; \
             findings: bursts, headers_held [one run] — verdict buffered, expected streaming"
        );
    }

    #[test]
    fn could_not_run_is_an_error_line() {
        let target = TargetSpec { url: Some("http://h/".into()), name: Some("lab".into()), ..TargetSpec::default() }.resolve(0).unwrap();
        let r = TargetResult { target, elapsed: Duration::ZERO, outcome: Outcome::CouldNotRun("no chromedriver".into()) };
        assert_eq!(line(&r, &Redactor::default()), "ERROR lab: could not run: no chromedriver");
    }
}
