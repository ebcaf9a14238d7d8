#!/usr/bin/env bash
# Size benchmark: builds the page in release mode (wasm-opt -Oz) and prints what a browser downloads,
# raw and gzipped. Run after changes that add code to the page; compare with the figures in the README.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
trunk build --release >/dev/null
printf '%-48s %10s %10s\n' file raw gzip
for f in dist/*.wasm dist/*.js dist/*.css dist/index.html; do
  printf '%-48s %10d %10d\n' "$(basename "$f")" "$(stat -c %s "$f")" "$(gzip -9 -c "$f" | wc -c)"
done
