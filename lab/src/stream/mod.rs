//! `/v1/chat/completions`: settings, forced errors, and the dispatch to each delivery mode.

mod bursts;
mod collect;
mod fixed_length;
mod malformed;
mod plan;
mod split;
mod timed;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::body::Framing;
use crate::chunks::{ChunkWriter, Usage};
use crate::request::Request;
use crate::response::{openai_error, Fixed};
use crate::settings::{Mode, StreamSettings};
use crate::state::State;

/// MIME type of every SSE response.
const SSE: &str = "text/event-stream";
/// How far back `cache=hit` dates the chunks' `created`, in seconds.
const CACHE_CREATED_AGE_S: u64 = 3600;

/// Answers one chat-completions request; the connection is closed afterwards.
pub(crate) async fn chat_completions(
    socket: &mut TcpStream,
    request: &Request,
    state: &State,
) -> std::io::Result<()> {
    let settings = match StreamSettings::from_request(&request.query, &request.body) {
        Ok(settings) => settings,
        Err(message) => {
            return Fixed::json(400, &openai_error(400, &message))
                .write(socket, false, false)
                .await
        }
    };
    if let Some(status) = settings.status {
        let message =
            format!("streamscope lab: forced status {status} (status={status} in the query)");
        let mut response = Fixed::json(status, &openai_error(status, &message));
        if status == 429 || status == 503 {
            response = response.with_header("Retry-After", "1");
        }
        return response.write(socket, false, false).await;
    }

    let chunks = chunk_writer(&settings, request, state);
    let framing = Framing::for_version(request.version);
    if !settings.stream {
        return collect::completion_json(socket, &settings, &chunks).await;
    }
    match settings.mode {
        Mode::Stream if settings.content_length => {
            fixed_length::stream(socket, &settings, &chunks).await
        }
        Mode::Stream => timed::stream(socket, framing, &settings, &chunks).await,
        Mode::Bursts => bursts::bursts(socket, framing, &settings, &chunks).await,
        Mode::Collect => collect::collect(socket, &settings, &chunks).await,
        Mode::Raw => timed::raw(socket, framing, &settings, request.received_at).await,
        Mode::Malformed => malformed::malformed(socket, framing, &settings, &chunks).await,
        Mode::Stall => timed::stall(socket, framing, &settings, &chunks).await,
    }
}

fn chunk_writer(settings: &StreamSettings, request: &Request, state: &State) -> ChunkWriter {
    let cache_hit_tokens =
        if settings.prompt_tokens > 1 && state.prompt_seen_before(settings.prompt_hash) {
            settings.prompt_tokens
        } else {
            0
        };
    let now_s = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let age_s = if settings.cache_hit {
        CACHE_CREATED_AGE_S
    } else {
        0
    };
    ChunkWriter {
        id: format!("chatcmpl-lab-{}", state.next_id()),
        created: now_s.saturating_sub(age_s),
        model: settings.model.clone(),
        pad: "x".repeat(settings.pad_bytes),
        usage: Usage {
            prompt_tokens: settings.prompt_tokens,
            completion_tokens: settings.tokens,
            cache_hit_tokens,
        },
        start: request.received_at,
    }
}

/// Sleeps until `ms` after `start` (absolute deadlines, so cadence does not drift).
async fn sleep_until_ms(start: Instant, ms: u64) {
    tokio::time::sleep_until(start + Duration::from_millis(ms)).await;
}
