//! Short names for what the page's main module and its JS glue name each other by (issue 13's size
//! budget).
//!
//! wasm-bindgen names most functions the wasm imports from its glue `__wbg_<name>_<16 hex digits>`: in
//! the page's main module, 209 imports and about 7 KB of names, half of it hashes that gzip cannot
//! compress, and the same names again as the keys of the imports object in the glue. The functions the
//! glue calls in the wasm have long names too (`wasm_bindgen__convert__closures_____invoke__h<hash>`,
//! `__wbindgen_malloc`, called as `wasm.NAME`). Only the two sides need to agree, so this step renames
//! both, after wasm-bindgen and wasm-opt and before the integrity hashes are taken
//! (`scripts/split-wasm.sh`): `a`, `b`, ... `Z`, `aa`, `ab`, ... The memory, the function table and the
//! globals keep their names: the chunks' loader asks for them by name.
//!
//! What it refuses, so that a change in wasm-bindgen's output fails the build instead of shipping a page
//! that cannot start: a module that is not wasm, an import or export it cannot read, a renamed import
//! that is not exactly once a key of the glue (`name:`), and a renamed export the glue never calls.

use std::fmt;

pub mod cli;
mod unused_classes;
pub use unused_classes::{drop_classes, Dropped};

/// Why the wasm or the glue could not be renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn error<T>(what: impl Into<String>) -> Result<T, Error> {
    Err(Error(what.into()))
}

/// One import renamed: its name before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    /// The name wasm-bindgen gave it.
    pub old: String,
    /// The short name it has now.
    pub new: String,
}

/// The `n`-th short name: `a`..`z`, `A`..`Z`, then two letters, and so on.
pub fn short_name(mut n: usize) -> String {
    const LETTERS: &[u8; 52] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut name = Vec::new();
    loop {
        name.push(LETTERS[n % 52]);
        n /= 52;
        if n == 0 {
            break;
        }
        n -= 1;
    }
    name.reverse();
    String::from_utf8(name).unwrap_or_default()
}

/// Reads bytes of a wasm module from the front.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8, Error> {
        let Some(&b) = self.bytes.get(self.at) else { return error("the wasm ends inside a section") };
        self.at += 1;
        Ok(b)
    }

    /// An unsigned LEB128 number of at most 32 bits.
    fn u32(&mut self) -> Result<u32, Error> {
        let mut value = 0u64;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return u32::try_from(value).or_else(|_| error("a number in the wasm is out of range"));
            }
        }
        error("a number in the wasm is too long")
    }

    /// A signed LEB128 number (read past: its value is not needed).
    fn skip_signed(&mut self) -> Result<(), Error> {
        for _ in 0..10 {
            if self.byte()? & 0x80 == 0 {
                return Ok(());
            }
        }
        error("a number in the wasm is too long")
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], Error> {
        let end = self.at.checked_add(len).filter(|&end| end <= self.bytes.len());
        let Some(end) = end else { return error("the wasm ends inside a section") };
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn name(&mut self) -> Result<&'a str, Error> {
        let len = self.u32()? as usize;
        std::str::from_utf8(self.take(len)?).or_else(|_| error("an import's name is not UTF-8"))
    }

    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }
}

