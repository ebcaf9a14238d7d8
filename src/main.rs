//! Entry point. One wasm serves two places: on the page it mounts the app; in the measuring worker
//! (which loads this same file, see `net::worker`) it serves runs. Nothing else, but the allocator.

/// The wasm's allocator: Talc instead of Rust's default dlmalloc, 1.0 KB less gzipped for a run and
/// 1.4 KB for every file, at the same analysis throughput (BENCHMARKS.md, Size, "Talc"). Each wasm
/// instance (the page's, the worker's) is single-threaded, which Talc's cell requires.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    console_error_panic_hook::set_once();
    if streamscope::net::worker::serve::in_worker() {
        streamscope::net::worker::serve::serve();
    } else {
        leptos::mount::mount_to_body(streamscope::ui::App);
    }
}
