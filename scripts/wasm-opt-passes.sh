# The wasm-opt passes of the page's release build (and the classes its build takes out of the main module,
# below), sourced by every script that builds the page's wasm
# (scripts/split-wasm.sh, which Trunk runs; the size scripts, to build it alike). After `-Oz`, binaryen's
# `--flatten --rereloop` rebuilds each function's control flow with its relooper, and `-Oz` then
# `--merge-similar-functions` then `-Oz` shrink what that leaves: a run 2.4 KB less gzipped than `-Oz`
# alone, for the same throughput of core's analysis in the wasm and about 2 s more of build
# (BENCHMARKS.md, Size, "Control flow rebuilt before -Oz").
# `--low-memory-unused` lets binaryen fold a constant below 1 KiB added to an address into the load's or
# store's offset (smaller code). The two differ only when the sum wraps past 4 GiB, which only an address
# "below zero" makes: a stack that overflowed (rustc lays the stack first, growing down from 1 MiB to 0;
# data and heap above). There the folded access traps where the unfolded one would have written over the
# first 1 KiB. A run 1.6 KB less gzipped (BENCHMARKS.md, Size, "One Show, one effect, one task").
# shellcheck disable=SC2034 # used by the scripts that source this file
WASM_OPT_SIZE_PASSES=(--low-memory-unused -Oz --flatten --rereloop -Oz --merge-similar-functions -Oz)

# The classes a dependency exports to JS that the page never makes (wasm-streams', which Leptos's server_fn
# always brings), taken out of the main module and its glue before wasm-opt by wasm-names' drop-classes
# (scripts/split-wasm.sh; BENCHMARKS.md, Size, "One Show, one effect, one task").
# shellcheck disable=SC2034 # used by the scripts that source this file
UNUSED_EXPORTED_CLASSES=IntoUnderlyingSink,IntoUnderlyingSource,IntoUnderlyingByteSource
