//! Connection facts from Resource Timing, when the server allows it (`Timing-Allow-Origin`).

use streamscope_core::trace::ConnectionTiming;
use wasm_bindgen::JsCast;
use web_sys::PerformanceResourceTiming;

use super::scope::Scope;

/// How far an entry's `startTime` may be from the run's `fetch()` call to be that run's entry: the
/// browser stamps it in the same task, well under a millisecond later.
const START_MATCH_MS: f64 = 50.0;

/// When the buffer holds this many entries it is cleared after a read: the browser keeps 250 by default
/// and then drops new ones (a long session would lose Resource Timing for good), while clearing it on
/// every read would take the entries of runs still going at the same time (a sweep level).
const CLEAR_ABOVE_ENTRIES: u32 = 150;

/// The Resource Timing entry for `url` whose `startTime` is nearest `t0_ms` (when `fetch()` was called, on
/// this scope's clock; the newest entry when `None`), or `None` when the browser has none. Fields the
/// server did not allow (cross-origin without `Timing-Allow-Origin`) come back as zero and are left out.
pub fn connection_timing(url: &str, t0_ms: Option<f64>) -> Option<ConnectionTiming> {
    let performance = Scope::current()?.performance()?;
    let entries = performance.get_entries_by_name_with_entry_type(url, "resource");
    let all: Vec<PerformanceResourceTiming> =
        (0..entries.length()).filter_map(|i| entries.get(i).dyn_into().ok()).collect();
    let entry = match t0_ms {
        Some(t0) => all
            .into_iter()
            .filter(|e| (e.start_time() - t0).abs() <= START_MATCH_MS)
            .min_by(|a, b| (a.start_time() - t0).abs().total_cmp(&(b.start_time() - t0).abs()))?,
        None => all.into_iter().last()?,
    };
    if performance.get_entries_by_type("resource").length() > CLEAR_ABOVE_ENTRIES {
        performance.clear_resource_timings();
    }
    Some(figures(&entry))
}

fn figures(entry: &PerformanceResourceTiming) -> ConnectionTiming {
    let span = |start: f64, end: f64| (start > 0.0 && end >= start).then_some(end - start);
    let since_start = |at: f64| (at > 0.0 && at >= entry.start_time()).then(|| at - entry.start_time());
    let secure = entry.secure_connection_start();
    let allowed = entry.connect_start() > 0.0 || entry.decoded_body_size() > 0.0;
    let protocol = entry.next_hop_protocol();
    let dns_ms = span(entry.domain_lookup_start(), entry.domain_lookup_end());
    let connect_ms = span(entry.connect_start(), entry.connect_end());
    ConnectionTiming {
        next_hop_protocol: (!protocol.is_empty()).then_some(protocol),
        dns_ms,
        connect_ms,
        tls_ms: span(secure, entry.connect_end()),
        encoded_body_bytes: allowed.then_some(entry.encoded_body_size() as u64),
        decoded_body_bytes: allowed.then_some(entry.decoded_body_size() as u64),
        timing_allowed: Some(allowed),
        request_sent_ms: since_start(entry.request_start()),
        response_start_ms: since_start(entry.response_start()),
        // A reused connection has no lookup and no connect: both spans are empty (start == end).
        reused: (allowed && entry.connect_start() > 0.0)
            .then(|| dns_ms.unwrap_or(0.0) == 0.0 && connect_ms.unwrap_or(0.0) == 0.0),
    }
}
