//! A bounded set of recent hashes (the simulated prompt cache's prefixes): at most `capacity`, the oldest
//! forgotten first, so a server that sees a new prompt with every request does not grow forever.
//! A ring of insertion order beside a hash set; each insert is O(1).

use std::collections::{HashSet, VecDeque};

/// The last `capacity` distinct hashes seen.
#[derive(Debug)]
pub(crate) struct Recent {
    capacity: usize,
    order: VecDeque<u64>,
    members: HashSet<u64>,
}

impl Recent {
    /// An empty set that keeps at most `capacity` hashes.
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            order: VecDeque::new(),
            members: HashSet::new(),
        }
    }

    /// Records `hash` and says whether it was already there; past the capacity the oldest goes.
    pub fn insert(&mut self, hash: u64) -> bool {
        if self.members.contains(&hash) {
            return true;
        }
        if self.capacity == 0 {
            return false;
        }
        if self.order.len() >= self.capacity {
            if let Some(oldest) = self.order.pop_front() {
                self.members.remove(&oldest);
            }
        }
        self.order.push_back(hash);
        self.members.insert(hash);
        false
    }

    /// Says whether `hash` is kept (without recording it).
    pub fn contains(&self, hash: u64) -> bool {
        self.members.contains(&hash)
    }

    /// How many hashes are kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.order.len()
    }
}

#[cfg(test)]
mod tests {
    use super::Recent;

    #[test]
    fn keeps_the_newest_capacity_hashes_and_forgets_the_oldest() {
        let mut recent = Recent::new(3);
        assert!(!recent.insert(1));
        assert!(recent.insert(1), "seen before");
        for hash in 2..=4 {
            assert!(!recent.insert(hash));
        }
        assert_eq!(recent.len(), 3);
        assert!(!recent.insert(1), "1 was the oldest and was forgotten");
        assert!(recent.insert(4) && recent.insert(3));
        assert!(!recent.insert(2), "2 went when 1 came back");
        for hash in 100..10_000 {
            recent.insert(hash);
        }
        assert_eq!(recent.len(), 3);
        assert!(recent.insert(9_999) && !recent.insert(100));
        assert!(recent.contains(100) && !recent.contains(5));
        let mut none = Recent::new(0);
        assert!(!none.insert(7) && !none.insert(7) && none.len() == 0);
    }
}
