//! HTTP/1.x plumbing, hand-rolled over tokio's `TcpStream` so that every write is under our control.
//!
//! In the order a request flows:
//! - [`conn`]: one accepted connection; reads requests, answers them, keeps alive where allowed.
//! - [`request`] and [`query`]: parsing a request head, its `Content-Length` body and its query string.
//! - [`routes`]: maps a request to its answer (preflight, the stream scenarios, `/v1/models`, statics);
//!   the one file here that knows [`crate::scenarios`].
//! - [`response`]: response heads with the CORS headers and `nosniff`, and complete fixed-length
//!   responses; [`security`]: the security headers and the page's Content-Security-Policy.
//! - [`body`]: streamed bodies (chunked, close-delimited or `Content-Length`), one `write_all` per piece:
//!   an SSE event leaves as one chunk (size line, data and CRLF together) on a `TCP_NODELAY` socket.
//! - [`statics`]: the built page's files, with MIME types and no way out of the directory.
//! - [`state`]: what every connection can see (configuration, response ids, the simulated prompt
//!   cache, bounded by `recent`).

pub mod body;
pub(crate) mod conn;
pub mod query;
pub(crate) mod recent;
pub mod request;
pub mod response;
pub(crate) mod routes;
pub mod security;
pub(crate) mod state;
pub(crate) mod statics;
