//! Classes a dependency exports that the page never uses, taken out of the main module and its glue
//! (issue 13's size budget).
//!
//! Leptos always builds `server_fn` with its `browser` feature, which brings `wasm-streams`. That crate
//! exports three classes to JS with `#[wasm_bindgen]` (`IntoUnderlyingSink`, `IntoUnderlyingSource`,
//! `IntoUnderlyingByteSource`: a Rust sink or stream seen from JS). An export is a root that no linker or
//! optimiser may remove, so their methods, the futures behind them and their promise plumbing stayed in
//! the main module, and their classes in the glue, though the page has no server function and never makes
//! one of them. This step, after wasm-bindgen and before wasm-opt (which then drops the code only they
//! reached; `scripts/split-wasm.sh`), removes each named class from both sides.
//!
//! What it refuses, so that a page that uses one of them fails the build instead of breaking: a class the
//! glue does not define once as wasm-bindgen writes it, a class the glue still names once its definition,
//! its disposal line and its finalisation registry are gone (a class the wasm makes is wrapped by the
//! glue, `C.__wrap(...)`), an export of the class that the glue still calls, a class with no export in the
//! wasm, and a class any other JS given names.

use super::{error, names_word, rewrite_section, write_u32, Error, Reader, EXPORT_SECTION};

/// The wasm and glue without the classes, and the exports removed.
#[derive(Debug)]
pub struct Dropped {
    /// The new wasm module.
    pub wasm: Vec<u8>,
    /// The new glue.
    pub glue: String,
    /// The names of the exports removed from the wasm.
    pub exports: Vec<String>,
}

/// Whether `name` is one of the wasm exports wasm-bindgen makes for the class named `lower` (its name in
/// lower case): its destructor `__wbg_<lower>_free` and its methods `<lower>_<method>`.
fn is_export_of(name: &str, lower: &str) -> bool {
    name.strip_prefix("__wbg_").and_then(|n| n.strip_prefix(lower)) == Some("_free")
        || name.strip_prefix(lower).is_some_and(|rest| rest.starts_with('_'))
}

/// `glue` without the one piece that starts with `start` and ends with the first `end` after it.
fn cut_once(glue: &str, start: &str, end: &str) -> Result<String, Error> {
    let mut found = glue.match_indices(start);
    let (Some((at, _)), None) = (found.next(), found.next()) else {
        return error(format!("the glue does not have `{}` exactly once", start.trim_end()));
    };
    let Some(len) = glue[at..].find(end) else {
        return error(format!("the glue's `{}` does not end", start.trim_end()));
    };
    Ok(format!("{}{}", &glue[..at], &glue[at + len + end.len()..]))
}

/// The glue without class `class`: its definition (`export class C {` to the `}` that closes it at the
/// start of a line), its disposal line, and its finalisation registry (`const CFinalization = ...;`).
fn cut_class(glue: &str, class: &str) -> Result<String, Error> {
    let glue = cut_once(glue, &format!("export class {class} {{\n"), "\n}\n")?;
    let dispose = format!("if (Symbol.dispose) {class}.prototype[Symbol.dispose] = {class}.prototype.free;\n");
    let glue = if glue.contains(&dispose) { glue.replacen(&dispose, "", 1) } else { glue };
    cut_once(&glue, &format!("const {class}Finalization = "), ");\n")
}

fn drop_exports(body: &[u8], dropped: &dyn Fn(&str) -> bool, names: &mut Vec<String>) -> Result<Vec<u8>, Error> {
    let mut r = Reader { bytes: body, at: 0 };
    let count = r.u32()?;
    let mut kept = Vec::new();
    for _ in 0..count {
        let start = r.at;
        let name = r.name()?;
        let kind = r.byte()?;
        if kind > 0x04 {
            return error(format!("an export of an unknown kind 0x{kind:02x}"));
        }
        r.u32()?;
        if kind == 0x00 && dropped(name) {
            names.push(name.to_owned());
        } else {
            kept.push(&body[start..r.at]);
        }
    }
    if !r.done() {
        return error("the export section has bytes after its last export");
    }
    let mut out = Vec::with_capacity(body.len());
    write_u32(&mut out, kept.len() as u32);
    kept.iter().for_each(|entry| out.extend_from_slice(entry));
    Ok(out)
}

/// Removes each class of `classes` from `glue` and its exports from `wasm` (the functions behind them
/// are left for wasm-opt to drop). `others` (other JS that loads or reads the page's modules) are only
/// checked: none may name a class removed.
pub fn drop_classes(wasm: &[u8], glue: &str, classes: &[&str], others: &[&str]) -> Result<Dropped, Error> {
    let mut glue = glue.to_owned();
    for class in classes {
        glue = cut_class(&glue, class)?;
        let registry = format!("{class}Finalization");
        if names_word(&glue, class) || names_word(&glue, &registry) {
            return error(format!("the glue still names {class} without its class: the page uses it"));
        }
        if let Some(other) = others.iter().find(|other| names_word(other, class)) {
            return error(format!("other JS names {class}: {}", other.lines().next().unwrap_or_default()));
        }
    }
    let lowers: Vec<String> = classes.iter().map(|c| c.to_lowercase()).collect();
    let dropped = |name: &str| lowers.iter().any(|lower| is_export_of(name, lower));
    let mut exports = Vec::new();
    let wasm = rewrite_section(wasm, EXPORT_SECTION, |body| drop_exports(body, &dropped, &mut exports))?;
    if let Some(lower) = lowers.iter().find(|lower| !exports.iter().any(|e| is_export_of(e, lower))) {
        return error(format!("the wasm exports nothing of the class {lower}"));
    }
    if let Some(called) = super::glue_calls(&glue).into_iter().find(|name| dropped(name)) {
        return error(format!("the glue still calls wasm.{called}"));
    }
    Ok(Dropped { wasm, glue, exports })
}
