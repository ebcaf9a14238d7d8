//! Whether a campaign's runs ended alike: the verdict card shows one run (the last), so when the others
//! ended in another verdict it says how many ended in each, per side of a comparison.

use crate::i18n::keys::{UiKey, UiPanelsKey};
use crate::i18n::Text;
use crate::report::compare::Side;
use crate::report::runs::{worst_first_index, WORST_FIRST};
use crate::report::words::verdict_word;
use crate::verdict::Verdict;

/// How many runs ended in each verdict, in [`WORST_FIRST`]'s order.
type Tally = [usize; 4];

/// `buffered ×2, streaming ×1`: the verdicts that some run ended in, worst first.
fn counts(tally: &Tally) -> Text {
    let said = WORST_FIRST.iter().zip(tally).filter(|(_, &n)| n > 0).map(|(&v, &n)| {
        Text::msg(UiPanelsKey::VerdictCount).with("verdict", verdict_word(v)).count("n", n)
    });
    Text::join(said, Text::msg(UiPanelsKey::ListSep))
}

/// What the verdict card adds when the runs of a campaign did not all end in the same verdict: "Not every
/// run ended alike: side A streaming ×2; side B buffered ×2." (per side when `by_side` and both sides
/// have runs, else over all runs). `None` when every run ended alike (the card's verdict is then every
/// run's) or there is at most one run.
pub fn runs_disagree(runs: impl IntoIterator<Item = (Side, Verdict)>, by_side: bool) -> Option<Text> {
    let mut sides: [Tally; 2] = [[0; 4]; 2];
    for (side, verdict) in runs {
        sides[side as usize][worst_first_index(verdict)] += 1;
    }
    let all: Tally = std::array::from_fn(|i| sides[0][i] + sides[1][i]);
    if all.iter().filter(|&&n| n > 0).count() < 2 {
        return None;
    }
    let has_runs = |t: &Tally| t.iter().any(|&n| n > 0);
    Some(if by_side && has_runs(&sides[0]) && has_runs(&sides[1]) {
        Text::msg(UiKey::RunsDisagreeSides).with("a", counts(&sides[0])).with("b", counts(&sides[1]))
    } else {
        Text::msg(UiKey::RunsDisagree).with("counts", counts(&all))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use Verdict::*;

    fn said(runs: &[(Side, Verdict)], by_side: bool, lang: Lang) -> Option<String> {
        runs_disagree(runs.iter().copied(), by_side).map(|t| t.render(lang))
    }

    #[test]
    fn runs_that_ended_alike_add_nothing() {
        assert_eq!(said(&[], true, Lang::En), None);
        assert_eq!(said(&[(Side::A, Buffered)], false, Lang::En), None);
        assert_eq!(said(&[(Side::A, Streaming), (Side::B, Streaming), (Side::A, Streaming)], true, Lang::En), None);
    }

    #[test]
    fn a_comparison_says_each_side_worst_first() {
        let runs = [(Side::A, Streaming), (Side::B, Buffered), (Side::A, Streaming), (Side::B, Streaming)];
        assert_eq!(
            said(&runs, true, Lang::En).as_deref(),
            Some("Not every run ended alike: side A streaming ×2; side B buffered ×1, streaming ×1.")
        );
        assert_eq!(
            said(&runs, true, Lang::ZhCn).as_deref(),
            Some("各次运行的结论不一致：A 侧 流式 ×2；B 侧 缓冲 ×1、流式 ×1。")
        );
    }

    #[test]
    fn repeats_sweeps_and_a_comparison_with_one_side_so_far_count_every_run() {
        let runs = [(Side::A, Streaming), (Side::A, Failed), (Side::A, Streaming)];
        let expected = Some("Not every run ended alike: failed ×1, streaming ×2.");
        assert_eq!(said(&runs, false, Lang::En).as_deref(), expected);
        assert_eq!(said(&runs, true, Lang::En).as_deref(), expected, "side B has no run yet");
    }
}
