//! streamscope-core: the pure-Rust heart of streamscope, with no browser or UI code.
//!
//! The net layer records a [`Trace`] (raw facts: response headers, every read with its time and bytes,
//! how the run ended); everything else is derived here and testable natively, in layers that follow the
//! data, each depending only on the ones below it:
//!
//! ```text
//!   report/    Report (the contract), runs, compare, campaign, export/import, markdown
//!   prefix/    the prefix check: two request bodies' prompt-cache prefixes, where they part, what breaks them
//!   secrets/   credentials in URLs redacted, echoed keys scrubbed out of reads
//!   config/    PageConfig from the query, presets
//!   findings/  Finding / FindingCode, one function per rule, path rules, triage/ (url, http, net)
//!   verdict    streaming | buffered | collected | failed
//!   measure/   Metrics, DeliveryStats (bursts, read sizes, holds), CacheStats
//!   analysis/  the incremental Analyzer: reads in, StreamEvents and counters out
//!   dialect/   one message -> facts (content, reasoning, usage, stop reason); detection in one place
//!   wire/      bytes -> lines -> SSE events / JSON lines / raw text; framing detection
//!   trace, stats, text, sort   raw facts, percentiles, THE time/size formatter, the one stable sort
//!   decimal                    a short decimal number read exactly, without std's float parser
//!   json                       JSON text read to serde_json values without serde_json's reader (a run's events)
//! ```
//!
//! Times are `f64` milliseconds since `fetch()` was called. Malformed input never panics: it becomes a
//! finding.

#[macro_use]
pub mod text;
#[macro_use]
pub mod json;

pub mod analysis;
pub mod config;
pub mod decimal;
pub mod fixed;
pub mod dialect;
pub mod findings;
pub mod i18n;
pub mod json_in;
pub mod measure;
pub mod prefix;
pub mod report;
pub mod secrets;
pub mod sort;
pub mod stats;
pub mod trace;
pub mod verdict;
pub mod wire;

pub use analysis::{analyze, Analysis, Analyzer, EventKind, StreamEvent};
pub use dialect::{Dialect, StopReason, Usage};
pub use findings::{Finding, FindingCode, Severity, Suggestion};
pub use measure::{Delivery, DeliveryStats, Metrics};
pub use report::campaign::{CampaignReport, CompareSetup};
pub use report::compare::Side;
pub use report::export::{Export, ExportedRun};
pub use report::Report;
pub use trace::{ReadChunk, Trace, TraceEnd};
pub use verdict::Verdict;
pub use wire::Framing;
pub use config::PageConfig;
