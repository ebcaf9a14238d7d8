//! Runs one of core's measured passes in a loop, for a profiler (callgrind, perf) to look at without
//! criterion's and the other contenders' work around it:
//! `cargo build --profile bench -p streamscope-bench --example profile`, then
//! `valgrind --tool=callgrind target/release/examples/profile analysis 64 3`.
//! Arguments: `framing` | `framing-owned` | `analysis` | `reference` (core's passes) or a crate's name
//! (`sse-core`, `sse-stream`, `eventsource-stream`: its framing) or that name with `+serde_json` (its
//! framing + content), then the read size in bytes, the number of passes and the stream's size in bytes
//! (32 MiB by default; a smaller one that fits in the caches shows what is memory-bound).

#[path = "../benches/parser/crates.rs"]
mod crates;

use std::time::Instant;

use streamscope_bench::stream::{openai_stream, reads, SEED, STREAM_BYTES};
use streamscope_bench::work::{core_analysis, core_framing, core_framing_owned};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("analysis", String::as_str);
    let size: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1500);
    let passes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let stream_bytes: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(STREAM_BYTES);
    let g = openai_stream(stream_bytes, SEED);
    let reads = reads(&g.bytes, size);
    let (started, cpu_started) = (Instant::now(), cpu_ns());
    for _ in 0..passes {
        let tally = match what {
            "framing" => core_framing(&reads),
            "framing-owned" => core_framing_owned(&reads),
            "analysis" => core_analysis(&reads, false),
            "reference" => core_analysis(&reads, true),
            other => {
                let (name, content) = other.strip_suffix("+serde_json").map_or((other, false), |n| (n, true));
                let (_, parser) = *crates::CRATES.iter().find(|(n, _)| *n == name).expect("a known pass");
                if content {
                    crates::content(parser, &reads)
                } else {
                    crates::framing(parser, &reads)
                }
            }
        };
        std::hint::black_box(tally);
    }
    let wall_s = started.elapsed().as_secs_f64();
    let bytes = (g.bytes.len() * passes) as f64;
    let cpu = cpu_ns().map(|end| format!(", {:.0} MB/s of on-CPU time", bytes / ((end - cpu_started.unwrap_or(0)) as f64 / 1e9) / 1e6));
    println!("{what} {size} B reads: {:.0} MB/s{}", bytes / wall_s / 1e6, cpu.unwrap_or_default());
}

/// The time this thread spent on a CPU, in ns (Linux `schedstat`), so a busy machine's waits are left out.
fn cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}
