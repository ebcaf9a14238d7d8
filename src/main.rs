//! Entry point. One wasm serves two places: on the page it mounts the app; in the measuring worker
//! (which loads this same file, see `net::worker`) it serves runs. Nothing else.

fn main() {
    console_error_panic_hook::set_once();
    if streamscope::net::worker::serve::in_worker() {
        streamscope::net::worker::serve::serve();
    } else {
        leptos::mount::mount_to_body(streamscope::ui::App);
    }
}
