//! One stable sort for the crate's lists of things (findings by severity, warnings by position, names,
//! header names): `slice::sort_by` compiles a whole merge sort (about 3 KB of wasm) for every element
//! type and comparison closure; this one sorts indices with one compiled sort, and only the few lines that
//! move the elements are per type (issue 13). Same result as `sort_by`: stable, O(n log n).
//!
//! Plain numbers keep the standard stable sort by `f64::total_cmp`: one copy, the fastest for the long
//! lists (every gap of a 100,000-event stream); counts and read lengths are sorted as f64 with it too.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as `items.sort_by(compare)` would.
pub fn sort_by<T>(items: &mut Vec<T>, mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// Sorts `items` stably by the key `key` gives, as `items.sort_by_key(key)` would.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably in their natural order, as `items.sort()` would.
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
}

/// The indices `0..n` in the stable order `compare` gives them: the one compiled sort.
fn stable_order(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_library_and_keeps_equal_items_in_order() {
        let items: Vec<(u8, usize)> = [3u8, 1, 2, 1, 3, 0, 2, 1].iter().enumerate().map(|(i, &k)| (k, i)).collect();
        let mut expected = items.clone();
        expected.sort_by_key(|p| p.0);
        let mut sorted = items.clone();
        sort_by_key(&mut sorted, |p| p.0);
        assert_eq!(sorted, expected);
        let mut reversed = items;
        sort_by(&mut reversed, |a, b| b.0.cmp(&a.0));
        assert_eq!(reversed.iter().map(|p| p.1).collect::<Vec<_>>(), vec![0, 4, 2, 6, 1, 3, 7, 5]);
        let mut names = vec!["b".to_string(), "a".into(), "c".into(), "a".into()];
        sort(&mut names);
        assert_eq!(names, ["a", "a", "b", "c"]);
        let mut empty: Vec<u8> = Vec::new();
        sort(&mut empty);
        assert!(empty.is_empty());
    }
}
