//! Words the report's sentences and summaries share: a verdict said in a sentence (its code, `buffered`,
//! in English; the word for it in Chinese).

use crate::i18n::keys::ReportKey;
use crate::i18n::Text;
use crate::verdict::Verdict;

/// The verdict as a word of a sentence; its English rendering is the verdict's code ([`Verdict::as_str`]).
pub fn verdict_word(verdict: Verdict) -> Text {
    Text::msg(match verdict {
        Verdict::Streaming => ReportKey::VerdictStreaming,
        Verdict::Buffered => ReportKey::VerdictBuffered,
        Verdict::Collected => ReportKey::VerdictCollected,
        Verdict::Failed => ReportKey::VerdictFailed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn a_verdict_word_is_its_code_in_english() {
        for v in Verdict::ALL {
            assert_eq!(verdict_word(v).render(Lang::En), v.as_str());
            assert_ne!(verdict_word(v).render(Lang::ZhCn), v.as_str());
        }
    }
}
