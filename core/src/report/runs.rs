//! Several runs of one target, summarised: the median of each metric (so a summary reads like a single
//! report), its p90 and spread, how often each verdict came, and the prompt cache over all runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::connection_cost::ConnectionCost;
use crate::dialect::Dialect;
use crate::findings::campaign::low_cache_hit;
use crate::measure::cache::{CacheSource, CacheStats};
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheOverRuns {
    /// Runs that reported cache figures.
    pub runs: usize,
    /// Prompt tokens served from the cache, over all runs.
    pub hit_tokens: u64,
    /// Prompt tokens not served from the cache, over all runs.
    pub miss_tokens: u64,
    /// `hit / (hit + miss)`, `None` when both are 0.
    pub hit_ratio: Option<f64>,
    /// Each run's hit ratio, in the order they ran (`null` for a run without cache figures).
    #[serde(default)]
    pub run_hit_ratios: Vec<Option<f64>>,
    /// The hit ratio over the warm runs: every run with cache figures after the first one (which is cold
    /// by construction: nothing of this request was cached before it); `None` with no warm run.
    #[serde(default)]
    pub warm_hit_ratio: Option<f64>,
    /// Warm runs with cache figures.
    #[serde(default)]
    pub warm_runs: usize,
    /// TTFT of the first (cold) run.
    #[serde(default)]
    pub cold_ttft_ms: Option<f64>,
    /// Median TTFT of the warm runs.
    #[serde(default)]
    pub warm_ttft_ms: Option<f64>,
    /// Which usage fields the figures came from (the first run's).
    #[serde(default)]
    pub source: Option<CacheSource>,
    /// Mean prompt tokens (hit + miss) of the warm runs.
    #[serde(default)]
    pub warm_prompt_tokens_mean: Option<f64>,
}

/// `hit / (hit + miss)` over several runs' cache figures, summed as f64 (server counts may be anything up
/// to u64::MAX); `None` when both sums are 0.
fn ratio_over(cached: &[&CacheStats]) -> Option<f64> {
    let hit: f64 = cached.iter().map(|c| c.hit_tokens as f64).sum();
    let all: f64 = hit + cached.iter().map(|c| c.miss_tokens as f64).sum::<f64>();
    (all > 0.0).then(|| hit / all)
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
    /// Connection cost, cold first run against warm later ones, when Resource Timing was there.
    #[serde(default)]
    pub connection: Option<ConnectionCost>,
    /// Every run's report, in the order they ran.
    pub runs: Vec<Report>,
}

/// The verdicts, worst first: a tie between counts goes to the worse one, and counts are said in this order.
pub const WORST_FIRST: [Verdict; 4] = [Verdict::Failed, Verdict::Collected, Verdict::Buffered, Verdict::Streaming];

/// Where `verdict` stands in [`WORST_FIRST`]: the slot of a tally of verdicts.
pub fn worst_first_index(verdict: Verdict) -> usize {
    WORST_FIRST.iter().position(|&v| v == verdict).unwrap_or(0)
}

/// The most frequent verdict; a tie goes to the worse one (failed, collected, buffered, streaming), and
/// no verdict at all is `failed`.
pub fn most_frequent_verdict(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
    let mut counts = [0usize; 4];
    for v in verdicts {
        counts[worst_first_index(v)] += 1;
    }
    // The first of the largest counts, worst first: a strictly larger count only moves it.
    let most = (1..counts.len()).fold(0, |most, i| if counts[i] > counts[most] { i } else { most });
    if counts[most] == 0 { Verdict::Failed } else { WORST_FIRST[most] }
}

fn values(runs: &[&Report], f: impl Fn(&Report) -> Option<f64>) -> Vec<f64> {
    runs.iter().filter_map(|r| f(r)).collect()
}

/// The lower middle of the counts. Sorted as f64 (exact for any count) by the sort the statistics use,
/// so that the wasm carries no sort of counts of its own (issue 13's size budget).
fn median_usize(v: Vec<usize>) -> usize {
    let mut v: Vec<f64> = v.into_iter().map(|n| n as f64).collect();
    crate::sort::sort_f64(&mut v);
    v.get(v.len().saturating_sub(1) / 2).map_or(0, |&n| n as usize)
}

