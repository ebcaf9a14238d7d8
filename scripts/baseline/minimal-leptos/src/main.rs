//! A minimal Leptos page: one field, one button, one line of output (the size baseline).

use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// The whole page.
#[component]
fn App() -> impl IntoView {
    let url = RwSignal::new(String::new());
    let shown = RwSignal::new(String::new());
    view! {
        <main>
            <input data-testid="url" prop:value=url on:input=move |ev| url.set(event_target_value(&ev)) />
            <button data-testid="run" on:click=move |_| shown.set(format!("would run {}", url.get()))>"Run"</button>
            <p data-testid="shown">{move || shown.get()}</p>
        </main>
    }
}
