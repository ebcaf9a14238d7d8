//! Chinese (zh-CN) words of the concurrency sweep's sentence.

use crate::i18n::keys::SweepKey;

/// The Chinese template of `key`.
pub fn template(key: SweepKey) -> &'static str {
    match key {
        SweepKey::NoKneeToRead => "没有哪个并发级别收到了首字，读不出拐点。",
        SweepKey::BrowserHeld => "超过 {n} 路并发时，浏览器自己让请求排了队（HTTP/1.1）：这段等待不计入拐点。",
        SweepKey::KneeAt => "服务端在 {level} 路并发时开始排队：这一级的首字延迟 p50 为 {at}，而并发 {first} 时为 {baseline}（高出不止 {threshold}：取并发 {first} 时 {runs} 次运行波动范围的 3 倍，且至少 10% 和 10 ms）。",
        SweepKey::NoKnee => "直到 {last} 路并发都没有拐点：首字延迟 p50 与并发 {first} 时测得的 {baseline} 相差始终不超过 {threshold}。",
    }
}
