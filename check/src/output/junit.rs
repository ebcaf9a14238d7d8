//! `--junit FILE`: one `<testsuite>` (inside `<testsuites>`), one `<testcase>` per target in the order
//! given; `<failure>` when a verdict or limit failed, `<error>` when the check could not run; the
//! target's output line as `<system-out>`. Text is escaped for XML 1.0, and characters XML cannot
//! carry at all (control characters) are dropped.

use std::time::Duration;

use crate::exit::Exit;
use crate::outcome::{Outcome, TargetResult};
use crate::output::line::line;
use crate::redact::Redactor;

/// The suite's name and every test case's class name.
pub const SUITE: &str = "streamscope-check";

/// The JUnit XML document for `results` (redacted).
pub fn junit(results: &[TargetResult], total: Duration, redactor: &Redactor) -> String {
    let count = |exit: Exit| results.iter().filter(|r| r.exit() == exit).count();
    let (failures, errors) = (count(Exit::Fail), count(Exit::CouldNotRun));
    let head = format!(
        "name=\"{SUITE}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{:.3}\"",
        results.len(),
        total.as_secs_f64()
    );
    let mut xml = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites {head}>\n  <testsuite {head} skipped=\"0\">\n");
    for result in results {
        let name = redactor.text(&result.target.display_name());
        xml.push_str(&format!(
            "    <testcase classname=\"{SUITE}\" name=\"{}\" time=\"{:.3}\">\n",
            attribute(&name),
            result.elapsed.as_secs_f64()
        ));
        let summary = line(result, redactor);
        match &result.outcome {
            Outcome::Checked { assessment, .. } if !assessment.passed() => {
                let message = redactor.text(&assessment.failures.join("; "));
                xml.push_str(&format!(
                    "      <failure type=\"check\" message=\"{}\">{}</failure>\n",
                    attribute(&message),
                    text(&summary)
                ));
            }
            Outcome::Checked { .. } => {}
            Outcome::CouldNotRun(reason) => {
                let message = redactor.text(reason);
                xml.push_str(&format!(
                    "      <error type=\"could-not-run\" message=\"{}\">{}</error>\n",
                    attribute(&message),
                    text(&summary)
                ));
            }
        }
        xml.push_str(&format!("      <system-out>{}</system-out>\n    </testcase>\n", text(&summary)));
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}

/// Escapes element text.
fn text(s: &str) -> String {
    escape(s, false)
}

/// Escapes an attribute value (line breaks and tabs as character references, so they survive
/// attribute-value normalisation).
fn attribute(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, in_attribute: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' if in_attribute => out.push_str("&#10;"),
            '\r' if in_attribute => out.push_str("&#13;"),
            '\t' if in_attribute => out.push_str("&#9;"),
            '\n' | '\r' | '\t' => out.push(c),
            // Not allowed in XML 1.0 at all, not even as references.
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::assess::assess;
    use crate::criteria::Expect;
    use crate::target::TargetSpec;

    fn target(name: &str, index: usize) -> crate::target::Target {
        let mut t = TargetSpec { url: Some("http://h/x".into()), name: Some(name.into()), ..TargetSpec::default() }.resolve(index).unwrap();
        t.criteria.expect = Expect::parse("streaming").unwrap();
        t
    }

    #[test]
    fn one_case_per_target_with_failure_and_error() {
        let passed = json!({"verdict": "streaming", "ttft_ms": 300.0, "findings": []});
        let failed = json!({"verdict": "buffered", "ttft_ms": 900.0, "findings": [{"code": "bursts"}]});
        let results: Vec<TargetResult> = [("ok", Some(passed)), ("a <b> & \"c\"", Some(failed)), ("down", None)]
            .into_iter()
            .enumerate()
            .map(|(i, (name, report))| {
                let target = target(name, i);
                let outcome = match report {
                    Some(report) => Outcome::Checked { assessment: assess(&report, &target.criteria), report },
                    None => Outcome::CouldNotRun("no \u{1b}chromedriver\nat all".into()),
                };
                TargetResult { target, elapsed: Duration::from_millis(1500), outcome }
            })
            .collect();
        let xml = junit(&results, Duration::from_secs(5), &Redactor::default());
        assert!(xml.contains("<testsuite name=\"streamscope-check\" tests=\"3\" failures=\"1\" errors=\"1\" time=\"5.000\" skipped=\"0\">"), "{xml}");
        assert_eq!(xml.matches("<testcase ").count(), 3);
        assert!(xml.contains("name=\"a &lt;b&gt; &amp; &quot;c&quot;\" time=\"1.500\""), "{xml}");
        assert!(xml.contains("<failure type=\"check\" message=\"verdict buffered, expected streaming\">"), "{xml}");
        assert!(xml.contains("<error type=\"could-not-run\" message=\"no chromedriver&#10;at all\">"), "{xml}");
        assert!(!xml.contains('\u{1b}'));
        assert_eq!(xml.matches("<failure").count() + xml.matches("<error").count(), 2);
    }
}
