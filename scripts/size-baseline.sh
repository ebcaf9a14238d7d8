#!/usr/bin/env bash
# Size baseline (issue 13): builds the smallest useful Leptos 0.8 page (scripts/baseline/minimal-leptos:
# a field, a button, a line of output; same Leptos, release profile, wasm-bindgen and wasm-opt -Oz as the
# page) and prints its files raw and gzipped, next to streamscope's own dist/ (built first when missing).
# What the difference says: the bytes streamscope's own code adds on top of the framework.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
[ -d dist ] && ls dist/*.wasm >/dev/null 2>&1 || trunk build --release >/dev/null
base=scripts/baseline/minimal-leptos
(cd "$base" && cargo fetch --locked >/dev/null 2>&1) || (cd "$base" && cargo fetch --locked)
(cd "$base" && trunk build --release >/dev/null)

row() { printf '%-22s %-44s %10d %10d\n' "$1" "$(basename "$2")" "$(stat -c %s "$2")" "$(gzip -9 -n -c "$2" | wc -c)"; }
printf '%-22s %-44s %10s %10s\n' page file raw gzip
for f in dist/*.wasm dist/*.js; do row streamscope "$f"; done
for f in "$base"/dist/*.wasm "$base"/dist/*.js; do row minimal-leptos "$f"; done
