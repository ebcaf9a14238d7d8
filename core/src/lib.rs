//! streamscope-core: the pure-Rust heart of streamscope, with no browser or UI code.
//!
//! The net layer records a [`Trace`] (raw facts: response headers, every read with its time and bytes,
//! how the run ended); everything else is derived here and testable natively:
//!
//! - [`analyzer`] turns reads into token-level [`event`]s, incrementally (the UI drives it live) or over
//!   a whole trace ([`analyze`]), using [`framing`] detection, the [`sse`] parser (over [`lines`] and
//!   [`utf8`]) and the protocol adapters [`openai`], [`responses`], [`anthropic`], [`gemini`] and
//!   [`ollama`] (picked by [`dialects`]; they report [`usage`] and [`stop_reason`]s);
//! - [`metrics`] derives TTFB, TTFT, TPOT, ITL and the rest (with [`stats`]);
//! - [`delivery`] works out how content was delivered (bursts, read sizes, hold times);
//! - [`verdict`] classifies the run and [`finding`] explains it (with [`path`] for the path between the
//!   model and the browser);
//! - [`triage_url`], [`triage_http`] (over [`error_body`]) and [`triage_net`] name why a call failed
//!   (URL mistakes, HTTP errors, CORS vs unreachable);
//! - [`report`] assembles the JSON report of the automation contract;
//! - [`page_config`] reads the page's query parameters (the contract on the way in).
//!
//! Times are `f64` milliseconds since `fetch()` was called. Malformed input never panics: it becomes a
//! finding.

pub mod analyzer;
pub mod anthropic;
pub mod campaign;
pub mod compare;
pub mod delivery;
pub mod error_body;
pub mod dialects;
pub mod event;
pub mod export;
pub mod finding;
pub mod framing;
pub mod gemini;
pub mod lines;
pub mod markdown;
pub mod metrics;
pub mod ollama;
pub mod openai;
pub mod page_config;
pub mod path;
pub mod presets;
pub mod report;
pub mod responses;
pub mod runs;
pub mod sse;
pub mod stats;
pub mod stop_reason;
pub mod trace;
pub mod triage_http;
pub mod triage_net;
pub mod triage_url;
pub mod usage;
pub mod utf8;
pub mod verdict;

pub use analyzer::{analyze, Analysis, Analyzer};
pub use delivery::{Delivery, DeliveryStats};
pub use event::{Dialect, EventKind, StreamEvent};
pub use finding::{Finding, Severity};
pub use framing::Framing;
pub use metrics::Metrics;
pub use report::Report;
pub use trace::{ReadChunk, Trace, TraceEnd};
pub use verdict::Verdict;
