//! Chinese words of the findings about several runs together.

use crate::i18n::keys::CampaignKey;

/// The Chinese template of `key`.
pub fn template(key: CampaignKey) -> &'static str {
    match key {
        CampaignKey::ConnLimitTitle => "超出 {per_origin} 路并发的请求是浏览器自己在排队，不是服务端",
        CampaignKey::ConnLimitDetail => "在 {levels} 路并发时，有 {per_origin} 个请求在第一条流结束之前就收到了响应头，其余 {held} 个请求要等前面再有一条流结束后才收到：浏览器经由 {protocol} 对同一个源最多只开 {per_origin} 个连接，那些请求是它自己扣下排队的（等待时间中位数 {wait}）。这些请求的首字延迟（TTFT）包含了这段等待；判断拐点时已把它排除。",
        CampaignKey::ConnLimitFix => "用 HTTP/2 提供 API（一个连接承载所有的流：nginx `listen 443 ssl http2;`，或在前面加一层 CDN），才能在一个浏览器里测超过 {per_origin} 路的并发；否则把每个源的扫描并发级别控制在 {per_origin} 及以下。",
        CampaignKey::LowCacheTitle => "预热后的运行前缀缓存命中率只有 {ratio}%",
        CampaignKey::LowCacheDetail => "同一个请求再次发送（{n} 次预热后的运行），提示词只有 {ratio}% 命中了服务端的前缀缓存；提示词不变时应当达到 {min}% 或以上。每个未命中的 token 都要重新 prefill，既拉高首字延迟（TTFT），也多花钱。{ttfts}",
        CampaignKey::LowCacheTtfts => "第一次（冷）运行的首字延迟为 {cold}，预热后的运行为 {warm}。",
        CampaignKey::LowCacheFix => "让提示词的开头在各次请求之间逐字节保持一致：不要在 system 提示词或第一条消息里放时间戳、日期、UUID 或请求 ID（放到最后），tools 和 JSON 键始终保持相同的顺序。页面上的前缀检查会显示两个请求体第一次出现差异的位置。",
    }
}
