//! `short-imports WASM GLUE`: renames the functions the wasm module WASM imports from its JS glue GLUE
//! (wasm-bindgen's `__wbg_...` and `__wbindgen_...`) to short names, in both files, in place
//! (`scripts/split-wasm.sh`).

use std::process::ExitCode;

use streamscope_wasm_imports::{rename_in_glue, shorten_imports, Error};

/// The module name wasm-bindgen's `--target web` glue gives its imports object.
const GLUE_MODULE: &str = "./streamscope_bg.js";

fn run(wasm_path: &str, glue_path: &str) -> Result<String, Error> {
    let read = |path: &str| std::fs::read(path).map_err(|e| Error(format!("{path}: {e}")));
    let wasm = read(wasm_path)?;
    let glue = String::from_utf8(read(glue_path)?).map_err(|_| Error(format!("{glue_path}: not UTF-8")))?;
    let (new_wasm, renames) = shorten_imports(&wasm, GLUE_MODULE)?;
    if renames.is_empty() {
        return Err(Error(format!("{wasm_path}: no function imported from {GLUE_MODULE}")));
    }
    let new_glue = rename_in_glue(&glue, &renames).map_err(|e| Error(format!("{glue_path}: {e}")))?;
    let write = |path: &str, bytes: &[u8]| std::fs::write(path, bytes).map_err(|e| Error(format!("{path}: {e}")));
    write(wasm_path, &new_wasm)?;
    write(glue_path, new_glue.as_bytes())?;
    Ok(format!(
        "{} imports renamed: wasm {} -> {} B, glue {} -> {} B",
        renames.len(),
        wasm.len(),
        new_wasm.len(),
        glue.len(),
        new_glue.len()
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wasm, glue] = &args[..] else {
        eprintln!("usage: short-imports WASM GLUE.js");
        return ExitCode::from(2);
    };
    match run(wasm, glue) {
        Ok(summary) => {
            eprintln!("[short-imports] {summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("[short-imports] {e}");
            ExitCode::FAILURE
        }
    }
}
