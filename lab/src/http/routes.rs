//! Maps a request to its handler: preflight, API routes, static files.

use crate::http::body::Ending;
use crate::http::request::Request;
use crate::http::response::{openai_error, Fixed};
use crate::http::socket::Socket;
use crate::http::state::State;
use crate::scenarios::wire_dialect::WireDialect;
use super::{response, statics};
use crate::scenarios::{stream, triage};

/// Whether the connection may carry another request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum After {
    /// Keep the connection for the next request.
    KeepAlive,
    /// Close it.
    Close,
    /// Reset it (`SO_LINGER` 0, no shutdown): the client sees a TCP RST.
    Reset,
}

impl From<Ending> for After {
    fn from(ending: Ending) -> Self {
        match ending {
            Ending::Close => Self::Close,
            Ending::Reset => Self::Reset,
        }
    }
}

/// Answers `request`; streamed responses always close the connection (or reset it, `reset_after`). With
/// `cors=0` in the query the answer (preflight included) carries no CORS header at all; with `tao=0`, no
/// `Timing-Allow-Origin`.
pub(crate) async fn respond(
    socket: &mut Socket,
    request: &Request,
    state: &State,
) -> std::io::Result<After> {
    let cors = !triage::cors_off(&request.query);
    let tao = !matches!(request.query.get("tao"), Some("0" | "false" | "no" | "off"));
    response::CORS.scope(cors, response::TAO.scope(tao, answer(socket, request, state))).await
}

async fn answer(
    socket: &mut Socket,
    request: &Request,
    state: &State,
) -> std::io::Result<After> {
    let keep_alive = !request.wants_close();
    let fixed = match (request.method.as_str(), request.path.as_str()) {
        ("OPTIONS", _) => preflight(request),
        ("GET" | "POST", "/v1/chat/completions" | "/stream") => {
            let ending = stream::chat_completions(socket, request, state).await?;
            return Ok(After::from(ending));
        }
        ("GET" | "POST", path) if WireDialect::for_path(path).is_some() => {
            let ending = stream::chat_completions(socket, request, state).await?;
            return Ok(After::from(ending));
        }
        ("GET" | "POST", path) if path.starts_with("/hostile/") => {
            if crate::scenarios::hostile::serve(socket, request).await? {
                return Ok(After::Close);
            }
            not_found(request)
        }
        (_, "/v1/chat/completions" | "/stream") => {
            Fixed::json(405, &openai_error(405, "use GET or POST"))
                .with_header("Allow", "GET, POST, OPTIONS")
        }
        ("GET" | "HEAD", "/v1/models") => Fixed::json(200, &models()),
        // Without /v1 there is no API here (what a base URL missing /v1 runs into).
        (_, "/models" | "/chat/completions") => not_found(request),
        ("GET" | "HEAD", "/healthz") => Fixed::text(200, "ok"),
        ("GET" | "HEAD", path) => statics::file(state.config.static_dir.as_deref(), path).await,
        ("POST", _) => not_found(request),
        _ => Fixed::text(405, "method not allowed").with_header("Allow", "GET, HEAD, OPTIONS"),
    };
    fixed
        .write(socket, keep_alive, request.method == "HEAD")
        .await?;
    Ok(if keep_alive {
        After::KeepAlive
    } else {
        After::Close
    })
}

/// `204` with the CORS preflight answer; requested headers are echoed because `*` does not cover
/// `Authorization`.
fn preflight(request: &Request) -> Fixed {
    let mut allow_headers = "*".to_string();
    if let Some(requested) = request
        .header("access-control-request-headers")
        .filter(|h| !h.is_empty())
    {
        allow_headers.push_str(", ");
        allow_headers.push_str(requested);
    }
    Fixed::new(204, "text/plain", Vec::new())
        .with_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        .with_header("Access-Control-Allow-Headers", allow_headers)
        .with_header("Access-Control-Max-Age", "600")
}

/// OpenAI's answer to an unknown API path.
fn not_found(request: &Request) -> Fixed {
    let message = format!("Invalid URL ({} {})", request.method, request.path);
    Fixed::json(404, &openai_error(404, &message))
}

/// The `/v1/models` list.
fn models() -> serde_json::Value {
    let model = |id: &str| serde_json::json!({ "id": id, "object": "model", "owned_by": "streamscope-lab" });
    serde_json::json!({
        "object": "list",
        "data": triage::MODEL_IDS.iter().map(|id| model(id)).collect::<Vec<_>>(),
    })
}
