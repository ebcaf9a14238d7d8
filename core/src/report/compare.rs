//! A/B comparison: the same request against two targets (two paths to one model, or two models), the
//! differences B − A, and one plain sentence that says what changed and what did not.

use serde::{Deserialize, Serialize};

use super::runs::RunsSummary;
use crate::i18n::keys::CompareKey as K;
use crate::i18n::{Lang, Said, Text};
use crate::text::{bytes as size, ms};
use crate::verdict::{buffered_signals, held_start, BufferedSignal, Verdict};

/// What differs between A and B, so the sentence speaks of the right thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    /// Two URLs for the same model (e.g. through a proxy and direct).
    Path,
    /// One base URL, two model ids.
    Model,
}

read_by_name!(Subject {
    Path = "path",
    Model = "model",
});

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
    sides.repeat(repeat.max(1))
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
    /// The plain-language summary (in English, or the language of [`Comparison::localize`]).
    pub summary: String,
    /// The summary as a catalogue text, to say it in another language; not serialised.
    #[serde(skip)]
    pub summary_words: Said,
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
        let (summary, summary_words) = Said::english(sentence_words(subject, &label_a, &label_b, &a, &b, &delta_ms));
        Comparison { subject, label_a, label_b, a, b, delta_ms, summary, summary_words }
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

fn delivery_words(side: &RunsSummary) -> Text {
    match side.verdict {
        Verdict::Streaming => Text::msg(K::Streams),
        Verdict::Buffered => match (held_start_ms(side), burst_shape(side)) {
            (Some(held_ms), _) => Text::msg(K::HeldStart).with("held", ms(held_ms)),
            (None, Some((bytes, gap_ms))) => Text::msg(K::BurstsOf).with("size", size(bytes)).with("gap", ms(gap_ms)),
            (None, None) => Text::msg(K::Bursts),
        },
        Verdict::Collected => Text::msg(K::Collected),
        Verdict::Failed => Text::msg(K::Fails),
    }
}

/// The median least wait of the start over the side's buffered runs, when a held start was the only
/// sign of buffering in each: their one gap between bursts is cut short by the answer's end, so a
/// "burst every N ms" would understate the hold.
fn held_start_ms(side: &RunsSummary) -> Option<f64> {
    let buffered: Vec<_> = side.runs.iter().filter(|r| r.verdict == Verdict::Buffered).collect();
    let held: Vec<f64> = buffered
        .iter()
        .filter(|r| buffered_signals(&r.metrics, &r.delivery, r.framing) == [BufferedSignal::HeldStart])
        .filter_map(|r| held_start(&r.metrics, &r.delivery).map(|h| h.held_ms))
        .collect();
    if held.len() == buffered.len() { crate::stats::median(&held) } else { None }
}

/// Median burst size (bytes) and typical gap over the side's buffered runs, when they had bursts.
fn burst_shape(side: &RunsSummary) -> Option<(f64, f64)> {
    let buffered = side.runs.iter().filter(|r| r.verdict == Verdict::Buffered);
    let mut bytes: Vec<f64> = Vec::new();
    for r in buffered.clone() {
        bytes.extend(r.delivery.bursts.iter().map(|b| b.bytes as f64));
    }
    let gaps: Vec<f64> = buffered.filter_map(|r| r.delivery.typical_gap_ms).collect();
    Some((crate::stats::median(&bytes)?, crate::stats::median(&gaps)?))
}

/// The one-sentence summary of a comparison in English, e.g. "Through B, the first token arrives 340 ms
/// later and the text comes in bursts (buffered); the model itself is unchanged (TPOT 20.1 ms vs 20.0 ms)":
/// B's figures before A's, as B is named before A.
pub fn sentence(subject: Subject, label_a: &str, label_b: &str, a: &RunsSummary, b: &RunsSummary, d: &Deltas) -> String {
    sentence_words(subject, label_a, label_b, a, b, d).render(Lang::En)
}

/// [`sentence`] as a catalogue text, to say in any language.
pub fn sentence_words(subject: Subject, label_a: &str, label_b: &str, a: &RunsSummary, b: &RunsSummary, d: &Deltas) -> Text {
    if a.verdict == Verdict::Failed || b.verdict == Verdict::Failed {
        return match (a.verdict == Verdict::Failed, b.verdict == Verdict::Failed) {
            (true, true) => Text::msg(K::BothFailed),
            (true, false) => Text::msg(K::SideFailed).with("side", label_a),
            _ => Text::msg(K::SideFailed).with("side", label_b),
        };
    }
    let lead = match subject {
        Subject::Path => Text::msg(K::LeadPath),
        Subject::Model => Text::msg(K::LeadModel),
    };
    let mut parts = Vec::new();
    match (d.ttft, a.ttft_ms) {
        (Some(delta), Some(a_ttft)) if delta.abs() <= ttft_noise_ms(a_ttft) => {
            parts.push(Text::msg(K::TtftSame).with("delta", ms(delta.abs().max(0.1))))
        }
        (Some(delta), _) if delta > 0.0 => parts.push(Text::msg(K::TtftLater).with("delta", ms(delta))),
        (Some(delta), _) => parts.push(Text::msg(K::TtftEarlier).with("delta", ms(-delta))),
        _ => {}
    }
    if a.verdict != b.verdict {
        parts.push(
            Text::msg(K::TextDiffers).with("b", delivery_words(b)).with("a_label", label_a).with("a", delivery_words(a)),
        );
    }
    let any_part = !parts.is_empty();
    let mut sentence = lead.with("b", label_b).with("a", label_a).then(Text::join(parts, Text::msg(K::And)));
    let held = |s: &RunsSummary| matches!(s.verdict, Verdict::Buffered | Verdict::Collected);
    if subject == Subject::Path && (held(a) || held(b)) {
        // Held text arrives late and together: its TPOT measures the holding layer, not the model.
        let which = if held(b) { label_b } else { label_a };
        sentence = sentence.then(Text::msg(K::HeldTpot).with("side", which));
    } else if let (Some(delta), Some(a_tpot), Some(b_tpot)) = (d.tpot, a.tpot_ms, b.tpot_ms) {
        let pace = Text::msg(K::Pace).with("a", ms(a_tpot)).with("b", ms(b_tpot));
        let same = delta.abs() <= tpot_noise_ms(a_tpot);
        let tail = match (subject, same) {
            (Subject::Path, true) => Text::msg(K::PathSame),
            (Subject::Model, true) => Text::msg(K::ModelSame),
            (_, false) if delta > 0.0 => Text::msg(K::TokenSlower).with("delta", ms(delta)),
            (_, false) => Text::msg(K::TokenFaster).with("delta", ms(-delta)),
        };
        if any_part {
            sentence = sentence.then(Text::msg(K::Semicolon));
        }
        sentence = sentence.then(tail.with("pace", pace));
    }
    if let Some(total) = d.total {
        let key = if total >= 0.0 { K::TotalLater } else { K::TotalSooner };
        sentence = sentence.then(Text::msg(key).with("b", label_b).with("delta", ms(total.abs())));
    }
    sentence.then(Text::msg(K::End))
}
