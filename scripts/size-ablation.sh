#!/usr/bin/env bash
# Size ablation (issue 13): what each panel of the page costs in the shipped wasm, and the floor under all
# of them. In a throwaway git worktree of HEAD (commit first: uncommitted changes are not in it), builds the
# page's wasm as Trunk does (cargo release build with the page's flags, wasm-bindgen, wasm-opt -Oz), then
# again once per variant, and prints each variant's size and what it saved, raw and gzip -9:
#   - without <Panel .../> in App (src/ui/app.rs), one panel at a time: that panel's own cost (code it
#     shares with another panel stays);
#   - the share panel (src/ui/handoff.rs) without its import, its Markdown or its export;
#   - "floor": no view at all (scripts/size-ablation/floor-main.rs as main): the worker, and core's import,
#     recompute, Markdown, report JSON, export, prefix check and link configuration called once each.
#
#   scripts/size-ablation.sh                 # everything (about 2 minutes a variant on 2 cores)
#   scripts/size-ablation.sh Handoff floor   # some variants (panel names, import, markdown, export, floor)
#
# Builds into $CARGO_TARGET_DIR/size-ablation (the main build's cache is left alone). A benchmark, not a
# test: sizes do not depend on the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
source scripts/wasm-opt-passes.sh
root="$PWD"
work="$(mktemp -d)"
git worktree add --detach "$work/tree" HEAD >/dev/null
trap 'git -C "$root" worktree remove --force "$work/tree"; rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$CARGO_TARGET_DIR/size-ablation"

panels=(Findings RequestForm ComparePanel SweepPanel HopsPanel CacheAndConnection PrefixCheckPanel
  MetricsPanel Timeline TextView RawView Handoff ReportJson LangSwitch)
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=("${panels[@]}" import markdown export floor)

# build LABEL: builds the worktree as it is; prints "LABEL raw gzip".
build() {
  (cd "$work/tree" && cargo build -q --release --locked --target wasm32-unknown-unknown --bin streamscope) >&2
  rm -rf "$work/out" && mkdir -p "$work/out"
  wasm-bindgen --target web --no-typescript --out-dir "$work/out" \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/streamscope.wasm"
  wasm-opt "${WASM_OPT_SIZE_PASSES[@]}" "$work/out/streamscope_bg.wasm" -o "$work/out/opt.wasm"
  echo "$1 $(stat -c %s "$work/out/opt.wasm") $(gzip -9 -n -c "$work/out/opt.wasm" | wc -c)"
}

# variant NAME: changes the worktree for NAME; fails when the change no longer applies.
variant() {
  local app="$work/tree/src/ui/app.rs" handoff="$work/tree/src/ui/handoff.rs"
  case "$1" in
    floor) cp scripts/size-ablation/floor-main.rs "$work/tree/src/main.rs" ;;
    markdown) sed -i 's/c\.as_ref()\.map(|c| campaign_markdown(c, lang))\.unwrap_or_default()/{ let _ = (c, lang); String::new() }/' "$handoff" ;;
    # A condition the compiler cannot fold away by itself would keep the import; this one it folds.
    import) sed -i 's/match import_in(&text, lang()) {/match (if text.len() > usize::MAX - 1 { import_in(\&text, lang()) } else { Err(text) }) {/' "$handoff" ;;
    export) sed -i 's/fn current_export(session: Session, lang: Lang) -> Option<Export> {/&\n    if lang == Lang::En || lang != Lang::En { return None; }/' "$handoff" ;;
    *) sed -i -E "s#^( *)<$1( [^>]*)? />#\1#" "$app" ;;
  esac
  if git -C "$work/tree" diff --quiet; then
    echo "size-ablation: variant '$1' changes nothing at HEAD (renamed? update this script)" >&2
    return 1
  fi
}

base="$(build page)"
read -r _ base_raw base_gz <<<"$base"
printf '| variant | raw (B) | gzip (B) | saved raw | saved gzip | saved gzip %% |\n|---|---|---|---|---|---|\n'
printf '| the page (HEAD %s) | %d | %d | | | |\n' "$(git rev-parse --short HEAD)" "$base_raw" "$base_gz"
for v in "${variants[@]}"; do
  git -C "$work/tree" checkout -q -- .
  variant "$v" || continue
  read -r _ raw gz <<<"$(build "$v")"
  label="without $v"; [ "$v" = floor ] && label="floor: no view at all"
  printf '| %s | %d | %d | %d | %d | %.1f |\n' "$label" "$raw" "$gz" $((base_raw - raw)) $((base_gz - gz)) \
    "$(awk "BEGIN { print 100 * ($base_gz - $gz) / $base_gz }")"
done
