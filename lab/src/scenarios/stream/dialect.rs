//! `mode=stream` in a dialect other than OpenAI chat: start, reasoning and content tokens at their
//! deadlines, then the closing messages, one write per step (content steps `batch` per write).

use std::time::{SystemTime, UNIX_EPOCH};

use super::batch;
use super::group::send_group;
use super::queue::Queue;
use super::sleep_until_ms;
use super::split::Split;
use crate::http::body::Framing;
use crate::http::piece::Piece;
use crate::http::socket::Socket;
use crate::scenarios::chunks::ChunkWriter;
use crate::scenarios::dialect_events::{DialectWriter, EndFacts, Step};
use crate::scenarios::settings::StreamSettings;

/// The steps of a timed response and their deadlines in ms after the request: the start at 0, the
/// reasoning tokens at the cadence ending one cadence before `first_ms`, the content events at their
/// deadlines, the end at the last one; lazily, in order.
pub(super) fn steps(settings: &StreamSettings) -> impl Iterator<Item = (f64, Step)> + '_ {
    let reasoning = settings.reasoning_tokens;
    let reasoning_steps = (0..reasoning).map(move |i| {
        let before_ms = (reasoning - i) as f64 * settings.cadence_ms;
        let text = settings.sent_text(i..i + 1);
        (
            (settings.first_ms - before_ms).max(0.0),
            Step::Reasoning(text),
        )
    });
    let events = settings.content_events();
    let content_steps = settings
        .deadlines()
        .take(events)
        .enumerate()
        .map(|(index, at_ms)| (at_ms, Step::Content(settings.event_text(index))));
    let end = std::iter::once_with(move || (settings.end_ms(events), Step::End));
    std::iter::once((0.0, Step::Start))
        .chain(reasoning_steps)
        .chain(content_steps)
        .chain(end)
}

/// Sends the timed stream of `settings` in its dialect; `chunks` gives the id, model, usage and clock.
pub(super) async fn stream(
    socket: &mut Socket,
    framing: Framing,
    settings: &StreamSettings,
    chunks: &ChunkWriter,
    queue: Queue,
) -> std::io::Result<()> {
    let content_type = settings.dialect.content_type();
    let opened = queue.open(socket, framing, content_type, settings, chunks).await?;
    let Some((mut body, turn)) = opened else {
        return Ok(());
    };
    let chunks = &turn.chunks;
    let end = EndFacts {
        prompt_tokens: chunks.usage.prompt_tokens,
        cache_hit_tokens: chunks.usage.cache_hit_tokens,
        content_tokens: settings.tokens,
        reasoning_tokens: settings.reasoning_tokens,
        hit_limit: settings.hit_limit,
        terminal: settings.terminal,
    };
    let id = chunks
        .id
        .rsplit('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let now_s = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut writer = DialectWriter::new(settings.dialect, &settings.model, id, now_s, end);
    let split = Split::of(settings);
    let is_content = |step: &Step| matches!(step, Step::Content(_));
    for write in batch::writes(steps(settings), settings.batch, is_content) {
        sleep_until_ms(chunks.start, write.at_ms).await;
        let server_ms = chunks.stamp.then(|| chunks.server_ms());
        // Owned steps: a closure over `&Step` held across an await makes the future not `Send`.
        let messages = write
            .items
            .into_iter()
            .map(|step| Piece::from(writer.render(&step, server_ms)));
        send_group(&mut body, messages, split).await?;
    }
    super::timed::linger(&mut body, settings).await;
    body.finish().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::query::Query;
    use crate::scenarios::passage::span_text;

    #[test]
    fn reasoning_ends_before_the_first_token_and_the_end_follows_the_last() {
        let s = StreamSettings::from_request(
            &Query::parse("dialect=gemini&tokens=3&reasoning=2&first_ms=100&cadence_ms=10"),
            b"",
        )
        .unwrap();
        let all: Vec<(f64, Step)> = steps(&s).collect();
        let at: Vec<f64> = all.iter().map(|(at, _)| *at).collect();
        assert_eq!(at, [0.0, 80.0, 90.0, 100.0, 110.0, 120.0, 120.0]);
        assert!(matches!(all[1].1, Step::Reasoning(_)));
        assert_eq!(all.last().unwrap().1, Step::End);
    }

    #[test]
    fn cumulative_reasoning_carries_the_reasoning_so_far() {
        let step_texts = |query: &str| {
            let s = StreamSettings::from_request(&Query::parse(query), b"").unwrap();
            steps(&s).filter_map(|(_, step)| match step {
                Step::Reasoning(text) => Some(text),
                _ => None,
            }).collect::<Vec<_>>()
        };
        let plain = step_texts("dialect=anthropic&tokens=2&reasoning=3");
        let so_far = step_texts("dialect=anthropic&tokens=2&reasoning=3&cumulative=1");
        assert_eq!(plain, [span_text(0..1), span_text(1..2), span_text(2..3)]);
        assert_eq!(so_far, [span_text(0..1), span_text(0..2), span_text(0..3)]);
    }
}
