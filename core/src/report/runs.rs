//! Several runs of one target, summarised: the median of each metric (so a summary reads like a single
//! report), its p90 and spread, how often each verdict came, and the prompt cache over all runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::dialect::Dialect;
use crate::findings::Finding;
use crate::report::Report;
use crate::stats::percentile;
use crate::verdict::Verdict;

/// The distribution of one metric over runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// Runs that had a value.
    pub n: usize,
    /// Median.
    pub median: f64,
    /// 90th percentile (linear interpolation).
    pub p90: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// `max - min`.
    pub spread: f64,
}

impl Spread {
    /// The spread of the finite values, `None` when there are none.
    pub fn of(values: &[f64]) -> Option<Spread> {
        let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        let min = v.iter().copied().reduce(f64::min)?;
        let max = v.iter().copied().reduce(f64::max)?;
        Some(Spread { n: v.len(), median: percentile(&v, 50.0)?, p90: percentile(&v, 90.0)?, min, max, spread: max - min })
    }
}

/// Spreads of the timing metrics over runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MetricSpreads {
    /// Response headers.
    pub headers_ms: Option<Spread>,
    /// First body byte.
    pub ttfb_ms: Option<Spread>,
    /// First content token.
    pub ttft_ms: Option<Spread>,
    /// Time per output token.
    pub tpot_ms: Option<Spread>,
    /// Last byte.
    pub total_ms: Option<Spread>,
    /// Decode rate.
    pub output_tokens_per_s: Option<Spread>,
}

/// Prompt-cache figures summed over runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CacheOverRuns {
    /// Runs that reported cache figures.
    pub runs: usize,
    /// Prompt tokens served from the cache, over all runs.
    pub hit_tokens: u64,
    /// Prompt tokens not served from the cache, over all runs.
    pub miss_tokens: u64,
    /// `hit / (hit + miss)`, `None` when both are 0.
    pub hit_ratio: Option<f64>,
}

/// N runs of one target. Its top-level fields are the single-run fields of the report (medians; the
/// most frequent verdict), so automation reads it like one report, plus `runs` with every report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunsSummary {
    /// The most frequent verdict; a tie goes to the worse one (failed, collected, buffered, streaming).
    pub verdict: Verdict,
    /// Median TTFT.
    pub ttft_ms: Option<f64>,
    /// Median TTFB.
    pub ttfb_ms: Option<f64>,
    /// Median TPOT.
    pub tpot_ms: Option<f64>,
    /// Median total.
    pub total_ms: Option<f64>,
    /// Median headers time.
    pub headers_ms: Option<f64>,
    /// Median decode rate.
    pub output_tokens_per_s: Option<f64>,
    /// Median content events (rounded down).
    pub content_events: usize,
    /// Median reads (rounded down).
    pub reads: usize,
    /// Every finding code seen in any run, once (the first occurrence), with `evidence.seen_in_runs`.
    pub findings: Vec<Finding>,
    /// The dialect of the first run.
    pub dialect: Dialect,
    /// How many runs ended in each verdict.
    pub verdicts: BTreeMap<String, usize>,
    /// Median, p90 and spread of each timing metric.
    pub stats: MetricSpreads,
    /// Prompt cache over all runs, when any run reported it.
    pub cache: Option<CacheOverRuns>,
    /// Every run's report, in the order they ran.
    pub runs: Vec<Report>,
}

fn severity_rank(v: Verdict) -> u8 {
    match v {
        Verdict::Streaming => 0,
        Verdict::Buffered => 1,
        Verdict::Collected => 2,
        Verdict::Failed => 3,
    }
}

fn values(runs: &[Report], f: impl Fn(&Report) -> Option<f64>) -> Vec<f64> {
    runs.iter().filter_map(f).collect()
}

fn median_usize(mut v: Vec<usize>) -> usize {
    v.sort_unstable();
    v.get(v.len().saturating_sub(1) / 2).copied().unwrap_or(0)
}

impl RunsSummary {
    /// Summarises `runs` (at least one is expected; none gives a `failed` summary with no values).
    pub fn of(runs: Vec<Report>) -> RunsSummary {
        let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
        for r in &runs {
            *verdicts.entry(r.verdict.as_str().to_string()).or_default() += 1;
        }
        let verdict = [Verdict::Failed, Verdict::Collected, Verdict::Buffered, Verdict::Streaming]
            .into_iter()
            .map(|v| (verdicts.get(v.as_str()).copied().unwrap_or(0), severity_rank(v), v))
            .max_by_key(|(count, rank, _)| (*count, *rank))
            .filter(|(count, _, _)| *count > 0)
            .map_or(Verdict::Failed, |(_, _, v)| v);

        let stats = MetricSpreads {
            headers_ms: Spread::of(&values(&runs, |r| r.headers_ms)),
            ttfb_ms: Spread::of(&values(&runs, |r| r.ttfb_ms)),
            ttft_ms: Spread::of(&values(&runs, |r| r.ttft_ms)),
            tpot_ms: Spread::of(&values(&runs, |r| r.tpot_ms)),
            total_ms: Spread::of(&values(&runs, |r| r.total_ms)),
            output_tokens_per_s: Spread::of(&values(&runs, |r| r.output_tokens_per_s)),
        };

        let mut findings: Vec<Finding> = Vec::new();
        for f in runs.iter().flat_map(|r| &r.findings) {
            if !findings.iter().any(|seen| seen.code == f.code) {
                let seen_in = runs.iter().filter(|r| r.has_finding(f.code.clone())).count();
                let mut f = f.clone();
                if let serde_json::Value::Object(map) = &mut f.evidence {
                    map.insert("seen_in_runs".into(), seen_in.into());
                } else {
                    f.evidence = serde_json::json!({ "seen_in_runs": seen_in });
                }
                findings.push(f);
            }
        }

        let cached: Vec<_> = runs.iter().filter_map(|r| r.cache.as_ref()).collect();
        let cache = (!cached.is_empty()).then(|| {
            // Server counts may be anything up to u64::MAX: the sums saturate, and the ratio is taken
            // over f64 sums so that it stays right when a u64 sum would not fit.
            let hit_tokens = cached.iter().fold(0u64, |sum, c| sum.saturating_add(c.hit_tokens));
            let miss_tokens = cached.iter().fold(0u64, |sum, c| sum.saturating_add(c.miss_tokens));
            let hit_f: f64 = cached.iter().map(|c| c.hit_tokens as f64).sum();
            let all_f: f64 = hit_f + cached.iter().map(|c| c.miss_tokens as f64).sum::<f64>();
            CacheOverRuns {
                runs: cached.len(),
                hit_tokens,
                miss_tokens,
                hit_ratio: (all_f > 0.0).then(|| hit_f / all_f),
            }
        });

        RunsSummary {
            verdict,
            ttft_ms: stats.ttft_ms.map(|s| s.median),
            ttfb_ms: stats.ttfb_ms.map(|s| s.median),
            tpot_ms: stats.tpot_ms.map(|s| s.median),
            total_ms: stats.total_ms.map(|s| s.median),
            headers_ms: stats.headers_ms.map(|s| s.median),
            output_tokens_per_s: stats.output_tokens_per_s.map(|s| s.median),
            content_events: median_usize(runs.iter().map(|r| r.content_events).collect()),
            reads: median_usize(runs.iter().map(|r| r.reads).collect()),
            findings,
            dialect: runs.first().map_or(Dialect::Unknown, |r| r.dialect),
            verdicts,
            stats,
            cache,
            runs,
        }
    }
}
