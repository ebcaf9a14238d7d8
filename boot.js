// streamscope's loader: starts the wasm app. A file of its own (not an inline script) so that the page's
// Content-Security-Policy can say `script-src 'self' 'wasm-unsafe-eval'` with no inline script allowed.
// Trunk writes the hashed file names into this script element's data attributes (Trunk.toml,
// `pattern_script`).
const boot = document.getElementById("streamscope-boot");
const bindings = await import(boot.dataset.js);
const wasm = await bindings.default({ module_or_path: boot.dataset.wasm });
// The glue stays reachable for the fidelity benchmark (tests/src/fidelity.rs), as Trunk's own loader has it.
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));
