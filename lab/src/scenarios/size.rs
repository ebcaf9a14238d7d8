//! How many bytes a response is planned to be, and the cap on it: a request whose planned body would
//! exceed [`MAX_RESPONSE_BYTES`] is refused with a `400` that names `tokens × pad`, before anything is
//! generated or waited for.
//!
//! The estimate is an upper bound from the settings alone (no rendering): every JSON event is counted
//! at [`EVENT_OVERHEAD_BYTES`] plus the model's name and its padding, every token at
//! [`TOKEN_TEXT_BYTES`], plus the floods (`keepalive_bytes`, `long_line_bytes`) and `malformed`'s
//! 1 MiB line.

use crate::scenarios::settings::{Mode, StreamSettings};

/// Largest planned response body: 1 GiB. The largest bodies the page's own checks need are tens of
/// MB (the 64 MiB floods, `MAX_FLOOD_BYTES`), so this leaves 16 times that (or a 100,000-token stream
/// with 10 KB of padding per event) while refusing what can only be a mistake or an attack:
/// `tokens=100000&pad=16777216` asks for 1.6 TB, which would keep a connection and a core busy for
/// hours even streamed.
pub const MAX_RESPONSE_BYTES: u64 = 1024 * 1024 * 1024;
/// Bytes of one JSON event besides its text, padding and model name: id, object, created, choices,
/// usage, `server_ms` and the SSE framing come to 150-400 bytes; rounded up.
pub const EVENT_OVERHEAD_BYTES: u64 = 512;
/// Bytes of one token's text: the passage's longest word with its space is 13 bytes; rounded up.
pub const TOKEN_TEXT_BYTES: u64 = 16;
/// JSON events of a stream besides its content and reasoning: role, finish, usage, end.
const FRAME_EVENTS: u64 = 4;
/// Events of the `malformed` script (content, broken and long), whatever `tokens` says.
const MALFORMED_EVENTS: u64 = 13;
/// The `malformed` script's long line.
const MALFORMED_LONG_LINE_BYTES: u64 = 1_048_576;

/// The bytes of text `tokens` tokens are sent as: once each, or with `cumulative` the k-th event
/// carrying k events' tokens (an upper estimate: one token an event).
fn text_bytes(tokens: usize, cumulative: bool) -> u64 {
    let tokens = tokens as u64;
    let sent = if cumulative { tokens.saturating_mul(tokens + 1) / 2 } else { tokens };
    sent.saturating_mul(TOKEN_TEXT_BYTES)
}

/// An upper estimate of the body `settings` ask for, in bytes.
pub fn planned_body_bytes(settings: &StreamSettings) -> u64 {
    let per_event = EVENT_OVERHEAD_BYTES + settings.model.len() as u64;
    let text = text_bytes(settings.tokens, settings.cumulative);
    if !settings.stream {
        // One `chat.completion` object, no padding.
        return per_event + text;
    }
    let content_events = settings.content_events() as u64;
    let (events, extra_bytes) = match settings.mode {
        Mode::Malformed => (MALFORMED_EVENTS, MALFORMED_LONG_LINE_BYTES),
        Mode::Stall => (settings.stall_after as u64, 0),
        _ => {
            let sent = settings
                .reset_after
                .map_or(content_events, |n| content_events.min(n as u64));
            let floods = settings.keepalive_bytes as u64 + settings.long_line_bytes as u64;
            (sent, floods)
        }
    };
    let json_events = events + settings.reasoning_tokens as u64 + FRAME_EVENTS;
    let reasoning_text = text_bytes(settings.reasoning_tokens, settings.cumulative);
    json_events
        .saturating_mul(per_event + settings.pad_bytes as u64)
        .saturating_add(text)
        .saturating_add(reasoning_text)
        .saturating_add(extra_bytes)
}

/// Refuses settings whose planned body exceeds [`MAX_RESPONSE_BYTES`], with a message for the `400`.
pub fn check(settings: &StreamSettings) -> Result<(), String> {
    let planned = planned_body_bytes(settings);
    if planned <= MAX_RESPONSE_BYTES {
        return Ok(());
    }
    if settings.cumulative {
        let (reasoning, or_reasoning) = match settings.reasoning_tokens {
            0 => (String::new(), ""),
            n => (format!(" and reasoning={n}"), " or reasoning"),
        };
        return Err(format!(
            "response too large: cumulative=1 with tokens={}{reasoning} resends the text so far in every \
             event, about {planned} bytes in all, over the lab's limit of {MAX_RESPONSE_BYTES} bytes (1 GiB); \
             lower tokens{or_reasoning}",
            settings.tokens
        ));
    }
    let padding = (settings.tokens as u64).saturating_mul(settings.pad_bytes as u64);
    Err(format!(
        "response too large: tokens={} × pad={} is {padding} bytes of padding, about {planned} bytes \
         in all with the events, over the lab's limit of {MAX_RESPONSE_BYTES} bytes (1 GiB); lower \
         tokens or pad",
        settings.tokens, settings.pad_bytes
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::query::Query;

    fn settings(query: &str) -> Result<StreamSettings, String> {
        StreamSettings::from_request(&Query::parse(query), b"")
    }

    #[test]
    fn the_estimate_is_an_upper_bound_close_to_the_real_size() {
        let s = settings("tokens=1000&pad=65536").unwrap();
        let planned = planned_body_bytes(&s);
        let real_min = 1000 * 65_536 + 1000 * 150;
        assert!(
            planned >= real_min && planned < real_min * 11 / 10,
            "{planned}"
        );
        let quiet = settings("mode=stall&tokens=100000&stall_after=2&pad=16777216").unwrap();
        assert!(
            planned_body_bytes(&quiet) < 200 * 1024 * 1024,
            "a stall sends stall_after events"
        );
        let flood = settings("tokens=1&keepalive_bytes=67108864").unwrap();
        assert!(planned_body_bytes(&flood) > 64 * 1024 * 1024);
    }

    #[test]
    fn a_terabyte_is_refused_naming_tokens_times_pad() {
        let err = settings("mode=collect&tokens=100000&pad=16777216").unwrap_err();
        assert!(err.contains("tokens=100000 × pad=16777216"), "{err}");
        assert!(err.contains("1677721600000 bytes of padding"), "{err}");
        assert!(err.contains("1073741824"), "{err}");
        for allowed in [
            "mode=collect&tokens=1000&pad=65536",
            "tokens=100000&pad=10000",
            "",
        ] {
            assert!(settings(allowed).is_ok(), "{allowed}");
        }
        for refused in [
            "tokens=100000&pad=16777216",
            "tokens=65&pad=16777216&mode=bursts",
        ] {
            assert!(settings(refused).is_err(), "{refused}");
        }
    }
}
