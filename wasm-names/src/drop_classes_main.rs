//! `drop-classes WASM GLUE CLASS[,CLASS...] [JS ...]`: removes the named classes a dependency exports
//! and the page never uses from the wasm module WASM (their exports) and its JS glue GLUE (their
//! definitions), in place, before wasm-opt (`scripts/split-wasm.sh`; the library's `unused_classes`).
//! Each further JS file (the chunks' loader, the page's loaders) is only read: the build fails if it
//! names a class removed.

use std::process::ExitCode;

use streamscope_wasm_names::cli::{finish, read_bytes, read_text, read_texts, write_file};
use streamscope_wasm_names::{drop_classes, Error};

fn run(wasm_path: &str, glue_path: &str, classes: &str, other_paths: &[String]) -> Result<String, Error> {
    let wasm = read_bytes(wasm_path)?;
    let glue = read_text(glue_path)?;
    let others = read_texts(other_paths)?;
    let others: Vec<&str> = others.iter().map(String::as_str).collect();
    let classes: Vec<&str> = classes.split(',').filter(|c| !c.is_empty()).collect();
    let dropped = drop_classes(&wasm, &glue, &classes, &others).map_err(|e| Error(format!("{wasm_path} and {glue_path}: {e}")))?;
    write_file(wasm_path, &dropped.wasm)?;
    write_file(glue_path, dropped.glue.as_bytes())?;
    Ok(format!(
        "{} classes and their {} exports removed: glue {} -> {} B",
        classes.len(),
        dropped.exports.len(),
        glue.len(),
        dropped.glue.len()
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wasm, glue, classes, others @ ..] = &args[..] else {
        eprintln!("usage: drop-classes WASM GLUE.js CLASS[,CLASS...] [OTHER.js ...]");
        return ExitCode::from(2);
    };
    finish("drop-classes", run(wasm, glue, classes, others))
}
