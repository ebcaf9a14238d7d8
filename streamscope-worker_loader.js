// streamscope's measuring worker (src/net/worker): a module worker that runs the page's own wasm, the same
// file the page loaded (one download; the browser has it cached), whose `main` sees a worker scope and
// serves runs instead of mounting the page. The page's first message, `{kind: "load", js, wasm}`, names
// the glue and the wasm (files of this origin, relative to this folder); anything else is refused, the
// worker fails, and the page measures on its main thread. Copied to the bundle under this name (index.html).
const file = (name) => {
  const url = typeof name === "string" && new URL(name, self.location.href);
  if (!url || url.origin !== self.location.origin) {
    throw new Error("streamscope worker: the page named no file of this origin to load");
  }
  return url.href;
};
self.addEventListener("message", function load(event) {
  if (event.data?.kind !== "load") return;
  self.removeEventListener("message", load);
  import(file(event.data.js))
    .then((bindings) => bindings.default({ module_or_path: file(event.data.wasm) }))
    // Thrown again outside the promise, so the page gets the worker's `error` event at once.
    .catch((error) => setTimeout(() => { throw error; }));
});
