#!/usr/bin/env bash
# Size breakdown (issue 13): what the bytes of the page's main module are (the wasm a reader waits for;
# the parts that come after the page are split off, src/ui/split.rs). Builds it as Trunk and
# scripts/split-wasm.sh do (cargo release build with the `split` feature, wasm-split-cli, wasm-bindgen,
# wasm-opt with scripts/wasm-opt-passes.sh) but keeps the function names (wasm-bindgen --keep-debug, wasm-opt -g), then prints twiggy's
# biggest items, its dominator tree (what keeps what), its monomorphisations, and the code by kind and by
# crate. Function sizes are the shipped ones; the build with names is only for reading (scripts/size.sh
# gives the shipped files' sizes). `--unsplit` reads the whole page as one module instead (no split);
# `--chunk NAME` reads one chunk of the split build instead of the main module (`after`, `measure`,
# `on_demand`, or `chunk_<n>` for code chunks share; its names are cargo's, kept by wasm-split-cli).
#
# Needs twiggy: cargo install --locked twiggy (put it on PATH or set TWIGGY). Output in
# $CARGO_TARGET_DIR/size-breakdown/ (page.wasm with names, page.csv from `twiggy top`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
twiggy="${TWIGGY:-twiggy}"
command -v "$twiggy" >/dev/null || { echo "no twiggy: cargo install --locked twiggy (or set TWIGGY)" >&2; exit 1; }
out="$CARGO_TARGET_DIR/size-breakdown"
rm -rf "$out" && mkdir -p "$out/bindgen"
cargo_wasm="$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/streamscope.wasm"
if [ "${1:-}" = --unsplit ]; then
  cargo build --release --locked --target wasm32-unknown-unknown --bin streamscope >&2
  wasm-bindgen --keep-debug --target web --no-typescript --out-dir "$out/bindgen" "$cargo_wasm"
else
  cargo build --release --locked --target wasm32-unknown-unknown --bin streamscope --features split >&2
  wasm-split-cli --target web --out-name streamscope "$cargo_wasm" "$out/split" >/dev/null
  wasm-bindgen --keep-debug --keep-lld-exports --target web --no-typescript --out-dir "$out/bindgen" \
    "$out/split/streamscope.wasm"
fi
# As the release build does (scripts/split-wasm.sh): without the classes the page never makes.
source scripts/wasm-opt-passes.sh
cargo run --quiet --locked --offline -p streamscope-wasm-names --bin drop-classes -- \
  "$out/bindgen/streamscope_bg.wasm" "$out/bindgen/streamscope.js" "$UNUSED_EXPORTED_CLASSES"
read_from="$out/bindgen/streamscope_bg.wasm"
if [ "${1:-}" = --chunk ]; then
  chunk="${2:?--chunk NAME: after, measure, on_demand or chunk_<n>}"
  read_from="$out/split/split_$chunk.wasm"
  [ -f "$read_from" ] || read_from="$out/split/$chunk.wasm"
  [ -f "$read_from" ] || { echo "no chunk $chunk in $out/split: $(cd "$out/split" && ls ./*.wasm | xargs)" >&2; exit 1; }
  echo "chunk $chunk ($(basename "$read_from"))"
fi
# Chunks keep cargo's names section, which binaryen 132 warns about once per unknown subsection.
wasm-opt "${WASM_OPT_SIZE_PASSES[@]}" -g "$read_from" -o "$out/page.wasm" 2> >(grep -v 'unknown name subsection' >&2)
wasm-opt "${WASM_OPT_SIZE_PASSES[@]}" --strip-debug "$read_from" -o "$out/page-stripped.wasm" 2> >(grep -v 'unknown name subsection' >&2)
printf 'shipped-like wasm: %d B raw, %d B gzip -9 (with names: %d B)\n' "$(stat -c %s "$out/page-stripped.wasm")" \
  "$(gzip -9 -n -c "$out/page-stripped.wasm" | wc -c)" "$(stat -c %s "$out/page.wasm")"

echo; echo "== twiggy top (30)"; "$twiggy" top -n 30 "$out/page.wasm"
echo; echo "== twiggy dominators (depth 3, 40 rows)"; "$twiggy" dominators -d 3 -r 40 "$out/page.wasm"
echo; echo "== twiggy monos (20)"; "$twiggy" monos -m 20 -n 3 "$out/page.wasm"

# Code by kind and by crate, from `twiggy top` as text (columns split on twiggy's ┊). The kinds are
# matched on the demangled names, in this order (first match wins); the crate is a name's first path
# segment (for `<A as B>::f`, A's).
"$twiggy" top -f csv "$out/page.wasm" >"$out/page.csv"
"$twiggy" top "$out/page.wasm" | awk -F'┊' '
  NR > 2 && NF >= 3 {
    bytes = $1 + 0; name = $3; sub(/^ +/, "", name)
    if (name ~ /subsection|^custom section|^Σ|more\.$/) next
    if (name ~ /^data segment/) kind = "data (strings, tables)"
    else if (name ~ /[Dd]eserializ|Visitor|serde::private::de|serde_json::de|serde_core::de|MapAccess|SeqAccess|Content/) kind = "serde: reading"
    else if (name ~ /[Ss]erializ|serde_json::ser|serde_core::ser/) kind = "serde: writing"
    else if (name ~ /serde/) kind = "serde: other"
    else if (name ~ /tachys|reactive_graph|leptos|__component/) kind = "leptos: views, signals, components"
    else if (name ~ /slice::sort/) kind = "sorting"
    else if (name ~ /core::fmt|fmt::|flt2dec|dragon|grisu|Display|Debug|to_string/) kind = "formatting"
    else if (name ~ /drop_in_place/) kind = "drop glue"
    else if (name ~ /streamscope_core/) kind = "streamscope-core (analysis, findings, reports)"
    else if (name ~ /streamscope::/) kind = "streamscope page (net, ui glue)"
    else if (name ~ /js_sys|web_sys|wasm_bindgen|__wbg|__wbindgen|externref/) kind = "wasm-bindgen, js-sys, web-sys"
    else if (name ~ /dlmalloc|alloc::|hashbrown|indexmap|RawVec|Vec</) kind = "allocation, collections"
    else kind = "other (core, std, closures)"
    by_kind[kind] += bytes; total += bytes
    crate = name; sub(/^[<&*\[( ]+/, "", crate); sub(/^(dyn|mut|const|impl) /, "", crate)
    if (match(crate, /^[A-Za-z_][A-Za-z0-9_]*/)) crate = substr(crate, 1, RLENGTH); else crate = "?"
    if (name ~ /^data segment/) crate = "(data)"
    by_crate[crate] += bytes
  }
  END {
    printf "\n== code and data by kind (%d B, names not counted)\n", total
    for (k in by_kind) printf "%9d B %5.1f%%  %s\n", by_kind[k], 100 * by_kind[k] / total, k | "sort -rn"
    close("sort -rn")
    printf "\n== by crate (first path segment)\n"
    for (c in by_crate) if (by_crate[c] >= 2000) printf "%9d B %5.1f%%  %s\n", by_crate[c], 100 * by_crate[c] / total, c | "sort -rn"
    close("sort -rn")
  }'
