#!/usr/bin/env bash
# Size probe (issue 13): what would the first wasm a reader downloads weigh if the parts of the page not
# needed before the first run came as lazily loaded chunks (Leptos's `#[lazy]`, split by wasm_split)?
#
# In a throwaway git worktree of HEAD (commit first), applies scripts/size-split/lazy-boundaries.patch
# (`#[lazy]` on the import, the prefix check, a run's report, the campaign report and seven panels shown
# only after a run or on demand), builds the page's wasm with `-Clink-args=--emit-relocs`, splits it with
# `wasm-split-cli`, then runs wasm-bindgen and `wasm-opt -Oz` on the main module and `wasm-opt -Oz` on
# each chunk, and prints their sizes, raw and gzip -9. With `--dist DIR` it also writes a page to DIR
# that loads the split modules: Trunk's release build of HEAD with its glue and wasm replaced (same
# hashed names), the chunks and `__wasm_split.js` beside them, and the SRI hashes in index.html redone;
# serve it, or run the browser tests on it with STREAMSCOPE_DIST=DIR (BENCHMARKS.md, Size, "Splitting
# the wasm"). A probe, not the shipped build: the shipped page stays one wasm until the split is wired
# into the build; an unsplit build of the patch does not load (its lazy functions import from
# `__wasm_split_placeholder__`).
#
#   scripts/size-split.sh                  # about 2 minutes on 2 cores after the first build
#   scripts/size-split.sh --dist /tmp/sd   # and a page that runs it
#
# Needs wasm-split-cli (installed here when missing: cargo install --locked wasm_split_cli_support
# --version 0.2.4 --features build-binary). Builds into $CARGO_TARGET_DIR/size-split.
set -euo pipefail
cd "$(dirname "$0")/.."
dist_out=""
if [ "${1:-}" = "--dist" ]; then
  [ -n "${2:-}" ] || { echo "size-split: --dist needs a folder" >&2; exit 2; }
  dist_out="$(realpath -m "$2")"
fi
source scripts/setup.sh
root="$PWD"
if ! command -v wasm-split-cli >/dev/null; then
  cargo install --locked wasm_split_cli_support --version 0.2.4 --features build-binary >&2
fi
work="$(mktemp -d)"
git worktree add --detach "$work/tree" HEAD >/dev/null
trap 'git -C "$root" worktree remove --force "$work/tree"; rm -rf "$work"' EXIT
if ! git -C "$work/tree" apply "$root/scripts/size-split/lazy-boundaries.patch"; then
  echo "size-split: the patch no longer applies at HEAD; redo it (see its hunks) and commit it" >&2
  exit 1
fi
main_target="$CARGO_TARGET_DIR"
export CARGO_TARGET_DIR="$CARGO_TARGET_DIR/size-split"
(cd "$work/tree" && RUSTFLAGS="--cfg erase_components -Clink-args=--emit-relocs" \
  cargo build -q --release --locked --target wasm32-unknown-unknown --bin streamscope) >&2
out="$work/out"
mkdir -p "$out/split" "$out/bindgen" "$out/opt"
wasm-split-cli --target web --out-name streamscope \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/streamscope.wasm" "$out/split" >/dev/null
# --keep-lld-exports: the chunks import the main module's function table, which wasm-bindgen drops
# otherwise (the chunks then fail to link: "table import requires a WebAssembly.Table").
wasm-bindgen --keep-lld-exports --target web --no-typescript --out-dir "$out/bindgen" "$out/split/streamscope.wasm"
wasm-opt -Oz "$out/bindgen/streamscope_bg.wasm" -o "$out/opt/main.wasm"
gz() { gzip -9 -n -c "$1" | wc -c; }
printf '| module | raw (B) | gzip (B) |\n|---|---|---|\n'
printf '| main (what the page and its worker load first) | %d | %d |\n' "$(stat -c %s "$out/opt/main.wasm")" "$(gz "$out/opt/main.wasm")"
chunks=0 chunks_raw=0 chunks_gz=0 shared=0 shared_raw=0 shared_gz=0
for f in "$out"/split/*.wasm; do
  name="$(basename "$f" .wasm)"
  [ "$name" = streamscope ] && continue
  wasm-opt -Oz "$f" -o "$out/opt/$name.wasm" 2>/dev/null
  raw="$(stat -c %s "$out/opt/$name.wasm")" g="$(gz "$out/opt/$name.wasm")"
  case "$name" in
    split_*) chunks=$((chunks + 1)); chunks_raw=$((chunks_raw + raw)); chunks_gz=$((chunks_gz + g))
      printf '| %s | %d | %d |\n' "${name%_*}" "$raw" "$g" ;;
    *) shared=$((shared + 1)); shared_raw=$((shared_raw + raw)); shared_gz=$((shared_gz + g)) ;;
  esac
done
printf '| %d split chunks in all | %d | %d |\n' "$chunks" "$chunks_raw" "$chunks_gz"
printf '| %d chunks shared between split points | %d | %d |\n' "$shared" "$shared_raw" "$shared_gz"

[ -n "$dist_out" ] || exit 0
echo "[size-split] trunk build --release of HEAD, then the split modules into $dist_out" >&2
CARGO_TARGET_DIR="$main_target" trunk build --release >/dev/null
rm -rf "$dist_out" && cp -r dist "$dist_out"
js="$(cd "$dist_out" && ls streamscope-*.js | grep -v worker_loader)"
cp "$out/bindgen/streamscope.js" "$dist_out/$js"
cp "$out/opt/main.wasm" "$dist_out/${js%.js}_bg.wasm"
for f in "$out"/split/*.wasm; do
  name="$(basename "$f" .wasm)"
  [ "$name" = streamscope ] || cp "$out/opt/$name.wasm" "$dist_out/$name.wasm"
done
sed "s#\"./streamscope.js\"#\"./$js\"#" "$out/split/__wasm_split.js" >"$dist_out/__wasm_split.js"
# index.html's integrity hashes name the files as Trunk wrote them: redo them for the replaced ones.
for f in "$js" "${js%.js}_bg.wasm"; do
  hash="sha384-$(openssl dgst -sha384 -binary "$dist_out/$f" | base64 -w0)"
  sed -i -E "s#(href=\"\./$f\"[^>]*integrity=\")[^\"]+#\1$hash#" "$dist_out/index.html"
done
echo "[size-split] $dist_out: serve it, or STREAMSCOPE_DIST=$dist_out cargo test -p streamscope-e2e --test e2e" >&2
