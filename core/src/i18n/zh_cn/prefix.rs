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
    }
}
