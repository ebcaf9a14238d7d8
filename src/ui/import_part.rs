//! Reading an import (an export or a bare report, pasted, dropped or chosen) in a wasm chunk of its own,
//! `import`, fetched the first time someone imports, never preloaded: reading every report type and
//! every trace from JSON is about 46 KB of the gzipped wasm (BENCHMARKS.md, Size, "Imports on demand"),
//! which a visitor who only measures never runs.

use streamscope_core::i18n::Lang;
use streamscope_core::report::export::{import_in, Imported};

use super::split::split_part;

split_part!(import, preload_import; pub fn read_import(text: String, lang: Lang) -> Result<Imported, String> {
    import_in(&text, lang)
});