fn write_u32(out: &mut Vec<u8>, mut n: u32) {
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn write_name(out: &mut Vec<u8>, name: &str) {
    write_u32(out, name.len() as u32);
    out.extend_from_slice(name.as_bytes());
}

/// Reads past an import's description (what it imports), by its kind.
fn skip_description(r: &mut Reader<'_>, kind: u8) -> Result<(), Error> {
    match kind {
        // A function: its type's index.
        0x00 => r.u32().map(drop),
        // A table: its element type, then its limits.
        0x01 => {
            skip_value_type(r)?;
            skip_limits(r)
        }
        0x02 => skip_limits(r),
        // A global: its value type and whether it is mutable.
        0x03 => {
            skip_value_type(r)?;
            r.byte().map(drop)
        }
        // A tag: its attribute and its type's index.
        0x04 => {
            r.byte()?;
            r.u32().map(drop)
        }
        other => error(format!("an import of an unknown kind 0x{other:02x}")),
    }
}

fn skip_value_type(r: &mut Reader<'_>) -> Result<(), Error> {
    // `(ref null ht)` and `(ref ht)` carry a heap type after them; every other type is one byte.
    if matches!(r.byte()?, 0x63 | 0x64) {
        r.skip_signed()?;
    }
    Ok(())
}

fn skip_limits(r: &mut Reader<'_>) -> Result<(), Error> {
    let flags = r.byte()?;
    if flags & !0x07 != 0 {
        return error(format!("limits with unknown flags 0x{flags:02x}"));
    }
    // memory64's limits are 64-bit numbers: read them as signed (same encoding length rules).
    let skip = |r: &mut Reader<'_>| if flags & 0x04 != 0 { r.skip_signed() } else { r.u32().map(drop) };
    skip(r)?;
    if flags & 0x01 != 0 {
        skip(r)?;
    }
    Ok(())
}

/// Renames every function the module `wasm` imports from `module` (the glue), in order, to the next
/// short name not already an import name of that module. Returns the new wasm and the renames; every
/// other byte is as it was.
pub fn shorten_imports(wasm: &[u8], module: &str) -> Result<(Vec<u8>, Vec<Rename>), Error> {
    let mut renames = Vec::new();
    let new = rewrite_section(wasm, IMPORT_SECTION, |body| rename_import_section(body, module, &mut renames))?;
    Ok((new, renames))
}

/// Renames every function `wasm` exports whose name `called` accepts (what the glue calls), in order, to
/// the next short name not already an export name. Returns the new wasm and the renames; every other
/// byte is as it was.
pub fn shorten_exports(wasm: &[u8], called: impl Fn(&str) -> bool) -> Result<(Vec<u8>, Vec<Rename>), Error> {
    let mut renames = Vec::new();
    let new = rewrite_section(wasm, EXPORT_SECTION, |body| rename_export_section(body, &called, &mut renames))?;
    Ok((new, renames))
}

const IMPORT_SECTION: u8 = 2;
const EXPORT_SECTION: u8 = 7;

/// `wasm` with the body of each section `id` replaced by what `rewrite` makes of it.
fn rewrite_section(
    wasm: &[u8],
    id: u8,
    mut rewrite: impl FnMut(&[u8]) -> Result<Vec<u8>, Error>,
) -> Result<Vec<u8>, Error> {
    const HEADER: &[u8] = b"\0asm\x01\0\0\0";
    if !wasm.starts_with(HEADER) {
        return error("not a wasm module (version 1)");
    }
    let mut r = Reader { bytes: wasm, at: HEADER.len() };
    let mut out = HEADER.to_vec();
    while !r.done() {
        let section_id = r.byte()?;
        let len = r.u32()? as usize;
        let body = r.take(len)?;
        out.push(section_id);
        if section_id == id {
            let body = rewrite(body)?;
            write_u32(&mut out, body.len() as u32);
            out.extend_from_slice(&body);
        } else {
            write_u32(&mut out, len as u32);
            out.extend_from_slice(body);
        }
    }
    Ok(out)
}

/// Writes `name`, or when `rename` the next short name after `next` that `kept` does not hold,
/// recording the rename: what the import and export sections do for each entry.
fn write_name_or_rename(out: &mut Vec<u8>, name: &str, rename: bool, next: &mut usize, kept: &[&str], renames: &mut Vec<Rename>) {
    if !rename {
        return write_name(out, name);
    }
    let new = loop {
        let candidate = short_name(*next);
        *next += 1;
        if !kept.contains(&candidate.as_str()) {
            break candidate;
        }
    };
    write_name(out, &new);
    renames.push(Rename { old: name.to_owned(), new });
}

fn rename_export_section(body: &[u8], called: &dyn Fn(&str) -> bool, renames: &mut Vec<Rename>) -> Result<Vec<u8>, Error> {
    let mut r = Reader { bytes: body, at: 0 };
    let count = r.u32()?;
    let mut exports = Vec::new();
    for _ in 0..count {
        let name = r.name()?;
        let start = r.at;
        let kind = r.byte()?;
        if kind > 0x04 {
            return error(format!("an export of an unknown kind 0x{kind:02x}"));
        }
        r.u32()?;
        exports.push((name, kind, &body[start..r.at]));
    }
    if !r.done() {
        return error("the export section has bytes after its last export");
    }
    let is_renamed = |&(name, kind, _): &(&str, u8, &[u8])| kind == 0x00 && called(name);
    let kept: Vec<&str> = exports.iter().filter(|e| !is_renamed(e)).map(|e| e.0).collect();
    let mut next = 0;
    let mut out = Vec::with_capacity(body.len());
    write_u32(&mut out, count);
    for export in &exports {
        write_name_or_rename(&mut out, export.0, is_renamed(export), &mut next, &kept, renames);
        out.extend_from_slice(export.2);
    }
    Ok(out)
}

fn rename_import_section(body: &[u8], module: &str, renames: &mut Vec<Rename>) -> Result<Vec<u8>, Error> {
    struct Import<'a> {
        module: &'a str,
        name: &'a str,
        description: &'a [u8],
    }
    let mut r = Reader { bytes: body, at: 0 };
    let count = r.u32()?;
    let mut imports = Vec::new();
    for _ in 0..count {
        let (module, name) = (r.name()?, r.name()?);
        let start = r.at;
        let kind = r.byte()?;
        skip_description(&mut r, kind)?;
        imports.push(Import { module, name, description: &body[start..r.at] });
    }
    if !r.done() {
        return error("the import section has bytes after its last import");
    }
    let is_renamed = |i: &Import<'_>| i.module == module && i.description[0] == 0x00;
    let kept: Vec<&str> = imports.iter().filter(|i| i.module == module && !is_renamed(i)).map(|i| i.name).collect();
    let mut next = 0;
    let mut out = Vec::with_capacity(body.len());
    write_u32(&mut out, count);
    for import in &imports {
        write_name(&mut out, import.module);
        write_name_or_rename(&mut out, import.name, is_renamed(import), &mut next, &kept, renames);
        out.extend_from_slice(import.description);
    }
    Ok(out)
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Whether a name found at `at` in `text` starts a word: no identifier byte right before it.
fn starts_word(text: &str, at: usize) -> bool {
    !at.checked_sub(1).is_some_and(|i| is_identifier_byte(text.as_bytes()[i]))
}

/// Whether a name found in `text` up to `end` ends a word: no identifier byte right after it.
fn ends_word(text: &str, end: usize) -> bool {
    !text.as_bytes().get(end).copied().is_some_and(is_identifier_byte)
}

/// The glue with every renamed import's key said by its new name. Each old name must be a key of the
/// glue's imports object (`name:`, not part of a longer name) exactly once.
pub fn rename_keys_in_glue(glue: &str, renames: &[Rename]) -> Result<String, Error> {
    let mut at_old: Vec<(usize, &Rename)> = Vec::with_capacity(renames.len());
    for rename in renames {
        let keys: Vec<usize> = glue
            .match_indices(rename.old.as_str())
            .map(|(at, _)| at)
            .filter(|&at| starts_word(glue, at) && glue.as_bytes().get(at + rename.old.len()) == Some(&b':'))
            .collect();
        match keys[..] {
            [at] => at_old.push((at, rename)),
            _ => return error(format!("the glue has {} keys `{}:`, not one", keys.len(), rename.old)),
        }
    }
    Ok(splice(glue, at_old))
}

/// The names the glue reads from the wasm's exports: every `wasm.NAME`, sorted, each once.
pub fn glue_calls(glue: &str) -> Vec<&str> {
    let mut names: Vec<&str> = glue
        .match_indices("wasm.")
        .filter(|&(at, _)| starts_word(glue, at))
        .map(|(at, dot)| {
            let rest = &glue[at + dot.len()..];
            &rest[..rest.bytes().position(|b| !is_identifier_byte(b)).unwrap_or(rest.len())]
        })
        .filter(|name| !name.is_empty())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Whether `text` holds `name` as a word of its own (not inside a longer identifier).
pub fn names_word(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| starts_word(text, at) && ends_word(text, at + name.len()))
}

/// The glue with every `wasm.OLD` of a renamed export said as `wasm.NEW`; each must be there at least once.
pub fn rename_calls_in_glue(glue: &str, renames: &[Rename]) -> Result<String, Error> {
    let mut at_old: Vec<(usize, &Rename)> = Vec::new();
    for rename in renames {
        let call = format!("wasm.{}", rename.old);
        let before = at_old.len();
        for (at, _) in glue.match_indices(call.as_str()) {
            if starts_word(glue, at) && ends_word(glue, at + call.len()) {
                at_old.push((at + "wasm.".len(), rename));
            }
        }
        if at_old.len() == before {
            return error(format!("the glue never calls `{call}`"));
        }
    }
    Ok(splice(glue, at_old))
}

/// `text` with each renamed name at its offset said by its new name.
fn splice(text: &str, mut at_old: Vec<(usize, &Rename)>) -> String {
    at_old.sort_by_key(|&(at, _)| at);
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (at, rename) in at_old {
        out.push_str(&text[from..at]);
        out.push_str(&rename.new);
        from = at + rename.old.len();
    }
    out.push_str(&text[from..]);
    out
}

/// The wasm and glue with short names, and what was renamed.
#[derive(Debug)]
pub struct Shortened {
    /// The new wasm module.
    pub wasm: Vec<u8>,
    /// The new glue.
    pub glue: String,
    /// The functions the wasm imports from the glue, renamed.
    pub imports: Vec<Rename>,
    /// The functions the glue calls in the wasm, renamed.
    pub exports: Vec<Rename>,
}

/// Gives the functions `wasm` imports from its glue (`module`) and those the glue calls in it short names,
/// in both. `others` (the other JS that reads the wasm's exports: the chunks' loader) are only checked:
/// none may name a renamed export. Refused when nothing is imported from `module`, or when either side
/// would still say an old name: an import anywhere in the glue, an export in quotes (`wasm["..."]`). The
/// glue's own function of an export's name, which calls it, is JS's and keeps its name.
pub fn shorten(wasm: &[u8], glue: &str, module: &str, others: &[&str]) -> Result<Shortened, Error> {
    let (wasm, imports) = shorten_imports(wasm, module)?;
    if imports.is_empty() {
        return error(format!("no function imported from {module}"));
    }
    let glue = rename_keys_in_glue(glue, &imports)?;
    let calls = glue_calls(&glue);
    let (wasm, exports) = shorten_exports(&wasm, |name| calls.binary_search(&name).is_ok())?;
    let glue = rename_calls_in_glue(&glue, &exports)?;
    let quoted = |name: &str| [format!("\"{name}\""), format!("'{name}'")].iter().any(|q| glue.contains(q.as_str()));
    let left = imports.iter().find(|r| names_word(&glue, &r.old)).or_else(|| exports.iter().find(|r| quoted(&r.old)));
    if let Some(left) = left {
        return error(format!("the glue still names {} after its renaming", left.old));
    }
    if let Some(named) = exports.iter().find(|e| others.iter().any(|other| names_word(other, &e.old))) {
        return error(format!("other JS names the export {}, which the glue alone was to call", named.old));
    }
    Ok(Shortened { wasm, glue, imports, exports })
}

#[cfg(test)]
mod tests;
