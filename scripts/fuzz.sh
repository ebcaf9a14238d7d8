#!/usr/bin/env bash
# Fuzzing by hand (not in CI): runs each cargo-fuzz (libFuzzer) target in fuzz/ for a fixed time.
#
#   scripts/fuzz.sh                  # every target, 60 s each
#   scripts/fuzz.sh 600              # every target, 10 minutes each
#   scripts/fuzz.sh 300 report wire  # some targets: wire dialects report import
#
# Installs what is missing (a nightly toolchain, cargo-fuzz). The corpus grows in fuzz/corpus/<target>
# (kept between runs, not committed); seeds come from the repository's fixtures and contract cases
# (fuzz/make_seeds.py). A crash, a hang (-timeout) or an allocation over -malloc_limit_mb is saved in
# fuzz/artifacts/<target>/ and the script ends non-zero after the other targets ran. Reproduce one with
#   cargo +nightly fuzz run <target> fuzz/artifacts/<target>/<file>
# then turn it into a regression test in core (see FUZZING.md).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(wire dialects report import)

# Instrumented builds have flags of their own: a target dir apart from the normal builds'.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$HOME/.cache/streamscope/target-fuzz}"

log() { echo "[fuzz] $*" >&2; }

if ! rustup toolchain list | grep -q '^nightly'; then
  log "rustup toolchain install nightly"
  rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  log "cargo install cargo-fuzz"
  cargo install cargo-fuzz --locked
fi
if command -v python3 >/dev/null; then
  python3 fuzz/make_seeds.py
else
  log "no python3: starting without seeds"
fi

declare -A dict=([wire]=stream [dialects]=stream [report]=stream [import]=import)
declare -A max_len=([wire]=4096 [dialects]=4096 [report]=8192 [import]=131072)
failed=()
for t in "${targets[@]}"; do
  [ -n "${dict[$t]:-}" ] || { log "unknown target $t (wire dialects report import)"; exit 2; }
  mkdir -p "fuzz/corpus/$t" "fuzz/seeds/$t" "fuzz/artifacts/$t"
  log "$t for ${seconds}s"
  if ! cargo +nightly fuzz run "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 \
      -max_len="${max_len[$t]}" -dict="fuzz/dicts/${dict[$t]}.dict" -print_final_stats=1; then
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  log "failed: ${failed[*]} (inputs in fuzz/artifacts/)"
  exit 1
fi
log "no crash, hang or oversized allocation in: ${targets[*]}"
