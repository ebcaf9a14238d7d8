//! The nginx configurations the tests put between the page and the lab, and the config file that
//! serves all of them at once (one `server` per configuration, each on its own port). Most speak plain
//! HTTP/1.1; the `Tls*` ones speak HTTP/2 over TLS (`listen … ssl http2`, the syntax of Debian's nginx
//! 1.22; `http2 on;` only came in 1.25.1) with the self-signed certificate from `tls.rs`.

use std::net::SocketAddr;
use std::path::Path;

use crate::tls::{CERT_FILE, KEY_FILE};

/// One nginx `server` in front of the lab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proxy {
    /// (a) nginx defaults: `proxy_buffering on`, HTTP/1.0 to the upstream.
    Defaults,
    /// (b) `proxy_buffering off; proxy_http_version 1.1; proxy_set_header Connection "";`.
    Unbuffered,
    /// (c) `gzip on` for `text/event-stream`, buffering on.
    GzipBuffered,
    /// (d) gzip as (c), buffering off as (b).
    GzipUnbuffered,
    /// (e) buffering on (defaults), meant for the lab's `accel=no` (`X-Accel-Buffering: no`).
    AccelDefaults,
    /// HTTP/2 over TLS to the browser, buffering off as (b) (`https://`).
    TlsH2Unbuffered,
    /// HTTP/2 over TLS to the browser, nginx's default buffering as (a) (`https://`).
    TlsH2Buffered,
}

impl Proxy {
    /// Every configuration: the list (a)-(e), then the TLS ones.
    pub const ALL: [Proxy; 7] = [
        Proxy::Defaults,
        Proxy::Unbuffered,
        Proxy::GzipBuffered,
        Proxy::GzipUnbuffered,
        Proxy::AccelDefaults,
        Proxy::TlsH2Unbuffered,
        Proxy::TlsH2Buffered,
    ];

    /// A short name for messages and tables.
    pub fn name(self) -> &'static str {
        match self {
            Proxy::Defaults => "nginx defaults",
            Proxy::Unbuffered => "nginx buffering off",
            Proxy::GzipBuffered => "nginx gzip + buffering",
            Proxy::GzipUnbuffered => "nginx gzip + buffering off",
            Proxy::AccelDefaults => "nginx defaults (for accel=no)",
            Proxy::TlsH2Unbuffered => "nginx TLS + HTTP/2, buffering off",
            Proxy::TlsH2Buffered => "nginx TLS + HTTP/2, buffering on",
        }
    }

    /// Whether the server speaks TLS (and HTTP/2) to the browser.
    pub fn is_tls(self) -> bool {
        matches!(self, Proxy::TlsH2Unbuffered | Proxy::TlsH2Buffered)
    }

    /// `https` for the TLS servers, `http` for the others.
    pub fn scheme(self) -> &'static str {
        if self.is_tls() {
            "https"
        } else {
            "http"
        }
    }

    /// The directives inside `location /` besides `proxy_pass`.
    pub fn directives(self) -> Vec<&'static str> {
        const UNBUFFERED: [&str; 3] = [
            "proxy_buffering off;",
            "proxy_http_version 1.1;",
            "proxy_set_header Connection \"\";",
        ];
        const GZIP: [&str; 4] = [
            "gzip on;",
            "gzip_types text/event-stream;",
            "gzip_min_length 0;",
            "gzip_proxied any;",
        ];
        match self {
            Proxy::Defaults | Proxy::AccelDefaults | Proxy::TlsH2Buffered => Vec::new(),
            Proxy::Unbuffered | Proxy::TlsH2Unbuffered => UNBUFFERED.to_vec(),
            Proxy::GzipBuffered => GZIP.to_vec(),
            Proxy::GzipUnbuffered => [GZIP.as_slice(), UNBUFFERED.as_slice()].concat(),
        }
    }
}

/// The whole `nginx.conf`: a single process (no workers, so nothing to orphan and no user switch),
/// every path inside `prefix`, and one server per `(proxy, port)` passing everything to `upstream`
/// (the TLS ones with the certificate and key `tls::self_signed` wrote into `prefix`). The lab's own
/// headers (CORS, `Timing-Allow-Origin`) pass through unchanged, as nginx passes upstream headers.
pub(crate) fn render(prefix: &Path, upstream: SocketAddr, servers: &[(Proxy, u16)]) -> String {
    let p = prefix.display();
    let mut conf = http_head(prefix);
    conf.push_str(&format!("    upstream lab {{ server {upstream}; }}\n"));
    for (proxy, port) in servers {
        let listen = if proxy.is_tls() {
            format!(
                "listen 127.0.0.1:{port} ssl http2;\n        \
                 ssl_certificate {p}/{CERT_FILE};\n        \
                 ssl_certificate_key {p}/{KEY_FILE};"
            )
        } else {
            format!("listen 127.0.0.1:{port};")
        };
        conf.push_str(&format!(
            "    # {name}\n    server {{\n        {listen}\n        location / {{\n            proxy_pass http://lab;\n",
            name = proxy.name(),
        ));
        for directive in proxy.directives() {
            conf.push_str(&format!("            {directive}\n"));
        }
        conf.push_str("        }\n    }\n");
    }
    conf.push_str("}\n");
    conf
}

/// The start of a harness `nginx.conf`: a single process, every path inside `prefix`, up to the open
/// `http {` block with its log and temp paths; the caller adds the servers and the closing `}`.
pub(crate) fn http_head(prefix: &Path) -> String {
    let p = prefix.display();
    format!(
        "# Generated by the streamscope e2e harness (tests/src/nginx_conf.rs).\n\
         master_process off;\n\
         worker_processes 1;\n\
         pid {p}/nginx.pid;\n\
         error_log {p}/error.log warn;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n    \
             access_log {p}/access.log;\n    \
             client_body_temp_path {p}/client_body_temp;\n    \
             proxy_temp_path {p}/proxy_temp;\n    \
             fastcgi_temp_path {p}/fastcgi_temp;\n    \
             uwsgi_temp_path {p}/uwsgi_temp;\n    \
             scgi_temp_path {p}/scgi_temp;\n"
    )
}

/// The `*_temp_path` directories `render` names, created up front and writable by anyone (an nginx
/// started as root with workers would run them as `nobody`).
pub(crate) const TEMP_DIRS: [&str; 5] = [
    "client_body_temp",
    "proxy_temp",
    "fastcgi_temp",
    "uwsgi_temp",
    "scgi_temp",
];
