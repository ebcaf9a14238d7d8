//! `slots=K` (and `slot_pool=<name>`): at most K streams of a pool are served at once, the rest wait in
//! FIFO order, as requests queue for an inference server's batch slots (vLLM's `max_num_seqs`).
//!
//! A pool is named by `(slot_pool, K)`, so tests that use their own name never share a queue, and the
//! same name with another K is another pool. Each pool is a tokio [`Semaphore`] with K permits (tokio's
//! semaphore is fair: waiters get permits in the order they asked). A request takes a [`Ticket`] when it
//! arrives and waits on it after its response head went out; the permit it gets is held by the stream
//! until its last byte is written, or until the stream fails (the client left); a request whose client
//! leaves while it waits gives up its place at once.
//!
//! Bounded, because the lab is a server for anyone: at most [`MAX_SLOT_POOLS`] pools; a new one takes
//! the place of the least recently used pool that nobody holds or waits on, and when all of them are in
//! use the request is refused (`503`). Names are at most [`MAX_POOL_NAME_BYTES`] bytes of
//! `[A-Za-z0-9._-]`.

use std::future::Future;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::http::query::Query;

/// Largest `slots`.
pub const MAX_SLOTS: usize = 64;
/// Most pools kept at once.
pub const MAX_SLOT_POOLS: usize = 256;
/// Longest `slot_pool` name.
pub const MAX_POOL_NAME_BYTES: usize = 64;
/// The pool of a request that gives `slots` without `slot_pool`.
pub const DEFAULT_POOL: &str = "default";

/// What a request asked for: a pool name and its number of slots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotRequest {
    /// `slot_pool` (or [`DEFAULT_POOL`]).
    pub pool: String,
    /// `slots`: streams of the pool served at once.
    pub slots: usize,
}

impl SlotRequest {
    /// Reads `slots` and `slot_pool` (`None` without `slots`); the error is a message for a 400.
    pub fn from_query(query: &Query) -> Result<Option<Self>, String> {
        let Some(raw) = query.get("slots") else {
            if query.get("slot_pool").is_some() {
                return Err("slot_pool needs slots=K (1-64)".into());
            }
            return Ok(None);
        };
        let slots = match raw.trim().parse::<usize>() {
            Ok(k @ 1..=MAX_SLOTS) => k,
            _ => return Err(format!("slots must be 1-{MAX_SLOTS}, not {raw:?}")),
        };
        let pool = query.get("slot_pool").unwrap_or(DEFAULT_POOL);
        let valid = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-');
        if pool.is_empty() || pool.len() > MAX_POOL_NAME_BYTES || !pool.bytes().all(valid) {
            return Err(format!(
                "slot_pool must be 1-{MAX_POOL_NAME_BYTES} characters of A-Z a-z 0-9 . _ -, not {pool:?}"
            ));
        }
        Ok(Some(Self {
            pool: pool.to_string(),
            slots,
        }))
    }
}

/// Every pool, least recently used first.
#[derive(Debug, Default)]
pub(crate) struct SlotPools {
    pools: Mutex<Vec<Pool>>,
}

#[derive(Debug)]
struct Pool {
    name: String,
    slots: usize,
    semaphore: Arc<Semaphore>,
}

