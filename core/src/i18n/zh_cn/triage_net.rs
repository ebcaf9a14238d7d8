//! Chinese words of the network triage.

use crate::i18n::keys::TriageNetKey as K;

/// The Chinese template of `key`.
pub fn template(key: K) -> &'static str {
    match key {
        K::CorsTitle => "服务端有应答，但没有返回 CORS 响应头",
        K::CorsDetail => "fetch() 在 {at} 失败（{message}），但对同一 URL 的 no-cors 请求到达了服务端：服务端是在线的，只是它的响应缺少 CORS 响应头，浏览器拒绝把响应交给本页面。",
        K::CorsPreflight => "这个请求还需要预检：服务端必须以 2xx 状态码响应 OPTIONS {origin}…，并带上 Access-Control-Allow-Origin、Access-Control-Allow-Methods: {method} 和 Access-Control-Allow-Headers: {headers}。",
        K::CorsNginxPreflight => " add_header Access-Control-Allow-Methods \"{method}, OPTIONS\" always; add_header Access-Control-Allow-Headers \"{headers}\" always; 并对 OPTIONS 请求返回 204",
        K::CorsFix => "让服务端（或它前面的代理）在每个响应上（包括错误响应）都返回 Access-Control-Allow-Origin: *（或本页面的源）。{preflight}可选：返回 Access-Control-Expose-Headers: *，以便读取 Retry-After 等响应头；返回 Timing-Allow-Origin: *，以便获取连接耗时。nginx：add_header Access-Control-Allow-Origin * always;{nginx}。",
        K::UnreachableTitle => "这个地址没有任何应答",
        K::UnreachableDetail => "fetch() 在 {at} 失败（{message}），对 {origin} 的 no-cors 请求也没有得到应答：那里没有服务端在响应（这不是 CORS 问题）。",
        K::UnreachableFix => "检查 URL 里的主机名和端口（http 还是 https，8000 还是 8080），确认服务端在运行并监听这个地址（从其他机器访问时要监听 0.0.0.0，而不只是 127.0.0.1），并排除防火墙、VPN 或 DNS 问题：在这台机器上用 curl 访问一下这个 URL。",
    }
}
