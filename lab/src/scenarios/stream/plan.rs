//! The events of one timed response and when each is due, one at a time (a plan of 100,000 events is
//! never held in memory).

use crate::scenarios::chunks::Event;
use crate::scenarios::settings::StreamSettings;

/// One event and its deadline.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Planned {
    /// Deadline in ms after the request.
    pub at_ms: f64,
    /// What to send.
    pub event: Event,
}

/// The role chunk at 0 (when asked for), `content_events` content events at their deadlines, and with
/// `tail` the finish, usage (when asked for) and `[DONE]` events at the last deadline (`first_ms` when
/// there is no content); lazily, in order.
pub(super) fn plan(
    settings: &StreamSettings,
    content_events: usize,
    tail: bool,
) -> impl Iterator<Item = Planned> + '_ {
    let role = settings.role_first.then_some(Planned {
        at_ms: 0.0,
        event: Event::Role,
    });
    let content_events = if settings.echo_text.is_some() { 1 } else { content_events };
    let content = settings
        .deadlines()
        .take(content_events)
        .enumerate()
        .map(|(index, at_ms)| Planned {
            at_ms,
            // `echo_headers` / `say`: the one content event is that text.
            event: Event::Content(match &settings.echo_text {
                Some(text) => text.clone(),
                None => settings.event_text(index),
            }),
        });
    let end_ms = if tail {
        settings.end_ms(content_events)
    } else {
        0.0
    };
    let tail_events = [
        Some(Event::Finish),
        settings.usage.then_some(Event::Usage),
        Some(Event::Done),
    ];
    let tail = tail_events
        .into_iter()
        .flatten()
        .filter(move |_| tail)
        .map(move |event| Planned { at_ms: end_ms, event });
    role.into_iter().chain(content).chain(tail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::query::Query;

    fn settings(query: &str) -> StreamSettings {
        StreamSettings::from_request(&Query::parse(query), b"").unwrap()
    }

    #[test]
    fn echoed_text_is_the_one_content_event() {
        let mut s = settings("echo_headers=1&role_first=0");
        s.echo_text = Some("abcdefghij".into());
        let content: Vec<Event> = plan(&s, 50, false).map(|p| p.event).collect();
        assert_eq!(content, vec![Event::Content("abcdefghij".into())]);
    }

    #[test]
    fn role_content_and_tail_in_order_with_grouped_tokens() {
        let s = settings("tokens=5&tokens_per_event=2&first_ms=100&cadence_ms=10");
        let planned: Vec<Planned> = plan(&s, s.content_events(), true).collect();
        let at: Vec<f64> = planned.iter().map(|p| p.at_ms).collect();
        assert_eq!(at, [0.0, 100.0, 110.0, 120.0, 120.0, 120.0, 120.0]);
        assert_eq!(planned[1].event, Event::Content(" The quick".into()));
        assert_eq!(planned[3].event, Event::Content(" jumps".into()));
        assert_eq!(planned.last().unwrap().event, Event::Done);
    }

    #[test]
    fn no_role_no_usage_no_tail() {
        let s = settings("tokens=0&role_first=0&usage=0&first_ms=40");
        let planned: Vec<Planned> = plan(&s, 0, true).collect();
        assert_eq!(
            planned,
            [
                Planned {
                    at_ms: 40.0,
                    event: Event::Finish
                },
                Planned {
                    at_ms: 40.0,
                    event: Event::Done
                },
            ]
        );
        assert!(plan(&s, 3, false)
            .all(|p| matches!(p.event, Event::Content(_))));
    }
}
