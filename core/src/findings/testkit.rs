//! Test helpers for calling one findings rule alone: small hand-built traces and the [`RunFacts`] the
//! rules see, worked out the way a report works them out (analyzer, metrics, delivery, verdict).

use super::{Finding, RunFacts};
use crate::analysis::{analyze, Analysis};
use crate::i18n::Lang;
use crate::measure::{DeliveryStats, Metrics};
use crate::trace::{Trace, TraceEnd};
use crate::verdict::{classify_with, Verdict};

/// Everything a [`RunFacts`] borrows, owned.
pub struct Facts {
    pub trace: Trace,
    pub analysis: Analysis,
    pub metrics: Metrics,
    pub delivery: DeliveryStats,
    pub verdict: Verdict,
}

impl Facts {
    /// The facts of a trace, analysed again from its reads.
    pub fn of(trace: Trace) -> Facts {
        let analysis = analyze(&trace);
        Facts::with_analysis(trace, analysis)
    }

    /// The facts of a trace with the analysis the page made live.
    pub fn with_analysis(trace: Trace, analysis: Analysis) -> Facts {
        let metrics = Metrics::derive(&trace, &analysis);
        let delivery = DeliveryStats::derive(&trace, &analysis);
        let verdict = classify_with(&trace, &analysis, &metrics, &delivery);
        Facts { trace, analysis, metrics, delivery, verdict }
    }

    /// What a rule is called with.
    pub fn run(&self) -> RunFacts<'_> {
        RunFacts::new(&self.trace, &self.analysis, &self.metrics, &self.delivery, self.verdict)
    }
}

/// One OpenAI chat chunk carrying `text` as content.
pub fn content(text: &str) -> String {
    format!("data: {{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}\n\n")
}

/// The end of an OpenAI chat stream: a `stop` chunk and `[DONE]`.
pub fn done() -> String {
    "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n".into()
}

/// A complete 200 response with this Content-Type, headers at 40 ms, ending 1 ms after its last read.
pub fn response<B: Into<Vec<u8>>>(content_type: &str, reads: Vec<(f64, B)>) -> Trace {
    let end = reads.last().map_or(200.0, |r| r.0 + 1.0);
    Trace::from_reads(200, content_type, 40.0, reads, TraceEnd::Complete { at_ms: end })
}

/// A complete `text/event-stream` response.
pub fn sse<B: Into<Vec<u8>>>(reads: Vec<(f64, B)>) -> Trace {
    response("text/event-stream", reads)
}

/// A `text/event-stream` response with these reads that ended this way.
pub fn sse_ending(reads: Vec<(f64, String)>, end: TraceEnd) -> Trace {
    Trace::from_reads(200, "text/event-stream", 40.0, reads, end)
}

/// A healthy OpenAI chat stream: 10 tokens 20 ms apart from 100 ms, then the end marker.
pub fn healthy() -> Trace {
    let mut reads: Vec<(f64, String)> = (0..10).map(|i| (100.0 + 20.0 * i as f64, content("t"))).collect();
    reads.push((300.0, done()));
    sse(reads)
}

/// `f`, checked to be said from the catalogue in every word and in Chinese too: the Chinese title, detail
/// and fix differ from the English ones, and the code, severity, evidence and suggestion stay the same.
pub fn said_in_both(f: Finding) -> Finding {
    assert!(f.is_worded(), "{:?} has words outside the catalogue: {} / {}", f.code, f.title, f.detail);
    let zh = f.localize(Lang::ZhCn);
    for (en, zh) in [(&f.title, &zh.title), (&f.detail, &zh.detail)] {
        assert_ne!(en, zh, "{:?} not said in Chinese", f.code);
    }
    assert_eq!(f.fix.is_some(), zh.fix.is_some());
    assert!(f.fix.is_none() || f.fix != zh.fix, "{:?}: its fix is not said in Chinese", f.code);
    assert_eq!(
        (&zh.code, zh.severity, &zh.evidence, &zh.suggestion),
        (&f.code, f.severity, &f.evidence, &f.suggestion)
    );
    assert_eq!(f.localize(Lang::En), f, "{:?}: said again in English, it reads otherwise", f.code);
    f
}

/// [`said_in_both`] for a finding held by reference.
pub fn assert_worded(f: &Finding) {
    said_in_both(f.clone());
}
