//! The browser side of a measurement: send the request, timestamp every read, record raw facts only.
//!
//! Everything here writes into a [`streamscope_core::trace::Trace`]; metrics and verdicts are derived
//! later by `streamscope_core`, so this layer stays small and its facts stay exact.

pub mod clock;
pub mod probes;
pub mod race;
pub mod request;
pub mod resource_timing;
pub mod run;

#[cfg(test)]
mod tests;

pub use request::{RunSpec, Timeouts};
pub use run::{start_run, RunHandle, SharedTrace};
