#!/usr/bin/env bash
# Every test tier: core + lab natively, the net layer in headless Chromium (wasm-bindgen-test) against a
# running lab, then the release-built page end to end in headless Chromium. Installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

step() { printf '\n[test] === %s ===\n' "$*" >&2; }

step "core, lab and the release build's wasm-names steps (native)"
cargo test --locked -p streamscope-core -p streamscope-lab -p streamscope-wasm-names

step "build the page (trunk build --release)"
trunk build --release

step "start a lab for the wasm tests"
cargo build --locked -p streamscope-lab
lab_log="$(mktemp)"
"$CARGO_TARGET_DIR/debug/streamscope-lab" --addr 127.0.0.1:0 --static dist >"$lab_log" 2>&1 &
lab_pid=$!
cleanup() { kill "$lab_pid" 2>/dev/null || true; wait "$lab_pid" 2>/dev/null || true; rm -f "$lab_log"; }
trap cleanup EXIT
lab_url=""
for _ in $(seq 1 100); do
  lab_url="$(sed -n 's/^streamscope lab: \(http[^ ]*\)$/\1/p' "$lab_log" | head -n 1)"
  [ -n "$lab_url" ] && break
  sleep 0.1
done
[ -n "$lab_url" ] || { cat "$lab_log" >&2; echo "[test] the lab did not start" >&2; exit 1; }
echo "[test] lab at $lab_url" >&2

step "net layer and components in headless Chromium (wasm-bindgen-test)"
STREAMSCOPE_LAB_URL="$lab_url" cargo test --locked -p streamscope --lib --target wasm32-unknown-unknown
cleanup
trap - EXIT

step "end to end: the release page in headless Chromium, against the lab directly and through nginx; streamscope-check driving it"
STREAMSCOPE_DIST="$PWD/dist" cargo test --locked -p streamscope-e2e -p streamscope-check --tests
