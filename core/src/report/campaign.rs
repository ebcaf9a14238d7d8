//! The report of one press of Run: a single run, N runs of one target, an A/B comparison, a concurrency
//! sweep or a hop ladder. It serialises to exactly the JSON of the automation contract for each case
//! (untagged).

use serde::{Deserialize, Serialize};

use super::compare::{Comparison, Side, Subject};
use super::hops::{HopLadder, HopsSetup};
use super::runs::RunsSummary;
use super::sweep::{SweepReport, SweepSetup};
use crate::report::Report;
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

/// How a campaign's runs are grouped and summarised.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Layout {
    /// One target, once or repeated.
    #[default]
    Runs,
    /// Two sides, A and B.
    Compare(CompareSetup),
    /// Concurrency levels (a run's group is its level).
    Sweep(SweepSetup),
    /// The same request at each hop (a run's group is its hop index).
    Hops(HopsSetup),
}

/// Where one run belongs in its campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RunTag {
    /// A or B (A outside comparisons).
    pub side: Side,
    /// The sweep level or the hop index; 0 otherwise.
    pub group: u32,
}

/// The automation contract's report for any campaign. Variant order matters: reading a report back
/// tries them in this order, and each of the first three requires its own fields (`a`/`b`, `sweep`,
/// `hops`). Read back by [`super::read`], which tries them in that order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum CampaignReport {
    /// `a`, `b`, `delta_ms`, `summary`.
    Compare(Box<Comparison>),
    /// `sweep`, `knee`, `summary`.
    Sweep(Box<SweepReport>),
    /// `hops`, `first_bad_hop`, `summary`.
    Hops(Box<HopLadder>),
    /// Medians at the top level, plus `runs` and `cache.hit_ratio`.
    Repeat(Box<RunsSummary>),
    /// One run's report.
    Single(Box<Report>),
}

impl CampaignReport {
    /// Builds the report from the runs in the order they ran (A/B sides only).
    pub fn from_runs(runs: Vec<(Side, Report)>, compare: Option<CompareSetup>) -> CampaignReport {
        let layout = compare.map_or(Layout::Runs, Layout::Compare);
        CampaignReport::of(runs.into_iter().map(|(side, r)| (RunTag { side, group: 0 }, r)).collect(), &layout)
    }

    /// Builds the report of `layout` from the tagged runs in the order they ran.
    pub fn of(runs: Vec<(RunTag, Report)>, layout: &Layout) -> CampaignReport {
        let runs = match CampaignReport::of_single(runs, layout) {
            Ok(single) => return single,
            Err(runs) => runs,
        };
        match layout {
            Layout::Compare(setup) => {
                let (a, b): (Vec<_>, Vec<_>) = runs.into_iter().partition(|(tag, _)| tag.side == Side::A);
                let a = RunsSummary::of(a.into_iter().map(|(_, r)| r).collect());
                let b = RunsSummary::of(b.into_iter().map(|(_, r)| r).collect());
                let setup = setup.clone();
                CampaignReport::Compare(Box::new(Comparison::new(setup.subject, setup.label_a, setup.label_b, a, b)))
            }
            Layout::Sweep(setup) => {
                let runs: Vec<(u32, Report)> = runs.into_iter().map(|(tag, r)| (tag.group, r)).collect();
                CampaignReport::Sweep(Box::new(SweepReport::of(&runs, setup)))
            }
            Layout::Hops(setup) => {
                let runs: Vec<(usize, Report)> = runs.into_iter().map(|(tag, r)| (tag.group as usize, r)).collect();
                CampaignReport::Hops(Box::new(HopLadder::of(&runs, setup)))
            }
            Layout::Runs => CampaignReport::Repeat(Box::new(RunsSummary::of(runs.into_iter().map(|(_, r)| r).collect()))),
        }
    }

    /// The report of a single run in the plain layout, the run's own ([`CampaignReport::Single`]), as
    /// [`CampaignReport::of`] makes it but without the code that derives any other campaign (the page
    /// makes a single run's this way, and derives the others in a chunk of their own); the runs back when
    /// they are not that.
    pub fn of_single(mut runs: Vec<(RunTag, Report)>, layout: &Layout) -> Result<CampaignReport, Vec<(RunTag, Report)>> {
        if matches!(layout, Layout::Runs) && runs.len() == 1 {
            let (_, report) = runs.remove(0);
            return Ok(CampaignReport::Single(Box::new(report)));
        }
        Err(runs)
    }

    /// How this report's runs were grouped (the file's own words for labels and URLs, shown as text).
    pub fn layout(&self) -> Layout {
        match self {
            CampaignReport::Compare(c) => {
                Layout::Compare(CompareSetup { subject: c.subject, label_a: c.label_a.clone(), label_b: c.label_b.clone() })
            }
            CampaignReport::Sweep(s) => Layout::Sweep(SweepSetup { levels: s.sweep.iter().map(|l| l.level).collect(), per_level: s.per_level }),
            CampaignReport::Hops(h) => Layout::Hops(HopsSetup {
                urls: h.hops.iter().map(|h| h.url.clone()).collect(),
                labels: h.hops.iter().map(|h| h.label.clone()).collect(),
            }),
            CampaignReport::Repeat(_) | CampaignReport::Single(_) => Layout::Runs,
        }
    }

