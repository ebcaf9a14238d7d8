#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml): splits the page's wasm into the module the page loads first and
# the chunks of the parts that come after it (src/ui/split.rs; BENCHMARKS.md, Size, "Splitting the wasm").
#
# Trunk 0.21 cannot split (trunk-rs/trunk#1022): it builds the page with the `split` feature (index.html,
# data-cargo-features) and writes its glue and wasm; this hook then takes cargo's own output (linked with
# relocations, build.rs), splits it with wasm-split-cli, runs wasm-bindgen (--keep-lld-exports: the chunks
# import the main module's function table) and, for a release build, wasm-opt on every module and
# short names for what the main module and its glue name each other by, without the classes a
# dependency exports and the page never uses (wasm-names/), and puts the
# results in Trunk's staging folder:
#   - the glue and main module under Trunk's hashed names, with index.html's integrity hashes redone;
#   - the chunks and their loader as NAME-<id>.wasm and __wasm_split-<id>.js, <id> from the input module,
#     so a deploy never mixes one build's chunks with another's main module.
# A split build that is not split does not load (its parts import from `__wasm_split_placeholder__`), so a
# failure here fails the build.
#
# Needs wasm-split-cli, wasm-bindgen and wasm-opt on PATH (scripts/setup.sh installs them).
set -euo pipefail
fail() { echo "[split-wasm] $*" >&2; exit 1; }
stage="${TRUNK_STAGING_DIR:?run by trunk as a post-build hook (Trunk.toml)}"
profile="${TRUNK_PROFILE:-release}"
for tool in wasm-split-cli wasm-bindgen wasm-opt; do
  command -v "$tool" >/dev/null || fail "$tool is missing: run scripts/setup.sh"
done

target_dir="${CARGO_TARGET_DIR:-}"
if [ -z "$target_dir" ]; then
  target_dir="$(cargo metadata --format-version 1 --no-deps --offline |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
fi
input="$target_dir/wasm32-unknown-unknown/$profile/streamscope.wasm"
[ -f "$input" ] || fail "no $input: did trunk build the page with the split feature?"

glue="$(cd "$stage" && ls streamscope-*.js 2>/dev/null | grep -v worker_loader || true)"
[ "$(printf '%s\n' "$glue" | grep -c .)" = 1 ] || fail "expected one streamscope-<hash>.js in $stage, found: ${glue:-none}"
main_wasm="${glue%.js}_bg.wasm"
[ -f "$stage/$main_wasm" ] || fail "no $main_wasm beside $glue in $stage"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
id="$(sha256sum "$input" | cut -c1-16)"
wasm-split-cli --target web --out-name streamscope "$input" "$work/split" >/dev/null
wasm-bindgen --keep-lld-exports --target web --no-typescript --out-dir "$work/bindgen" "$work/split/streamscope.wasm"

# The chunks come from cargo's output with its names section (wasm-bindgen strips the main module's):
# --strip-debug drops it, and the target_features section (about 130 B per file, read by linkers, never
# by a browser) goes: 1.4 KB gzipped less in all (BENCHMARKS.md, Size, "Imports on demand"). The passes
# are scripts/wasm-opt-passes.sh's (--converge after them measured 30 B less for a run, for twice the
# build time: not taken).
source "$(dirname "$0")/wasm-opt-passes.sh"
optimize() { # optimize IN OUT
  if [ "$profile" = release ]; then
    # Its names subsection for fields (id 3), which binaryen 132 reads past with a warning per chunk.
    wasm-opt "${WASM_OPT_SIZE_PASSES[@]}" --strip-debug --strip-producers --strip-target-features "$1" -o "$2" 2> >(grep -v 'unknown name subsection' >&2)
  else
    cp "$1" "$2"
  fi
}
# wasm-streams (which Leptos's server_fn always brings) exports three classes to JS that the page never
# makes: their exports kept their code in the main module and their classes in the glue. Out of both,
# before wasm-opt drops the code only they reached (wasm-names/, unused_classes; BENCHMARKS.md, Size).
# It fails the build when the glue or the page's other JS still names one: the page would use it.
root="$(dirname "$0")/.."
if [ "$profile" = release ]; then
  cargo run --quiet --locked --offline --manifest-path "$root/Cargo.toml" -p streamscope-wasm-names --bin drop-classes -- \
    "$work/bindgen/streamscope_bg.wasm" "$work/bindgen/streamscope.js" "$UNUSED_EXPORTED_CLASSES" \
    "$work/split/__wasm_split.js" "$root/boot.js" "$root/streamscope-worker_loader.js"
