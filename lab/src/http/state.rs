//! Server-wide state shared by all connections: the configuration, response ids, the simulated prompt
//! cache (bounded: [`MAX_CACHED_PREFIXES`]), the `slots` queues (bounded:
//! [`MAX_SLOT_POOLS`](crate::scenarios::slots::MAX_SLOT_POOLS)) and the
//! count of open connections.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::http::gauge::Gauge;
use crate::scenarios::prompt_cache::{Prompt, PromptCache, MAX_CACHED_PREFIXES};
use crate::scenarios::slots::SlotPools;
use crate::LabConfig;

/// What every connection task can see.
pub(crate) struct State {
    /// The configuration the server was started with.
    pub config: LabConfig,
    /// Connections being served right now (capped by `config.limits.max_connections`).
    pub connections: Arc<Gauge>,
    /// Refused connections still being answered (`503`) right now.
    pub refusals: Arc<Gauge>,
    /// The queues of `slots=K` streams, one per `(slot_pool, K)`.
    pub slot_pools: SlotPools,
    next_id: AtomicU64,
    prompt_cache: Mutex<PromptCache>,
}

impl State {
    /// Creates the state for a fresh server.
    pub fn new(config: LabConfig) -> Self {
        Self {
            config,
            connections: Arc::default(),
            refusals: Arc::default(),
            slot_pools: SlotPools::default(),
            next_id: AtomicU64::new(1),
            prompt_cache: Mutex::new(PromptCache::new(MAX_CACHED_PREFIXES)),
        }
    }

    /// Returns a response id unique within this server.
    pub fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// The prompt tokens of `prompt` the simulated prefix cache serves, then remembers its prefixes
    /// (the rule is in [`crate::scenarios::prompt_cache`]).
    pub fn cached_prompt_tokens(&self, prompt: &Prompt) -> usize {
        let mut cache = self
            .prompt_cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cache.serve(prompt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_cache_is_shared_by_every_request() {
        let state = State::new(LabConfig::default());
        let prompt = Prompt::of(b"the same prompt, twice");
        assert_eq!(state.cached_prompt_tokens(&prompt), 0);
        assert_eq!(state.cached_prompt_tokens(&prompt), prompt.tokens());
    }
}
