//! `/v1/chat/completions`: settings, forced errors, and the dispatch to each delivery mode.

mod collect;
mod malformed;
mod timed;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::body::{BodyWriter, Framing};
use crate::chunks::{ChunkWriter, Usage};
use crate::request::Request;
use crate::response::{openai_error, Fixed};
use crate::settings::{Mode, StreamSettings};
use crate::state::State;

/// MIME type of every SSE response.
const SSE: &str = "text/event-stream";

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
        Mode::Stream => timed::stream(socket, framing, &settings, &chunks).await,
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
    ChunkWriter {
        id: format!("chatcmpl-lab-{}", state.next_id()),
        created: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
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

/// Sends one event: one write, or with `split_utf8` two writes 5 ms apart split inside the first
/// multi-byte character.
async fn send_event(
    body: &mut BodyWriter<'_>,
    event: &[u8],
    split_utf8: bool,
) -> std::io::Result<()> {
    let split_at = split_utf8
        .then(|| event.iter().position(|&b| b >= 0xC0))
        .flatten();
    match split_at {
        Some(lead) => {
            body.send(&event[..=lead]).await?;
            tokio::time::sleep(Duration::from_millis(5)).await;
            body.send(&event[lead + 1..]).await
        }
        None => body.send(event).await,
    }
}
