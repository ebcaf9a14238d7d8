//! `short-names WASM GLUE [JS ...]`: renames the functions the wasm module WASM imports from its JS glue
//! GLUE (wasm-bindgen's `__wbg_...` and `__wbindgen_...`) and the functions the glue calls in it
//! (`wasm.NAME`) to short names, in both files, in place (`scripts/split-wasm.sh`). Each further JS file
//! (the chunks' loader) is only read: the build fails if it names an export that was renamed.

use std::process::ExitCode;

use streamscope_wasm_names::cli::{finish, read_bytes, read_text, read_texts, write_file};
use streamscope_wasm_names::{shorten, Error};

/// The module name wasm-bindgen's `--target web` glue gives its imports object.
const GLUE_MODULE: &str = "./streamscope_bg.js";

fn run(wasm_path: &str, glue_path: &str, other_paths: &[String]) -> Result<String, Error> {
    let wasm = read_bytes(wasm_path)?;
    let glue = read_text(glue_path)?;
    let others = read_texts(other_paths)?;
    let others: Vec<&str> = others.iter().map(String::as_str).collect();
    let short = shorten(&wasm, &glue, GLUE_MODULE, &others).map_err(|e| Error(format!("{wasm_path} and {glue_path}: {e}")))?;
    write_file(wasm_path, &short.wasm)?;
    write_file(glue_path, short.glue.as_bytes())?;
    Ok(format!(
        "{} imports and {} exports renamed: wasm {} -> {} B, glue {} -> {} B",
        short.imports.len(),
        short.exports.len(),
        wasm.len(),
        short.wasm.len(),
        glue.len(),
        short.glue.len()
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wasm, glue, others @ ..] = &args[..] else {
        eprintln!("usage: short-names WASM GLUE.js [OTHER.js ...]");
        return ExitCode::from(2);
    };
    finish("short-names", run(wasm, glue, others))
}
