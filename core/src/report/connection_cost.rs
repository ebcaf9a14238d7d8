//! What the connection cost, over repeated runs of one target: the first (cold) run's DNS, connect, TLS
//! and request timing against the later (warm) runs', how much of the first run's time to headers the
//! cold connection took, and whether each run reused a connection. From Resource Timing, which a
//! cross-origin server must allow with `Timing-Allow-Origin`; without it the phases are unavailable and
//! the report says which header would unlock them.

use serde::{Deserialize, Serialize};

use super::Report;
use crate::i18n::keys::ReportKey;
use crate::i18n::{Said, Text};
use crate::stats::median;

/// The response header that lets a page read another origin's connection timing.
pub const TIMING_ALLOW_ORIGIN: &str = "Timing-Allow-Origin";

/// One run's connection phases (or the medians of several runs'), ms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ConnectionPhases {
    /// DNS lookup.
    pub dns_ms: Option<f64>,
    /// TCP connect (TLS included when secure).
    pub connect_ms: Option<f64>,
    /// TLS handshake.
    pub tls_ms: Option<f64>,
    /// The request went out, after the fetch started.
    pub request_sent_ms: Option<f64>,
    /// Response headers, as the page measured them.
    pub headers_ms: Option<f64>,
    /// First token, as the page measured it.
    pub ttft_ms: Option<f64>,
}

/// Connection cost over runs of one target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConnectionCost {
    /// `nextHopProtocol` of the first run that said it.
    pub protocol: Option<String>,
    /// Whether the server allowed the detailed phases (same origin, or `Timing-Allow-Origin`).
    pub timing_allowed: bool,
    /// When not allowed: what is missing, naming the header (in English, or the language of
    /// [`ConnectionCost::localize`]).
    pub unavailable: Option<String>,
    /// That note as a catalogue text, to say it in another language; not serialised.
    #[serde(skip)]
    pub unavailable_words: Said,
    /// The first run.
    pub cold: ConnectionPhases,
    /// Medians of the later runs; `None` with a single run.
    pub warm: Option<ConnectionPhases>,
    /// DNS + connect of the first run (TLS is inside connect): the set-up a reused connection skips.
    pub cold_setup_ms: Option<f64>,
    /// The first run's headers time minus the later runs' median: how much later the cold run's answer
    /// started (set-up, plus anything else cold on the way: a TLS session, a server warming up).
    pub cold_headers_extra_ms: Option<f64>,
    /// Per run in order: whether it reused an open connection (`null` when not readable).
    pub reused: Vec<Option<bool>>,
}

fn phases(r: &Report) -> ConnectionPhases {
    let c = r.connection.clone().unwrap_or_default();
    ConnectionPhases {
        dns_ms: c.dns_ms,
        connect_ms: c.connect_ms,
        tls_ms: c.tls_ms,
        request_sent_ms: c.request_sent_ms,
        headers_ms: r.headers_ms,
        ttft_ms: r.ttft_ms,
    }
}

