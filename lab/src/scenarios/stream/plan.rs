//! The events of one timed response and when each is due.

use crate::scenarios::chunks::Event;
use crate::scenarios::passage::span_text;
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
/// there is no content).
pub(super) fn plan(settings: &StreamSettings, content_events: usize, tail: bool) -> Vec<Planned> {
    let mut planned = Vec::with_capacity(content_events + 4);
    if settings.role_first {
        planned.push(Planned {
            at_ms: 0.0,
            event: Event::Role,
        });
    }
    let echoed: Option<Vec<String>> = settings.echo_text.clone().map(|t| vec![t]);
    let content_events = echoed.as_ref().map_or(content_events, Vec::len);
    let deadlines_ms = settings.deadlines_ms(content_events);
    for (index, &at_ms) in deadlines_ms.iter().enumerate() {
        let text = match &echoed {
            Some(p) => p[index].clone(),
            None => span_text(settings.event_tokens(index)),
        };
        planned.push(Planned {
            at_ms,
            event: Event::Content(text),
        });
    }
    if tail {
        let end_ms = deadlines_ms.last().copied().unwrap_or(settings.first_ms);
        let mut tail_events = vec![Event::Finish];
        if settings.usage {
            tail_events.push(Event::Usage);
        }
        tail_events.push(Event::Done);
        planned.extend(tail_events.into_iter().map(|event| Planned {
            at_ms: end_ms,
            event,
        }));
    }
    planned
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
        let content: Vec<Event> = plan(&s, 50, false).into_iter().map(|p| p.event).collect();
        assert_eq!(content, vec![Event::Content("abcdefghij".into())]);
    }

    #[test]
    fn role_content_and_tail_in_order_with_grouped_tokens() {
        let s = settings("tokens=5&tokens_per_event=2&first_ms=100&cadence_ms=10");
        let planned = plan(&s, s.content_events(), true);
        let at: Vec<f64> = planned.iter().map(|p| p.at_ms).collect();
        assert_eq!(at, [0.0, 100.0, 110.0, 120.0, 120.0, 120.0, 120.0]);
        assert_eq!(planned[1].event, Event::Content(" The quick".into()));
        assert_eq!(planned[3].event, Event::Content(" jumps".into()));
        assert_eq!(planned.last().unwrap().event, Event::Done);
    }

    #[test]
    fn no_role_no_usage_no_tail() {
        let s = settings("tokens=0&role_first=0&usage=0&first_ms=40");
        let planned = plan(&s, 0, true);
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
            .iter()
            .all(|p| matches!(p.event, Event::Content(_))));
    }
}
