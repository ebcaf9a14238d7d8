//! The answer as it arrives (reasoning apart), so a person sees what their users saw.

use leptos::prelude::*;

use super::session::Session;

/// Content text and reasoning text.
#[component]
pub fn TextView(session: Session) -> impl IntoView {
    let text = move || session.live.with(|l| l.text.clone());
    let reasoning = move || session.live.with(|l| l.reasoning.clone());
    view! {
        <section class="card text" aria-label="Answer">
            <h2>"Answer"</h2>
            <Show when=move || session.live.with(|l| !l.reasoning.is_empty())>
                <details class="reasoning">
                    <summary>"Reasoning"</summary>
                    <pre data-testid="reasoning-text">{reasoning}</pre>
                </details>
            </Show>
            <div class="answer" data-testid="answer-text">{text}</div>
        </section>
    }
}
