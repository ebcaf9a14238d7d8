//! What a relay does to the response bytes it passes on: flush on a timer, hold the response head, or
//! nothing at all.

use std::fmt;

/// How a relay delivers upstream bytes to its client (the default is a transparent relay).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RelayPolicy {
    /// Hold everything read from upstream and write it in one write at every multiple of this many ms
    /// after the connection was accepted (a relay that flushes on a timer); `None` or `Some(0)`: no timer.
    pub flush_every_ms: Option<u64>,
    /// Hold upstream bytes until the first response head and at least one body byte after it have
    /// arrived, then write them together (a proxy that sends the headers only with the first body byte).
    pub hold_headers: bool,
}

impl RelayPolicy {
    /// The flush period in ms, when there is one (`Some(0)` counts as none).
    pub fn period_ms(self) -> Option<u64> {
        self.flush_every_ms.filter(|&ms| ms > 0)
    }

    /// The next flush after `elapsed_ms` (ms since the connection was accepted): the smallest multiple
    /// of the period strictly after it, so that deadlines never drift and a late flush skips ahead.
    pub fn next_flush_ms(self, elapsed_ms: u64) -> Option<u64> {
        let period_ms = self.period_ms()?;
        let ticks = elapsed_ms / period_ms + 1;
        Some(ticks.saturating_mul(period_ms))
    }
}

impl fmt::Display for RelayPolicy {
    /// `transparent`, `flush every 250 ms`, `hold headers`, or both joined by `, `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.period_ms(), self.hold_headers) {
            (None, false) => write!(f, "transparent"),
            (Some(ms), false) => write!(f, "flush every {ms} ms"),
            (None, true) => write!(f, "hold headers"),
            (Some(ms), true) => write!(f, "flush every {ms} ms, hold headers"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flushes_fall_on_multiples_of_the_period() {
        let policy = RelayPolicy {
            flush_every_ms: Some(250),
            hold_headers: false,
        };
        assert_eq!(policy.next_flush_ms(0), Some(250));
        assert_eq!(policy.next_flush_ms(249), Some(250));
        assert_eq!(policy.next_flush_ms(250), Some(500));
        assert_eq!(
            policy.next_flush_ms(1_010),
            Some(1_250),
            "a late flush skips ahead"
        );
        assert_eq!(RelayPolicy::default().next_flush_ms(10), None);
        let zero = RelayPolicy {
            flush_every_ms: Some(0),
            hold_headers: false,
        };
        assert_eq!((zero.period_ms(), zero.next_flush_ms(5)), (None, None));
    }

    #[test]
    fn says_what_it_does() {
        let mut policy = RelayPolicy::default();
        assert_eq!(policy.to_string(), "transparent");
        policy.hold_headers = true;
        assert_eq!(policy.to_string(), "hold headers");
        policy.flush_every_ms = Some(250);
        assert_eq!(policy.to_string(), "flush every 250 ms, hold headers");
    }
}
