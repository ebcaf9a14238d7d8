//! A/B comparison: the same request against two targets (two paths to one model, or two models), the
//! differences B − A, and one plain sentence that says what changed and what did not.

use serde::{Deserialize, Serialize};

use super::runs::RunsSummary;
use crate::text::{bytes as size, ms};
use crate::verdict::Verdict;

/// What differs between A and B, so the sentence speaks of the right thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    /// Two URLs for the same model (e.g. through a proxy and direct).
    Path,
    /// One base URL, two model ids.
    Model,
}

/// Which side a run belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Side {
    /// The first target.
    #[default]
    A,
    /// The second target.
    B,
}

/// The order of runs for `repeat` runs per side: interleaved A, B, A, B … so drift hits both sides alike.
pub fn schedule(repeat: usize, compare: bool) -> Vec<Side> {
    let sides: &[Side] = if compare { &[Side::A, Side::B] } else { &[Side::A] };
    (0..repeat.max(1)).flat_map(|_| sides.iter().copied()).collect()
}

/// Differences of the medians, B − A (positive: B is slower).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Deltas {
    /// TTFT difference.
    pub ttft: Option<f64>,
    /// TPOT difference.
    pub tpot: Option<f64>,
    /// Total-time difference.
    pub total: Option<f64>,
    /// Response-headers difference.
    #[serde(default)]
    pub headers: Option<f64>,
    /// TTFB difference.
    #[serde(default)]
    pub ttfb: Option<f64>,
    /// Decode-rate difference, tokens per second (positive: B decodes faster; not ms).
    #[serde(default)]
    pub output_tokens_per_s: Option<f64>,
}

/// Two summarised sides and what differs between them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// What differs between the sides.
    pub subject: Subject,
    /// Short name of side A (a host, a path or a model id).
    pub label_a: String,
    /// Short name of side B.
    pub label_b: String,
    /// Side A.
    pub a: RunsSummary,
    /// Side B.
    pub b: RunsSummary,
    /// B − A of the medians.
    pub delta_ms: Deltas,
    /// The plain-language summary.
    pub summary: String,
}

impl Comparison {
    /// Compares two sides.
    pub fn new(subject: Subject, label_a: String, label_b: String, a: RunsSummary, b: RunsSummary) -> Comparison {
        let diff = |x: Option<f64>, y: Option<f64>| x.zip(y).map(|(x, y)| y - x);
        let delta_ms = Deltas {
            ttft: diff(a.ttft_ms, b.ttft_ms),
            tpot: diff(a.tpot_ms, b.tpot_ms),
            total: diff(a.total_ms, b.total_ms),
            headers: diff(a.headers_ms, b.headers_ms),
            ttfb: diff(a.ttfb_ms, b.ttfb_ms),
            output_tokens_per_s: diff(a.output_tokens_per_s, b.output_tokens_per_s),
        };
        let summary = sentence(subject, &label_a, &label_b, &a, &b, &delta_ms);
        Comparison { subject, label_a, label_b, a, b, delta_ms, summary }
    }
}

/// A TTFT difference this small is noise: 15 ms or 10% of A's TTFT, whichever is larger.
fn ttft_noise_ms(a_ms: f64) -> f64 {
    (a_ms * 0.10).max(15.0)
}

/// A TPOT difference this small is noise: 2 ms or 10% of A's TPOT, whichever is larger.
fn tpot_noise_ms(a_ms: f64) -> f64 {
    (a_ms * 0.10).max(2.0)
}

fn delivery_words(side: &RunsSummary) -> String {
    match side.verdict {
        Verdict::Streaming => "streams".into(),
        Verdict::Buffered => match burst_shape(side) {
            Some((bytes, gap_ms)) => format!("comes in bursts of about {} every {} (buffered)", size(bytes), ms(gap_ms)),
            None => "comes in bursts (buffered)".into(),
        },
        Verdict::Collected => "arrives all at once at the end (collected)".into(),
        Verdict::Failed => "fails".into(),
    }
}

