//! Findings about several runs together, which no single run can show: the browser's own connection
//! queue in a concurrency sweep (`browser_connection_limit`) and a prompt cache that warm runs of the
//! same request keep missing (`low_cache_hit`).

use serde_json::json;

use super::{Finding, FindingCode, Severity};
use crate::stats::median;
use crate::text::ms;

/// Warm runs of one request should find at least this share of the prompt in the cache (the
/// troubleshooting guide's target).
pub const MIN_WARM_HIT_RATIO: f64 = 0.70;

/// The browser held `queued_runs` requests back at `levels` (streams started together), having opened
/// its limit of `per_origin` connections to the origin over `protocol`; `waits_ms` are the held runs'
/// waits.
pub fn browser_connection_limit(
    levels: &[u32],
    queued_runs: usize,
    protocol: Option<&str>,
    waits_ms: &[f64],
    per_origin: usize,
) -> Finding {
    let held = queued_runs;
    let level_words = levels.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ");
    Finding::new(
        FindingCode::BrowserConnectionLimit,
        Severity::Warning,
        format!("The browser queued requests above {per_origin} at once, not the server"),
        format!(
            "At {level_words} streams at once, {per_origin} requests got their response headers before the first stream \
             ended and each of the other {held} only after one more stream had ended: the browser opens at most \
             {per_origin} connections to one origin over {}, and held those requests itself (median wait {}). Their \
             TTFT includes that wait; the knee is read without it.",
            protocol.unwrap_or("HTTP/1.1"),
            ms(median(waits_ms).unwrap_or(0.0)),
        ),
    )
    .fix(format!(
        "Serve the API over HTTP/2 (one connection carries every stream: nginx `listen 443 ssl http2;`, or a CDN \
         in front) to measure more than {per_origin} streams from one browser, or keep sweep levels at {per_origin} \
         or fewer per origin."
    ))
    .evidence(json!({
        "levels": levels,
        "queued_runs": held,
        "connections_per_origin": per_origin,
        "protocol": protocol,
        "median_wait_ms": median(waits_ms),
        "max_wait_ms": waits_ms.iter().copied().reduce(f64::max),
    }))
}

/// Warm runs of an identical request hit the cache for `warm_hit_ratio` of their prompt, under
/// [`MIN_WARM_HIT_RATIO`]; `None` when they did not, or when there is no warm run with cache figures.
pub fn low_cache_hit(warm_hit_ratio: Option<f64>, warm_runs: usize, cold_ttft_ms: Option<f64>, warm_ttft_ms: Option<f64>) -> Option<Finding> {
    let ratio = warm_hit_ratio.filter(|r| *r < MIN_WARM_HIT_RATIO && warm_runs > 0)?;
    let ttfts = match (cold_ttft_ms, warm_ttft_ms) {
        (Some(cold), Some(warm)) => format!(" TTFT was {} on the first (cold) run and {} on the warm ones.", ms(cold), ms(warm)),
        _ => String::new(),
    };
    Some(
        Finding::new(
            FindingCode::LowCacheHit,
            Severity::Warning,
            format!("The prompt cache hit only {:.0}% on warm runs", ratio * 100.0),
            format!(
                "The same request sent again ({warm_runs} warm {}) found {:.0}% of its prompt in the server's prompt \
                 cache; an unchanged prompt should reach {:.0}% or more. Every missed token is prefilled again, which \
                 costs TTFT and money.{ttfts}",
                if warm_runs == 1 { "run" } else { "runs" },
                ratio * 100.0,
                MIN_WARM_HIT_RATIO * 100.0,
            ),
        )
        .fix(
            "Keep the start of the prompt byte-identical between requests: no timestamps, dates, UUIDs or request ids \
             in the system prompt or the first message (put them at the end), tools and JSON keys always in the same \
             order. The page's prefix check shows where two request bodies first differ.",
        )
        .evidence(json!({
            "warm_hit_ratio": ratio,
            "warm_runs": warm_runs,
            "min_warm_hit_ratio": MIN_WARM_HIT_RATIO,
            "cold_ttft_ms": cold_ttft_ms,
            "warm_ttft_ms": warm_ttft_ms,
        })),
    )
}
