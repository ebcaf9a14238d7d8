//! One relayed connection: client bytes go upstream as they come, upstream bytes go to the client as
//! the policy says, and the way upstream ended is passed on (a close as a close, a reset as a reset).
//!
//! It must never re-frame HTTP: bytes are copied as read (chunked encoding, a second request on a
//! kept-alive connection, a request body: all pass through untouched), only their timing changes.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{ReadHalf, WriteHalf};
use tokio::net::TcpStream;
use tokio::time::Instant;

use super::held::Held;
use super::policy::RelayPolicy;

/// Size of one read from either side.
const READ_BYTES: usize = 64 * 1024;
/// After a clean end, how long the relay reads (and drops) what the client still sends before it
/// closes: closing a socket with unread bytes would send a reset instead of the close it means.
const DRAIN_LIMIT: Duration = Duration::from_secs(2);

/// How the upstream side of a connection ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UpstreamEnd {
    /// Upstream closed its side (FIN): close the client's side too.
    Closed,
    /// Reading from upstream failed (most often a reset): reset the client connection too.
    Failed,
}

/// Relays `client` to a new connection to `upstream` until either side is done; errors end this
/// connection quietly.
pub(super) async fn handle(
    mut client: TcpStream,
    upstream: SocketAddr,
    policy: RelayPolicy,
    accepted_at: Instant,
) {
    let mut upstream_socket = match TcpStream::connect(upstream).await {
        Ok(socket) => socket,
        Err(err) => {
            eprintln!("streamscope relay: cannot reach {upstream}: {err}");
            // The client sees the failure as a reset rather than an empty answer.
            let _ = client.set_zero_linger();
            return;
        }
    };
    // A socket that refuses NODELAY still works; it just may coalesce small writes.
    let _ = client.set_nodelay(true);
    let _ = upstream_socket.set_nodelay(true);
    let ending = {
        let (client_read, client_write) = client.split();
        let (upstream_read, upstream_write) = upstream_socket.split();
        tokio::select! {
            ending = download(upstream_read, client_write, policy, accepted_at) => ending,
            () = upload(client_read, upstream_write) => return,
        }
    };
    match ending {
        Ok(UpstreamEnd::Closed) => {
            if client.shutdown().await.is_ok() {
                let _ = tokio::time::timeout(DRAIN_LIMIT, drain(&mut client)).await;
            }
        }
        Ok(UpstreamEnd::Failed) => {
            // SO_LINGER 0, then close without a shutdown: the kernel sends RST, not FIN.
            let _ = client.set_zero_linger();
        }
        Err(_) => {}
    }
}

/// Copies upstream bytes to the client as `policy` says; returns how upstream ended once everything
/// held was written, or the error of a write to the client.
async fn download(
    mut upstream: ReadHalf<'_>,
    mut client: WriteHalf<'_>,
    policy: RelayPolicy,
    accepted_at: Instant,
) -> std::io::Result<UpstreamEnd> {
    let mut held = Held::new(policy);
    let mut buffer = vec![0u8; READ_BYTES];
    let mut flush_at_ms = policy.next_flush_ms(elapsed_ms(accepted_at));
    loop {
        let flush_at = flush_at_ms.map(|ms| accepted_at + Duration::from_millis(ms));
        tokio::select! {
            read = upstream.read(&mut buffer) => match read {
                Ok(0) => {
                    write_held(&mut client, held.take_rest()).await?;
                    return Ok(UpstreamEnd::Closed);
                }
                Ok(n) => {
                    held.push(&buffer[..n]);
                    if let Some(bytes) = held.take_now() {
                        client.write_all(&bytes).await?;
                    }
                }
                Err(_) => {
                    // The client is reset next anyway; what it got before is all it gets.
                    let _ = write_held(&mut client, held.take_rest()).await;
                    return Ok(UpstreamEnd::Failed);
                }
            },
            () = flush_due(flush_at) => {
                if let Some(bytes) = held.take_at_flush() {
                    client.write_all(&bytes).await?;
                }
                let due_ms = flush_at_ms.unwrap_or_default().max(elapsed_ms(accepted_at));
                flush_at_ms = policy.next_flush_ms(due_ms);
            }
        }
    }
}

/// Copies client bytes upstream as they come; at the client's EOF shuts upstream's write side and
/// waits forever (the response still flows). Returns when either side fails.
async fn upload(mut client: ReadHalf<'_>, mut upstream: WriteHalf<'_>) {
    let mut buffer = vec![0u8; READ_BYTES];
    loop {
        match client.read(&mut buffer).await {
            Ok(0) => {
                let _ = upstream.shutdown().await;
                return std::future::pending().await;
            }
            Ok(n) => {
                if upstream.write_all(&buffer[..n]).await.is_err() {
                    return;
                }
            }
            Err(_) => return,
        }
    }
}

/// Writes `bytes` in one write, if there are any.
async fn write_held(client: &mut WriteHalf<'_>, bytes: Vec<u8>) -> std::io::Result<()> {
    if bytes.is_empty() {
        return Ok(());
    }
    client.write_all(&bytes).await
}

/// Reads and drops what the client sends until it closes or fails.
async fn drain(client: &mut TcpStream) {
    let mut scratch = [0u8; 4096];
    while let Ok(n) = client.read(&mut scratch).await {
        if n == 0 {
            return;
        }
    }
}

/// Sleeps until the flush `deadline`, or forever without one.
async fn flush_due(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// Whole ms since `start`.
fn elapsed_ms(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}
