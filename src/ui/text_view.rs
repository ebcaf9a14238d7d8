//! The answer as it arrives (reasoning apart), so a person sees what their users saw.

use leptos::prelude::*;

use super::replay::{text_at, Replay, ReplayButton};
use super::session::Session;

/// Content text and reasoning text.
#[component]
pub fn TextView(session: Session) -> impl IntoView {
    let replay = Replay::new();
    // A new run ends any replay of the previous one.
    Effect::new(move |_| {
        session.report.track();
        replay.stop();
    });
    let text = move || match replay.position_ms.get() {
        Some(at) => session.live.with(|l| text_at(l, at)),
        None => session.live.with(|l| l.text.clone()),
    };
    let reasoning = move || session.live.with(|l| l.reasoning.clone());
    view! {
        <section class="card text" aria-label="Answer">
            <div class="card-head">
                <h2>"Answer"</h2>
                <ReplayButton session=session replay=replay />
            </div>
            <Show when=move || session.live.with(|l| !l.reasoning.is_empty())>
                <details class="reasoning">
                    <summary>"Reasoning"</summary>
                    <pre data-testid="reasoning-text">{reasoning}</pre>
                </details>
            </Show>
            <div class="answer" class:replaying=move || replay.position_ms.get().is_some() data-testid="answer-text">{text}</div>
        </section>
    }
}
