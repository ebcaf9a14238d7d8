//! Chinese words of the prefix check's cache-breaker warnings.

use crate::i18n::keys::PrefixKey as K;

/// The Chinese template of `key`.
pub fn template(key: K) -> &'static str {
    match key {
        K::SideA => "请求 A",
        K::SideB => "请求 B",
        K::SideBoth => "两个请求都有，现在相同，但下一个请求的值会不同",
        K::WhatTimestamp => "一个日期或时间",
        K::WhatUuid => "一个 UUID",
        K::WhatRequestId => "一个请求 ID 或 trace ID",
        K::Volatile => "{path}（{side}）中有{what}：它每次请求都会变，服务商的缓存从这里开始什么都复用不了。",
        K::ToolOrder => "同样的工具，顺序不同：A 发送的是 {a}；B 发送的是 {b}。工具定义位于前缀的最前面，所以它们之后的内容都无法复用。",
        K::KeyOrder => "{path} 处同样的键，顺序不同：A 发送的是 {a}；B 发送的是 {b}。服务商按发送时的顺序渲染它们，所以前缀从这里开始就不同了（序列化时对键排序，或者只构建一次这个对象）。",
        K::SideNotJson => "不是 JSON（在第 {at} 字节处断开）：按纯文本比较，{size}",
        K::SideText => "纯文本，{size}",
        K::SideJson => "JSON：{parts}{messages}，前缀 {size}{left_out}",
        K::SideNoMembers => "没有提示词成员",
        K::SideMessages => "（{n} 条消息）",
        K::SideLeftOut => "；未计入前缀：{names}",
        K::SideLeftOutMore => "；未计入前缀：{names}，另有 {more} 个",
        K::Identical => "两个前缀完全相同：重复请求可以从缓存复用全部 {n} 字节",
        K::PlaceBoth => "{a}（B 中为 {b}）",
        K::FirstDifference => "第一处差异在第 {byte} 字节（第 {char} 个字符），位于 {place}",
        K::FirstDifferenceLast => "；这是最后一条消息，即通常新增的那一轮：它之前的内容都可以命中缓存",
        K::Shared => "共享 {shared} / {shorter} 字节（占较短前缀的 {percent}%；A {a} 字节，B {b} 字节）",
        K::FindingTitle => "提示词前缀每次请求都在变",
        K::FindingListed => "{path} 中的 {kind}（{text}）",
        K::FindingListSep => "；",
        K::FindingMore => "，等等",
        K::FindingParted => "两个请求从第 {byte} 字节（{path}）开始不同。",
        K::FindingDetail => "服务商的前缀缓存只复用到提示词第一处变化为止，而本应保持不变的部分里有 {n} 处会破坏缓存：{listed}{more}。从第一处（{first}）起，之后的全部内容每次请求都要重新计算、重新计费。{parted}",
        K::FindingFix => "让提示词的开头逐字节保持不变：把易变的值（当前日期或时间、请求 ID、UUID）挪到提示词末尾、工具定义和指令之后（比如放进最后一条用户消息），并让工具和 JSON 键保持固定顺序（只构建一次，或按键排序后再序列化）。然后重复同一个请求：提示词至少 70% 应该命中缓存（prompt_cache_hit_tokens、cached_tokens、cache_read_input_tokens）。",
    }
}
