//! A concurrency sweep: the same request run at several levels of streams started together
//! (`concurrency=1,2,4,8`), `per_level` rounds per level. Per level: TTFT p50/p95, TPOT p50, total p50,
//! errors and verdicts; the knee ([`knee`]: where the server starts queueing); and the browser's own
//! HTTP/1.1 queue told apart from the server's ([`browser_queue`], the `browser_connection_limit`
//! finding).

pub mod browser_queue;
pub mod knee;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use self::browser_queue::{round_queue, HTTP1_CONNECTIONS_PER_ORIGIN};
use self::knee::KneeRule;
use super::Report;
pub use crate::config::page_config::{DEFAULT_ROUNDS_PER_LEVEL, MAX_LEVEL, MAX_LEVELS, MAX_ROUNDS_PER_LEVEL};
use crate::findings::campaign::browser_connection_limit;
use crate::findings::Finding;
use crate::i18n::keys::SweepKey as K;
use crate::i18n::{Said, Text};
use crate::stats::{median, percentile};
use crate::text::ms;
use crate::verdict::Verdict;

/// What a sweep runs: the levels in increasing order and the rounds per level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepSetup {
    /// Streams started together at each level, increasing, no repeats.
    pub levels: Vec<u32>,
    /// Rounds per level (each round starts `level` streams together and waits for all of them).
    pub per_level: u32,
}

/// One level of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LevelSummary {
    /// Streams started together.
    pub level: u32,
    /// Runs measured at this level.
    pub runs: usize,
    /// TTFT median, as measured by the page.
    pub ttft_p50_ms: Option<f64>,
    /// TTFT 95th percentile.
    pub ttft_p95_ms: Option<f64>,
    /// TPOT median.
    pub tpot_p50_ms: Option<f64>,
    /// Total (last byte) median.
    pub total_p50_ms: Option<f64>,
    /// Runs whose verdict was `failed`; a run the user cancelled is not an error.
    pub errors: usize,
    /// How many runs ended in each verdict.
    pub verdicts: BTreeMap<String, usize>,
    /// Runs the browser held back (its HTTP/1.1 limit of 6 connections per origin).
    pub browser_queued: usize,
    /// TTFT median counted from when each request left the browser (the measured TTFT minus the
    /// browser's queue): what the knee reads. Equal to `ttft_p50_ms` when the browser queued nothing.
    pub server_ttft_p50_ms: Option<f64>,
    /// `nextHopProtocol` of the level's runs, when Resource Timing said.
    pub protocol: Option<String>,
}

/// The automation contract's report of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepReport {
    /// The lowest level's most frequent verdict (ties to the worse).
    pub verdict: Verdict,
    /// One entry per level, in increasing order.
    pub sweep: Vec<LevelSummary>,
    /// The first level whose TTFT p50 rises clearly above the lowest level's, or `null`.
    pub knee: Option<u32>,
    /// The figures the knee was read from.
    pub knee_rule: Option<KneeRule>,
    /// One sentence on what the sweep found (in English, or the language of [`SweepReport::localize`]).
    pub summary: String,
    /// The summary as a catalogue text, to say it in another language; not serialised.
    #[serde(skip)]
    pub summary_words: Said,
    /// Findings about the sweep as a whole (`browser_connection_limit`), then every finding code of the
    /// runs the browser sent at once (a held run's own findings describe the browser's queue), once.
    pub findings: Vec<Finding>,
    /// Rounds per level.
    pub per_level: u32,
}

/// Runs of one level, and the browser's queue wait of each.
struct Level<'a> {
    level: u32,
    runs: Vec<&'a Report>,
    waits_ms: Vec<f64>,
}

