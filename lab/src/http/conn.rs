//! One accepted connection: read requests, answer them, keep alive where allowed, and close (or reset)
//! the connection when a response says so.

use std::sync::Arc;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::http::request::{ReadError, RequestReader};
use crate::http::response::Fixed;
use crate::http::routes::{self, After};
use crate::http::state::State;

/// Serves `socket` until it is closed or a response ends it.
pub(crate) async fn handle(mut socket: TcpStream, state: Arc<State>) {
    let mut reader = RequestReader::new();
    loop {
        let request = match reader.read(&mut socket).await {
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
            Ok(After::Close) | Err(_) => {
                let _ = socket.shutdown().await;
                return;
            }
            Ok(After::Reset) => {
                // Dropped with SO_LINGER 0 and no shutdown: the kernel sends RST instead of FIN.
                let _ = socket.set_zero_linger();
                return;
            }
        }
    }
}
