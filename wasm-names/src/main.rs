//! `short-names WASM GLUE [JS ...]`: renames the functions the wasm module WASM imports from its JS glue
//! GLUE (wasm-bindgen's `__wbg_...` and `__wbindgen_...`) and the functions the glue calls in it
//! (`wasm.NAME`) to short names, in both files, in place (`scripts/split-wasm.sh`). Each further JS file
//! (the chunks' loader) is only read: the build fails if it names an export that was renamed.

use std::process::ExitCode;

use streamscope_wasm_names::{shorten, Error};

/// The module name wasm-bindgen's `--target web` glue gives its imports object.
const GLUE_MODULE: &str = "./streamscope_bg.js";

fn run(wasm_path: &str, glue_path: &str, other_paths: &[String]) -> Result<String, Error> {
    let read = |path: &str| std::fs::read(path).map_err(|e| Error(format!("{path}: {e}")));
    let text = |path: &str| String::from_utf8(read(path)?).map_err(|_| Error(format!("{path}: not UTF-8")));
    let wasm = read(wasm_path)?;
    let glue = text(glue_path)?;
    let others = other_paths.iter().map(|p| text(p)).collect::<Result<Vec<String>, Error>>()?;
    let others: Vec<&str> = others.iter().map(String::as_str).collect();
    let short = shorten(&wasm, &glue, GLUE_MODULE, &others).map_err(|e| Error(format!("{wasm_path} and {glue_path}: {e}")))?;
    let write = |path: &str, bytes: &[u8]| std::fs::write(path, bytes).map_err(|e| Error(format!("{path}: {e}")));
    write(wasm_path, &short.wasm)?;
    write(glue_path, short.glue.as_bytes())?;
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
