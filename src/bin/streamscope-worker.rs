//! The measuring worker's entry point: serve runs, nothing else (built by Trunk as a Web Worker).

fn main() {
    console_error_panic_hook::set_once();
    streamscope::net::worker::serve::serve();
}
