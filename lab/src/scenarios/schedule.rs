//! When content events are due: a fixed cadence after the first token, optionally with jitter.
//!
//! The jitter is deterministic (the same for every response with the same settings) so that a test or
//! a person comparing two runs sees the same pattern: event `i` moves by `offset_ms(i)` in
//! `[-jitter_ms, +jitter_ms]`, then is clamped so that it is never due before the event before it.

/// Deadlines of `events` content events, in ms after the request: `first_ms + index * cadence_ms`
/// (fractional ms allowed, e.g. a 0.5 ms cadence), each moved by its jitter. Computed from the start,
/// never from the previous event, so nothing accumulates over a long stream.
pub fn deadlines_ms(first_ms: f64, cadence_ms: f64, jitter_ms: u64, events: usize) -> Vec<f64> {
    deadlines(first_ms, cadence_ms, jitter_ms).take(events).collect()
}

/// The same deadlines as [`deadlines_ms`], one at a time and without end (nothing held: a stream of
/// 100,000 events does not need its schedule in memory).
pub fn deadlines(first_ms: f64, cadence_ms: f64, jitter_ms: u64) -> impl Iterator<Item = f64> + Clone {
    (0usize..).scan(0.0f64, move |previous_ms, index| {
        let base_ms = first_ms + index as f64 * cadence_ms;
        let due_ms = (base_ms + offset_ms(index, jitter_ms) as f64).max(0.0);
        *previous_ms = due_ms.max(*previous_ms);
        Some(*previous_ms)
    })
}

/// The pseudo-random shift of event `index`, uniform-ish in `[-jitter_ms, +jitter_ms]`.
pub fn offset_ms(index: usize, jitter_ms: u64) -> i64 {
    if jitter_ms == 0 {
        return 0;
    }
    let span = 2 * jitter_ms + 1;
    (splitmix64(index as u64) % span) as i64 - jitter_ms as i64
}

/// One step of SplitMix64 (Steele, Lea and Flood), a good enough hash for a jitter pattern.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_jitter_deadlines_follow_the_cadence() {
        assert_eq!(deadlines_ms(300.0, 20.0, 0, 4), [300.0, 320.0, 340.0, 360.0]);
        assert!(deadlines_ms(5.0, 1.0, 0, 0).is_empty());
        assert_eq!(deadlines_ms(0.0, 0.5, 0, 4), [0.0, 0.5, 1.0, 1.5]);
        let long = deadlines_ms(0.0, 0.5, 0, 100_000);
        assert_eq!(long[99_999], 49_999.5, "no drift over a long stream");
    }

    #[test]
    fn jitter_stays_in_range_uses_both_sides_and_is_deterministic() {
        let offsets: Vec<i64> = (0..500).map(|i| offset_ms(i, 8)).collect();
        assert!(offsets.iter().all(|o| (-8..=8).contains(o)));
        assert!(offsets.iter().any(|&o| o <= -6) && offsets.iter().any(|&o| o >= 6));
        assert_eq!(deadlines_ms(300.0, 20.0, 8, 50), deadlines_ms(300.0, 20.0, 8, 50));
        let deadlines = deadlines_ms(300.0, 20.0, 8, 50);
        for (i, due) in deadlines.iter().enumerate() {
            assert!(
                (due - (300.0 + 20.0 * i as f64)).abs() <= 8.0,
                "event {i} due at {due}"
            );
        }
    }

    #[test]
    fn jitter_larger_than_the_cadence_never_goes_backwards_or_below_zero() {
        let deadlines = deadlines_ms(0.0, 3.0, 10, 200);
        assert!(deadlines.windows(2).all(|w| w[0] <= w[1]));
        assert!(
            deadlines.windows(2).any(|w| w[0] == w[1]),
            "clamping happened"
        );
    }
}
