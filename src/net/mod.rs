//! The browser side of a measurement: send the request, timestamp every read, record raw facts only.
//!
//! The reader loop ([`measure`]) runs in a dedicated worker ([`worker`]) whenever the browser has one, so
//! the page's rendering can never delay a timestamp; [`run`] starts it there or, as a fallback, on the
//! page. Everything lands in a [`feed::RunFeed`]; metrics and verdicts are derived later by
//! `streamscope_core`, so this layer stays small and its facts stay exact.

pub mod catalogue;
pub mod clock;
pub mod feed;
pub mod measure;
pub mod probes;
pub mod race;
pub mod request;
pub mod resource_timing;
pub mod run;
pub mod scope;
pub mod watchdog;
pub mod worker;

#[cfg(test)]
mod tests;

pub use feed::{RunFeed, SharedFeed};
pub use request::{RunSpec, Timeouts};
pub use run::{start_run, Placement, RunHandle};
