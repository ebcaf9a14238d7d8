#!/usr/bin/env bash
# Fidelity benchmarks: the release page in headless Chromium against the lab on loopback. Prints the
# machine and markdown tables; also saves them to $BENCH_OUT (default: $CARGO_TARGET_DIR/bench-fidelity.md).
# Paste the result into BENCHMARKS.md.
#
# Issue 8 (default mode): each case also timed by the raw-socket peer (streamscope-peer) and by a bare
# fetch + reader.read() loop in the same browser session.
#   scripts/bench-fidelity.sh                 # every case (about 10 minutes on 2 cores)
#   scripts/bench-fidelity.sh 20k@1 instant   # some cases: 1k@20 2k@5 5k@2 20k@1 20k@0.5 keepalive-4mb 100k@0.5 instant
#
# Issue 13 (--peers): the page, a bare fetch loop in a worker of the same browser (the floor), the raw-socket
# peer and curl (--trace-time) on the same streams at 20, 5,
# 2, 1 and 0.5 ms per event, BENCH_REPEATS times each (default 5), then through nginx with buffering on:
# TTFT page - peer, per-event arrival error against the lab's send time, events per read, bursts.
#   scripts/bench-fidelity.sh --peers         # everything (about 20 minutes on 2 cores)
#   BENCH_REPEATS=2 scripts/bench-fidelity.sh --peers 20 nginx   # one rate (ms per event) and nginx
#
#   SKIP_BUILD=1 scripts/bench-fidelity.sh    # reuse dist/ as it is
#   BENCH_SETTLE_MS=5000 scripts/bench-fidelity.sh instant   # start the page's run 5 s after its Run button
#                                             # appears (default 500 ms: a run soon after load)
#
# A benchmark, not a test: nothing here fails on a number. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

source scripts/bench-lib.sh
bench_run bench-fidelity bench_fidelity "$@"
