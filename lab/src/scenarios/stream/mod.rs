//! `/v1/chat/completions`: settings, forced errors, and the dispatch to each delivery mode.
//!
//! Every mode writes its body piece by piece and holds one write at most (see [`group`] and
//! [`crate::http::piece`]): nothing here builds a whole body or a whole plan in memory.

mod batch;
mod bursts;
mod collect;
mod dialect;
mod fixed_length;
mod flood;
mod group;
mod malformed;
mod plan;
mod queue;
mod split;
mod timed;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::time::Instant;

use crate::http::body::{Ending, Framing};
use crate::scenarios::chunks::{ChunkWriter, Usage};
use crate::http::request::Request;
use crate::http::response::{openai_error, Fixed};
use crate::http::socket::Socket;
use crate::scenarios::settings::{Mode, StreamSettings};
use crate::http::state::State;
use crate::scenarios::wire_dialect::WireDialect;
use crate::scenarios::triage::Triage;
use queue::Queue;

/// MIME type of every SSE response.
const SSE: &str = "text/event-stream";
/// How far back `cache=hit` dates the chunks' `created`, in seconds.
const CACHE_CREATED_AGE_S: u64 = 3600;

/// Answers one chat-completions request; says whether the connection is then closed or reset.
pub(crate) async fn chat_completions(
    socket: &mut Socket,
    request: &Request,
    state: &State,
) -> std::io::Result<Ending> {
    // A native path (`/v1/messages`, `/api/chat`, ...) speaks its dialect unless the query names one.
    let settings = StreamSettings::from_request(&request.query, &request.body).and_then(|s| {
        match WireDialect::for_path(&request.path) {
            // Gemini streams one JSON array unless asked for SSE, as Google's API does.
            Some(WireDialect::Gemini) if request.query.get("dialect").is_none() && request.query.get("alt") != Some("sse") => {
                s.with_dialect(WireDialect::GeminiArray)
            }
            Some(native) if request.query.get("dialect").is_none() => s.with_dialect(native),
            _ => Ok(s),
        }
    });
    let settings = match settings {
        Ok(mut settings) => {
            if settings.echo_headers {
                settings.echo_text = Some(echoed_request(request));
            }
            settings
        }
        Err(message) => {
            return Fixed::json(400, &openai_error(400, &message))
                .write(socket, false, false)
                .await
                .map(|()| Ending::Close)
        }
    };
    // Forced failures for triage: HTML error pages, keys, models, statuses (see `crate::scenarios::triage`).
    let failure = Triage::from_query(&request.query).map(|t| t.answer(request, &settings));
    match failure {
        Ok(None) => {}
        Ok(Some(response)) => {
            return response
                .write(socket, false, false)
                .await
                .map(|()| Ending::Close)
        }
        Err(message) => {
            return Fixed::json(400, &openai_error(400, &message))
                .write(socket, false, false)
                .await
                .map(|()| Ending::Close)
        }
    }

    // `slots`: a place in the pool's queue, taken on arrival (see `queue`).
    let queue = match &settings.slots {
        None => Queue::none(),
        Some(slots) => match state.slot_pools.join(slots) {
            Ok(ticket) => Queue::with(ticket),
            Err(message) => {
                return Fixed::json(503, &openai_error(503, &message))
                    .with_header("Retry-After", "1")
                    .write(socket, false, false)
                    .await
                    .map(|()| Ending::Close)
            }
        },
    };

    let chunks = chunk_writer(&settings, request, state);
    let framing = Framing::for_version(request.version);
    if !settings.stream {
        return collect::completion_json(socket, &settings, &chunks, queue)
            .await
            .map(|()| Ending::Close);
    }
    if settings.mode == Mode::Stream && !settings.content_length {
        if settings.dialect == WireDialect::OpenaiChat {
            // The one mode that can end in a reset (`reset_after`).
            return timed::stream(socket, framing, &settings, &chunks, queue).await;
        }
        return dialect::stream(socket, framing, &settings, &chunks, queue)
            .await
            .map(|()| Ending::Close);
    }
    let closed = match settings.mode {
        // Only with `content_length` here: the other timed streams were answered above.
        Mode::Stream => fixed_length::stream(socket, &settings, &chunks, queue).await,
        Mode::Bursts => bursts::bursts(socket, framing, &settings, &chunks, queue).await,
        Mode::Collect => collect::collect(socket, &settings, &chunks, queue).await,
        Mode::Raw => timed::raw(socket, framing, &settings, &chunks, queue).await,
        Mode::Malformed => malformed::malformed(socket, framing, &settings, &chunks, queue).await,
        Mode::Stall => timed::stall(socket, framing, &settings, &chunks, queue).await,
    };
    closed.map(|()| Ending::Close)
}

/// What `echo_headers=1` sends back: the request's credential headers and its query, as a debug proxy
/// that returns the request would.
fn echoed_request(request: &Request) -> String {
    let mut out = String::from("You sent: ");
    for (name, value) in &request.headers {
        if matches!(name.as_str(), "authorization" | "x-api-key" | "x-goog-api-key" | "api-key") {
            out.push_str(&format!("{name}: {value}; "));
        }
    }
    let query: Vec<String> = request.query.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect();
    out.push_str(&format!("query: {}.", query.join("&")));
    out
}

fn chunk_writer(settings: &StreamSettings, request: &Request, state: &State) -> ChunkWriter {
    let cache_hit_tokens = state.cached_prompt_tokens(&settings.prompt);
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
        pad_bytes: settings.pad_bytes,
        usage: Usage {
            prompt_tokens: settings.prompt_tokens,
            completion_tokens: settings.tokens,
            cache_hit_tokens,
            style: settings.usage_style,
        },
        start: request.received_at,
        stamp: settings.stamp,
        filter: settings.content_filter,
        tool_call: settings.tool_call,
    }
}

/// How early tokio's timer is asked to wake the sender: it ticks in whole ms and rounds a deadline up
/// to the next tick, so waking one tick early and sleeping the rest precisely keeps a sub-ms schedule.
const COARSE_WAKE_EARLY: Duration = Duration::from_millis(1);
/// Below this, a blocking sleep costs more than it gains: send now.
const FINE_SLEEP_MIN: Duration = Duration::from_micros(20);

/// Sleeps until `ms` (fractions allowed) after `start`: absolute deadlines, so lateness never
/// accumulates, and to within about 0.1 ms. The last part of the wait (under a ms) is a
/// `std::thread::sleep` on tokio's blocking pool: precise without spinning a core and without blocking
/// the runtime that serves other connections. A deadline already past returns at once.
async fn sleep_until_ms(start: Instant, ms: f64) {
    let deadline = start + Duration::from_secs_f64(ms.max(0.0) / 1e3);
    let now = Instant::now();
    if now >= deadline {
        return;
    }
    if deadline - now > COARSE_WAKE_EARLY {
        tokio::time::sleep_until(deadline - COARSE_WAKE_EARLY).await;
    }
    if deadline.saturating_duration_since(Instant::now()) < FINE_SLEEP_MIN {
        return;
    }
    let deadline = deadline.into_std();
    let fine = tokio::task::spawn_blocking(move || {
        let rest = deadline.saturating_duration_since(std::time::Instant::now());
        std::thread::sleep(rest);
    });
    if fine.await.is_err() {
        // The blocking pool is shutting down: fall back to the coarse timer.
        tokio::time::sleep_until(deadline.into()).await;
    }
}
