//! `batch=K`: content events leave K at a time in ONE write, at the deadline of the last event of each
//! group (the last group may be shorter): an inference engine's micro-batching or multi-step
//! scheduling, where several tokens are decided before any of them is sent.
//!
//! Works on any timed plan (OpenAI chat events or another dialect's steps): only consecutive content
//! items are grouped; everything else (role, start, reasoning, finish, usage, end) keeps its own write.

/// One write of a timed response: when it is due and what it carries.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Write<T> {
    /// Deadline in ms after the request: the last grouped item's deadline.
    pub at_ms: f64,
    /// The items sent together, in order.
    pub items: Vec<T>,
}

/// Groups `items` (each with its deadline) into writes: consecutive content items `batch` at a time,
/// other items alone; `batch` 0 or 1 gives one write per item. Lazy: one write is held at a time.
pub(super) fn writes<T>(
    items: impl IntoIterator<Item = (f64, T)>,
    batch: usize,
    is_content: impl Fn(&T) -> bool,
) -> impl Iterator<Item = Write<T>> {
    let batch = batch.max(1);
    let mut items = items.into_iter().peekable();
    std::iter::from_fn(move || {
        let (at_ms, item) = items.next()?;
        let grouped = is_content(&item);
        let mut write = Write {
            at_ms,
            items: vec![item],
        };
        while grouped && write.items.len() < batch {
            let Some((at_ms, item)) = items.next_if(|(_, next)| is_content(next)) else {
                break;
            };
            write.at_ms = at_ms;
            write.items.push(item);
        }
        Some(write)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items as (deadline, is content, label).
    fn grouped(items: &[(f64, bool, u8)], batch: usize) -> Vec<(f64, Vec<u8>)> {
        writes(items.iter().map(|&(at, c, l)| (at, (c, l))), batch, |i| i.0)
            .map(|w| (w.at_ms, w.items.iter().map(|i| i.1).collect()))
            .collect()
    }

    #[test]
    fn content_leaves_k_at_a_time_at_the_last_deadline_and_the_last_group_may_be_short() {
        let items = [
            (0.0, false, 0),
            (10.0, true, 1),
            (20.0, true, 2),
            (30.0, true, 3),
            (40.0, true, 4),
            (50.0, true, 5),
            (50.0, false, 6),
        ];
        assert_eq!(
            grouped(&items, 2),
            [
                (0.0, vec![0]),
                (20.0, vec![1, 2]),
                (40.0, vec![3, 4]),
                (50.0, vec![5]),
                (50.0, vec![6]),
            ]
        );
        assert_eq!(grouped(&items, 1).len(), 7, "batch=1 changes nothing");
        assert_eq!(grouped(&items, 0).len(), 7);
        assert_eq!(grouped(&items, 99)[1], (50.0, vec![1, 2, 3, 4, 5]));
    }

    #[test]
    fn a_non_content_item_ends_a_group() {
        let items = [
            (10.0, true, 1),
            (15.0, false, 2),
            (20.0, true, 3),
            (30.0, true, 4),
        ];
        assert_eq!(
            grouped(&items, 3),
            [(10.0, vec![1]), (15.0, vec![2]), (30.0, vec![3, 4])]
        );
        assert!(grouped(&[], 3).is_empty());
    }
}
