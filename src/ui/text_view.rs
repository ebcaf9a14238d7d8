//! The answer as it arrives (reasoning apart), so a person sees what their users saw. The text is
//! appended, never re-rendered: each frame adds a text node with what is new, so a 100,000-token answer
//! costs a frame what its last few tokens do.

use leptos::html::{Div, Pre};
use leptos::prelude::*;
use super::erased::effect;
use streamscope_core::i18n::keys::UiMetricsKey as K;
use streamscope_core::i18n::Text;
use streamscope_core::measure::NoAnswer;

use super::lang::{use_lang, word};
use super::live_view::LiveView;
use super::replay::{text_len_at, Replay, ReplayButton};
use super::session::{RunState, Session};

/// Content text and reasoning text.
#[component]
pub fn TextView(session: Session) -> impl IntoView {
    let replay = Replay::new();
    // A new run ends any replay of the previous one.
    effect(move || {
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
    // A finished run without answer text says why in its place (the text itself stays empty); the
    // paragraph is empty, and hidden, otherwise.
    // While a run plays this reads the state only, so the live view's frames do not run it.
    let no_answer = move || {
        if !matches!(session.state.get(), RunState::Done | RunState::Error) {
            return String::new();
        }
        let why = session.live.with(|l| l.text.is_empty().then(|| l.figures.no_answer(l.status)).flatten());
        let text = match why {
            Some(NoAnswer::ErrorStatus(status)) => Text::msg(K::AnswerNoneStatus).with("status", status.to_string()),
            Some(NoAnswer::ErrorStatusEmpty(status)) => Text::msg(K::AnswerNoneStatusEmpty).with("status", status.to_string()),
            Some(NoAnswer::NoContent) => Text::msg(K::AnswerNoneText),
            Some(NoAnswer::NothingArrived) => Text::msg(K::AnswerNoneNothing),
            None => return String::new(),
        };
        text.render(use_lang())
    };
    view! {
        <section class="card text" aria-label=word(K::Answer)>
            <div class="card-head">
                <h2>{word(K::Answer)}</h2>
                <ReplayButton session=session replay=replay />
            </div>
            <details class="reasoning" class:hidden=move || session.live.with(|l| l.reasoning.is_empty())>
                <summary>{word(K::Reasoning)}</summary>
                <pre node_ref=reasoning data-testid="reasoning-text"></pre>
            </details>
            <p class="answer-none" data-testid="answer-none">{no_answer}</p>
            <div node_ref=answer class="answer" class:replaying=move || replay.position_ms.get().is_some() data-testid="answer-text"></div>
        </section>
    }
}

/// A part of the shown text closes after a line end once it holds this many bytes.
pub const PART_SOFT_BYTES: usize = 4 * 1024;
/// A part with no line end closes at a space (or anywhere) once it would pass this many bytes.
pub const PART_HARD_BYTES: usize = 16 * 1024;

/// What an appender has put in the DOM.
#[derive(Clone, Default)]
struct Shown {
    run_id: u64,
    len: usize,
    part: Option<web_sys::Element>,
    part_len: usize,
}

/// Keeps `node`'s text equal to the first `len` bytes of the text `pick` returns, by appending what is
/// new; it starts over only when the run changes or the text gets shorter (a replay restarting).
///
/// The text goes into block parts of a few KiB, closed at a line end where there is one: appending then
/// lays out only the last part, where one growing paragraph made the browser lay out the whole answer
/// on every frame (measured: a 100,000-token answer spent 29 s in long tasks, 753 ms at worst, and the
/// main thread's load merged the worker's reads into a false `buffered`).
fn append_as_it_grows<E>(node: NodeRef<E>, session: Session, pick: impl Fn(&LiveView) -> (&String, usize) + 'static)
where
    E: leptos::html::ElementType,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
    NodeRef<E>: Get<Value = Option<E::Output>>,
{
    let shown = StoredValue::new_local(Shown::default());
    effect(move || {
        let Some(el) = node.get() else { return };
        let el: &web_sys::Element = wasm_bindgen::JsCast::unchecked_ref(&el);
        session.live.with(|l| {
            let (text, len) = pick(l);
            let len = floor_char_boundary(text, len);
            shown.update_value(|shown| {
                if shown.run_id != l.run_id || shown.len > len {
                    el.set_text_content(None);
                    *shown = Shown { run_id: l.run_id, ..Shown::default() };
                }
                if len > shown.len {
                    append(el, shown, &text[shown.len..len]);
                    shown.len = len;
                }
            });
        });
    });
}

/// Appends `new` to the last part, opening parts as [`PART_SOFT_BYTES`] and [`PART_HARD_BYTES`] say.
fn append(container: &web_sys::Element, shown: &mut Shown, new: &str) {
    let mut rest = new;
    while !rest.is_empty() {
        let cut = part_cut(shown.part_len, rest);
        if cut == 0 {
            shown.part = None;
            shown.part_len = 0;
            continue;
        }
        let part = match &shown.part {
            Some(part) => part.clone(),
            None => {
                let Ok(part) = document().create_element("span") else { return };
                part.set_class_name("answer-part");
                let _ = container.append_child(&part);
                shown.part = Some(part.clone());
                part
            }
        };
        let _ = part.append_with_str_1(&rest[..cut]);
        shown.part_len += cut;
        if cut < rest.len() {
            shown.part = None;
            shown.part_len = 0;
        }
        rest = &rest[cut..];
    }
}

/// How much of `rest` still goes into a part that holds `part_len` bytes (all of it when it fits).
fn part_cut(part_len: usize, rest: &str) -> usize {
    if part_len + rest.len() <= PART_SOFT_BYTES {
        return rest.len();
    }
    if part_len >= PART_HARD_BYTES {
        return 0;
    }
    let soft_room = floor_char_boundary(rest, PART_SOFT_BYTES.saturating_sub(part_len));
    let hard_room = floor_char_boundary(rest, PART_HARD_BYTES.saturating_sub(part_len));
    if let Some(i) = rest[soft_room..hard_room].find('\n') {
        return soft_room + i + 1;
    }
    if part_len + rest.len() <= PART_HARD_BYTES {
        return rest.len();
    }
    match rest[..hard_room].rfind(' ') {
        Some(i) if i > 0 => i + 1,
        _ => hard_room.max(rest.chars().next().map_or(0, char::len_utf8)),
    }
}

/// The largest char boundary of `text` at or below `len`.
fn floor_char_boundary(text: &str, len: usize) -> usize {
    let mut len = len.min(text.len());
    while !text.is_char_boundary(len) {
        len -= 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn parts_close_after_a_line_end_past_the_soft_size_or_at_a_space_past_the_hard_size() {
        assert_eq!(part_cut(0, "short"), 5);
        let para = format!("{}\n{}", "a".repeat(5000), "b".repeat(10));
        assert_eq!(part_cut(0, &para), 5001, "closes after the line end");
        let words = "word ".repeat(5000);
        let cut = part_cut(0, &words);
        assert!(cut <= PART_HARD_BYTES && words[..cut].ends_with(' '), "closes at a space: {cut}");
        let blob = "é".repeat(20_000);
        let cut = part_cut(0, &blob);
        assert!(cut <= PART_HARD_BYTES && blob.is_char_boundary(cut) && cut > 0);
        assert_eq!(part_cut(PART_HARD_BYTES, "x"), 0, "a full part closes");
        assert_eq!(part_cut(0, "x"), 1, "a fresh part always takes something");
    }
}
