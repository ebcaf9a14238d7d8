//! Integration tests for the lab: real sockets on 127.0.0.1, real timing, tolerances for a busy 2-core
//! machine (they check the shape of a stream, not exact numbers).

mod client;
mod collect;
mod cors;
mod errors;
mod http10;
mod malformed;
mod post_body;
mod raw;
mod stall;
mod statics;
mod stream;
