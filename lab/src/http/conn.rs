//! One accepted connection: read requests, answer them, keep alive where allowed, and close (or reset)
//! the connection when a response says so. A response that fails (the client left, a write timed
//! out, a body that did not add up) resets the connection, so the kernel drops what the client did
//! not read instead of holding it.

use std::sync::Arc;

use crate::http::request::{ReadError, RequestReader};
use crate::http::response::Fixed;
use crate::http::routes::{self, After};
use crate::http::socket::Socket;
use crate::http::state::State;

/// Serves `socket` until it is closed or a response ends it.
pub(crate) async fn handle(mut socket: Socket, state: Arc<State>) {
    let mut reader = RequestReader::new();
    loop {
        let request = match reader.read(&mut socket, &state.config.limits).await {
            Ok(request) => request,
            Err(ReadError::Closed) => return,
            Err(ReadError::Bad(status, message)) => {
                let _ = Fixed::text(status, message)
                    .write(&mut socket, false, false)
                    .await;
                let _ = socket.shutdown().await;
                return;
            }
        };
        match routes::respond(&mut socket, &request, &state).await {
            Ok(After::KeepAlive) => {}
            Ok(After::Close) => {
                let _ = socket.shutdown().await;
                return;
            }
            Ok(After::Reset) | Err(_) => {
                // Dropped with SO_LINGER 0 and no shutdown: the kernel sends RST instead of FIN.
                socket.set_zero_linger();
                return;
            }
        }
    }
}
