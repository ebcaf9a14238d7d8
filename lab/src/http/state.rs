//! Server-wide state shared by all connections: the configuration, response ids, the simulated prompt
//! cache (bounded: [`MAX_SEEN_PROMPTS`]) and the count of open connections.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::http::gauge::Gauge;
use crate::http::recent::Recent;
use crate::LabConfig;

/// Prompts the simulated prompt cache remembers (oldest forgotten first): far more than a test or a
/// person repeats, and at 8 bytes each (plus the set's overhead) well under a MB.
pub const MAX_SEEN_PROMPTS: usize = 4096;

/// What every connection task can see.
pub(crate) struct State {
    /// The configuration the server was started with.
    pub config: LabConfig,
    /// Connections being served right now (capped by `config.limits.max_connections`).
    pub connections: Arc<Gauge>,
    /// Refused connections still being answered (`503`) right now.
    pub refusals: Arc<Gauge>,
    next_id: AtomicU64,
    seen_prompts: Mutex<Recent>,
}

impl State {
    /// Creates the state for a fresh server.
    pub fn new(config: LabConfig) -> Self {
        Self {
            config,
            connections: Arc::default(),
            refusals: Arc::default(),
            next_id: AtomicU64::new(1),
            seen_prompts: Mutex::new(Recent::new(MAX_SEEN_PROMPTS)),
        }
    }

    /// Returns a response id unique within this server.
    pub fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Records a prompt and says whether it was seen recently (a simulated prompt cache).
    pub fn prompt_seen_before(&self, prompt_hash: u64) -> bool {
        let mut seen = self
            .seen_prompts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        seen.insert(prompt_hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_cache_stays_bounded() {
        let state = State::new(LabConfig::default());
        assert!(!state.prompt_seen_before(1) && state.prompt_seen_before(1));
        for hash in 2..(3 * MAX_SEEN_PROMPTS as u64) {
            state.prompt_seen_before(hash);
        }
        let kept = state.seen_prompts.lock().map(|seen| seen.len()).unwrap_or(0);
        assert_eq!(kept, MAX_SEEN_PROMPTS);
        assert!(!state.prompt_seen_before(1), "the oldest prompt was forgotten");
    }
}
