//! `short-names WASM GLUE [JS ...]`: renames the functions the wasm module WASM imports from its JS glue
//! GLUE (wasm-bindgen's `__wbg_...` and `__wbindgen_...`) and the functions the glue calls in it
//! (`wasm.NAME`) to short names, in both files, in place (`scripts/split-wasm.sh`). Each further JS file
//! (the chunks' loader) is only read: the build fails if it names an export that was renamed.

use std::process::ExitCode;

use streamscope_wasm_names::{
    glue_calls, names_word, rename_calls_in_glue, rename_keys_in_glue, shorten_exports, shorten_imports, Error,
};

/// The module name wasm-bindgen's `--target web` glue gives its imports object.
const GLUE_MODULE: &str = "./streamscope_bg.js";

fn run(wasm_path: &str, glue_path: &str, others: &[String]) -> Result<String, Error> {
    let read = |path: &str| std::fs::read(path).map_err(|e| Error(format!("{path}: {e}")));
    let wasm = read(wasm_path)?;
    let glue = String::from_utf8(read(glue_path)?).map_err(|_| Error(format!("{glue_path}: not UTF-8")))?;
    let in_wasm = |e: Error| Error(format!("{wasm_path}: {e}"));
    let in_glue = |e: Error| Error(format!("{glue_path}: {e}"));

    let (new_wasm, imports) = shorten_imports(&wasm, GLUE_MODULE).map_err(in_wasm)?;
    if imports.is_empty() {
        return Err(Error(format!("{wasm_path}: no function imported from {GLUE_MODULE}")));
    }
    let new_glue = rename_keys_in_glue(&glue, &imports).map_err(in_glue)?;
    let calls = glue_calls(&new_glue);
    let (new_wasm, exports) = shorten_exports(&new_wasm, |name| calls.contains(&name)).map_err(in_wasm)?;
    let new_glue = rename_calls_in_glue(&new_glue, &exports).map_err(in_glue)?;
    for other in others {
        let text = String::from_utf8_lossy(&read(other)?).into_owned();
        if let Some(named) = exports.iter().find(|e| names_word(&text, &e.old)) {
            return Err(Error(format!("{other}: names the export {}, which the glue alone was to call", named.old)));
        }
    }

    let write = |path: &str, bytes: &[u8]| std::fs::write(path, bytes).map_err(|e| Error(format!("{path}: {e}")));
    write(wasm_path, &new_wasm)?;
    write(glue_path, new_glue.as_bytes())?;
    Ok(format!(
        "{} imports and {} exports renamed: wasm {} -> {} B, glue {} -> {} B",
        imports.len(),
        exports.len(),
        wasm.len(),
        new_wasm.len(),
        glue.len(),
        new_glue.len()
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wasm, glue, others @ ..] = &args[..] else {
        eprintln!("usage: short-names WASM GLUE.js [OTHER.js ...]");
        return ExitCode::from(2);
    };
    match run(wasm, glue, others) {
        Ok(summary) => {
            eprintln!("[short-names] {summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("[short-names] {e}");
            ExitCode::FAILURE
        }
    }
}
