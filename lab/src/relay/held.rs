//! The upstream bytes a relay holds back from its client, and when they may leave.
//!
//! Pure bookkeeping, no I/O: the connection pushes each upstream read in and writes whatever a `take_*`
//! method hands back, in one write. The response head's end is looked for only until it is found, and
//! each byte is scanned once (a search resumes three bytes before where the last one stopped, so a
//! `\r\n\r\n` split across reads is still found).

use super::policy::RelayPolicy;

/// The blank line that ends an HTTP response head.
const HEAD_END: &[u8] = b"\r\n\r\n";

/// Whether held bytes may leave yet as far as the response head is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeadGate {
    /// No head to wait for (any more).
    Open,
    /// Waiting for the head's end and one byte after it; `scanned` bytes were searched, `head_end` is
    /// the offset just past the blank line once it was found.
    Waiting {
        scanned: usize,
        head_end: Option<usize>,
    },
}

/// Bytes read from upstream and not yet written to the client.
#[derive(Debug, Clone)]
pub(super) struct Held {
    bytes: Vec<u8>,
    gate: HeadGate,
    on_timer: bool,
}

impl Held {
    /// An empty hold for `policy`.
    pub fn new(policy: RelayPolicy) -> Self {
        let gate = if policy.hold_headers {
            HeadGate::Waiting {
                scanned: 0,
                head_end: None,
            }
        } else {
            HeadGate::Open
        };
        Self {
            bytes: Vec::new(),
            gate,
            on_timer: policy.period_ms().is_some(),
        }
    }

    /// Adds one upstream read.
    pub fn push(&mut self, data: &[u8]) {
        self.bytes.extend_from_slice(data);
        if let HeadGate::Waiting { scanned, head_end } = &mut self.gate {
            if head_end.is_none() {
                let from = scanned.saturating_sub(HEAD_END.len() - 1);
                *head_end = self.bytes[from..]
                    .windows(HEAD_END.len())
                    .position(|window| window == HEAD_END)
                    .map(|at| from + at + HEAD_END.len());
                *scanned = self.bytes.len();
            }
            if head_end.is_some_and(|end| self.bytes.len() > end) {
                self.gate = HeadGate::Open;
            }
        }
    }

    /// What to write right after a read: everything held, unless a timer or the head gate holds it.
    pub fn take_now(&mut self) -> Option<Vec<u8>> {
        if self.on_timer {
            return None;
        }
        self.take_if_open()
    }

    /// What to write at a timer flush: everything held, unless the head gate still holds it.
    pub fn take_at_flush(&mut self) -> Option<Vec<u8>> {
        self.take_if_open()
    }

    /// Everything held, whatever the policy (the upstream side has ended).
    pub fn take_rest(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.bytes)
    }

    fn take_if_open(&mut self) -> Option<Vec<u8>> {
        if self.gate != HeadGate::Open || self.bytes.is_empty() {
            return None;
        }
        Some(self.take_rest())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(flush_every_ms: Option<u64>, hold_headers: bool) -> RelayPolicy {
        RelayPolicy {
            flush_every_ms,
            hold_headers,
        }
    }

    #[test]
    fn transparent_passes_each_read_at_once() {
        let mut held = Held::new(RelayPolicy::default());
        held.push(b"HTTP/1.1 200 OK\r\n");
        assert_eq!(
            held.take_now().as_deref(),
            Some(&b"HTTP/1.1 200 OK\r\n"[..])
        );
        assert_eq!(held.take_now(), None, "nothing held, nothing written");
    }

    #[test]
    fn hold_headers_waits_for_the_blank_line_and_one_byte_after_it_even_split_across_reads() {
        let mut held = Held::new(policy(None, true));
        held.push(b"HTTP/1.1 200 OK\r\nA: b\r");
        assert_eq!(held.take_now(), None);
        held.push(b"\n\r");
        held.push(b"\n");
        assert_eq!(held.take_now(), None, "the head alone is held");
        held.push(b"5");
        assert_eq!(
            held.take_now().as_deref(),
            Some(&b"HTTP/1.1 200 OK\r\nA: b\r\n\r\n5"[..]),
            "head and first body byte in one write"
        );
        held.push(b"\r\nhello\r\n");
        assert_eq!(held.take_now().as_deref(), Some(&b"\r\nhello\r\n"[..]));
        held.push(b"\r\n\r\nlater blank lines change nothing");
        assert!(held.take_now().is_some());
    }

    #[test]
    fn a_head_and_body_in_one_read_leave_together_and_a_bodyless_head_waits_for_the_end() {
        let mut held = Held::new(policy(None, true));
        held.push(b"HTTP/1.1 200 OK\r\n\r\nbody");
        assert_eq!(
            held.take_now().as_deref(),
            Some(&b"HTTP/1.1 200 OK\r\n\r\nbody"[..])
        );
        let mut held = Held::new(policy(None, true));
        held.push(b"HTTP/1.1 204 No Content\r\n\r\n");
        assert_eq!((held.take_now(), held.take_at_flush()), (None, None));
        assert_eq!(held.take_rest(), b"HTTP/1.1 204 No Content\r\n\r\n");
    }

    #[test]
    fn a_timer_holds_every_read_until_the_flush() {
        let mut held = Held::new(policy(Some(250), false));
        held.push(b"a");
        held.push(b"b");
        assert_eq!(held.take_now(), None);
        assert_eq!(held.take_at_flush().as_deref(), Some(&b"ab"[..]));
        assert_eq!(held.take_at_flush(), None, "an empty flush writes nothing");
    }

    #[test]
    fn with_both_a_flush_before_the_first_body_byte_keeps_the_head() {
        let mut held = Held::new(policy(Some(250), true));
        held.push(b"HTTP/1.1 200 OK\r\n\r\n");
        assert_eq!(held.take_at_flush(), None);
        held.push(b"x");
        assert_eq!(held.take_now(), None, "the timer still decides");
        assert_eq!(
            held.take_at_flush().as_deref(),
            Some(&b"HTTP/1.1 200 OK\r\n\r\nx"[..])
        );
    }
}
