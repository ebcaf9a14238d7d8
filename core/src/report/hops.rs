//! The hop ladder: the same request sent to each layer of the path in turn (model server, gateway,
//! reverse proxy, CDN; `hops=URL1,URL2,...`), interleaved and repeated like A/B, one summary per hop, and
//! the first hop where the stream changes named in a sentence ("buffering starts between the gateway
//! and the CDN").
//!
//! A hop is **bad** when its verdict differs from the hop before it, or when its TTFT p50 rises clearly
//! above the hop before it: by more than [`HOP_NOISE_SIGMAS`] robust standard deviations of the earlier
//! hop's TTFTs, [`HOP_MIN_RISE_SHARE`] of its p50 and [`HOP_MIN_RISE_MS`] (a CDN or gateway adds a
//! round trip or two; that is not a change worth naming). The first hop itself is bad when it does not
//! stream: the cause is there or behind it.

use serde::{Deserialize, Serialize};

use super::campaign::url_label;
use super::runs::RunsSummary;
use super::words::verdict_word;
use super::Report;
pub use crate::config::page_config::MAX_HOPS;
use crate::findings::FindingCode;
use crate::i18n::keys::HopsKey as K;
use crate::i18n::{Said, Text};
use crate::stats::{median, robust_sigma};
use crate::text::ms;
use crate::verdict::Verdict;

/// Robust standard deviations of the earlier hop's TTFT a rise must pass.
pub const HOP_NOISE_SIGMAS: f64 = 3.0;
/// The smallest TTFT rise that counts, as a share of the earlier hop's p50.
pub const HOP_MIN_RISE_SHARE: f64 = 0.20;
/// The smallest TTFT rise that counts, ms.
pub const HOP_MIN_RISE_MS: f64 = 50.0;

/// What a ladder runs: the hops' URLs (credentials redacted) and their names, in path order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HopsSetup {
    /// Each hop's request URL, as shown (credentials redacted).
    pub urls: Vec<String>,
    /// Each hop's name (given, or the URL's host and path).
    pub labels: Vec<String>,
}

/// One hop of the ladder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HopSummary {
    /// Position in the ladder, from 0.
    pub index: usize,
    /// The request URL (credentials redacted).
    pub url: String,
    /// The hop's name.
    pub label: String,
    /// The most frequent verdict over the hop's runs.
    pub verdict: Verdict,
    /// TTFT median.
    pub ttft_ms: Option<f64>,
    /// TPOT median.
    pub tpot_ms: Option<f64>,
    /// Total median.
    pub total_ms: Option<f64>,
    /// Median over runs of the mean content events per read (1 when nothing merges them).
    pub events_per_read_mean: Option<f64>,
    /// Every finding code seen in any of the hop's runs, once.
    pub findings: Vec<FindingCode>,
    /// Runs measured.
    pub runs: usize,
    /// Every run's TTFT, in the order they ran (for the rise test and the table).
    pub ttfts_ms: Vec<f64>,
}

/// The automation contract's report of a hop ladder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HopLadder {
    /// The last hop's verdict: what users at the end of the path get.
    pub verdict: Verdict,
    /// One summary per hop, in path order.
    pub hops: Vec<HopSummary>,
    /// The first hop where the verdict or TTFT changes (or the first hop, when it does not stream), or
    /// `null`.
    pub first_bad_hop: Option<usize>,
    /// That in one sentence (in English, or the language of [`HopLadder::localize`]).
    pub summary: String,
    /// The summary as a catalogue text, to say it in another language; not serialised.
    #[serde(skip)]
    pub summary_words: Said,
}

impl HopLadder {
    /// Summarises `runs`, each tagged with its hop index, in the order they ran.
    pub fn of(runs: &[(usize, Report)], setup: &HopsSetup) -> HopLadder {
        let hops: Vec<HopSummary> = setup
            .urls
            .iter()
            .enumerate()
            .map(|(index, url)| {
                let reports: Vec<Report> = runs.iter().filter(|(h, _)| *h == index).map(|(_, r)| r.clone()).collect();
                summarise(index, url, setup.labels.get(index).cloned().unwrap_or_else(|| url_label(url)), reports)
            })
            .collect();
        let first_bad_hop = first_bad_hop(&hops);
        let (summary, summary_words) = Said::english(sentence(&hops, first_bad_hop));
        let verdict = hops.last().map_or(Verdict::Failed, |h| h.verdict);
        HopLadder { verdict, hops, first_bad_hop, summary, summary_words }
    }