/// Median burst size (bytes) and typical gap over the side's buffered runs, when they had bursts.
fn burst_shape(side: &RunsSummary) -> Option<(f64, f64)> {
    let buffered = side.runs.iter().filter(|r| r.verdict == Verdict::Buffered);
    let bytes: Vec<f64> = buffered.clone().flat_map(|r| r.delivery.bursts.iter().map(|b| b.bytes as f64)).collect();
    let gaps: Vec<f64> = buffered.filter_map(|r| r.delivery.typical_gap_ms).collect();
    Some((crate::stats::median(&bytes)?, crate::stats::median(&gaps)?))
}

/// The one-sentence summary of a comparison, e.g. "Through B, the first token arrives 340 ms later and the
/// text comes in bursts (buffered); the model itself is unchanged (TPOT 20.0 ms vs 20.1 ms)."
pub fn sentence(subject: Subject, label_a: &str, label_b: &str, a: &RunsSummary, b: &RunsSummary, d: &Deltas) -> String {
    if a.verdict == Verdict::Failed || b.verdict == Verdict::Failed {
        let which = match (a.verdict == Verdict::Failed, b.verdict == Verdict::Failed) {
            (true, true) => "Both sides failed".to_string(),
            (true, false) => format!("{label_a} failed"),
            _ => format!("{label_b} failed"),
        };
        return format!("{which}, so timing cannot be compared; see the findings.");
    }
    let lead = match subject {
        Subject::Path => format!("Through {label_b} (vs {label_a}), "),
        Subject::Model => format!("{label_b} (vs {label_a}): "),
    };
    let mut parts = Vec::new();
    match (d.ttft, a.ttft_ms) {
        (Some(delta), Some(a_ttft)) if delta.abs() <= ttft_noise_ms(a_ttft) => {
            parts.push(format!("the first token arrives at the same time (within {})", ms(delta.abs().max(0.1))))
        }
        (Some(delta), _) if delta > 0.0 => parts.push(format!("the first token arrives {} later", ms(delta))),
        (Some(delta), _) => parts.push(format!("the first token arrives {} earlier", ms(-delta))),
        _ => {}
    }
    if a.verdict != b.verdict {
        parts.push(format!("the text {} where {label_a}'s {}", delivery_words(b), delivery_words(a)));
    }
    let mut sentence = lead + &parts.join(" and ");
    let held = |s: &RunsSummary| matches!(s.verdict, Verdict::Buffered | Verdict::Collected);
    if subject == Subject::Path && (held(a) || held(b)) {
        // Held text arrives late and together: its TPOT measures the holding layer, not the model.
        let which = if held(b) { label_b } else { label_a };
        sentence.push_str(&format!("; TPOT through {which} reflects the holding, not the model"));
    } else if let (Some(delta), Some(a_tpot), Some(b_tpot)) = (d.tpot, a.tpot_ms, b.tpot_ms) {
        let pace = format!("TPOT {} vs {}", ms(a_tpot), ms(b_tpot));
        let same = delta.abs() <= tpot_noise_ms(a_tpot);
        let tail = match (subject, same) {
            (Subject::Path, true) => format!("the model itself is unchanged ({pace})"),
            (Subject::Model, true) => format!("both models produce tokens at the same pace ({pace})"),
            (_, false) if delta > 0.0 => format!("each token takes {} longer ({pace})", ms(delta)),
            (_, false) => format!("each token takes {} less ({pace})", ms(-delta)),
        };
        sentence.push_str(if parts.is_empty() { "" } else { "; " });
        sentence.push_str(&tail);
    }
    if let Some(total) = d.total {
        sentence.push_str(&format!(". In all, {label_b} finishes {} {}", ms(total.abs()), if total >= 0.0 { "later" } else { "sooner" }));
    }
    sentence.push('.');
    sentence
}
