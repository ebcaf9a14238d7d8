//! One in-process lab for the whole test process (and, for a scenario that needs the page's files
//! changed, labs of their own), each on its own thread and runtime so that it outlives each test's
//! runtime.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::OnceLock;

use streamscope_lab::{serve, LabConfig};

static LAB: OnceLock<SocketAddr> = OnceLock::new();

/// Address of the shared lab serving `static_dir`, started on first use.
pub(crate) fn shared(static_dir: PathBuf) -> SocketAddr {
    *LAB.get_or_init(|| start("streamscope-lab", static_dir))
}

/// A lab of its own (not the shared one) serving `static_dir`, for a scenario that needs the page's
/// files changed (a copy with one removed); it lives as long as the test process.
pub fn private(static_dir: PathBuf) -> SocketAddr {
    start("streamscope-private-lab", static_dir)
}

/// Starts a lab serving `static_dir` on a thread named `thread` and returns its address once it listens.
fn start(thread: &str, static_dir: PathBuf) -> SocketAddr {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name(thread.into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("lab runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind the lab");
                sender
                    .send(listener.local_addr().expect("lab address"))
                    .expect("report lab address");
                serve(
                    listener,
                    LabConfig {
                        static_dir: Some(static_dir),
                        ..LabConfig::default()
                    },
                )
                .await;
            });
        })
        .expect("spawn the lab thread");
    receiver
        .recv()
        .expect("the lab thread died before listening")
}