    /// Whether any hop failed (the page then says `data-state="error"`).
    pub fn failed(&self) -> bool {
        self.hops.iter().any(|h| h.verdict == Verdict::Failed)
    }
}

fn summarise(index: usize, url: &str, label: String, reports: Vec<Report>) -> HopSummary {
    let per_read: Vec<f64> = reports.iter().filter_map(|r| r.events_per_read_mean).collect();
    let ttfts_ms: Vec<f64> = reports.iter().filter_map(|r| r.ttft_ms).collect();
    let runs = reports.len();
    let summary = RunsSummary::of(reports);
    HopSummary {
        index,
        url: url.to_string(),
        label,
        verdict: summary.verdict,
        ttft_ms: summary.ttft_ms,
        tpot_ms: summary.tpot_ms,
        total_ms: summary.total_ms,
        events_per_read_mean: median(&per_read),
        findings: summary.findings.iter().map(|f| f.code.clone()).collect(),
        runs,
        ttfts_ms,
    }
}

/// Whether `later`'s TTFT rises clearly above `earlier`'s (see the module doc).
fn ttft_risen(earlier: &HopSummary, later: &HopSummary) -> bool {
    let (Some(before), Some(after)) = (median(&earlier.ttfts_ms), median(&later.ttfts_ms)) else { return false };
    let sigma = robust_sigma(&earlier.ttfts_ms).unwrap_or(0.0);
    let threshold = (HOP_NOISE_SIGMAS * sigma).max(HOP_MIN_RISE_SHARE * before).max(HOP_MIN_RISE_MS);
    after - before > threshold
}

/// The first hop where the stream changes (see the module doc).
pub fn first_bad_hop(hops: &[HopSummary]) -> Option<usize> {
    let first = hops.first()?;
    if first.verdict != Verdict::Streaming {
        return Some(0);
    }
    hops.windows(2).find(|w| w[1].verdict != w[0].verdict || ttft_risen(&w[0], &w[1])).map(|w| w[1].index)
}

/// What a verdict starts as, for "… starts between A and B".
fn change_words(verdict: Verdict) -> Text {
    Text::msg(match verdict {
        Verdict::Streaming => K::ChangeStreaming,
        Verdict::Buffered => K::ChangeBuffering,
        Verdict::Collected => K::ChangeCollecting,
        Verdict::Failed => K::ChangeFailure,
    })
}

/// The ladder in one sentence.
pub fn sentence(hops: &[HopSummary], first_bad: Option<usize>) -> Text {
    let ttft = |h: &HopSummary| h.ttft_ms.map_or_else(|| Text::msg(K::NoTtft), |v| Text::from(ms(v)));
    let Some(bad) = first_bad.and_then(|i| hops.get(i)) else {
        return match (hops.first(), hops.last()) {
            (Some(first), Some(last)) => Text::msg(K::Same)
                .with("verdict", verdict_word(first.verdict))
                .with("first", &first.label)
                .with("last", &last.label)
                .with("first_ttft", ttft(first))
                .with("last_ttft", ttft(last)),
            _ => Text::msg(K::NoHop),
        };
    };
    if bad.index == 0 {
        return Text::msg(K::FirstHop).with("verdict", verdict_word(bad.verdict)).with("label", &bad.label).with("ttft", ttft(bad));
    }
    let before = &hops[bad.index - 1];
    if bad.verdict != before.verdict {
        Text::msg(K::ChangeStarts)
            .with("change", change_words(bad.verdict))
            .with("before", &before.label)
            .with("bad", &bad.label)
            .with("before_verdict", verdict_word(before.verdict))
            .with("before_ttft", ttft(before))
            .with("bad_verdict", verdict_word(bad.verdict))
            .with("bad_ttft", ttft(bad))
    } else {
        let rise = bad.ttft_ms.zip(before.ttft_ms).map_or(f64::NAN, |(a, b)| a - b);
        Text::msg(K::TtftGrows)
            .with("rise", ms(rise))
            .with("before", &before.label)
            .with("bad", &bad.label)
            .with("before_ttft", ttft(before))
            .with("bad_ttft", ttft(bad))
            .with("verdict", verdict_word(bad.verdict))
    }
}

