//! Core's throughput in the browser: the generated 32 MiB stream (see `streamscope_bench::stream`)
//! through core's full analysis and its framing alone, compiled for wasm32 with the release profile (the
//! page's: opt-level "z", LTO; without the page's wasm-opt pass) and run in headless Chromium, 64 B,
//! 1,500 B and 16 KiB reads. It prints MB/s (median and best of 5 passes after one warm-up pass): a
//! measurement, not an asserted timing; what it asserts is that every pass found what the generator put
//! in. Run by `scripts/bench-parser.sh`, or:
//! `cargo test --release --target wasm32-unknown-unknown -p streamscope-bench --test wasm -- --nocapture`.

#![cfg(target_arch = "wasm32")]

use std::hint::black_box;

use streamscope_bench::stream::{openai_stream, reads, READ_SIZES_BYTES, SEED, STREAM_BYTES};
use streamscope_bench::work::{core_analysis, core_framing, Tally};
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

// The page's allocator (src/main.rs): what the analysis allocates costs what it costs on the page.
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Timed passes per measurement (after one untimed warm-up pass).
const PASSES: usize = 5;

/// Median and best MB/s (decimal) of [`PASSES`] runs of `pass` over `bytes` bytes, each checked by
/// `check`.
fn measure(bytes: usize, mut pass: impl FnMut() -> Tally, check: impl Fn(Tally)) -> (f64, f64) {
    let performance = web_sys::window().expect("a window").performance().expect("performance");
    check(black_box(pass()));
    let mut mb_per_s: Vec<f64> = (0..PASSES)
        .map(|_| {
            let started_ms = performance.now();
            let tally = black_box(pass());
            let ms = performance.now() - started_ms;
            check(tally);
            bytes as f64 / 1e6 / (ms / 1e3)
        })
        .collect();
    mb_per_s.sort_by(f64::total_cmp);
    (mb_per_s[PASSES / 2], mb_per_s[PASSES - 1])
}

#[wasm_bindgen_test]
fn analysis_and_framing_throughput_in_chromium() {
    let g = openai_stream(STREAM_BYTES, SEED);
    let analysed = Tally { events: g.content_events, bytes: g.text_bytes };
    console_log!("stream: {} bytes, {} events, {} content events", g.bytes.len(), g.events, g.content_events);
    for size in READ_SIZES_BYTES {
        let reads = reads(&g.bytes, size);
        let (median, best) = measure(g.bytes.len(), || core_analysis(&reads, false), |t| assert_eq!(t, analysed));
        console_log!("wasm analysis {size} B reads: median {median:.0} MB/s, best {best:.0} MB/s");
        let (median, best) = measure(g.bytes.len(), || core_framing(&reads), |t| assert_eq!(t.events, g.events));
        console_log!("wasm framing {size} B reads: median {median:.0} MB/s, best {best:.0} MB/s");
    }
}
