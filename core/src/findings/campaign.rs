//! Findings about several runs together, which no single run can show: the browser's own connection
//! queue in a concurrency sweep (`browser_connection_limit`) and a prompt cache that warm runs of the
//! same request keep missing (`low_cache_hit`).

use super::{Finding, FindingCode, Severity};
use crate::i18n::keys::CampaignKey as K;
use crate::i18n::Text;
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
        Text::msg(K::ConnLimitTitle).count("per_origin", per_origin),
        Text::msg(K::ConnLimitDetail)
            .with("levels", level_words)
            .count("per_origin", per_origin)
            .count("held", held)
            .with("protocol", protocol.unwrap_or("HTTP/1.1"))
            .with("wait", ms(median(waits_ms).unwrap_or(0.0))),
    )
    .fix(Text::msg(K::ConnLimitFix).count("per_origin", per_origin))
    .evidence(json_object!({
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
        (Some(cold), Some(warm)) => Text::msg(K::LowCacheTtfts).with("cold", ms(cold)).with("warm", ms(warm)),
        _ => Text::empty(),
    };
    let percent = |share: f64| crate::fixed::fixed(share * 100.0, 0);
    Some(
        Finding::new(
            FindingCode::LowCacheHit,
            Severity::Warning,
            Text::msg(K::LowCacheTitle).with("ratio", percent(ratio)),
            Text::msg(K::LowCacheDetail)
                .count("n", warm_runs)
                .with("ratio", percent(ratio))
                .with("min", percent(MIN_WARM_HIT_RATIO))
                .with("ttfts", ttfts),
        )
        .fix(Text::msg(K::LowCacheFix))
        .evidence(json_object!({
            "warm_hit_ratio": ratio,
            "warm_runs": warm_runs,
            "min_warm_hit_ratio": MIN_WARM_HIT_RATIO,
            "cold_ttft_ms": cold_ttft_ms,
            "warm_ttft_ms": warm_ttft_ms,
        })),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::testkit::assert_worded;
    use crate::i18n::Lang;

    #[test]
    fn browser_connection_limit_is_said_in_both_languages_with_its_figures() {
        let f = browser_connection_limit(&[8, 16], 12, Some("http/1.1"), &[300.0, 500.0, 900.0], 6);
        assert_worded(&f);
        assert_eq!((f.code.clone(), f.severity), (FindingCode::BrowserConnectionLimit, Severity::Warning));
        assert_eq!(f.title, "The browser queued requests above 6 at once, not the server");
        assert!(f.detail.starts_with("At 8, 16 streams at once, 6 requests got their response headers"), "{}", f.detail);
        assert!(f.detail.contains("the other 12 only after") && f.detail.contains("over http/1.1"), "{}", f.detail);
        assert!(f.detail.contains("(median wait 500 ms)"), "{}", f.detail);
        assert_eq!((f.evidence["queued_runs"].as_u64(), f.evidence["max_wait_ms"].as_f64()), (Some(12), Some(900.0)));
        let zh = f.localize(Lang::ZhCn);
        assert!(zh.detail.starts_with("在 8, 16 路并发时，有 6 个请求"), "{}", zh.detail);
        assert!(zh.detail.contains("其余 12 个请求") && zh.detail.contains("经由 http/1.1"), "{}", zh.detail);
        assert!(zh.fix.unwrap().contains("`listen 443 ssl http2;`"));
        let f = browser_connection_limit(&[8], 1, None, &[], 6);
        assert_worded(&f);
        assert!(f.detail.contains("over HTTP/1.1") && f.detail.contains("(median wait 0.0 ms)"), "{}", f.detail);
    }

    #[test]
    fn low_cache_hit_is_said_in_both_languages_with_its_figures() {
        let f = low_cache_hit(Some(0.3), 1, Some(900.0), Some(800.0)).expect("low_cache_hit");
        assert_worded(&f);
        assert_eq!((f.code.clone(), f.severity), (FindingCode::LowCacheHit, Severity::Warning));
        assert_eq!(f.title, "The prompt cache hit only 30% on warm runs");
        assert!(f.detail.starts_with("The same request sent again (1 warm run) found 30% of its prompt"), "{}", f.detail);
        assert!(f.detail.ends_with(" TTFT was 900 ms on the first (cold) run and 800 ms on the warm ones."), "{}", f.detail);
        let zh = f.localize(Lang::ZhCn);
        assert_eq!(zh.title, "预热后的运行前缀缓存命中率只有 30%");
        assert!(zh.detail.contains("应当达到 70% 或以上"), "{}", zh.detail);
        assert!(zh.detail.ends_with("第一次（冷）运行的首字延迟为 900 ms，预热后的运行为 800 ms。"), "{}", zh.detail);
        let f = low_cache_hit(Some(0.5), 3, None, Some(1.0)).expect("low_cache_hit");
        assert_worded(&f);
        assert!(f.detail.contains("(3 warm runs)") && f.detail.ends_with("costs TTFT and money."), "{}", f.detail);
        assert_eq!(low_cache_hit(Some(0.7), 3, None, None), None, "70% is the target");
        assert_eq!(low_cache_hit(Some(0.1), 0, None, None), None, "no warm run");
        assert_eq!(low_cache_hit(None, 3, None, None), None, "no cache figures");
    }
}
