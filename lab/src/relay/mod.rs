//! A byte relay: what an edge relay, a CDN or a misconfigured proxy does to a healthy stream, at the
//! TCP byte level.
//!
//! Each accepted connection gets its own connection to the upstream (`TCP_NODELAY` on both). Client
//! bytes go upstream as they come (request head, body, a kept-alive next request: everything). Upstream
//! bytes go to the client as the [`RelayPolicy`] says; HTTP is never re-framed, so chunked encoding
//! passes through untouched and only the timing of the bytes changes:
//! - `flush_every_ms = Some(p)`: everything read is held and written in ONE write at every multiple of
//!   `p` ms after the connection was accepted (absolute deadlines; nothing written when nothing is held):
//!   a relay that flushes on a timer.
//! - `hold_headers`: bytes are held until the first response head's end (`\r\n\r\n`) and at least one
//!   byte after it have arrived, then everything held leaves in one write; later reads pass at once
//!   (or at the timer's flushes): a proxy that sends the response headers only with the first body
//!   byte. A response with no body is held until upstream ends.
//! - neither: a transparent relay, each read written at once.
//!
//! Endings are passed on: upstream EOF writes what is held, then shuts the client's write side; an
//! upstream error (a reset) writes what is held, then resets the client (`SO_LINGER` 0, closed without a
//! shutdown); client EOF shuts upstream's write side and the response keeps flowing. Any error ends
//! that one connection quietly, never the relay. The `streamscope-relay` binary runs one.

mod conn;
mod held;
mod policy;

pub use policy::RelayPolicy;

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::time::Instant;

/// Pause after a failed `accept` (usually out of file descriptors) before the next one.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Accepts connections on `listener` and relays each to `upstream` under `policy`, until the future
/// is dropped (connections already relayed run on in their own tasks).
pub async fn relay(listener: TcpListener, upstream: SocketAddr, policy: RelayPolicy) {
    loop {
        match listener.accept().await {
            Ok((socket, _peer)) => {
                let accepted_at = Instant::now();
                tokio::spawn(conn::handle(socket, upstream, policy, accepted_at));
            }
            Err(err) => {
                eprintln!("streamscope relay: accept failed: {err}");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
            }
        }
    }
}
