//! Free loopback ports for the processes the harness starts.

use std::net::TcpListener;

/// `count` distinct ports that were free on 127.0.0.1 a moment ago (all held at once while choosing,
/// so they differ; another process could still take one before it is used).
pub(crate) fn free_ports(count: usize) -> std::io::Result<Vec<u16>> {
    let listeners = (0..count)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<std::io::Result<Vec<_>>>()?;
    listeners
        .iter()
        .map(|listener| Ok(listener.local_addr()?.port()))
        .collect()
}
