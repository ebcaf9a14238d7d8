#!/usr/bin/env bash
# Parser and analysis throughput (issue 13, part 2): what BENCHMARKS.md records under "Parser and analysis
# throughput (issue 13)".
#
# Runs, on the generated 32 MiB OpenAI-style stream (bench/src/stream.rs: fixed seed, nothing in git) cut
# into 64 B, 1,500 B and 16 KiB reads:
#   1. `cargo bench -p streamscope-bench --bench parser` (criterion; the bench profile: opt-level 3, thin
#      LTO): core's framing and full analysis side by side with sse-core, sse-stream and eventsource-stream
#      doing the same work. About 3 minutes on 2 cores, after a first build of about 5 minutes.
#   2. `cargo test --release --target wasm32-unknown-unknown -p streamscope-bench --test wasm`: core's
#      analysis and framing compiled like the page (release profile) in headless Chromium
#      (wasm-bindgen-test-runner + chromedriver). About 1 minute, after a first build of about 5 minutes.
# Then prints the machine, the date and one Markdown table per read size with the goals (MB/s are decimal:
# 10^6 bytes per second; criterion's median).
#
# Output: the tables on stdout; criterion's own reports in $CARGO_TARGET_DIR/criterion/; the raw outputs
# and the tables in $BENCH_OUT_DIR (default $CARGO_TARGET_DIR/bench-parser/: criterion.txt, wasm.txt,
# summary.md).
#
#   scripts/bench-parser.sh                    # both
#   SKIP_WASM=1 scripts/bench-parser.sh        # criterion only (SKIP_NATIVE=1: the wasm test only)
#   CRITERION_ARGS="--measurement-time 10" scripts/bench-parser.sh   # criterion's own flags
#
# A benchmark, not a test: nothing here fails on a number. Run it on a quiet machine (the load average is
# printed with the results).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

out_dir="${BENCH_OUT_DIR:-$CARGO_TARGET_DIR/bench-parser}"
export CRITERION_HOME="$CARGO_TARGET_DIR/criterion"
mkdir -p "$out_dir"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

kept=""
if [ "${SKIP_NATIVE:-0}" != 1 ]; then
  echo "[bench-parser] cargo bench -p streamscope-bench (criterion)" >&2
  # The tables show this run only: no figure is left from an earlier one.
  rm -rf "$CRITERION_HOME"/framing-* "$CRITERION_HOME"/analysis-*
  # shellcheck disable=SC2086
  cargo bench --locked -p streamscope-bench --bench parser -- ${CRITERION_ARGS:-} 2>&1 | tee "$out_dir/criterion.txt" >&2
else
  kept="criterion's figures are from an earlier run"
fi
if [ "${SKIP_WASM:-0}" != 1 ]; then
  echo "[bench-parser] the wasm test in headless Chromium (release profile)" >&2
  cargo test --locked --release --target wasm32-unknown-unknown -p streamscope-bench --test wasm -- --nocapture \
    2>&1 | tee "$out_dir/wasm.txt" >&2
else
  kept="${kept:+$kept; }the wasm figures are from an earlier run"
fi
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

cargo build --locked --profile bench -p streamscope-bench --example summary >&2
{
  echo "### $(date -u +%Y-%m-%d) on $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (dirty)')"
  echo
  echo "Machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(rustc --version), $(chromium --version 2>/dev/null | tr -d '\n' | sed 's/^\[.*\]\s*//'); load average $load_before before, $load_after after."
  echo
  echo "Command: \`scripts/bench-parser.sh\`${CRITERION_ARGS:+ with CRITERION_ARGS=\"$CRITERION_ARGS\"}${kept:+ ($kept)}"
  echo
  "$CARGO_TARGET_DIR/release/examples/summary" "$CRITERION_HOME" "$out_dir/wasm.txt"
} | tee "$out_dir/summary.md"
echo "[bench-parser] saved to $out_dir/summary.md" >&2
