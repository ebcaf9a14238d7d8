//! English words of the network triage.

use crate::i18n::keys::TriageNetKey as K;

/// The English template of `key`.
pub fn template(key: K) -> &'static str {
    match key {
        K::CorsTitle => "The server answered, but without CORS headers",
        K::CorsDetail => "fetch() failed at {at} ({message}), but a no-cors request to the same URL reached the server: it is up, and the browser refused to hand its answer to this page because the answer lacks CORS headers.",
        K::CorsPreflight => " This request also needs a preflight: the server must answer OPTIONS {origin}… with a 2xx status and Access-Control-Allow-Origin, Access-Control-Allow-Methods: {method} and Access-Control-Allow-Headers: {headers}.",
        K::CorsNginxPreflight => " add_header Access-Control-Allow-Methods \"{method}, OPTIONS\" always; add_header Access-Control-Allow-Headers \"{headers}\" always; and answer OPTIONS with 204",
        K::CorsFix => "Make the server (or the proxy in front of it) send Access-Control-Allow-Origin: * (or this page's origin) on every response, errors included.{preflight} Optional: Access-Control-Expose-Headers: * to read headers such as Retry-After, Timing-Allow-Origin: * for connection timings. nginx: add_header Access-Control-Allow-Origin * always;{nginx}.",
        K::UnreachableTitle => "Nothing answered at this address",
        K::UnreachableDetail => "fetch() failed at {at} ({message}), and a no-cors request to {origin} got no answer either: no server answered there (this is not a CORS problem).",
        K::UnreachableFix => "Check the host name and port in the URL (http vs https, 8000 vs 8080), that the server is running and listening on that address (0.0.0.0, not only 127.0.0.1, when reached from another machine), and that no firewall, VPN or DNS problem is in the way: try the URL with curl from this machine.",
    }
}
