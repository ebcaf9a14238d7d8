//! Chinese (zh-CN) words of the A/B comparison's sentence.

use crate::i18n::keys::CompareKey;

/// The Chinese template of `key`.
pub fn template(key: CompareKey) -> &'static str {
    match key {
        CompareKey::BothFailed => "两边都失败了，无法比较耗时；请看各自的发现。",
        CompareKey::SideFailed => "{side} 失败了，无法比较耗时；请看它的发现。",
        CompareKey::LeadPath => "经由 {b}（对比 {a}），",
        CompareKey::LeadModel => "{b}（对比 {a}）：",
        CompareKey::TtftSame => "首字到达时间相同（相差在 {delta} 以内）",
        CompareKey::TtftLater => "首字晚到 {delta}",
        CompareKey::TtftEarlier => "首字早到 {delta}",
        CompareKey::And => "，",
        CompareKey::TextDiffers => "文本{b}，而 {a_label} 的文本{a}",
        CompareKey::Streams => "流式逐步到达",
        CompareKey::BurstsOf => "每隔 {gap} 成块到达，每块约 {size}（缓冲）",
        CompareKey::Bursts => "成块到达（缓冲）",
        CompareKey::HeldStart => "的开头被扣住至少 {held} 才放出（缓冲）",
        CompareKey::Collected => "在最后一次性全部到达（整段返回）",
        CompareKey::Fails => "失败",
        CompareKey::HeldTpot => "；经由 {side} 测得的 TPOT 反映的是中间层的缓冲，不是模型本身",
        CompareKey::Semicolon => "；",
        CompareKey::Pace => "TPOT 分别为 {b} 和 {a}",
        CompareKey::PathSame => "模型本身没有变化（{pace}）",
        CompareKey::ModelSame => "两个模型输出 token 的速度相同（{pace}）",
        CompareKey::TokenSlower => "每个 token 多花 {delta}（{pace}）",
        CompareKey::TokenFaster => "每个 token 少花 {delta}（{pace}）",
        CompareKey::TotalLater => "。总体上，{b} 晚 {delta} 结束",
        CompareKey::TotalSooner => "。总体上，{b} 早 {delta} 结束",
        CompareKey::End => "。",
    }
}
