#!/usr/bin/env bash
# Fidelity benchmark (issue 8): the release page in headless Chromium against the lab on loopback, each
# case also timed by the raw-socket peer (streamscope-peer) and by a bare fetch + reader.read() loop in
# the same browser session. Prints the machine and a markdown table; also saves them to
# $BENCH_OUT (default: $CARGO_TARGET_DIR/bench-fidelity.md). Paste the result into BENCHMARKS.md.
#
#   scripts/bench-fidelity.sh                 # every case (about 10 minutes on 2 cores)
#   scripts/bench-fidelity.sh 20k@1 instant   # some cases: 1k@20 2k@5 5k@2 20k@1 20k@0.5 keepalive-4mb 100k@0.5 instant
#   SKIP_BUILD=1 scripts/bench-fidelity.sh    # reuse dist/ as it is
#
# A benchmark, not a test: nothing here fails on a number. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

source scripts/bench-lib.sh
bench_run bench-fidelity bench_fidelity "$@"
