//! What the connection cost, over repeated runs of one target: the first (cold) run's DNS, connect, TLS
//! and request timing against the later (warm) runs', how much of the first run's time to headers the
//! cold connection took, and whether each run reused a connection. From Resource Timing, which a
//! cross-origin server must allow with `Timing-Allow-Origin`; without it the phases are unavailable and
//! the report says which header would unlock them.

use serde::{Deserialize, Serialize};

use super::Report;
use crate::findings::triage::net::preflighted;
use crate::i18n::keys::ReportKey;
use crate::i18n::{Said, Text};
use crate::stats::median;
use crate::text::ms as fmt_ms;

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
    /// Whether the first run needed a CORS preflight (a request to another origin that is not a simple
    /// one: a JSON body, an API key header); absent when the page's origin was not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preflight: Option<bool>,
    /// When the first run needed a preflight and its own request reused a connection: the preflight
    /// opened that connection, so its set-up is inside the first run's `request_sent_ms`, not in its
    /// phases (in English, or the language of [`ConnectionCost::localize`]). `cold_setup_ms` is then
    /// `null`: the set-up happened but was not measured apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preflight_note: Option<String>,
    /// That note as a catalogue text, to say it in another language; not serialised.
    #[serde(skip)]
    pub preflight_words: Said,
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
        let reused: Vec<Option<bool>> = runs.iter().map(|r| r.connection.as_ref().and_then(|c| c.reused)).collect();
        let preflight = preflighted(&first.request);
        // The first run's request went out on a connection its preflight had just opened.
        let setup_in_preflight = preflight == Some(true) && reused.first() == Some(&Some(true));
        let cold_setup_ms = match (cold.dns_ms, cold.connect_ms) {
            _ if setup_in_preflight => None,
            (None, None) => None,
            (dns, connect) => Some(dns.unwrap_or(0.0) + connect.unwrap_or(0.0)),
        };
        let (preflight_note, preflight_words) = if setup_in_preflight {
            let note = Text::msg(ReportKey::ConnectionPreflight).with("request_sent", cold.request_sent_ms.map_or_else(|| "n/a".into(), fmt_ms));
            let (english, words) = Said::english(note);
            (Some(english), words)
        } else {
            (None, Said::default())
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
            reused,
            preflight,
            preflight_note,
            preflight_words,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
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

    /// Three runs of a request (the first on a connection it may have reused) sent from a page of
    /// `page_origin` to `url` with `method`, a body of `body_len_bytes` and `headers`.
    fn requested(page_origin: Option<&str>, url: &str, method: &str, body_len_bytes: usize, headers: &[&str], first_reused: bool) -> Vec<Report> {
        let timing = |reused: bool, request_sent_ms: f64| ConnectionTiming {
            next_hop_protocol: Some("h2".into()),
            dns_ms: Some(0.0),
            connect_ms: Some(0.0),
            timing_allowed: Some(true),
            reused: Some(reused),
            request_sent_ms: Some(request_sent_ms),
            ..ConnectionTiming::default()
        };
        [(first_reused, 22.5, 25.0), (true, 3.7, 6.0), (true, 3.5, 5.5)]
            .into_iter()
            .map(|(reused, sent, headers_ms)| {
                let mut r = run(headers_ms, timing(reused, sent));
                r.request.page_origin = page_origin.map(str::to_string);
                r.request.url = url.into();
                r.request.method = method.into();
                r.request.body_len_bytes = body_len_bytes;
                r.request.header_names = headers.iter().map(|h| h.to_string()).collect();
                r
            })
            .collect()
    }

    /// Regression: every cross-origin request with a JSON body or an API key is preceded by a CORS
    /// preflight, which opens the connection; the first run then showed `reused` and a set-up of 0 ms.
    #[test]
    fn a_preflight_that_opened_the_first_connection_is_said_and_its_set_up_is_not_called_zero() {
        let page = Some("http://127.0.0.1:8787");
        let api = "https://API.example.com/v1/chat/completions";
        let cost = ConnectionCost::of(&requested(page, api, "POST", 120, &[], true)).unwrap();
        assert_eq!((cost.preflight, cost.cold_setup_ms), (Some(true), None));
        let note = cost.preflight_note.as_deref().unwrap();
        assert!(note.contains("preflight") && note.contains("22.5 ms"), "{note}");
        let zh = cost.localize(Lang::ZhCn).preflight_note.unwrap();
        assert!(zh.contains("预检") && zh.contains("22.5 ms"), "{zh}");
        // An API key header makes a GET need one too.
        assert_eq!(ConnectionCost::of(&requested(page, api, "GET", 0, &["Authorization"], true)).unwrap().preflight, Some(true));

        // A preflighted request whose first run opened its own connection: the set-up is its own.
        let fresh = ConnectionCost::of(&requested(page, api, "POST", 120, &[], false)).unwrap();
        assert_eq!((fresh.preflight, fresh.cold_setup_ms, fresh.preflight_note), (Some(true), Some(0.0), None));
        // No preflight: a simple GET, the same origin (default port written out or not), an unknown page.
        for (page, url, method, body) in [
            (page, api, "GET", 0),
            (Some("https://api.example.com"), "https://api.example.com:443/v1/chat/completions", "POST", 120),
            (Some("http://[::1]:8080"), "http://[::1]:8080/v1", "POST", 120),
        ] {
            let cost = ConnectionCost::of(&requested(page, url, method, body, &[], true)).unwrap();
            assert_eq!((cost.preflight, cost.cold_setup_ms, cost.preflight_note), (Some(false), Some(0.0), None), "{url}");
        }
        let unknown = ConnectionCost::of(&requested(None, api, "POST", 120, &[], true)).unwrap();
        assert_eq!((unknown.preflight, unknown.cold_setup_ms), (None, Some(0.0)));
        let json = serde_json::to_value(&unknown).unwrap();
        assert!(json.get("preflight").is_none() && json.get("preflight_note").is_none(), "{json}");
    }

    #[test]
    fn no_resource_timing_at_all_gives_nothing() {
        let mut r = run(50.0, ConnectionTiming::default());
        r.connection = None;
        assert_eq!(ConnectionCost::of(&[r]), None);
    }
}
