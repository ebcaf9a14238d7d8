//! Chinese words of the URL triage. Both names of a URL (`{what}`) end in "URL", so the templates put a
//! space after them.

use crate::i18n::keys::TriageUrlKey as K;

/// The Chinese template of `key`.
pub fn template(key: K) -> &'static str {
    match key {
        K::WhatRequestUrl => "请求 URL",
        K::WhatBaseUrl => "预设的 Base URL",
        K::WhitespaceTitle => "{what} 中有空白字符",
        K::WhitespaceInside => "{what} 中间有空格、制表符或换行：它会被百分号编码（%20）后发出，或者直接被拒绝，服务端也就找不到对应的路由。",
        K::WhitespaceAround => "{what} 开头或结尾带有空白字符（粘贴时带进来的空格或换行）；页面会自动去掉，但客户端或配置文件不一定会。",
        K::WhitespaceFix => "去掉空白字符：{url}",
        K::DoubledTitle => "URL 中出现了 /{version}/{version}",
        K::DoubledDetail => "路径 {path} 重复了 /{version}：Base URL 已经以 /{version} 结尾，客户端（或代理）又加了一次 /{version}。服务端没有这样的路由，会返回 404。",
        K::DoubledFix => "去掉一个 /{version}：{fixed}。在 SDK 里按它的要求设置 Base URL：要么带 /{version}，要么不带，不要两边都加。",
        K::SuffixTitle => "URL 中出现了两次 {suffix}",
        K::SuffixDetail => "路径 {path} 里接口路径出现了两次：Base URL 本身已经以接口路径（…{suffix}）结尾，又被拼上了一次 {suffix}。服务端会返回 404。",
        K::SuffixFix => "改用 {fixed}；Base URL 只填接口路径之前的部分（{base}）。",
        K::BaseSuffixTitle => "Base URL 已经以 {suffix} 结尾",
        K::BaseSuffixDetail => "预设发送的是 POST {{base}}/chat/completions，这个 Base URL 会拼成 …{suffix}/chat/completions，服务端不认识这个路径（404）。",
        K::BaseSuffixFix => "使用去掉接口路径的 Base URL：{fixed}",
        K::BaseDoubledTitle => "Base URL 中出现了 /{version}/{version}",
        K::BaseDoubledDetail => "Base URL 的路径 {path} 重复了 /{version}；服务端会返回 404。",
        K::BaseDoubledFix => "改用 {fixed}",
        K::SlashEndTitle => "URL 路径以斜杠结尾",
        K::SlashEndDetail => "路径 {path} 以斜杠结尾。有些服务端会返回 404 或重定向（重定向会把 POST 变成 GET，或者丢掉请求体）。",
        K::SlashDoubleTitle => "URL 路径中有空段（//）",
        K::SlashDoubleDetail => "路径 {path} 中有空段（//）。结尾带斜杠的 Base URL 和以斜杠开头的路径拼在了一起；很多服务端不会把 // 当作 / 处理。",
        K::SlashFix => "严格按文档写路径（…/v1/chat/completions，结尾不加斜杠，不要出现 //）。",
        K::MixedTitle => "https: 页面请求了 http: URL",
        K::MixedDetail => "本页面是通过 https: 加载的，浏览器会把它发往普通 http: URL（{origin}）的请求当作混合内容拦截，请求根本不会发出。",
        K::MixedFix => "让接口通过 https: 提供服务（https://{host}…），或者通过 http: 打开本页面（例如在本地运行）来测试普通 http 接口。",
        K::MissingV1Title => "Base URL 缺少 /v1",
        K::MissingV1Detail => "请求得到了 404。{base}/models 没有正常应答（{without}），但 {url} 正常应答了（HTTP {status}）：这个服务端的 API 在 /v1 下面。",
        K::MissingV1NoResponse => "没有响应",
        K::MissingV1Fix => "把 Base URL 改成 {base}（请求随后会发往 {url}）。",
        K::SchemeTitle => "URL 没有以 http:// 或 https:// 开头",
        K::SchemeDetail => "{url} 前面没有 http:// 或 https://。浏览器只会请求这两种 URL：localhost:8080/… 会被当作未知协议的 URL 拒绝（“Failed to fetch”，请求根本不会发出），api.example.com/… 则会被当成本页面所在服务器上的一个路径。",
        K::SchemeFix => "在前面写上协议：{fixed}",
    }
}
