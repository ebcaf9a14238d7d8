//! streamscope lab: a native reference server that emits controllable LLM-style streams and serves the
//! built page.
//!
//! Two module folders, plumbing apart from behaviour:
//! - [`http`]: connections, request parsing, response heads, chunked framing, static files, routing. The
//!   HTTP/1.1 layer is hand-rolled over tokio's `TcpStream` so that every write is under our control: each
//!   SSE event leaves in exactly one write (chunk size line, data and CRLF together, one vectored
//!   write) on a socket with `TCP_NODELAY`, which is what a well-behaved streaming backend looks like
//!   on the wire.
//! - [`scenarios`]: the streams and failures the lab can play, shaped by query parameters with named
//!   defaults (the table is in [`scenarios::settings`]).
//!
//! - [`peer`]: the raw-socket client the page is compared with (the `streamscope-peer` binary).
//! - [`relay`]: a byte relay that does to a healthy stream what an edge relay, a CDN or a misconfigured
//!   proxy does at the TCP level (flush on a timer, hold the headers until the first body byte, pass a
//!   reset on), without re-framing HTTP (the `streamscope-relay` binary).
//!
//! Routes: `/v1/chat/completions` and `/stream` (OpenAI chat-completions SSE, see
//! [`scenarios::settings`]; other dialects with `dialect=`, see [`scenarios::wire_dialect`]), the native
//! streaming paths `/v1/responses`, `/v1/messages`, `/api/chat`, `/api/generate` and
//! `/v1beta/models/{model}:streamGenerateContent` (the same timed stream in their dialect), `/v1/models`
//! (`/models` and `/chat/completions` without `/v1` are 404s), `/healthz`, failure scenarios for triage
//! (see [`scenarios::triage`]), and static files from [`LabConfig::static_dir`] for everything else.
//!
//! Limits, because the lab is a server too (`scripts/run.sh` starts it for people):
//! - no response is built whole in memory: every mode writes its body in pieces of bounded size
//!   (long `pad` runs are never even materialized, see [`http::piece`]), and a request whose planned
//!   body exceeds [`scenarios::size::MAX_RESPONSE_BYTES`] (1 GiB) is a `400` naming `tokens × pad`;
//! - a request's head must arrive within 10 s of its first byte and its body within 10 s (or its length
//!   at 64 KiB/s), or it gets a `408`; an idle connection is closed after 30 s ([`Limits`]);
//! - every write must finish within 30 s (writes are at most 1 MiB) or the connection is reset, so a
//!   client that stops reading cannot pin a task;
//! - at most 512 connections at once; the next get `503` with `Retry-After: 1` and are closed;
//! - at most 256 `slots` pools (see [`scenarios::slots`]); when all are in use, a new one is a `503`;
//! - the simulated prompt cache remembers the last 65,536 prompt prefixes, at most 4,096 per prompt
//!   (see [`scenarios::prompt_cache`]);
//! - every response carries `X-Content-Type-Options: nosniff`, and the static files the page's
//!   Content-Security-Policy ([`PAGE_CSP`]) and `Referrer-Policy: no-referrer`.

pub mod http;
pub mod limits;
pub mod peer;
pub mod relay;
pub mod scenarios;

use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;

pub use http::security::PAGE_CSP;
pub use limits::Limits;

/// Configuration of a lab server.
#[derive(Debug, Clone, Default)]
pub struct LabConfig {
    /// Directory whose files are served for paths that are not API routes (`index.html` for `/`).
    pub static_dir: Option<PathBuf>,
    /// Deadlines, time-outs and the connection cap ([`Limits::default`]: the production values).
    pub limits: Limits,
}

/// A lab server: its configuration and the state its connections share; cheap to clone (the clones
/// are the same server).
#[derive(Clone)]
pub struct Lab {
    state: Arc<http::state::State>,
}

impl Lab {
    /// A lab with `config`, not yet listening.
    pub fn new(config: LabConfig) -> Self {
        Self {
            state: Arc::new(http::state::State::new(config)),
        }
    }

    /// Connections being served right now (refused ones, past the cap, are not counted).
    pub fn open_connections(&self) -> usize {
        self.state.connections.open()
    }

    /// Accepts connections on `listener` and serves them until the future is dropped.
    pub async fn serve(self, listener: TcpListener) {
        http::listener::accept_loop(listener, self.state).await;
    }
}

/// Accepts connections on `listener` and serves them until the task is dropped.
pub async fn serve(listener: TcpListener, config: LabConfig) {
    Lab::new(config).serve(listener).await;
}
