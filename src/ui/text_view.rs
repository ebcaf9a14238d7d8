//! The answer as it arrives (reasoning apart), so a person sees what their users saw. The text is
//! appended, never re-rendered: each frame adds a text node with what is new, so a 100,000-token answer
//! costs a frame what its last few tokens do.

use leptos::html::{Div, Pre};
use leptos::prelude::*;

use super::live_view::LiveView;
use super::replay::{text_len_at, Replay, ReplayButton};
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
    let answer = NodeRef::<Div>::new();
    let reasoning = NodeRef::<Pre>::new();
    append_as_it_grows(answer, session, move |l| match replay.position_ms.get() {
        Some(at) => (&l.text, text_len_at(l, at)),
        None => (&l.text, l.text.len()),
    });
    append_as_it_grows(reasoning, session, |l| (&l.reasoning, l.reasoning.len()));
    view! {
        <section class="card text" aria-label="Answer">
            <div class="card-head">
                <h2>"Answer"</h2>
                <ReplayButton session=session replay=replay />
            </div>
            <details class="reasoning" class:hidden=move || session.live.with(|l| l.reasoning.is_empty())>
                <summary>"Reasoning"</summary>
                <pre node_ref=reasoning data-testid="reasoning-text"></pre>
            </details>
            <div node_ref=answer class="answer" class:replaying=move || replay.position_ms.get().is_some() data-testid="answer-text"></div>
        </section>
    }
}

/// Keeps `node`'s text equal to the first `len` bytes of the text `pick` returns, by appending what is
/// new; it starts over only when the run changes or the text gets shorter (a replay restarting).
fn append_as_it_grows<E>(node: NodeRef<E>, session: Session, pick: impl Fn(&LiveView) -> (&String, usize) + 'static)
where
    E: leptos::html::ElementType,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
    NodeRef<E>: Get<Value = Option<E::Output>>,
{
    let shown = StoredValue::new((0u64, 0usize));
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        let el: &web_sys::Element = wasm_bindgen::JsCast::unchecked_ref(&el);
        session.live.with(|l| {
            let (text, len) = pick(l);
            let len = floor_char_boundary(text, len);
            let (run_id, shown_len) = shown.get_value();
            let from = if run_id != l.run_id || shown_len > len {
                el.set_text_content(None);
                0
            } else {
                shown_len
            };
            if len > from {
                let _ = el.append_with_str_1(&text[from..len]);
            }
            shown.set_value((l.run_id, len));
        });
    });
}

/// The largest char boundary of `text` at or below `len`.
fn floor_char_boundary(text: &str, len: usize) -> usize {
    let mut len = len.min(text.len());
    while !text.is_char_boundary(len) {
        len -= 1;
    }
    len
}