impl ConnectionCost {
    /// The cost over `runs` in the order they ran; `None` when no run has Resource Timing at all.
    pub fn of(runs: &[Report]) -> Option<ConnectionCost> {
        let first = runs.first()?;
        if runs.iter().all(|r| r.connection.is_none()) {
            return None;
        }
        let timing_allowed = runs.iter().any(|r| r.connection.as_ref().is_some_and(|c| c.timing_allowed == Some(true) || c.connect_ms.is_some()));
        let cold = phases(first);
        let warm_runs: Vec<ConnectionPhases> = runs.iter().skip(1).map(phases).collect();
        let med = |f: fn(&ConnectionPhases) -> Option<f64>| median(&warm_runs.iter().filter_map(f).collect::<Vec<_>>());
        let warm = (!warm_runs.is_empty()).then(|| ConnectionPhases {
            dns_ms: med(|p| p.dns_ms),
            connect_ms: med(|p| p.connect_ms),
            tls_ms: med(|p| p.tls_ms),
            request_sent_ms: med(|p| p.request_sent_ms),
            headers_ms: med(|p| p.headers_ms),
            ttft_ms: med(|p| p.ttft_ms),
        });
        let cold_setup_ms = match (cold.dns_ms, cold.connect_ms) {
            (None, None) => None,
            (dns, connect) => Some(dns.unwrap_or(0.0) + connect.unwrap_or(0.0)),
        };
        let (unavailable, unavailable_words) = if timing_allowed {
            (None, Said::default())
        } else {
            let (english, words) = Said::english(Text::msg(ReportKey::ConnectionUnavailable).with("header", TIMING_ALLOW_ORIGIN));
            (Some(english), words)
        };
        Some(ConnectionCost {
            protocol: runs.iter().find_map(|r| r.connection.as_ref()?.next_hop_protocol.clone()),
            timing_allowed,
            unavailable,
            unavailable_words,
            cold_setup_ms,
            cold_headers_extra_ms: cold.headers_ms.zip(warm.and_then(|w| w.headers_ms)).map(|(c, w)| c - w),
            cold,
            warm,
            reused: runs.iter().map(|r| r.connection.as_ref().and_then(|c| c.reused)).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{ConnectionTiming, Trace, TraceEnd};

    fn run(headers_ms: f64, connection: ConnectionTiming) -> Report {
        let event = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";
        let reads: Vec<(f64, String)> = (0..5).map(|i| (headers_ms + 100.0 + 20.0 * i as f64, event.to_string())).collect();
        let mut t = Trace::from_reads(200, "text/event-stream", headers_ms, reads, TraceEnd::Complete { at_ms: headers_ms + 300.0 });
        t.connection = Some(connection);
        Report::from_trace(&t)
    }

    #[test]
    fn a_cold_connection_costs_its_set_up_and_later_runs_reuse_it() {
        let cold = ConnectionTiming {
            next_hop_protocol: Some("h2".into()),
            dns_ms: Some(12.0),
            connect_ms: Some(30.0),
            tls_ms: Some(18.0),
            timing_allowed: Some(true),
            reused: Some(false),
            ..ConnectionTiming::default()
        };
        let warm = ConnectionTiming { dns_ms: Some(0.0), connect_ms: Some(0.0), reused: Some(true), ..cold.clone() };
        let runs = [run(80.0, cold), run(36.0, warm.clone()), run(40.0, warm)];
        let cost = ConnectionCost::of(&runs).unwrap();
        assert!(cost.timing_allowed && cost.unavailable.is_none());
        assert_eq!(cost.cold_setup_ms, Some(42.0));
        assert_eq!(cost.cold_headers_extra_ms, Some(42.0));
        assert_eq!(cost.reused, [Some(false), Some(true), Some(true)]);
        assert_eq!(cost.warm.unwrap().connect_ms, Some(0.0));
        assert_eq!(cost.protocol.as_deref(), Some("h2"));
    }

    #[test]
    fn without_timing_allow_origin_the_phases_are_unavailable_and_the_header_is_named() {
        let hidden = ConnectionTiming { next_hop_protocol: Some("http/1.1".into()), timing_allowed: Some(false), ..ConnectionTiming::default() };
        let cost = ConnectionCost::of(&[run(50.0, hidden.clone()), run(40.0, hidden)]).unwrap();
        assert!(!cost.timing_allowed);
        assert!(cost.unavailable.as_deref().unwrap().contains("Timing-Allow-Origin"));
        assert_eq!((cost.cold_setup_ms, cost.reused[1]), (None, None));
        // The page's own figures are still there.
        assert_eq!(cost.cold_headers_extra_ms, Some(10.0));
    }

    #[test]
    fn no_resource_timing_at_all_gives_nothing() {
        let mut r = run(50.0, ConnectionTiming::default());
        r.connection = None;
        assert_eq!(ConnectionCost::of(&[r]), None);
    }
}
