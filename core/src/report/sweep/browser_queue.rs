//! The browser's own queue: over HTTP/1.1 a browser opens at most [`HTTP1_CONNECTIONS_PER_ORIGIN`]
//! connections to one origin and holds every further request until one of them is free. Streams started
//! together above that number therefore wait in the page, not at the server, and a sweep must not blame
//! the server for it.
//!
//! Detected from what each run measured, never assumed from the level: in one round (runs started
//! together), exactly [`HTTP1_CONNECTIONS_PER_ORIGIN`] runs got their response headers before the first
//! run of the round ended, and every later one got them only after one more run had ended (the
//! staircase: each ended stream frees the connection the next request goes out on). A server that queues
//! sends its headers at once (all runs early) or holds them for its own slot count (not 6), and HTTP/2
//! (`nextHopProtocol` `h2`/`h3`) carries every stream on one connection, so neither reads as the browser.
//! The wait of a queued run is estimated as the time from its `fetch()` to the end of the run whose
//! connection it took (the k-th earliest end of the round for the k-th late run).

use crate::report::Report;

/// Connections a browser opens to one origin over HTTP/1.1 (Chromium, Firefox and Safari all use 6).
pub const HTTP1_CONNECTIONS_PER_ORIGIN: usize = 6;

/// Slack for comparing times of different runs, ms: their wall-clock starts (`Date.now()`) have 1 ms
/// resolution.
const ALIGN_SLACK_MS: f64 = 2.0;

/// What the browser's queue did to one round of runs started together.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoundQueue {
    /// Per run of the round (same order): how long the browser held it before sending, ms; 0 when it
    /// went out at once.
    pub waits_ms: Vec<f64>,
    /// Runs the browser held back.
    pub queued: usize,
}

/// Whether a run says it used HTTP/2 or HTTP/3 (no per-origin connection limit).
fn multiplexed(report: &Report) -> bool {
    report
        .connection
        .as_ref()
        .and_then(|c| c.next_hop_protocol.as_deref())
        .is_some_and(|p| p.starts_with("h2") || p.starts_with("h3"))
}

/// The staircase test on one round; no queue (all waits 0) when the round does not show it.
pub fn round_queue(round: &[&Report]) -> RoundQueue {
    let none = RoundQueue { waits_ms: vec![0.0; round.len()], queued: 0 };
    if round.len() <= HTTP1_CONNECTIONS_PER_ORIGIN || round.iter().any(|r| multiplexed(r)) {
        return none;
    }
    // Wall-clock start of each run (ms), so the runs' own clocks line up; 0 for all when unknown.
    let start = |r: &Report| r.started_unix_ms.unwrap_or(0.0);
    let mut ends: Vec<f64> = round.iter().filter_map(|r| r.end.as_ref().map(|e| start(r) + e.at_ms())).collect();
    crate::sort::sort_f64(&mut ends);
    let Some(&first_end) = ends.first() else { return none };
    let headers: Vec<Option<f64>> = round.iter().map(|r| r.headers_ms.map(|h| start(r) + h)).collect();
    let early = headers.iter().filter(|h| h.is_some_and(|h| h < first_end)).count();
    let mut late: Vec<(usize, f64)> =
        headers.iter().enumerate().filter_map(|(i, h)| h.filter(|&h| h >= first_end).map(|h| (i, h))).collect();
    if early != HTTP1_CONNECTIONS_PER_ORIGIN || late.is_empty() {
        return none;
    }
    crate::sort::sort_by(&mut late, |a, b| a.1.total_cmp(&b.1));
    let mut waits = vec![0.0; round.len()];
    for (k, &(i, headers_at)) in late.iter().enumerate() {
        // The k-th late request went out when the k-th stream of the round ended.
        let Some(&freed_at) = ends.get(k) else { return none };
        if headers_at + ALIGN_SLACK_MS < freed_at {
            return none;
        }
        waits[i] = (freed_at - start(round[i])).max(0.0);
    }
    RoundQueue { waits_ms: waits, queued: late.len() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{ConnectionTiming, Trace, TraceEnd};

    /// A streamed run started at `start` (unix ms), headers at `headers`, ending at `end` (ms after start).
    fn run(start: f64, headers: f64, end: f64, protocol: &str) -> Report {
        let event = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";
        let reads: Vec<(f64, String)> =
            (0..5).map(|i| (headers + 10.0 + (end - headers - 20.0) * i as f64 / 4.0, event.to_string())).collect();
        let mut t = Trace::from_reads(200, "text/event-stream", headers, reads, TraceEnd::Complete { at_ms: end });
        t.started_unix_ms = Some(start);
        t.connection = Some(ConnectionTiming { next_hop_protocol: Some(protocol.into()), ..ConnectionTiming::default() });
        Report::from_trace(&t)
    }

    /// 12 streams of 500 ms over HTTP/1.1: 6 at once, then each of the other 6 when one ends.
    fn staircase(protocol: &str) -> Vec<Report> {
        let t0 = 1_000_000.0;
        (0..12)
            .map(|i| if i < 6 { run(t0, 5.0, 500.0 + i as f64, protocol) } else { run(t0, 505.0 + i as f64, 1005.0 + i as f64, protocol) })
            .collect()
    }

    #[test]
    fn twelve_streams_over_http1_queue_six_in_the_browser() {
        let runs = staircase("http/1.1");
        let q = round_queue(&runs.iter().collect::<Vec<_>>());
        assert_eq!(q.queued, 6);
        assert_eq!(q.waits_ms[..6], [0.0; 6]);
        // The 7th went out when the first stream ended, at 500 ms.
        assert!((q.waits_ms[6] - 500.0).abs() < 1e-9, "{:?}", q.waits_ms);
        assert!((q.waits_ms[11] - 505.0).abs() < 1e-9, "{:?}", q.waits_ms);
    }

    #[test]
    fn the_same_staircase_over_http2_is_not_the_browser() {
        let runs = staircase("h2");
        assert_eq!(round_queue(&runs.iter().collect::<Vec<_>>()).queued, 0);
    }

    #[test]
    fn a_server_that_sends_headers_at_once_and_queues_is_not_the_browser() {
        let t0 = 5_000.0;
        let runs: Vec<Report> = (0..8).map(|i| run(t0, 3.0, if i < 3 { 500.0 } else { 1000.0 }, "http/1.1")).collect();
        assert_eq!(round_queue(&runs.iter().collect::<Vec<_>>()).queued, 0);
    }

    #[test]
    fn a_server_holding_headers_for_three_slots_is_not_the_browser() {
        let t0 = 5_000.0;
        let runs: Vec<Report> =
            (0..8).map(|i| if i < 3 { run(t0, 5.0, 500.0, "http/1.1") } else { run(t0, 505.0, 1000.0, "http/1.1") }).collect();
        assert_eq!(round_queue(&runs.iter().collect::<Vec<_>>()).queued, 0);
    }

    #[test]
    fn six_or_fewer_streams_never_queue() {
        let runs = staircase("http/1.1");
        assert_eq!(round_queue(&runs[..6].iter().collect::<Vec<_>>()).queued, 0);
    }
}
