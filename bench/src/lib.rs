//! streamscope-bench: how fast streamscope-core frames and analyses an LLM stream (issue 13, part 2).
//!
//! [`stream`] generates the input (a deterministic 32 MiB OpenAI-style stream) and cuts it into reads;
//! [`work`] is what is measured on core. `benches/parser` (criterion, `cargo bench -p streamscope-bench`)
//! runs it side by side with `sse-core`, `sse-stream` and `eventsource-stream` doing the same work;
//! `tests/wasm.rs` runs it in headless Chromium. `scripts/bench-parser.sh` runs both and prints the table
//! that BENCHMARKS.md records.

pub mod stream;
pub mod work;
