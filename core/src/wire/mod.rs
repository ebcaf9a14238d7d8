//! The wire: bytes in, messages out, in linear time with bounded buffers.
//!
//! [`framing`] decides from the Content-Type and the first bytes whether the body is SSE, JSON lines or
//! raw text, or a streamed JSON array; [`lines`] splits bytes into lines (any line ending, also split
//! across reads); [`json_array`] splits a streamed JSON array into its elements; [`sse`] parses
//! SSE events and comments from those lines; [`utf8`] decodes complete lines (or raw reads) lossily,
//! counting what it replaced. Nothing here knows about dialects or tokens; it depends on nothing else in
//! the crate.

pub mod framing;
pub mod json_array;
pub mod lines;
pub mod sse;
pub mod utf8;

pub use framing::Framing;
