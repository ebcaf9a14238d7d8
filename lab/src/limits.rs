//! The lab's limits as a server: how long a client may take to send a request, how long a write may
//! wait for a client that does not read, and how many connections are served at once.
//!
//! The lab listens on a socket and `scripts/run.sh` starts it for people, so no client may hold it
//! hostage. Every limit has a production default below (`DEFAULT_*`, with the reason beside it) and can
//! be lowered in [`Limits`] (tests use ~1 s values to run fast):
//!
//! | limit | default | what happens past it |
//! |---|---|---|
//! | [`Limits::idle_limit_ms`] | 30 s | an open connection with no request started is closed quietly |
//! | [`Limits::head_deadline_ms`] | 10 s from the request's first byte | `408` and close: a client dripping header bytes (slowloris) cannot hold a connection |
//! | [`Limits::body_deadline_min_ms`], [`Limits::body_min_rate_bytes_per_s`] | 10 s, or the body's length at 64 KiB/s if longer | `408` and close |
//! | [`Limits::write_timeout_ms`] | 30 s per write (writes are at most [`crate::http::socket::MAX_WRITE_BYTES`]) | the connection is reset: a client that stops reading cannot pin a task |
//! | [`Limits::max_connections`] | 512 at once | `503` with `Retry-After: 1`, then close (never accepted and held) |
//!
//! The response size is capped apart from these, per request, by
//! [`crate::scenarios::size::MAX_RESPONSE_BYTES`].

use std::time::Duration;

/// `idle_limit_ms`: browsers keep an idle HTTP/1.1 connection for reuse; 30 s lets the page reuse one
/// between runs while an abandoned connection is not held for long.
pub const DEFAULT_IDLE_LIMIT_MS: u64 = 30_000;
/// `head_deadline_ms`: a real client sends its request head in one segment, in microseconds; 10 s is
/// generous for a slow link and bounds what a slowloris client can hold.
pub const DEFAULT_HEAD_DEADLINE_MS: u64 = 10_000;
/// `body_deadline_min_ms`: the lab's request bodies are small JSON documents; 10 s is plenty for them.
pub const DEFAULT_BODY_DEADLINE_MIN_MS: u64 = 10_000;
/// `body_min_rate_bytes_per_s`: a large body gets its length at 64 KiB/s (512 kbit/s, a slow mobile
/// link), so the largest body the lab takes (16 MiB) may take 256 s and no longer.
pub const DEFAULT_BODY_MIN_RATE_BYTES_PER_S: u64 = 64 * 1024;
/// `write_timeout_ms`: a client that reads (a browser's reader loop never waits on rendering) empties
/// the socket within milliseconds; one whose window stays shut for 30 s has stopped reading.
pub const DEFAULT_WRITE_TIMEOUT_MS: u64 = 30_000;
/// `max_connections`: a browser opens at most 6 connections per host over HTTP/1.1 and the page's
/// concurrency sweeps a few dozen; 512 is far above both and well under the usual limit of 1,024 open
/// files (each connection is one).
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;

/// Limits of a lab server; [`Default`] gives the production values (`DEFAULT_*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Longest wait for the first byte of a request on an open connection (new or kept alive), in ms.
    pub idle_limit_ms: u64,
    /// Longest time from a request's first byte to the end of its head, in ms.
    pub head_deadline_ms: u64,
    /// Shortest time a request body is given from the end of the head, in ms.
    pub body_deadline_min_ms: u64,
    /// A longer body is given its length at this rate (bytes per second; 0: the minimum only).
    pub body_min_rate_bytes_per_s: u64,
    /// Longest time one write to a client may take, in ms; past it the connection is reset.
    pub write_timeout_ms: u64,
    /// Most connections served at once; the next ones get a `503` and are closed.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            idle_limit_ms: DEFAULT_IDLE_LIMIT_MS,
            head_deadline_ms: DEFAULT_HEAD_DEADLINE_MS,
            body_deadline_min_ms: DEFAULT_BODY_DEADLINE_MIN_MS,
            body_min_rate_bytes_per_s: DEFAULT_BODY_MIN_RATE_BYTES_PER_S,
            write_timeout_ms: DEFAULT_WRITE_TIMEOUT_MS,
            max_connections: DEFAULT_MAX_CONNECTIONS,
        }
    }
}

impl Limits {
    /// The idle limit as a [`Duration`].
    pub fn idle_limit(&self) -> Duration {
        Duration::from_millis(self.idle_limit_ms)
    }

    /// The head deadline as a [`Duration`].
    pub fn head_deadline(&self) -> Duration {
        Duration::from_millis(self.head_deadline_ms)
    }

    /// Time allowed for a body of `len_bytes`: the minimum, or its length at the minimum rate if longer.
    pub fn body_deadline(&self, len_bytes: usize) -> Duration {
        let scaled_ms = match self.body_min_rate_bytes_per_s {
            0 => 0,
            rate => (len_bytes as u64).saturating_mul(1000) / rate,
        };
        Duration::from_millis(self.body_deadline_min_ms.max(scaled_ms))
    }

    /// The write time-out as a [`Duration`].
    pub fn write_timeout(&self) -> Duration {
        Duration::from_millis(self.write_timeout_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_deadline_has_a_floor_and_scales_with_the_length() {
        let limits = Limits::default();
        assert_eq!(limits.body_deadline(100), Duration::from_secs(10));
        assert_eq!(
            limits.body_deadline(16 * 1024 * 1024),
            Duration::from_secs(256)
        );
        let unscaled = Limits {
            body_min_rate_bytes_per_s: 0,
            ..Limits::default()
        };
        assert_eq!(unscaled.body_deadline(usize::MAX), Duration::from_secs(10));
        assert_eq!(
            limits.body_deadline(usize::MAX),
            Duration::from_millis(u64::MAX / (64 * 1024)),
            "saturates instead of overflowing"
        );
    }
}
