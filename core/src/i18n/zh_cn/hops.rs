//! Chinese (zh-CN) words of the hop ladder's sentence.

use crate::i18n::keys::HopsKey;

/// The Chinese template of `key`.
pub fn template(key: HopsKey) -> &'static str {
    match key {
        HopsKey::NoTtft => "无",
        HopsKey::Same => "每一跳的流都一样：从 {first} 到 {last} 都判定为{verdict}，首字延迟从 {first_ttft} 到 {last_ttft}。",
        HopsKey::NoHop => "没有测量任何一跳。",
        HopsKey::FirstHop => "在第一跳（{label}，首字延迟 {ttft}）流就已判定为{verdict}：原因在这一跳或它背后，不在之后的各层。",
        HopsKey::ChangeStarts => "从 {before} 到 {bad} 之间开始出现{change}：{before} 判定为{before_verdict}（首字延迟 {before_ttft}），{bad} 判定为{bad_verdict}（首字延迟 {bad_ttft}）。",
        HopsKey::ChangeStreaming => "流式输出",
        HopsKey::ChangeBuffering => "缓冲",
        HopsKey::ChangeCollecting => "整段返回",
        HopsKey::ChangeFailure => "失败",
        HopsKey::TtftGrows => "首字延迟在 {before} 和 {bad} 之间增加了 {rise}（从 {before_ttft} 到 {bad_ttft}），两跳都判定为{verdict}：看看 {bad} 多做了什么（排队、鉴权、每个请求都新建连接）。",
    }
}
