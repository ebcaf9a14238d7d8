//! The accept loop: one task per connection, at most [`crate::Limits::max_connections`] at once.
//! Past the cap a connection is answered `503` with `Retry-After: 1` and closed, never accepted and
//! held; the answer is written by a short task (at most [`REFUSAL_LINGER`], at most
//! [`MAX_REFUSALS_IN_FLIGHT`] at once, past which a connection is simply dropped).

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::http::conn;
use crate::http::response::Fixed;
use crate::http::socket::Socket;
use crate::http::state::State;

/// Pause after a failed `accept` (usually out of file descriptors) before the next one.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);
/// How long a refused connection is kept to write its `503` and read the client's request: closing a
/// socket with unread bytes sends a reset, which can destroy the `503` before the client reads it.
pub const REFUSAL_LINGER: Duration = Duration::from_secs(1);
/// Refusals being written at once; past it a refused connection is dropped without an answer (a
/// flood must not turn the refusals into the thing that exhausts the server).
pub const MAX_REFUSALS_IN_FLIGHT: usize = 64;
/// Most bytes read (and thrown away) from a refused client.
const REFUSAL_DRAIN_BYTES: usize = 64 * 1024;

/// Accepts connections on `listener` and serves them until the future is dropped.
pub(crate) async fn accept_loop(listener: TcpListener, state: Arc<State>) {
    loop {
        match listener.accept().await {
            Ok((stream, _peer)) => {
                // A socket that refuses NODELAY still works; it just may coalesce small events.
                let _ = stream.set_nodelay(true);
                let limits = &state.config.limits;
                match state.connections.try_enter(limits.max_connections) {
                    Some(entered) => {
                        let socket = Socket::new(stream, limits.write_timeout());
                        let state = Arc::clone(&state);
                        tokio::spawn(async move {
                            conn::handle(socket, state).await;
                            drop(entered);
                        });
                    }
                    None => refuse(stream, &state),
                }
            }
            Err(err) => {
                eprintln!("streamscope lab: accept failed: {err}");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
            }
        }
    }
}

/// Answers a connection past the cap with `503` and closes it, without holding it.
fn refuse(mut stream: TcpStream, state: &State) {
    let Some(entered) = state.refusals.try_enter(MAX_REFUSALS_IN_FLIGHT) else {
        return;
    };
    let message = format!(
        "streamscope lab: too many connections (at most {} at once); retry in a second",
        state.config.limits.max_connections
    );
    let response = Fixed::text(503, &message)
        .with_header("Retry-After", "1")
        .to_bytes(false, false);
    tokio::spawn(async move {
        let answer = async {
            stream.write_all(&response).await?;
            stream.shutdown().await?;
            let mut scratch = [0u8; 4096];
            let mut drained = 0;
            while drained < REFUSAL_DRAIN_BYTES {
                match stream.read(&mut scratch).await? {
                    0 => break,
                    n => drained += n,
                }
            }
            std::io::Result::Ok(())
        };
        let _ = tokio::time::timeout(REFUSAL_LINGER, answer).await;
        drop(entered);
    });
}
