//! Byte relays in front of the shared lab, one per distinct [`RelayPolicy`], each on its own thread and
//! runtime (like the lab) so that it outlives each test's runtime.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Mutex, OnceLock};

use streamscope_lab::relay::{relay as run_relay, RelayPolicy};

use crate::{dist, lab};

static RELAYS: OnceLock<Mutex<HashMap<RelayPolicy, SocketAddr>>> = OnceLock::new();

/// Address of a relay applying `policy` in front of the shared lab (the one the page is served
/// from), started on first use and shared by every later caller with the same policy. Point a page run
/// at `http://{addr}/v1/chat/completions?...` to see the stream as that relay delivers it.
pub fn relay(policy: RelayPolicy) -> SocketAddr {
    let lab_addr = lab::shared(dist::dist_dir());
    let mut relays = RELAYS
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    *relays
        .entry(policy)
        .or_insert_with(|| start(lab_addr, policy))
}

/// Starts a relay to `upstream` on its own thread and returns its address once it listens.
fn start(upstream: SocketAddr, policy: RelayPolicy) -> SocketAddr {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name(format!("streamscope-relay ({policy})"))
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("relay runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind the relay");
                sender
                    .send(listener.local_addr().expect("relay address"))
                    .expect("report relay address");
                run_relay(listener, upstream, policy).await;
            });
        })
        .expect("spawn the relay thread");
    receiver
        .recv()
        .expect("the relay thread died before listening")
}