impl SweepReport {
    /// Summarises `runs` (each tagged with its level, in the order they ran: the rounds of a level are
    /// consecutive groups of `level` runs).
    pub fn of(runs: &[(u32, Report)], setup: &SweepSetup) -> SweepReport {
        let mut levels: Vec<Level> = Vec::new();
        for &level in &setup.levels {
            let of_level: Vec<&Report> = runs.iter().filter(|(l, _)| *l == level).map(|(_, r)| r).collect();
            let mut waits_ms = Vec::with_capacity(of_level.len());
            for round in of_level.chunks(level.max(1) as usize) {
                waits_ms.extend(round_queue(round).waits_ms);
            }
            levels.push(Level { level, runs: of_level, waits_ms });
        }
        levels.retain(|l| !l.runs.is_empty());
        // The runs that ended, as for every other figure of a level (`measured_runs`).
        let server_ttfts = |l: &Level| -> Vec<f64> {
            let measured = super::measured_among(&l.runs);
            let runs = l.runs.iter().zip(&l.waits_ms).filter(|(r, _)| measured(r));
            runs.filter_map(|(r, w)| r.ttft_ms.map(|t| (t - w).max(0.0))).collect()
        };
        let (knee, knee_rule) = knee::knee(&levels.iter().map(|l| (l.level, server_ttfts(l))).collect::<Vec<_>>());
        let sweep: Vec<LevelSummary> = levels.iter().map(|l| summarise(l, server_ttfts(l))).collect();

        let mut findings: Vec<Finding> = Vec::new();
        let queued: Vec<&LevelSummary> = sweep.iter().filter(|s| s.browser_queued > 0).collect();
        if !queued.is_empty() {
            let mut waits: Vec<f64> = Vec::new();
            for l in &levels {
                waits.extend(l.waits_ms.iter().filter(|w| **w > 0.0));
            }
            let levels: Vec<u32> = queued.iter().map(|s| s.level).collect();
            let held = queued.iter().map(|s| s.browser_queued).sum();
            let protocol = queued.iter().find_map(|s| s.protocol.as_deref());
            findings.push(browser_connection_limit(&levels, held, protocol, &waits, HTTP1_CONNECTIONS_PER_ORIGIN));
        }
        // A run the browser held back looks, on its own, like a slow first token with held headers:
        // its findings would blame the server for the page's own queue, so they are left out.
        for l in &levels {
            for (run, _) in l.runs.iter().zip(&l.waits_ms).filter(|(_, w)| **w == 0.0) {
                for f in &run.findings {
                    if !findings.iter().any(|seen| seen.code == f.code) {
                        findings.push(f.clone());
                    }
                }
            }
        }
        let verdict = levels.first().map_or(Verdict::Failed, |l| {
            super::runs::most_frequent_verdict(super::measured_runs(l.runs.clone()).iter().map(|r| r.verdict))
        });
        let (summary, summary_words) = Said::english(sentence(&sweep, knee, knee_rule.as_ref()));
        SweepReport { verdict, sweep, knee, knee_rule, summary, summary_words, findings, per_level: setup.per_level }
    }
}

fn summarise(level: &Level, server_ttfts: Vec<f64>) -> LevelSummary {
    let measured = super::measured_runs(level.runs.clone());
    let values = |f: fn(&Report) -> Option<f64>| -> Vec<f64> { measured.iter().filter_map(|r| f(r)).collect() };
    let ttfts = values(|r| r.ttft_ms);
    let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
    for r in &level.runs {
        *verdicts.entry(r.verdict.as_str().to_string()).or_default() += 1;
    }
    LevelSummary {
        level: level.level,
        runs: level.runs.len(),
        ttft_p50_ms: median(&ttfts),
        ttft_p95_ms: percentile(&ttfts, 95.0),
        tpot_p50_ms: median(&values(|r| r.tpot_ms)),
        total_p50_ms: median(&values(|r| r.total_ms)),
        errors: measured.iter().filter(|r| r.verdict == Verdict::Failed && !r.cancelled()).count(),
        verdicts,
        browser_queued: level.waits_ms.iter().filter(|w| **w > 0.0).count(),
        server_ttft_p50_ms: median(&server_ttfts),
        protocol: level.runs.iter().find_map(|r| r.connection.as_ref()?.next_hop_protocol.clone()),
    }
}

/// The sweep in one sentence.
fn sentence(sweep: &[LevelSummary], knee: Option<u32>, rule: Option<&KneeRule>) -> Text {
    let (Some(first), Some(rule)) = (sweep.first(), rule) else {
        return Text::msg(K::NoKneeToRead);
    };
    let queued = sweep.iter().any(|s| s.browser_queued > 0);
    let browser = if queued { Text::msg(K::BrowserHeld).count("n", HTTP1_CONNECTIONS_PER_ORIGIN) } else { Text::empty() };
    let said = match knee.and_then(|k| sweep.iter().find(|s| s.level == k)) {
        Some(at) => Text::msg(K::KneeAt)
            .count("level", at.level as usize)
            .with("at", ms(at.server_ttft_p50_ms.unwrap_or(f64::NAN)))
            .with("baseline", ms(rule.baseline_p50_ms))
            .count("first", first.level as usize)
            .with("threshold", ms(rule.threshold_ms))
            .count("runs", first.runs),
        None => Text::msg(K::NoKnee)
            .count("last", sweep.last().map_or(first.level, |s| s.level) as usize)
            .with("threshold", ms(rule.threshold_ms))
            .with("baseline", ms(rule.baseline_p50_ms))
            .count("first", first.level as usize),
    };
    said.then(browser)
}

#[cfg(test)]
mod tests;
