//! HTTP/1.x plumbing, hand-rolled over tokio's `TcpStream` so that every write is under our control.
//!
//! In the order a request flows:
//! - `listener`: the accept loop and the connection cap (`503` past it).
//! - [`conn`]: one accepted connection; reads requests, answers them, keeps alive where allowed.
//! - [`socket`]: the connection itself; every write has the write time-out.
//! - [`request`] and [`query`]: parsing a request head, its `Content-Length` body and its query string,
//!   within the head and body deadlines.
//! - [`routes`]: maps a request to its answer (preflight, the stream scenarios, `/v1/models`, statics);
//!   the one file here that knows [`crate::scenarios`].
//! - [`response`]: response heads with the CORS headers and `nosniff`, and complete fixed-length
//!   responses; [`security`]: the security headers and the page's Content-Security-Policy.
//! - [`body`]: streamed bodies (chunked, close-delimited or `Content-Length`), one write per piece:
//!   an SSE event leaves as one chunk (size line, data and CRLF together) on a `TCP_NODELAY` socket;
//!   [`piece`]: the pieces, whose long padding takes no memory.
//! - [`statics`]: the built page's files, with MIME types and no way out of the directory.
//! - [`state`]: what every connection can see (configuration, response ids, the simulated prompt
//!   cache, the `slots` queues, the connection count); `gauge` and `recent` are its bounded parts.
//!
//! The limits (deadlines, time-outs, the connection cap) are [`crate::Limits`].

pub mod body;
pub(crate) mod conn;
pub(crate) mod gauge;
pub(crate) mod listener;
pub mod piece;
pub mod query;
pub(crate) mod recent;
pub mod request;
pub mod response;
pub(crate) mod routes;
pub mod security;
pub mod socket;
pub(crate) mod state;
pub(crate) mod statics;
