//! Server-wide state shared by all connections.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::LabConfig;

/// What every connection task can see.
pub(crate) struct State {
    /// The configuration the server was started with.
    pub config: LabConfig,
    next_id: AtomicU64,
    seen_prompts: Mutex<HashSet<u64>>,
}

impl State {
    /// Creates the state for a fresh server.
    pub fn new(config: LabConfig) -> Self {
        Self {
            config,
            next_id: AtomicU64::new(1),
            seen_prompts: Mutex::new(HashSet::new()),
        }
    }

    /// Returns a response id unique within this server.
    pub fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Records a prompt and says whether it was seen before (a simulated prompt cache).
    pub fn prompt_seen_before(&self, prompt_hash: u64) -> bool {
        let mut seen = self
            .seen_prompts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        !seen.insert(prompt_hash)
    }
}
