//! Reports said in another language: `localize(lang)` re-renders every finding ([`Finding::localize`]) and
//! every sentence (the compare, sweep and hop-ladder summaries, the connection-cost note) of a report in
//! `lang`, from the catalogue texts each kept beside its English words; every code, number and field stays
//! as it is. A report read back from JSON kept no texts: its words stay as they were written.

use super::campaign::CampaignReport;
use super::compare::Comparison;
use super::connection_cost::ConnectionCost;
use super::hops::HopLadder;
use super::runs::RunsSummary;
use super::sweep::SweepReport;
use super::Report;
use crate::findings::Finding;
use crate::i18n::Lang;

/// Every finding of `findings` said in `lang`.
fn localize_all(findings: &mut [Finding], lang: Lang) {
    for f in findings {
        *f = f.localize(lang);
    }
}

impl Report {
    /// The report with its findings said in `lang`.
    pub fn localize(&self, lang: Lang) -> Report {
        let mut out = self.clone();
        localize_all(&mut out.findings, lang);
        out
    }
}

impl ConnectionCost {
    /// The connection cost with its `unavailable` and `preflight_note` notes said in `lang`.
    pub fn localize(&self, lang: Lang) -> ConnectionCost {
        let mut out = self.clone();
        if let Some(note) = &mut out.unavailable {
            self.unavailable_words.resay(note, lang);
        }
        if let Some(note) = &mut out.preflight_note {
            self.preflight_words.resay(note, lang);
        }
        out
    }
}

impl RunsSummary {
    /// The summary with its findings, its connection note and every run said in `lang`.
    pub fn localize(&self, lang: Lang) -> RunsSummary {
        RunsSummary {
            findings: self.findings.iter().map(|f| f.localize(lang)).collect(),
            connection: self.connection.as_ref().map(|c| c.localize(lang)),
            runs: self.runs.iter().map(|r| r.localize(lang)).collect(),
            verdicts: self.verdicts.clone(),
            stats: self.stats.clone(),
            cache: self.cache.clone(),
            ..*self
        }
    }
}

impl Comparison {
    /// The comparison with its sentence and both sides said in `lang`.
    pub fn localize(&self, lang: Lang) -> Comparison {
        let mut summary = self.summary.clone();
        self.summary_words.resay(&mut summary, lang);
        Comparison {
            subject: self.subject,
            label_a: self.label_a.clone(),
            label_b: self.label_b.clone(),
            a: self.a.localize(lang),
            b: self.b.localize(lang),
            delta_ms: self.delta_ms,
            summary,
            summary_words: self.summary_words.clone(),
        }
    }
}

impl SweepReport {
    /// The sweep with its sentence and findings said in `lang`.
    pub fn localize(&self, lang: Lang) -> SweepReport {
        let mut out = self.clone();
        self.summary_words.resay(&mut out.summary, lang);
        localize_all(&mut out.findings, lang);
        out
    }
}

impl HopLadder {
    /// The ladder with its sentence said in `lang` (its hops hold only codes and figures).
    pub fn localize(&self, lang: Lang) -> HopLadder {
        let mut out = self.clone();
        self.summary_words.resay(&mut out.summary, lang);
        out
    }
}

impl CampaignReport {
    /// The campaign's report with every finding and sentence said in `lang`.
    pub fn localize(&self, lang: Lang) -> CampaignReport {
        match self {
            CampaignReport::Compare(c) => CampaignReport::Compare(Box::new(c.localize(lang))),
            CampaignReport::Sweep(s) => CampaignReport::Sweep(Box::new(s.localize(lang))),
            CampaignReport::Hops(h) => CampaignReport::Hops(Box::new(h.localize(lang))),
            CampaignReport::Repeat(r) => CampaignReport::Repeat(Box::new(r.localize(lang))),
            CampaignReport::Single(r) => CampaignReport::Single(Box::new(r.localize(lang))),
        }
    }
}

#[cfg(test)]
mod tests;
