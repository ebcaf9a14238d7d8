#!/usr/bin/env bash
# Start-up benchmark (issue 13): time from navigation to an interactive form (the page's User Timing
# mark `streamscope:ready`, set once the form is mounted with Run enabled), in headless Chromium on
# loopback, cold (a new browser profile per sample: empty HTTP and code caches) and warm (a second
# navigation in the same profile), with the breakdown from Navigation and Resource Timing (document,
# JS glue, wasm fetched, ready, first paint). By default the release page is packed by
# scripts/package.sh and served by real nginx through the shipped snippet, precompressed gzip included,
# as in production. Prints the machine and markdown tables; also saves them to $BENCH_OUT (default:
# $CARGO_TARGET_DIR/bench-startup.md). Paste the result into BENCHMARKS.md. Goal (issue 13): <= 300 ms cold.
#
#   scripts/bench-startup.sh                      # 20 samples, nginx over HTTP/1.1 (about 1 minute)
#   scripts/bench-startup.sh --repeats 50         # more samples
#   scripts/bench-startup.sh --via nginx-h2       # nginx over HTTP/2 + TLS; --via lab: the lab, no precompression
#   SKIP_BUILD=1 scripts/bench-startup.sh         # reuse dist/ as it is
#
# A benchmark, not a test: nothing here fails on a number. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

source scripts/bench-lib.sh
bench_run bench-startup bench_startup "$@"