impl SlotPools {
    /// A place in the queue of `request`'s pool, made when needed; an error (for a `503`) when
    /// [`MAX_SLOT_POOLS`] pools are all in use.
    pub fn join(&self, request: &SlotRequest) -> Result<Ticket, String> {
        let mut pools = self.pools.lock().unwrap_or_else(|p| p.into_inner());
        let found = pools
            .iter()
            .position(|p| p.name == request.pool && p.slots == request.slots);
        let pool = match found {
            Some(index) => pools.remove(index),
            None => {
                if pools.len() >= MAX_SLOT_POOLS {
                    // Idle: nobody holds a permit or waits (each of those holds a clone of the Arc).
                    let idle = pools.iter().position(|p| Arc::strong_count(&p.semaphore) == 1);
                    let Some(index) = idle else {
                        return Err(format!(
                            "all {MAX_SLOT_POOLS} slot pools are in use; reuse a slot_pool name"
                        ));
                    };
                    pools.remove(index);
                }
                Pool {
                    name: request.pool.clone(),
                    slots: request.slots,
                    semaphore: Arc::new(Semaphore::new(request.slots)),
                }
            }
        };
        let in_pool = Arc::strong_count(&pool.semaphore) - 1;
        let ticket = Ticket {
            semaphore: Arc::clone(&pool.semaphore),
            position: (in_pool + 1).saturating_sub(pool.slots),
        };
        pools.push(pool);
        Ok(ticket)
    }

    /// How many pools are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.pools.lock().map_or(0, |p| p.len())
    }
}

/// A request's place in its pool's queue.
#[derive(Debug)]
pub struct Ticket {
    semaphore: Arc<Semaphore>,
    /// 0: a slot was free when the request arrived; N: it was N-th in line (N − 1 waited ahead of it).
    pub position: usize,
}

impl Ticket {
    /// Waits for a slot, in FIFO order; `None` when `client_gone` ends first (the place is given up).
    pub async fn wait(self, client_gone: impl Future<Output = ()>) -> Option<OwnedSemaphorePermit> {
        tokio::select! {
            permit = self.semaphore.acquire_owned() => permit.ok(),
            () = client_gone => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(pool: &str, slots: usize) -> SlotRequest {
        SlotRequest {
            pool: pool.into(),
            slots,
        }
    }

    #[test]
    fn parameters_are_checked() {
        let parse = |q: &str| SlotRequest::from_query(&Query::parse(q));
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("slots=3").unwrap(), Some(request(DEFAULT_POOL, 3)));
        assert_eq!(parse("slots=64&slot_pool=a.b_c-9").unwrap(), Some(request("a.b_c-9", 64)));
        let long = format!("slots=1&slot_pool={}", "x".repeat(65));
        for bad in ["slots=0", "slots=65", "slots=x", "slots=-1", "slot_pool=a", "slots=2&slot_pool=", "slots=2&slot_pool=a%20b", &long] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[tokio::test]
    async fn positions_count_the_requests_in_line_and_a_leaver_frees_its_place() {
        let pools = SlotPools::default();
        let two = request("t", 2);
        let first = pools.join(&two).unwrap();
        assert_eq!(first.position, 0);
        let held_1 = first.wait(std::future::pending()).await.unwrap();
        let held_2 = pools.join(&two).unwrap().wait(std::future::pending()).await.unwrap();
        let third = pools.join(&two).unwrap();
        assert_eq!(third.position, 1);
        assert_eq!(pools.join(&request("t", 3)).unwrap().position, 0, "another K, another pool");
        // A client that leaves while waiting: no permit.
        assert!(third.wait(std::future::ready(())).await.is_none());
        let fourth = pools.join(&two).unwrap();
        assert_eq!(fourth.position, 1, "the leaver is gone from the line");
        drop(held_1);
        assert!(fourth.wait(std::future::pending()).await.is_some());
        drop(held_2);
    }

    #[test]
    fn the_number_of_pools_is_bounded() {
        let pools = SlotPools::default();
        let held: Vec<Ticket> = (0..MAX_SLOT_POOLS)
            .map(|i| pools.join(&request(&format!("p{i}"), 1)).unwrap())
            .collect();
        assert_eq!(pools.len(), MAX_SLOT_POOLS);
        let refused = pools.join(&request("one-more", 1)).unwrap_err();
        assert!(refused.contains("in use"), "{refused}");
        drop(held);
        assert!(pools.join(&request("one-more", 1)).is_ok());
        assert_eq!(pools.len(), MAX_SLOT_POOLS, "an idle pool made room");
    }
}
