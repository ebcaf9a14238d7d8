# Shared by the benchmark scripts (bench-fidelity.sh, bench-startup.sh); sourced after scripts/setup.sh,
# from the repository's root.
#
# bench_run NAME EXAMPLE [ARG...]: builds the release page (`trunk build --release`; SKIP_BUILD=1 reuses
# dist/ as it is) and the tests crate's example EXAMPLE (release), runs it on dist/ with the ARGs, and
# prints a dated heading, the machine (cores, CPU, Chromium, nginx, load average before and after), the
# command and the example's stdout (its markdown); also saved to $BENCH_OUT (default:
# $CARGO_TARGET_DIR/NAME.md). The example's stderr (progress, one JSON line per sample) passes through.

bench_run() {
  local name="$1" example="$2"
  shift 2
  if [ "${SKIP_BUILD:-0}" != 1 ]; then
    echo "[bench] trunk build --release" >&2
    trunk build --release >&2
  fi
  echo "[bench] building the benchmark (release)" >&2
  cargo build --release --locked -p streamscope-e2e --example "$example" >&2

  local out="${BENCH_OUT:-$CARGO_TARGET_DIR/$name.md}"
  local table load_before
  table="$(mktemp)"
  # Expanded now: the trap runs after this function's locals are gone.
  trap "rm -f '$table'" EXIT
  load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
  STREAMSCOPE_DIST="$PWD/dist" "$CARGO_TARGET_DIR/release/examples/$example" "$@" >"$table"

  {
    echo "### $(date -u +%Y-%m-%d) on $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (dirty)')"
    echo
    echo "Machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(chromium --version 2>/dev/null | tr -d '\n' | sed 's/^\[.*\]\s*//'), $(nginx -v 2>&1 | sed 's|^nginx version: ||'), load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"
    echo
    echo "Command: \`scripts/$name.sh${*:+ $*}\`"
    echo
    cat "$table"
  } | tee "$out"
  echo "[bench] saved to $out" >&2
}
