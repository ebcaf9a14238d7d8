//! English words of the A/B comparison's sentence.

use crate::i18n::keys::CompareKey;

/// The English template of `key`.
pub fn template(key: CompareKey) -> &'static str {
    match key {
        CompareKey::BothFailed => "Both sides failed, so timing cannot be compared; see the findings.",
        CompareKey::SideFailed => "{side} failed, so timing cannot be compared; see the findings.",
        CompareKey::LeadPath => "Through {b} (vs {a}), ",
        CompareKey::LeadModel => "{b} (vs {a}): ",
        CompareKey::TtftSame => "the first token arrives at the same time (within {delta})",
        CompareKey::TtftLater => "the first token arrives {delta} later",
        CompareKey::TtftEarlier => "the first token arrives {delta} earlier",
        CompareKey::And => " and ",
        CompareKey::TextDiffers => "the text {b} where {a_label}'s {a}",
        CompareKey::Streams => "streams",
        CompareKey::BurstsOf => "comes in bursts of about {size} every {gap} (buffered)",
        CompareKey::Bursts => "comes in bursts (buffered)",
        CompareKey::HeldStart => "starts only after a hold of at least {held} (buffered)",
        CompareKey::Collected => "arrives all at once at the end (collected)",
        CompareKey::Fails => "fails",
        CompareKey::HeldTpot => "; TPOT through {side} reflects the holding, not the model",
        CompareKey::Semicolon => "; ",
        CompareKey::Pace => "TPOT {b} vs {a}",
        CompareKey::PathSame => "the model itself is unchanged ({pace})",
        CompareKey::ModelSame => "both models produce tokens at the same pace ({pace})",
        CompareKey::TokenSlower => "each token takes {delta} longer ({pace})",
        CompareKey::TokenFaster => "each token takes {delta} less ({pace})",
        CompareKey::TotalLater => ". In all, {b} finishes {delta} later",
        CompareKey::TotalSooner => ". In all, {b} finishes {delta} sooner",
        CompareKey::End => ".",
    }
}