    /// Whether the campaign failed as a whole (a single failed run, a failed median verdict, a failed
    /// side in a comparison, a failed lowest sweep level or hop): the page then says `data-state="error"`.
    pub fn failed(&self) -> bool {
        match self {
            CampaignReport::Compare(c) => c.a.verdict == Verdict::Failed || c.b.verdict == Verdict::Failed,
            CampaignReport::Sweep(s) => s.verdict == Verdict::Failed,
            CampaignReport::Hops(h) => h.failed(),
            CampaignReport::Repeat(r) => r.verdict == Verdict::Failed,
            CampaignReport::Single(r) => r.verdict == Verdict::Failed,
        }
    }

    /// Pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        super::pretty_json::pretty_json(self, || "{\"error\":\"the campaign could not be written as JSON\"}".into())
    }
}

/// A short name for a URL in sentences: `host:port/path` without scheme and query.
pub fn url_label(url: &str) -> String {
    let (rest, _, query_at) = url_parts(url);
    rest[..query_at].trim_end_matches('/').to_string()
}

/// A URL without scheme or fragment, and where its path and its query start in that text.
fn url_parts(url: &str) -> (&str, usize, usize) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split('#').next().unwrap_or(rest);
    let query_at = rest.find('?').unwrap_or(rest.len());
    let path_at = rest[..query_at].find('/').unwrap_or(query_at);
    (rest, path_at, query_at)
}

/// The path of a URL split by [`url_parts`], without a final slash (which names the same resource).
fn path_of((text, path_at, query_at): (&str, usize, usize)) -> &str {
    text[path_at..query_at].trim_end_matches('/')
}

/// Which piece of a URL names it in a pair.
#[derive(Clone, Copy)]
enum Piece {
    Host,
    Path,
    PathAndQuery,
    HostAndPath,
    HostPathAndQuery,
}

/// The `piece` of a URL split by [`url_parts`], as written ("/" for an empty path).
fn piece((text, path_at, query_at): (&str, usize, usize), piece: Piece) -> String {
    let (from, to) = match piece {
        Piece::Host => (0, path_at),
        Piece::Path => (path_at, query_at),
        Piece::PathAndQuery => (path_at, text.len()),
        Piece::HostAndPath => (0, query_at),
        Piece::HostPathAndQuery => (0, text.len()),
    };
    let piece = &text[from..to];
    if piece.is_empty() { "/".to_string() } else { piece.to_string() }
}

/// Short names for two URLs that tell them apart, naming only what differs: the hosts when only they
/// do (`proxy:8080` vs `direct:9`); the paths when the host is shared, with the queries when those
/// differ; host, path and query when the host and the query differ; host and path when host and path
/// differ; the whole URLs when only the scheme differs; "A" and "B" for the same URL. Each name is a
/// piece of its URL as written (no scheme, no fragment).
pub fn pair_labels(a_url: &str, b_url: &str) -> (String, String) {
    let (a, b) = (url_parts(a_url), url_parts(b_url));
    let same_host = a.0[..a.1] == b.0[..b.1];
    let same_query = a.0[a.2..] == b.0[b.2..];
    let which = match (same_host, path_of(a) == path_of(b), same_query) {
        (true, true, true) => {
            let scheme = |u: &str| u.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
            return if scheme(a_url) == scheme(b_url) { ("A".into(), "B".into()) } else { (a_url.into(), b_url.into()) };
        }
        (false, true, true) => Piece::Host,
        (true, false, true) => Piece::Path,
        (true, _, false) => Piece::PathAndQuery,
        (false, true, false) => Piece::HostPathAndQuery,
        (false, false, _) => Piece::HostAndPath,
    };
    (piece(a, which), piece(b, which))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_labels_keep_what_differs() {
        let pair = |a: &str, b: &str| pair_labels(a, b);
        let said = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(pair("http://proxy:8080/v1/x", "http://direct:9/v1/x"), said("proxy:8080", "direct:9"));
        assert_eq!(pair("https://gw.example/v1/chat", "https://gw.example/openai/v1/chat"), said("/v1/chat", "/openai/v1/chat"));
        assert_eq!(pair("http://h/s?m=a", "http://h/s?m=b"), said("/s?m=a", "/s?m=b"));
        assert_eq!(pair("http://h/s", "http://h/s?m=b"), said("/s", "/s?m=b"));
        assert_eq!(pair("http://h", "http://h/v1"), said("/", "/v1"));
        assert_eq!(pair("http://p/s?m=a", "http://d/s?m=b"), said("p/s?m=a", "d/s?m=b"));
        assert_eq!(pair("http://p/a?m=1", "http://d/b?m=2"), said("p/a", "d/b"));
        assert_eq!(pair("http://h/s", "http://h/s"), said("A", "B"));
        assert_eq!(pair("http://h/s#x", "http://h/s/"), said("A", "B"), "a fragment and a final slash tell nothing apart");
        assert_eq!(pair("http://h/s", "https://h/s"), said("http://h/s", "https://h/s"));
    }

    #[test]
    fn url_label_drops_scheme_and_query() {
        assert_eq!(url_label("http://127.0.0.1:8080/v1/chat/completions?tokens=5"), "127.0.0.1:8080/v1/chat/completions");
        assert_eq!(url_label("not a url"), "not a url");
    }
}
