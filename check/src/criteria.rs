//! What a target must show to pass: the verdicts it may end in and its time limits (ms).

use streamscope_core::Verdict;

/// The verdicts a target may end in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Expect {
    /// Anything but `failed` (the default: an HTTP error or a dead endpoint fails the check).
    #[default]
    NotFailed,
    /// One of these.
    OneOf(Vec<Verdict>),
}

impl Expect {
    /// Parses `streaming`, `streaming,buffered` or `not-failed`.
    pub fn parse(text: &str) -> Result<Expect, String> {
        let text = text.trim();
        if text == "not-failed" {
            return Ok(Expect::NotFailed);
        }
        let mut verdicts = Vec::new();
        for name in text.split(',').map(str::trim) {
            let verdict = Verdict::from_code(name).ok_or_else(|| {
                let known: Vec<&str> = Verdict::ALL.iter().map(|v| v.as_str()).collect();
                format!("not a verdict: {name:?} (one of {}, comma-separated, or not-failed)", known.join(", "))
            })?;
            if !verdicts.contains(&verdict) {
                verdicts.push(verdict);
            }
        }
        Ok(Expect::OneOf(verdicts))
    }

    /// Whether a report's verdict (its JSON name) is acceptable.
    pub fn accepts(&self, verdict: &str) -> bool {
        match self {
            Expect::NotFailed => verdict != Verdict::Failed.as_str(),
            Expect::OneOf(verdicts) => verdicts.iter().any(|v| v.as_str() == verdict),
        }
    }

    /// In words: `streaming`, `streaming or buffered`, `not failed`.
    pub fn describe(&self) -> String {
        match self {
            Expect::NotFailed => "not failed".into(),
            Expect::OneOf(verdicts) => verdicts.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(" or "),
        }
    }
}

/// Upper limits on the report's times; `None` checks nothing.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Limits {
    /// `--max-ttft-ms`: time to the first content token.
    pub max_ttft_ms: Option<f64>,
    /// `--max-tpot-ms`: time per output token after the first.
    pub max_tpot_ms: Option<f64>,
    /// `--max-total-ms`: time to the last body byte.
    pub max_total_ms: Option<f64>,
}

/// A target's pass criteria.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Criteria {
    /// The verdicts it may end in.
    pub expect: Expect,
    /// Its time limits.
    pub limits: Limits,
}

/// Parses a limit in ms: a finite number above 0.
pub fn parse_limit_ms(what: &str, text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(ms) if ms.is_finite() && ms > 0.0 => Ok(ms),
        _ => Err(format!("{what}: not a time in ms above 0: {text:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expect_reads_lists_and_refuses_unknown_verdicts() {
        let e = Expect::parse("streaming, buffered").unwrap();
        assert!(e.accepts("streaming") && e.accepts("buffered") && !e.accepts("collected"));
        assert_eq!(e.describe(), "streaming or buffered");
        assert!(Expect::parse("not-failed").unwrap().accepts("collected"));
        assert!(!Expect::default().accepts("failed"));
        assert!(Expect::parse("failed").unwrap().accepts("failed"));
        let err = Expect::parse("fast").unwrap_err();
        assert!(err.contains("\"fast\"") && err.contains("streaming, buffered, collected, failed"), "{err}");
    }

    #[test]
    fn limits_are_positive_numbers() {
        assert_eq!(parse_limit_ms("--max-ttft-ms", "1500"), Ok(1500.0));
        for bad in ["0", "-3", "abc", "NaN", "inf", ""] {
            assert!(parse_limit_ms("--max-ttft-ms", bad).unwrap_err().starts_with("--max-ttft-ms:"), "{bad}");
        }
    }
}
