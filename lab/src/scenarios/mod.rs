//! What the lab answers: the timed streams and every way they can go wrong, independent of the HTTP
//! plumbing in [`crate::http`] (which they use to write).
//!
//! - [`settings`]: the query parameters (and JSON body) that shape a stream, with their named defaults;
//!   the table of every parameter is there. [`size`]: the planned size of a response and its cap.
//! - [`schedule`]: when each content event is due (absolute deadlines from the request, optional jitter).
//! - [`passage`]: the text the lab "generates", one word per token.
//! - [`chunks`]: OpenAI chat-completions chunks as SSE events, stamped with the send time (`server_ms`).
//! - [`wire_dialect`] and [`dialect_events`]: the other dialects (Responses, Anthropic, Ollama, Gemini,
//!   SSE text) and their wire messages.
//! - [`stream`]: the delivery modes (`stream`, `collect`, `raw`, `malformed`, `stall`, `bursts`, ...),
//!   dispatched from one entry point.
//! - [`hostile`]: the hostile corpus at `/hostile/<case>`, malformed and hostile streams to survive.
//! - [`prompt_cache`]: the simulated prefix cache and its exact rule; [`slots`]: the `slots=K` queues
//!   (at most K streams of a pool at once, the rest wait in FIFO order).
//! - [`triage`] and [`errors`]: forced failures (statuses, HTML error pages, keys, models, CORS) and
//!   their bodies in each vendor's shape.

pub mod chunks;
pub mod dialect_events;
pub mod errors;
pub mod hostile;
pub mod passage;
pub mod prompt_cache;
pub mod schedule;
pub mod settings;
pub mod size;
pub mod slots;
pub(crate) mod stream;
pub mod triage;
pub mod wire_dialect;
