//! `drop-classes WASM GLUE CLASS[,CLASS...] [JS ...]`: removes the named classes a dependency exports
//! and the page never uses from the wasm module WASM (their exports) and its JS glue GLUE (their
//! definitions), in place, before wasm-opt (`scripts/split-wasm.sh`; the library's `unused_classes`).
//! Each further JS file (the chunks' loader, the page's loaders) is only read: the build fails if it
//! names a class removed.

use std::process::ExitCode;

use streamscope_wasm_names::{drop_classes, Error};

fn run(wasm_path: &str, glue_path: &str, classes: &str, other_paths: &[String]) -> Result<String, Error> {
    let read = |path: &str| std::fs::read(path).map_err(|e| Error(format!("{path}: {e}")));
    let text = |path: &str| String::from_utf8(read(path)?).map_err(|_| Error(format!("{path}: not UTF-8")));
    let wasm = read(wasm_path)?;
    let glue = text(glue_path)?;
    let others = other_paths.iter().map(|p| text(p)).collect::<Result<Vec<String>, Error>>()?;
    let others: Vec<&str> = others.iter().map(String::as_str).collect();
    let classes: Vec<&str> = classes.split(',').filter(|c| !c.is_empty()).collect();
    let dropped = drop_classes(&wasm, &glue, &classes, &others).map_err(|e| Error(format!("{wasm_path} and {glue_path}: {e}")))?;
    let write = |path: &str, bytes: &[u8]| std::fs::write(path, bytes).map_err(|e| Error(format!("{path}: {e}")));
    write(wasm_path, &dropped.wasm)?;
    write(glue_path, dropped.glue.as_bytes())?;
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
    match run(wasm, glue, classes, others) {
        Ok(summary) => {
            eprintln!("[drop-classes] {summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("[drop-classes] {e}");
            ExitCode::FAILURE
        }
    }
}
