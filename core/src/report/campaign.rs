//! The report of one press of Run: a single run, N runs of one target, or an A/B comparison. It
//! serialises to exactly the JSON of the automation contract for each case (untagged).

use serde::{Deserialize, Serialize};

use super::compare::{Comparison, Side, Subject};
use crate::report::Report;
use super::runs::RunsSummary;
use crate::verdict::Verdict;

/// What an A/B campaign compares and how the sides are called.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareSetup {
    /// Paths or models.
    pub subject: Subject,
    /// Side A's short name.
    pub label_a: String,
    /// Side B's short name.
    pub label_b: String,
}

/// The automation contract's report for any campaign.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CampaignReport {
    /// `a`, `b`, `delta_ms`, `summary`.
    Compare(Box<Comparison>),
    /// Medians at the top level, plus `runs` and `cache.hit_ratio`.
    Repeat(Box<RunsSummary>),
    /// One run's report.
    Single(Box<Report>),
}

impl CampaignReport {
    /// Builds the report from the runs in the order they ran.
    pub fn from_runs(runs: Vec<(Side, Report)>, compare: Option<CompareSetup>) -> CampaignReport {
        match compare {
            Some(setup) => {
                let (a, b): (Vec<_>, Vec<_>) = runs.into_iter().partition(|(side, _)| *side == Side::A);
                let a = RunsSummary::of(a.into_iter().map(|(_, r)| r).collect());
                let b = RunsSummary::of(b.into_iter().map(|(_, r)| r).collect());
                CampaignReport::Compare(Box::new(Comparison::new(setup.subject, setup.label_a, setup.label_b, a, b)))
            }
            None if runs.len() == 1 => {
                let (_, report) = runs.into_iter().next().expect("one run");
                CampaignReport::Single(Box::new(report))
            }
            None => CampaignReport::Repeat(Box::new(RunsSummary::of(runs.into_iter().map(|(_, r)| r).collect()))),
        }
    }

    /// Whether the campaign failed as a whole (a single failed run, a failed median verdict, or a failed
    /// side in a comparison): the page then says `data-state="error"`.
    pub fn failed(&self) -> bool {
        match self {
            CampaignReport::Compare(c) => c.a.verdict == Verdict::Failed || c.b.verdict == Verdict::Failed,
            CampaignReport::Repeat(r) => r.verdict == Verdict::Failed,
            CampaignReport::Single(r) => r.verdict == Verdict::Failed,
        }
    }

    /// Pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// A short name for a URL in sentences: `host:port/path` without scheme and query.
pub fn url_label(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    rest.trim_end_matches('/').to_string()
}

/// Short names for two URLs that tell them apart: host and path, plus the query when only the query
/// differs, falling back to "A" and "B" for identical URLs.
pub fn pair_labels(a_url: &str, b_url: &str) -> (String, String) {
    let (a, b) = (url_label(a_url), url_label(b_url));
    if a != b {
        return (a, b);
    }
    let without_scheme = |u: &str| u.split_once("://").map_or(u, |(_, r)| r).to_string();
    let (a, b) = (without_scheme(a_url), without_scheme(b_url));
    if a != b {
        (a, b)
    } else {
        ("A".into(), "B".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_labels_keep_what_differs() {
        assert_eq!(pair_labels("http://proxy:8080/v1/x", "http://direct:9/v1/x"), ("proxy:8080/v1/x".into(), "direct:9/v1/x".into()));
        assert_eq!(pair_labels("http://h/s?m=a", "http://h/s?m=b"), ("h/s?m=a".into(), "h/s?m=b".into()));
        assert_eq!(pair_labels("http://h/s", "http://h/s"), ("A".into(), "B".into()));
    }

    #[test]
    fn url_label_drops_scheme_and_query() {
        assert_eq!(url_label("http://127.0.0.1:8080/v1/chat/completions?tokens=5"), "127.0.0.1:8080/v1/chat/completions");
        assert_eq!(url_label("not a url"), "not a url");
    }
}
