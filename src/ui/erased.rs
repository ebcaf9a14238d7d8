//! Leptos's `<Show>` and `Effect::new`, each compiled once for the whole page through boxed closures.
//! Both are generic over the closures they are given, and compiled their machinery once per use: `<Show>`
//! its memo, its children's and fallback's closures and its `Either` view (16 uses, a run 4.1 KB of
//! gzipped wasm), `Effect::new` the task that runs the effect again whenever what it read changes (8 uses,
//! 1.8 KB; BENCHMARKS.md, Size, "One Show, one effect, one task").

use leptos::prelude::*;

type Condition = Box<dyn Fn() -> bool + Send + Sync>;
type Build = Box<dyn Fn() -> AnyView + Send + Sync>;

/// `children` while `when` holds, nothing otherwise: `{show_when(move || x(), move || view! { ... }.into_any())}`.
pub fn show_when(when: impl Fn() -> bool + Send + Sync + 'static, children: impl Fn() -> AnyView + Send + Sync + 'static) -> AnyView {
    shown(Box::new(when), Box::new(children), None)
}

/// `children` while `when` holds, `fallback` otherwise.
pub fn show_or(
    when: impl Fn() -> bool + Send + Sync + 'static,
    children: impl Fn() -> AnyView + Send + Sync + 'static,
    fallback: impl Fn() -> AnyView + Send + Sync + 'static,
) -> AnyView {
    shown(Box::new(when), Box::new(children), Some(Box::new(fallback)))
}

/// Both, through boxed closures: one instance of the memo, the effect and the view for every use.
fn shown(when: Condition, children: Build, fallback: Option<Build>) -> AnyView {
    let holds = Memo::new(move |_| when());
    (move || if holds.get() { Some(children()) } else { fallback.as_ref().map(|fallback| fallback()) }).into_any()
}

/// Runs `f` now and again whenever a signal it read changes, as `Effect::new` does, for as long as the
/// reactive owner it is created under lives.
pub fn effect(f: impl Fn() + 'static) {
    effect_boxed(Box::new(f))
}

fn effect_boxed(f: Box<dyn Fn()>) {
    Effect::new(move |_| f());
}
