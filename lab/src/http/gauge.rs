//! A count of things open right now (connections, refusals in flight) with a cap: entering gives a
//! guard, and dropping the guard (however the task ends) counts one down.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A shared count with a cap.
#[derive(Debug, Default)]
pub(crate) struct Gauge {
    open: AtomicUsize,
}

/// One counted thing; dropping it counts it out.
#[derive(Debug)]
pub(crate) struct Entered {
    gauge: Arc<Gauge>,
}

impl Gauge {
    /// Counts one in and returns its guard, or `None` when `max` are already in.
    pub fn try_enter(self: &Arc<Self>, max: usize) -> Option<Entered> {
        let entered = self
            .open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |open| {
                (open < max).then_some(open + 1)
            })
            .is_ok();
        entered.then(|| Entered {
            gauge: Arc::clone(self),
        })
    }

    /// How many are in right now.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        self.gauge.open.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_holds_and_a_dropped_guard_frees_its_place() {
        let gauge = Arc::new(Gauge::default());
        let first = gauge.try_enter(2).expect("first");
        let second = gauge.try_enter(2).expect("second");
        assert!(gauge.try_enter(2).is_none());
        assert_eq!(gauge.open(), 2);
        drop(first);
        assert_eq!(gauge.open(), 1);
        let third = gauge.try_enter(2).expect("a place came free");
        drop((second, third));
        assert_eq!(gauge.open(), 0);
        assert!(gauge.try_enter(0).is_none(), "a cap of 0 lets nothing in");
    }
}
