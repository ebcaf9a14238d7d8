//! The summary `scripts/bench-parser.sh` prints (and BENCHMARKS.md records): one Markdown table per read
//! size from criterion's results and the wasm test's output, with the goals.
//!
//! `summary <criterion dir> <wasm test output>`: the criterion dir is `$CARGO_TARGET_DIR/criterion`
//! (each benchmark's `new/benchmark.json` and `new/estimates.json`; the median time is used, and the
//! stream's size from the throughput criterion recorded); the wasm output holds the test's
//! `wasm analysis 64 B reads: median … MB/s, best … MB/s` lines. A missing figure prints as `–`.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use streamscope_bench::stream::READ_SIZES_BYTES;

/// The full analysis goal, MB/s.
const ANALYSIS_GOAL_MB_S: f64 = 650.0;
/// The wasm analysis goal, MB/s.
const WASM_GOAL_MB_S: f64 = 100.0;
/// The crates compared with.
const CRATES: [&str; 3] = ["sse-core", "sse-stream", "eventsource-stream"];

/// MB/s (decimal) per (group, function), from every `benchmark.json` + `estimates.json` under `dir`.
fn criterion_mb_s(dir: &Path, out: &mut BTreeMap<(String, String), f64>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.ends_with("new") {
            let read = |name: &str| -> Option<Value> {
                serde_json::from_str(&std::fs::read_to_string(path.join(name)).ok()?).ok()
            };
            let (Some(bench), Some(est)) = (read("benchmark.json"), read("estimates.json")) else { continue };
            let bytes = bench["throughput"]["BytesDecimal"].as_f64().or_else(|| bench["throughput"]["Bytes"].as_f64());
            let median_ns = est["median"]["point_estimate"].as_f64();
            if let (Some(group), Some(function), Some(bytes), Some(ns)) =
                (bench["group_id"].as_str(), bench["function_id"].as_str(), bytes, median_ns)
            {
                out.insert((group.to_string(), function.to_string()), bytes / ns * 1e3);
            }
        } else if path.is_dir() {
            criterion_mb_s(&path, out);
        }
    }
}

/// The median MB/s the wasm test printed for `what` (`analysis`, `framing`) at `size`.
fn wasm_mb_s(output: &str, what: &str, size: usize) -> Option<f64> {
    let prefix = format!("wasm {what} {size} B reads: median ");
    let line = output.lines().find_map(|l| l.split_once(&prefix).map(|(_, rest)| rest))?;
    line.split_whitespace().next()?.parse().ok()
}

fn cell(v: Option<f64>) -> String {
    v.map_or("–".to_string(), |v| format!("{v:.0}"))
}

fn verdict(met: Option<bool>) -> &'static str {
    match met {
        Some(true) => "met",
        Some(false) => "**not met**",
        None => "not measured",
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(dir), Some(wasm_file)) = (args.first(), args.get(1)) else {
        eprintln!("usage: summary <criterion dir> <wasm test output>");
        std::process::exit(2);
    };
    let mut mb_s = BTreeMap::new();
    criterion_mb_s(Path::new(dir), &mut mb_s);
    let wasm = std::fs::read_to_string(wasm_file).unwrap_or_default();
    for size in READ_SIZES_BYTES {
        let get = |group: &str, function: &str| mb_s.get(&(format!("{group}-{size}B"), function.to_string())).copied();
        let framing = |f: &str| get("framing", f);
        let analysis = |f: &str| get("analysis", f);
        println!("#### {size} B reads\n");
        println!("| contender | framing (MB/s) | framing + content (MB/s) |");
        println!("|---|---|---|");
        println!("| streamscope-core (fast path; full analysis) | {} | {} |", cell(framing("core")), cell(analysis("core")));
        println!(
            "| streamscope-core (owned items; reference analysis, every chunk a `Value`) | {} | {} |",
            cell(framing("core-owned")),
            cell(analysis("core-reference"))
        );
        for c in CRATES {
            println!("| {c} (+ serde_json of `delta.content`) | {} | {} |", cell(framing(c)), cell(analysis(&format!("{c}+serde_json"))));
        }
        let (wasm_framing, wasm_analysis) = (wasm_mb_s(&wasm, "framing", size), wasm_mb_s(&wasm, "analysis", size));
        println!("| streamscope-core in wasm, headless Chromium (median of 5) | {} | {} |", cell(wasm_framing), cell(wasm_analysis));
        let fastest_crate = CRATES.iter().filter_map(|c| framing(c).map(|v| (v, *c))).max_by(|a, b| a.0.total_cmp(&b.0));
        let framing_met = framing("core").zip(fastest_crate).map(|(core, (best, _))| core >= best);
        println!();
        println!(
            "Goals: framing at least the fastest crate's ({}): {}; full analysis >= {ANALYSIS_GOAL_MB_S:.0} MB/s: {}; \
             wasm analysis >= {WASM_GOAL_MB_S:.0} MB/s: {}.\n",
            fastest_crate.map_or("–".to_string(), |(v, c)| format!("{c}, {v:.0} MB/s")),
            verdict(framing_met),
            verdict(analysis("core").map(|v| v >= ANALYSIS_GOAL_MB_S)),
            verdict(wasm_analysis.map(|v| v >= WASM_GOAL_MB_S)),
        );
    }
}
