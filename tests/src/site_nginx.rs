//! Real nginx serving the release package the way its shipped snippet says: two `server` blocks on
//! free 127.0.0.1 ports, one plain HTTP/1.1 and one HTTP/2 over TLS (the self-signed certificate of
//! `tls.rs`), each holding nothing but Debian's `mime.types` (which the snippet asks the server block
//! for) and an `include` of the filled-in `nginx/streamscope.conf`, under an `http` block that gzips
//! text itself, event streams included (as a server tuned for size does: the snippet's `/v1/` must
//! stream uncompressed all the same). Stopped and removed on drop (`daemon.rs`).

use std::path::Path;
use std::time::Duration;

use crate::daemon::{Daemon, STDERR_LOG};
use crate::nginx::{fresh_prefix, launch, nginx_program};
use crate::nginx_conf::http_head;
use crate::ports::free_ports;
use crate::probe::{answers_200, get_encoded, head, speaks_tls};
use crate::tls::{self, CERT_FILE, KEY_FILE};

const READY_LIMIT: Duration = Duration::from_secs(15);
/// Debian's MIME map (it has `application/wasm`); the snippet relies on the server block's one.
const MIME_TYPES: &str = "/etc/nginx/mime.types";
/// What the `http` block around the snippet compresses (besides `text/html`, which nginx always does).
const GZIPPED_TYPES: &str = "text/event-stream application/json text/plain text/css application/javascript";
/// The filled-in snippet's name in the prefix.
const SNIPPET_FILE: &str = "streamscope.conf";

/// nginx with the shipped snippet on a plain and a TLS port.
pub struct SiteNginx {
    daemon: Daemon,
    http_port: u16,
    https_port: u16,
}

impl SiteNginx {
    /// Starts nginx with `snippet` (the shipped text, filled in) included in both servers, and waits
    /// until the plain one serves `page_path` and passes `api_probe_path` to the API with a `200`, and
    /// the TLS one answers; the error says what is missing or what nginx logged.
    pub async fn start(snippet: &str, page_path: &str, api_probe_path: &str) -> Result<Self, String> {
        let program = nginx_program("the bundle tests")?;
        if !Path::new(MIME_TYPES).is_file() {
            return Err(format!("no {MIME_TYPES}: the bundle tests need Debian's nginx (apt-get install nginx)"));
        }
        let prefix = fresh_prefix().map_err(|err| format!("cannot create an nginx prefix: {err}"))?;
        let ports = free_ports(2).map_err(|err| format!("no free ports for nginx: {err}"))?;
        let (http_port, https_port) = (ports[0], ports[1]);
        let written = std::fs::write(prefix.join(SNIPPET_FILE), snippet)
            .map_err(|err| format!("cannot write the snippet: {err}"))
            .and_then(|()| tls::self_signed(&prefix));
        if let Err(err) = written {
            let _ = std::fs::remove_dir_all(&prefix);
            return Err(err);
        }
        let conf = render(&prefix, http_port, https_port);
        let mut nginx = Self { daemon: launch(&program, prefix, &conf)?, http_port, https_port };
        let what = format!("nginx with the shipped snippet (ports {http_port}, {https_port})");
        let log_names = [STDERR_LOG, "error.log"];
        nginx
            .daemon
            .wait_ready(READY_LIMIT, &what, &log_names, || async move {
                answers_200(http_port, page_path).await
                    && answers_200(http_port, api_probe_path).await
                    && speaks_tls(https_port).await
            })
            .await?;
        Ok(nginx)
    }

    /// `http://127.0.0.1:<plain port>` followed by `path_and_query`.
    pub fn http_url(&self, path_and_query: &str) -> String {
        format!("http://127.0.0.1:{}{path_and_query}", self.http_port)
    }

    /// `https://127.0.0.1:<TLS port>` (HTTP/2) followed by `path_and_query`.
    pub fn https_url(&self, path_and_query: &str) -> String {
        format!("https://127.0.0.1:{}{path_and_query}", self.https_port)
    }

    /// The head of nginx's plain-HTTP answer to `GET path` (empty when it did not answer).
    pub async fn head(&self, path: &str) -> String {
        head(self.http_port, path).await
    }

    /// The head and the raw body bytes of the plain-HTTP answer to `GET path` with `Accept-Encoding:
    /// accept_encoding` (none when empty): what a client that does not decode receives.
    pub async fn get_encoded(&self, path: &str, accept_encoding: &str) -> (String, Vec<u8>) {
        get_encoded(self.http_port, path, accept_encoding).await
    }
}

/// The whole `nginx.conf`: the harness's head, then the two servers around the snippet.
fn render(prefix: &Path, http_port: u16, https_port: u16) -> String {
    let p = prefix.display();
    let mut conf = http_head(prefix);
    conf.push_str(&format!(
        "    include {MIME_TYPES};\n    \
             default_type application/octet-stream;\n    \
             # Compression on for text, event streams too, outside the snippet\n    \
             gzip on;\n    \
             gzip_types {GZIPPED_TYPES};\n    \
             # The shipped snippet over HTTP/1.1\n    \
             server {{\n        \
                 listen 127.0.0.1:{http_port};\n        \
                 include {p}/{SNIPPET_FILE};\n    \
             }}\n    \
             # The same over HTTP/2 and TLS\n    \
             server {{\n        \
                 listen 127.0.0.1:{https_port} ssl http2;\n        \
                 ssl_certificate {p}/{CERT_FILE};\n        \
                 ssl_certificate_key {p}/{KEY_FILE};\n        \
                 include {p}/{SNIPPET_FILE};\n    \
             }}\n\
         }}\n"
    ));
    conf
}
