#!/usr/bin/env bash
# The main job: install what is missing, build the page in release mode, and serve it with the lab's
# built-in reference stream on 127.0.0.1 (STREAMSCOPE_ADDR, default 127.0.0.1:8787). Prints the URL.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

echo "[run] building the page (trunk build --release)" >&2
trunk build --release >&2
echo "[run] building the lab server" >&2
cargo build --release --locked -p streamscope-lab >&2

exec "$CARGO_TARGET_DIR/release/streamscope-lab" --addr "${STREAMSCOPE_ADDR:-127.0.0.1:8787}" --static dist