impl RunsSummary {
    /// Summarises `runs` (at least one is expected; none gives a `failed` summary with no values).
    pub fn of(runs: Vec<Report>) -> RunsSummary {
        let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
        for r in &runs {
            *verdicts.entry(r.verdict.as_str().to_string()).or_default() += 1;
        }
        let measured = super::measured_runs(runs.iter().collect());
        let verdict = most_frequent_verdict(measured.iter().map(|r| r.verdict));

        let stats = MetricSpreads {
            headers_ms: Spread::of(&values(&measured, |r| r.headers_ms)),
            ttfb_ms: Spread::of(&values(&measured, |r| r.ttfb_ms)),
            ttft_ms: Spread::of(&values(&measured, |r| r.ttft_ms)),
            tpot_ms: Spread::of(&values(&measured, |r| r.tpot_ms)),
            total_ms: Spread::of(&values(&measured, |r| r.total_ms)),
            output_tokens_per_s: Spread::of(&values(&measured, |r| r.output_tokens_per_s)),
        };
        let content_events = median_usize(measured.iter().map(|r| r.content_events).collect());
        let reads = median_usize(measured.iter().map(|r| r.reads).collect());

        let mut findings: Vec<Finding> = Vec::new();
        for run in &runs {
            for f in &run.findings {
                if findings.iter().any(|seen| seen.code == f.code) {
                    continue;
                }
                let seen_in = runs.iter().filter(|r| r.has_finding(f.code.clone())).count();
                let mut f = f.clone();
                if let serde_json::Value::Object(map) = &mut f.evidence {
                    map.insert("seen_in_runs".into(), seen_in.into());
                } else {
                    f.evidence = json_object!({ "seen_in_runs": seen_in });
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
            let with_cache: Vec<&Report> = runs.iter().filter(|r| r.cache.is_some()).collect();
            let warm = with_cache.get(1..).unwrap_or_default();
            let warm_stats: Vec<&CacheStats> = warm.iter().filter_map(|r| r.cache.as_ref()).collect();
            CacheOverRuns {
                runs: cached.len(),
                hit_tokens,
                miss_tokens,
                hit_ratio: ratio_over(&cached),
                run_hit_ratios: runs.iter().map(|r| r.cache.as_ref().and_then(|c| c.hit_ratio)).collect(),
                warm_hit_ratio: ratio_over(&warm_stats),
                warm_runs: warm.len(),
                cold_ttft_ms: with_cache.first().and_then(|r| r.ttft_ms),
                warm_ttft_ms: crate::stats::median(&warm.iter().filter_map(|r| r.ttft_ms).collect::<Vec<_>>()),
                source: cached.first().map(|c| c.source),
                warm_prompt_tokens_mean: crate::stats::mean(
                    &warm_stats.iter().map(|c| c.hit_tokens as f64 + c.miss_tokens as f64).collect::<Vec<_>>(),
                ),
            }
        });
        if let Some(c) = &cache {
            // A prompt shorter than the provider ever caches misses every time: that says nothing.
            let cacheable = match (c.source, c.warm_prompt_tokens_mean) {
                (Some(source), Some(tokens)) => tokens >= source.min_cacheable_prompt_tokens() as f64,
                _ => false,
            };
            if cacheable {
                findings.extend(low_cache_hit(c.warm_hit_ratio, c.warm_runs, c.cold_ttft_ms, c.warm_ttft_ms));
            }
        }
        let connection = ConnectionCost::of(&runs);

        RunsSummary {
            verdict,
            ttft_ms: stats.ttft_ms.map(|s| s.median),
            ttfb_ms: stats.ttfb_ms.map(|s| s.median),
            tpot_ms: stats.tpot_ms.map(|s| s.median),
            total_ms: stats.total_ms.map(|s| s.median),
            headers_ms: stats.headers_ms.map(|s| s.median),
            output_tokens_per_s: stats.output_tokens_per_s.map(|s| s.median),
            content_events,
            reads,
            findings,
            dialect: runs.first().map_or(Dialect::Unknown, |r| r.dialect),
            verdicts,
            stats,
            cache,
            connection,
            runs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::FindingCode;
    use crate::trace::{Trace, TraceEnd};

    /// A DeepSeek-style run with this prompt cache and first token.
    fn run(hit: u64, miss: u64, ttft_ms: f64) -> Report {
        let event = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";
        let mut reads: Vec<(f64, String)> = (0..5).map(|i| (ttft_ms + 20.0 * i as f64, event.to_string())).collect();
        reads.push((
            ttft_ms + 100.0,
            format!(
                "data: {{\"choices\":[],\"usage\":{{\"prompt_tokens\":{},\"completion_tokens\":5,\
                 \"prompt_cache_hit_tokens\":{hit},\"prompt_cache_miss_tokens\":{miss}}}}}\n\ndata: [DONE]\n\n",
                hit + miss
            ),
        ));
        Report::from_trace(&Trace::from_reads(200, "text/event-stream", 5.0, reads, TraceEnd::Complete { at_ms: ttft_ms + 101.0 }))
    }

    #[test]
    fn warm_runs_under_70_percent_give_low_cache_hit_with_cold_and_warm_ttft() {
        let s = RunsSummary::of(vec![run(0, 1000, 900.0), run(500, 500, 400.0), run(600, 400, 380.0)]);
        let c = s.cache.clone().unwrap();
        assert_eq!(c.run_hit_ratios, [Some(0.0), Some(0.5), Some(0.6)]);
        assert_eq!((c.warm_runs, c.warm_hit_ratio), (2, Some(0.55)));
        assert_eq!((c.cold_ttft_ms, c.warm_ttft_ms), (Some(900.0), Some(390.0)));
        let f = s.findings.iter().find(|f| f.code == FindingCode::LowCacheHit).expect("low_cache_hit");
        assert_eq!(f.evidence["warm_hit_ratio"], 0.55);
        assert!(f.title.contains("55%"), "{}", f.title);
    }

    #[test]
    fn a_warm_cache_at_70_percent_or_a_prompt_too_short_to_cache_is_fine() {
        let good = RunsSummary::of(vec![run(0, 1000, 900.0), run(700, 300, 400.0)]);
        assert!(!good.has_low_cache_hit());
        // 40 tokens: under DeepSeek's 64-token unit, nothing is ever cached.
        let short = RunsSummary::of(vec![run(0, 40, 300.0), run(0, 40, 300.0)]);
        assert!(!short.has_low_cache_hit());
        // One run has no warm run to judge.
        assert!(!RunsSummary::of(vec![run(0, 1000, 900.0)]).has_low_cache_hit());
    }

    #[test]
    fn the_most_frequent_verdict_wins_a_tie_goes_to_the_worse_and_none_is_failed() {
        use Verdict::*;
        assert_eq!(most_frequent_verdict([Streaming, Buffered, Streaming]), Streaming);
        assert_eq!(most_frequent_verdict([Streaming, Buffered]), Buffered);
        assert_eq!(most_frequent_verdict([Collected, Streaming, Failed, Streaming, Failed]), Failed);
        assert_eq!(most_frequent_verdict([Buffered, Collected]), Collected);
        assert_eq!(most_frequent_verdict([]), Failed);
    }

    #[test]
    fn a_run_the_user_cancelled_leaves_the_verdict_and_figures_to_the_others() {
        let event = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";
        let cancelled = Report::from_trace(&Trace::from_reads(
            200,
            "text/event-stream",
            5.0,
            [(700.0, event)],
            TraceEnd::Cancelled { at_ms: 720.0 },
        ));
        assert_eq!(cancelled.verdict, Verdict::Failed);
        let s = RunsSummary::of(vec![run(0, 1000, 300.0), cancelled.clone()]);
        assert_eq!(s.verdict, Verdict::Streaming, "a cancel does not make the side failed");
        assert_eq!((s.ttft_ms, s.total_ms, s.content_events), (Some(300.0), Some(400.0), 5));
        assert_eq!(s.stats.ttft_ms.map(|t| t.n), Some(1));
        assert_eq!(s.runs.len(), 2, "the cancelled run is still reported");
        assert_eq!(s.verdicts.get("failed"), Some(&1));
        assert!(s.findings.iter().any(|f| f.code == FindingCode::Cancelled));
        // Every run cancelled: nothing else measured, the side is failed with their figures.
        let all = RunsSummary::of(vec![cancelled.clone(), cancelled]);
        assert_eq!((all.verdict, all.ttft_ms), (Verdict::Failed, Some(700.0)));
    }

    impl RunsSummary {
        fn has_low_cache_hit(&self) -> bool {
            self.findings.iter().any(|f| f.code == FindingCode::LowCacheHit)
        }
    }
}
