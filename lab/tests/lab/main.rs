//! Integration tests for the lab: real sockets on 127.0.0.1, real timing, tolerances for a busy 2-core
//! machine (they check the shape of a stream, not exact numbers).

mod accel;
mod batch;
mod bursts;
mod cache_hit;
mod client;
mod collect;
mod connection_cap;
mod content_length;
mod cors;
mod dialects;
mod errors;
mod http10;
mod fast;
mod jitter;
mod keepalive;
mod long_line;
mod malformed;
mod peer;
mod post_body;
mod prompt_cache;
mod raw;
mod relay;
mod reset_after;
mod response_size;
mod security_headers;
mod slots;
mod slow_clients;
mod split_events;
mod stall;
mod stamp;
mod statics;
mod stream;
mod tokens_per_event;
mod triage;
mod write_timeout;
