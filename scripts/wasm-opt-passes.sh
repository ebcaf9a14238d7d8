# The wasm-opt passes of the page's release build, sourced by every script that builds the page's wasm
# (scripts/split-wasm.sh, which Trunk runs; the size scripts, to build it alike). After `-Oz`, binaryen's
# `--flatten --rereloop` rebuilds each function's control flow with its relooper, and `-Oz` then
# `--merge-similar-functions` then `-Oz` shrink what that leaves: a run 2.4 KB less gzipped than `-Oz`
# alone, for the same throughput of core's analysis in the wasm and about 2 s more of build
# (BENCHMARKS.md, Size, "Control flow rebuilt before -Oz").
# shellcheck disable=SC2034 # used by the scripts that source this file
WASM_OPT_SIZE_PASSES=(-Oz --flatten --rereloop -Oz --merge-similar-functions -Oz)
