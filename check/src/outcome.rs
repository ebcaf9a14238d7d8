//! What checking one target came to: a judged report, or why the check could not run.

use std::time::Duration;

use serde_json::Value;

use crate::assess::Assessment;
use crate::exit::Exit;
use crate::target::Target;

/// How one target ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The page reported and the report was judged.
    Checked {
        /// The report JSON as the page gave it.
        report: Value,
        /// The judgement.
        assessment: Assessment,
    },
    /// The check could not run; the reason.
    CouldNotRun(String),
}

/// One target's result.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetResult {
    /// The target.
    pub target: Target,
    /// From asking for a browser to the end.
    pub elapsed: Duration,
    /// How it ended.
    pub outcome: Outcome,
}

impl TargetResult {
    /// The exit code this result alone asks for.
    pub fn exit(&self) -> Exit {
        match &self.outcome {
            Outcome::Checked { assessment, .. } if assessment.passed() => Exit::Pass,
            Outcome::Checked { .. } => Exit::Fail,
            Outcome::CouldNotRun(_) => Exit::CouldNotRun,
        }
    }
}
