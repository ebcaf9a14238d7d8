//! One stable sort for the crate's lists of things (findings by severity, warnings by position, names,
//! header names): `slice::sort_by` compiles a whole merge sort (about 3 KB of wasm) for every element
//! type and comparison closure; this one sorts indices with one small merge sort of its own, and only the
//! few lines that move the elements are per type (issue 13). Same result as `sort_by`: stable, O(n log n).
//!
//! Plain numbers are sorted by value with the same merge sort ([`sort_f64`]); counts and read lengths are
//! sorted as f64 with it too.

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

/// Sorts numbers as `values.sort_by(f64::total_cmp)` would (`-0.0` before `0.0`, NaN at the ends): with
/// the merge sort below, not a second copy of the standard library's sort (issue 13's size budget). Fast
/// enough for the longest lists (every gap of a 100,000-event stream: BENCHMARKS.md, "Size").
pub fn sort_f64(values: &mut Vec<f64>) {
    merge_sort(values, |a, b| a.total_cmp(b) == Ordering::Less);
}

/// The indices `0..n` in the stable order `compare` gives them: the one compiled sort of things.
fn stable_order(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    merge_sort(&mut order, |&a, &b| compare(a, b) == Ordering::Less);
    order
}

/// Items per run that insertion sort orders before the merging starts.
const RUN: usize = 16;

/// Sorts `items` stably by `less` (whether the first goes strictly before the second): runs of [`RUN`]
/// items by insertion, then bottom-up merges, a pair of runs already in order copied whole (so sorted input
/// costs a copy per pass). A few hundred bytes of wasm where `slice::sort_by` is about 4 KB per instance
/// (driftsort, its quicksort and small-sort paths).
fn merge_sort<T: Copy + Default>(items: &mut Vec<T>, mut less: impl FnMut(&T, &T) -> bool) {
    let n = items.len();
    for run in items.chunks_mut(RUN) {
        for i in 1..run.len() {
            let mut j = i;
            while j > 0 && less(&run[j], &run[j - 1]) {
                run.swap(j, j - 1);
                j -= 1;
            }
        }
    }
    let mut merged: Vec<T> = vec![T::default(); n];
    let mut width = RUN;
    while width < n {
        for start in (0..n).step_by(2 * width) {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (from, to) = (&items[start..end], &mut merged[start..end]);
            let half = mid - start;
            if half == from.len() || !less(&from[half], &from[half - 1]) {
                to.copy_from_slice(from);
                continue;
            }
            let (mut left, mut right, mut k) = (0, half, 0);
            while left < half && right < from.len() {
                // The right run's item goes first only when strictly before: equal items keep their order.
                let take_right = less(&from[right], &from[left]);
                to[k] = if take_right { from[right] } else { from[left] };
                right += take_right as usize;
                left += !take_right as usize;
                k += 1;
            }
            let rest = half - left;
            to[k..k + rest].copy_from_slice(&from[left..half]);
            to[k + rest..].copy_from_slice(&from[right..]);
        }
        std::mem::swap(items, &mut merged);
        width *= 2;
    }
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

    #[test]
    fn every_length_and_many_ties_sort_as_the_standard_library_does() {
        // A repeatable pseudo-random list of (key, position): few distinct keys, so ties are everywhere.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for n in (0..70).chain([127, 128, 129, 1000, 4099]) {
            let items: Vec<(u64, usize)> = (0..n)
                .map(|i| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % 7, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|p| p.0);
            let mut sorted = items;
            sort_by_key(&mut sorted, |p| p.0);
            assert_eq!(sorted, expected, "{n} items");
        }
    }

    #[test]
    fn numbers_sort_as_total_cmp_sorts_them() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for n in (0..40).chain([257, 3000]) {
            let mut values: Vec<f64> = (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % 50) as f64 / 4.0 - 5.0
                })
                .collect();
            values.extend([f64::NAN, -0.0, 0.0, f64::INFINITY, f64::NEG_INFINITY, -f64::NAN]);
            let mut expected = values.clone();
            expected.sort_by(f64::total_cmp);
            sort_f64(&mut values);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&values), bits(&expected), "{n} values");
        }
    }
}
