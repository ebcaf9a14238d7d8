//! English words of the findings about several runs together.

use crate::i18n::keys::CampaignKey;

/// The English template of `key`.
pub fn template(key: CampaignKey) -> &'static str {
    match key {
        CampaignKey::ConnLimitTitle => "The browser queued requests above {per_origin} at once, not the server",
        CampaignKey::ConnLimitDetail => "At {levels} streams at once, {per_origin} requests got their response headers before the first stream ended and each of the other {held} only after one more stream had ended: the browser opens at most {per_origin} connections to one origin over {protocol}, and held those requests itself (median wait {wait}). Their TTFT includes that wait; the knee is read without it.",
        CampaignKey::ConnLimitFix => "Serve the API over HTTP/2 (one connection carries every stream: nginx `listen 443 ssl http2;`, or a CDN in front) to measure more than {per_origin} streams from one browser, or keep sweep levels at {per_origin} or fewer per origin.",
        CampaignKey::LowCacheTitle => "The prompt cache hit only {ratio}% on warm runs",
        CampaignKey::LowCacheDetail => "The same request sent again ({n} warm {n:run|runs}) found {ratio}% of its prompt in the server's prompt cache; an unchanged prompt should reach {min}% or more. Every missed token is prefilled again, which costs TTFT and money.{ttfts}",
        CampaignKey::LowCacheTtfts => " TTFT was {cold} on the first (cold) run and {warm} on the warm ones.",
        CampaignKey::LowCacheFix => "Keep the start of the prompt byte-identical between requests: no timestamps, dates, UUIDs or request ids in the system prompt or the first message (put them at the end), tools and JSON keys always in the same order. The page's prefix check shows where two request bodies first differ.",
    }
}
