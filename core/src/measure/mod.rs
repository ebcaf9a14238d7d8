//! Measurements derived from a [`crate::trace::Trace`] and its [`crate::analysis::Analysis`], here and
//! nowhere else (the page shows these numbers, it does not compute its own).
//!
//! [`metrics`]: TTFB, TTFT, TPOT, ITL, totals, events per read; [`delivery`]: how content was delivered
//! (deliveries, bursts, read sizes, hold times); [`cache`]: prompt-cache figures from the usage report.
//! Percentiles come from [`crate::stats`].

pub mod cache;
pub mod delivery;
pub mod metrics;

pub use cache::{CacheSource, CacheStats};
pub use delivery::{Delivery, DeliveryStats};
pub use metrics::{Metrics, TokenCountSource};