fi
optimize "$work/bindgen/streamscope_bg.wasm" "$stage/$main_wasm"

# The glue imports the chunks' loader `from "./__wasm_split.js"` (the module name wasm-split-cli gives
# the main module's imports; the wasm itself keeps that name as its import key): it must name this
# build's loader.
loader="__wasm_split-$id.js"
rewrite() { # rewrite FILE FROM TO [once]: every FROM (at least one; exactly one with `once`)
  local n
  n="$(grep -o -F -- "$2" "$1" | wc -l || true)"
  if [ "$n" -lt 1 ] || { [ "${4:-}" = once ] && [ "$n" != 1 ]; }; then
    fail "$(basename "$1"): expected $2 ${4:-at least once}, found it $n times (wasm-split-cli or wasm-bindgen changed?)"
  fi
  FROM="$2" TO="$3" perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/g' "$1"
}
cp "$work/bindgen/streamscope.js" "$work/glue.js"
rewrite "$work/glue.js" 'from "./__wasm_split.js"' "from \"./$loader\""
# The functions the main module imports from the glue (`__wbg_<name>_<hash>`, wasm-bindgen's names) and
# those the glue calls in it (`wasm.NAME`) get short names in both (wasm-names/; BENCHMARKS.md, Size).
# It fails the build when the glue does not name each import exactly once or never calls a renamed
# export, or when the chunks' loader names one.
if [ "$profile" = release ]; then
  cargo run --quiet --locked --offline --manifest-path "$root/Cargo.toml" \
    -p streamscope-wasm-names --bin short-names -- "$stage/$main_wasm" "$work/glue.js" "$work/split/__wasm_split.js"
fi
cp "$work/glue.js" "$stage/$glue"
if [ -d "$work/bindgen/snippets" ]; then
  rm -rf "$stage/snippets" && cp -r "$work/bindgen/snippets" "$stage/snippets"
fi

cp "$work/split/__wasm_split.js" "$work/loader.js"
rewrite "$work/loader.js" 'from "./streamscope.js"' "from \"./$glue\"" once
chunks=0
for f in "$work"/split/*.wasm; do
  name="$(basename "$f" .wasm)"
  [ "$name" = streamscope ] && continue
  optimize "$f" "$stage/$name-$id.wasm"
  rewrite "$work/loader.js" "\"./$name.wasm\"" "\"./$name-$id.wasm\"" once
  chunks=$((chunks + 1))
done
[ "$chunks" -gt 0 ] || fail "wasm-split-cli made no chunk: is the split feature on (index.html, data-cargo-features)?"
cp "$work/loader.js" "$stage/$loader"

# index.html's integrity hashes name the glue and main module as Trunk wrote them: redo them.
for f in "$glue" "$main_wasm"; do
  grep -q "href=\"./$f\"" "$stage/index.html" || fail "index.html does not name ./$f"
  hash="sha384-$(openssl dgst -sha384 -binary "$stage/$f" | base64 -w0)"
  sed -i -E "s#(href=\"\./$f\"[^>]*integrity=\")[^\"]+#\1$hash#" "$stage/index.html"
done
echo "[split-wasm] $main_wasm $(stat -c %s "$stage/$main_wasm") B and $chunks chunks ($loader)" >&2
