//! Measurements derived from a [`crate::trace::Trace`] and its [`crate::analysis::Analysis`], here and
//! nowhere else (the page shows these numbers, it does not compute its own).
//!
//! [`live`]: the same first-byte / first-token figures while the stream arrives, in constant time;
//! [`metrics`]: TTFB, TTFT, TPOT, ITL, totals, events per read; [`delivery`]: how content was delivered
//! (deliveries, bursts, read sizes, hold times); [`cadence`]: how regularly content was released;
//! [`cache`]: prompt-cache figures from the usage report.
//! Percentiles come from [`crate::stats`].

pub mod cache;
pub mod cadence;
pub mod delivery;
pub mod live;
pub mod metrics;

pub use cache::{CacheSource, CacheStats};
pub use cadence::ReleaseCadence;
pub use delivery::{Delivery, DeliveryStats};
pub use live::{LiveFigures, NoAnswer};
pub use metrics::{Metrics, TokenCountSource};
