//! Connection facts from Resource Timing, when the server allows it (`Timing-Allow-Origin`).

use streamscope_core::trace::ConnectionTiming;
use wasm_bindgen::JsCast;
use web_sys::PerformanceResourceTiming;

use super::scope::Scope;

/// The newest Resource Timing entry for `url`, or `None` when the browser has none. Fields the server
/// did not allow (cross-origin without `Timing-Allow-Origin`) come back as zero and are left out.
pub fn connection_timing(url: &str) -> Option<ConnectionTiming> {
    let performance = Scope::current()?.performance()?;
    let entries = performance.get_entries_by_name_with_entry_type(url, "resource");
    let entry: PerformanceResourceTiming = entries.get(entries.length().checked_sub(1)?).dyn_into().ok()?;
    // The buffer holds 250 entries by default and then drops new ones: a long session (repeats, a
    // campaign, the hostile corpus) would lose Resource Timing for good. What was read is not needed again.
    performance.clear_resource_timings();
    let span = |start: f64, end: f64| (start > 0.0 && end >= start).then_some(end - start);
    let secure = entry.secure_connection_start();
    let allowed = entry.connect_start() > 0.0 || entry.decoded_body_size() > 0.0;
    let protocol = entry.next_hop_protocol();
    Some(ConnectionTiming {
        next_hop_protocol: (!protocol.is_empty()).then_some(protocol),
        dns_ms: span(entry.domain_lookup_start(), entry.domain_lookup_end()),
        connect_ms: span(entry.connect_start(), entry.connect_end()),
        tls_ms: span(secure, entry.connect_end()),
        encoded_body_bytes: allowed.then_some(entry.encoded_body_size() as u64),
        decoded_body_bytes: allowed.then_some(entry.decoded_body_size() as u64),
    })
}