/// Names for the hops' URLs: each URL's host and path, then the URL without its scheme when two are
/// alike, then `hop 1`, `hop 2` … when still alike.
pub fn hop_labels(urls: &[String]) -> Vec<String> {
    let unique = |labels: &Vec<String>| {
        let mut sorted = labels.clone();
        crate::sort::sort(&mut sorted);
        sorted.dedup();
        sorted.len() == labels.len()
    };
    let labels: Vec<String> = urls.iter().map(|u| url_label(u)).collect();
    if unique(&labels) {
        return labels;
    }
    let labels: Vec<String> = urls.iter().map(|u| u.split_once("://").map_or(u.as_str(), |(_, r)| r).to_string()).collect();
    if unique(&labels) {
        return labels;
    }
    (1..=urls.len()).map(|i| format!("hop {i}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Trace, TraceEnd};

    fn streamed(ttft: f64) -> Report {
        let event = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";
        let reads: Vec<(f64, String)> = (0..20).map(|i| (ttft + 40.0 * i as f64, event.to_string())).collect();
        Report::from_trace(&Trace::from_reads(200, "text/event-stream", 3.0, reads, TraceEnd::Complete { at_ms: ttft + 800.0 }))
    }

    /// nginx buffering: everything in 4 KiB-ish bursts of 5 events every 200 ms.
    fn buffered(ttft: f64) -> Report {
        let event = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";
        let reads: Vec<(f64, String)> = (0..4).map(|i| (ttft + 200.0 * i as f64, event.repeat(5))).collect();
        Report::from_trace(&Trace::from_reads(200, "text/event-stream", 3.0, reads, TraceEnd::Complete { at_ms: ttft + 800.0 }))
    }

    fn setup(n: usize) -> HopsSetup {
        let urls: Vec<String> = (0..n).map(|i| format!("http://127.0.0.1:{}/v1/chat/completions", 8000 + i)).collect();
        HopsSetup { labels: vec!["model server".into(), "gateway".into(), "CDN".into()][..n].to_vec(), urls }
    }

    /// Three rounds, interleaved: hop 0, 1, 2, hop 0, 1, 2, …
    fn ladder(make: [fn(f64) -> Report; 3]) -> Vec<(usize, Report)> {
        (0..3).flat_map(|round| (0..3).map(move |hop| (hop, make[hop](300.0 + round as f64)))).collect()
    }

    #[test]
    fn buffering_at_the_third_hop_is_named() {
        let ladder = HopLadder::of(&ladder([streamed, streamed, buffered]), &setup(3));
        assert_eq!(ladder.first_bad_hop, Some(2));
        assert_eq!(ladder.verdict, Verdict::Buffered);
        assert!(ladder.summary.starts_with("Buffering starts between gateway and CDN"), "{}", ladder.summary);
        assert_eq!(ladder.hops[2].runs, 3);
        assert!(ladder.hops[2].events_per_read_mean.unwrap() >= 4.0);
        assert_eq!(ladder.hops[0].events_per_read_mean, Some(1.0));
    }

    #[test]
    fn a_clear_ttft_rise_is_named_without_a_verdict_change() {
        let slow: fn(f64) -> Report = |t| streamed(t + 600.0);
        let ladder = HopLadder::of(&ladder([streamed, slow, slow]), &setup(3));
        assert_eq!(ladder.first_bad_hop, Some(1));
        assert!(ladder.summary.starts_with("TTFT grows by 600 ms between model server and gateway"), "{}", ladder.summary);
    }

    #[test]
    fn a_round_trip_more_is_not_a_change() {
        let plus_rtt: fn(f64) -> Report = |t| streamed(t + 30.0);
        let ladder = HopLadder::of(&ladder([streamed, streamed, plus_rtt]), &setup(3));
        assert_eq!(ladder.first_bad_hop, None);
        assert!(ladder.summary.starts_with("The stream is the same at every hop: streaming"), "{}", ladder.summary);
    }

    #[test]
    fn a_first_hop_that_buffers_is_the_bad_one() {
        let ladder = HopLadder::of(&ladder([buffered, buffered, buffered]), &setup(3));
        assert_eq!(ladder.first_bad_hop, Some(0));
        assert!(ladder.summary.contains("already buffered at the first hop (model server"), "{}", ladder.summary);
    }

    #[test]
    fn labels_tell_hops_apart() {
        let urls = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(hop_labels(&urls(&["http://a:1/v1/x", "http://b:2/v1/x"])), ["a:1/v1/x", "b:2/v1/x"]);
        assert_eq!(hop_labels(&urls(&["http://a/x?p=1", "http://a/x?p=2"])), ["a/x?p=1", "a/x?p=2"]);
        assert_eq!(hop_labels(&urls(&["http://a/x", "https://a/x", "http://a/x"])), ["hop 1", "hop 2", "hop 3"]);
    }
}
