//! Soft checks for grouped scenarios: every scenario of a test runs and is checked, what was observed
//! is printed as one table, and the test fails at the end naming every scenario that did not pass (a
//! wrong verdict in the first scenario does not hide the others).

use serde_json::Value;

/// The first finding with `code` in a report (`Null` when there is none, so its fields read as `Null`).
pub fn finding<'a>(report: &'a Value, code: &str) -> &'a Value {
    report["findings"]
        .as_array()
        .and_then(|all| all.iter().find(|f| f["code"] == code))
        .unwrap_or(&Value::Null)
}

/// The checks of one scenario's report.
#[derive(Debug, Clone)]
pub struct Check {
    name: String,
    report: Value,
    failures: Vec<String>,
}

impl Check {
    /// Starts checking the report of scenario `name`.
    pub fn new(name: impl Into<String>, report: &Value) -> Self {
        Self {
            name: name.into(),
            report: report.clone(),
            failures: Vec::new(),
        }
    }

    /// The report under check.
    pub fn report(&self) -> &Value {
        &self.report
    }

    /// A top-level number of the report (`None` when null or missing).
    pub fn number(&self, key: &str) -> Option<f64> {
        self.report[key].as_f64()
    }

    /// The codes of the report's findings, in order.
    pub fn codes(&self) -> Vec<String> {
        self.report["findings"]
            .as_array()
            .map(|findings| {
                findings
                    .iter()
                    .filter_map(|f| f["code"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Expects the verdict `expected`.
    pub fn verdict(&mut self, expected: &str) -> &mut Self {
        let verdict = self.report["verdict"]
            .as_str()
            .unwrap_or("<none>")
            .to_string();
        self.that(verdict == expected, || {
            format!("verdict {verdict}, expected {expected}")
        })
    }

    /// Expects a finding with `code`.
    pub fn finding(&mut self, code: &str) -> &mut Self {
        let codes = self.codes();
        self.that(codes.iter().any(|c| c == code), || {
            format!("no finding {code} in {codes:?}")
        })
    }

    /// Expects no finding with `code`.
    pub fn no_finding(&mut self, code: &str) -> &mut Self {
        let codes = self.codes();
        self.that(!codes.iter().any(|c| c == code), || {
            format!("unexpected finding {code}")
        })
    }

    /// Expects the number `key` within `tolerance` of `target`.
    pub fn near(&mut self, key: &str, target: f64, tolerance: f64) -> &mut Self {
        self.between(key, target - tolerance, target + tolerance)
    }

    /// Expects the number `key` in `min..=max`.
    pub fn between(&mut self, key: &str, min: f64, max: f64) -> &mut Self {
        let value = self.number(key);
        self.that(value.is_some_and(|v| (min..=max).contains(&v)), || {
            format!("{key} = {value:?}, expected {min:.1}..={max:.1}")
        })
    }

    /// Expects the number `key` to be at least `min`.
    pub fn at_least(&mut self, key: &str, min: f64) -> &mut Self {
        self.between(key, min, f64::INFINITY)
    }

    /// Records the failure `what()` unless `ok`.
    pub fn that(&mut self, ok: bool, what: impl FnOnce() -> String) -> &mut Self {
        if !ok {
            self.failures.push(what());
        }
        self
    }

    fn row(&self) -> String {
        let figure = |key: &str| {
            self.number(key)
                .map_or("null".to_string(), |v| format!("{v:.1}"))
        };
        let result = if self.failures.is_empty() {
            "pass"
        } else {
            "FAIL"
        };
        format!(
            "| {} | {} | {} | {} | {} | {}/{} | {} | {result} |",
            self.name,
            self.report["verdict"].as_str().unwrap_or("<none>"),
            figure("ttft_ms"),
            figure("tpot_ms"),
            figure("total_ms"),
            self.report["reads"],
            self.report["content_events"],
            self.codes().join(", "),
        )
    }
}

/// The checks of every scenario a test ran.
#[derive(Debug, Default)]
pub struct Outcomes {
    checks: Vec<Check>,
}

impl Outcomes {
    /// No scenario yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a scenario's checks and prints its row (visible with `--nocapture`).
    pub fn add(&mut self, check: Check) {
        eprintln!("{}", check.row());
        self.checks.push(check);
    }

    /// The observed figures as a Markdown table.
    pub fn table(&self) -> String {
        let mut out = String::from(
            "| scenario | verdict | ttft_ms | tpot_ms | total_ms | reads/content events | findings | result |\n\
             |---|---|---|---|---|---|---|---|\n",
        );
        for check in &self.checks {
            out.push_str(&check.row());
            out.push('\n');
        }
        out
    }

    /// Prints the table when every check passed; otherwise panics with every failed check (and its
    /// report) followed by the table.
    pub fn finish(self) {
        let table = self.table();
        let failed: Vec<String> = self
            .checks
            .iter()
            .filter(|c| !c.failures.is_empty())
            .map(|c| {
                format!(
                    "{}:\n  - {}\n  report: {}",
                    c.name,
                    c.failures.join("\n  - "),
                    c.report
                )
            })
            .collect();
        assert!(
            failed.is_empty(),
            "{} of {} scenarios failed:\n{}\n\n{table}",
            failed.len(),
            self.checks.len(),
            failed.join("\n")
        );
        eprintln!("\n{table}");
    }
}
