//! Replay: plays the recorded answer back at the recorded timing (first-token wait included), so a
//! person can feel what their users felt.

use leptos::prelude::*;
use super::erased::show_when;

use super::lang::{say, use_lang};
use super::live_view::LiveView;
use streamscope_core::i18n::keys::UiKey;
use streamscope_core::i18n::Text;
use super::session::Session;
use crate::net::clock::now_ms;
use streamscope_core::fixed::fixed;

/// The replay's state: `None` when not replaying, else ms since the replay started.
#[derive(Clone, Copy)]
pub struct Replay {
    /// Position in the recording while replaying.
    pub position_ms: RwSignal<Option<f64>>,
    generation: StoredValue<u64>,
}

impl Replay {
    /// A stopped replay.
    pub fn new() -> Replay {
        Replay { position_ms: RwSignal::new(None), generation: StoredValue::new(0) }
    }

    /// Starts (or restarts) the replay; it stops by itself at the end of the recording.
    pub fn start(self, end_ms: f64) {
        let generation = self.generation.get_value() + 1;
        self.generation.set_value(generation);
        let started_ms = now_ms();
        self.position_ms.set(Some(0.0));
        fn tick(replay: Replay, generation: u64, started_ms: f64, end_ms: f64) {
            request_animation_frame(move || {
                if replay.generation.try_get_value() != Some(generation) {
                    return;
                }
                let position_ms = now_ms() - started_ms;
                if position_ms > end_ms {
                    replay.position_ms.set(None);
                } else {
                    replay.position_ms.set(Some(position_ms));
                    tick(replay, generation, started_ms, end_ms);
                }
            });
        }
        tick(self, generation, started_ms, end_ms);
    }

    /// Stops the replay.
    pub fn stop(self) {
        self.generation.update_value(|g| *g += 1);
        self.position_ms.set(None);
    }
}

/// How many bytes of the answer text had arrived `position_ms` after the request was sent.
pub fn text_len_at(live: &LiveView, position_ms: f64) -> usize {
    let arrived = live.content_at_ms.partition_point(|at| *at <= position_ms);
    if arrived == 0 { 0 } else { live.text_len_after[arrived - 1] }
}

/// The answer text as it stood `position_ms` after the request was sent.
#[cfg(test)]
pub fn text_at(live: &LiveView, position_ms: f64) -> String {
    live.text.get(..text_len_at(live, position_ms)).unwrap_or(&live.text).to_string()
}

/// The Replay / Stop button.
#[component]
pub fn ReplayButton(session: Session, replay: Replay) -> impl IntoView {
    let has_recording = move || session.report.with(|r| r.is_some()) && session.live.with(|l| !l.content_at_ms.is_empty());
    let end_ms = move || session.live.with(|l| l.content_at_ms.last().copied().unwrap_or(0.0) + 400.0);
    view! {
        {show_when(has_recording, move || view! {
            <button
                class="replay"
                data-testid="replay"
                on:click=move |_| {
                    if replay.position_ms.get_untracked().is_some() { replay.stop() } else { replay.start(end_ms()) }
                }
            >
                {move || match replay.position_ms.get() {
                    Some(at) => Text::msg(UiKey::ReplayStop).with("at", fixed(at / 1000.0, 1)).render(use_lang()),
                    None => say(UiKey::ReplayStart),
                }}
            </button>
        }.into_any())}
    }
}
