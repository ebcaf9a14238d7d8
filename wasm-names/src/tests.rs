//! The renaming of imports and exports, on modules built byte by byte and on glue text.

use super::*;

const GLUE: &str = "./streamscope_bg.js";

fn section(id: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![id];
    write_u32(&mut out, body.len() as u32);
    out.extend_from_slice(body);
    out
}

fn import(module: &str, name: &str, description: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    write_name(&mut out, module);
    write_name(&mut out, name);
    out.extend_from_slice(description);
    out
}

/// A module with a type section and a section `id` of the entries given.
fn module_with(id: u8, entries: &[Vec<u8>]) -> Vec<u8> {
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.extend(section(1, &[1, 0x60, 0, 0]));
    let mut body = Vec::new();
    write_u32(&mut body, entries.len() as u32);
    entries.iter().for_each(|e| body.extend_from_slice(e));
    wasm.extend(section(id, &body));
    wasm
}

/// A module with a type section, the imports given, and a custom section after them.
fn module(imports: &[Vec<u8>]) -> Vec<u8> {
    let mut wasm = module_with(IMPORT_SECTION, imports);
    wasm.extend(section(0, CUSTOM));
    wasm
}

/// The body of `wasm`'s section `id` (empty when it has none).
fn section_body(wasm: &[u8], id: u8) -> &[u8] {
    let mut r = Reader { bytes: wasm, at: 8 };
    while !r.done() {
        let (section_id, len) = (r.byte().unwrap(), r.u32().unwrap() as usize);
        let body = r.take(len).unwrap();
        if section_id == id {
            return body;
        }
    }
    &[]
}

/// A custom section's body (a name and bytes).
const CUSTOM: &[u8] = b"\x04nameand more";

/// The module and name of every import of `wasm`, read back.
fn import_names(wasm: &[u8]) -> Vec<(String, String)> {
    let mut r = Reader { bytes: section_body(wasm, IMPORT_SECTION), at: 0 };
    let names = (0..r.u32().unwrap())
        .map(|_| {
            let names = (r.name().unwrap().to_owned(), r.name().unwrap().to_owned());
            let kind = r.byte().unwrap();
            skip_description(&mut r, kind).unwrap();
            names
        })
        .collect();
    assert!(r.done());
    names
}

fn renamed(old: &str, new: &str) -> Rename {
    Rename { old: old.into(), new: new.into() }
}

#[test]
fn short_names_count_in_letters() {
    let names: Vec<String> = [0, 1, 25, 26, 51, 52, 53, 103, 104, 52 + 52 * 52].map(short_name).into();
    assert_eq!(names, ["a", "b", "z", "A", "Z", "aa", "ab", "aZ", "ba", "aaa"]);
    let first_3000: std::collections::HashSet<String> = (0..3000).map(short_name).collect();
    assert_eq!(first_3000.len(), 3000, "no name twice");
}

#[test]
fn glue_functions_get_short_names_and_everything_else_stays() {
    let wasm = module(&[
        import(GLUE, "__wbg_body_5f971cbc6950ca4f", &[0x00, 0]),
        import("__wasm_split", "memory", &[0x02, 0x01, 17, 0x80, 0x02]),
        import(GLUE, "a", &[0x03, 0x7f, 0x01]),
        import(GLUE, "__wbg_new_bb74001155cb8ca8", &[0x00, 0]),
        import("__wasm_split", "__indirect_function_table", &[0x01, 0x70, 0x00, 3]),
        import(GLUE, "__wbindgen_init_externref_table", &[0x00, 0]),
        import("./__wasm_split.js", "__wasm_split_load_after", &[0x00, 0]),
    ]);
    let (new, renames) = shorten_imports(&wasm, GLUE).unwrap();
    assert_eq!(
        renames,
        [
            renamed("__wbg_body_5f971cbc6950ca4f", "b"),
            renamed("__wbg_new_bb74001155cb8ca8", "c"),
            renamed("__wbindgen_init_externref_table", "d")
        ],
        "`a` is taken by a global of the glue, which keeps its name, as another module's function does"
    );
    let names: Vec<(String, String)> = import_names(&new);
    let expected = [
        (GLUE, "b"),
        ("__wasm_split", "memory"),
        (GLUE, "a"),
        (GLUE, "c"),
        ("__wasm_split", "__indirect_function_table"),
        (GLUE, "d"),
        ("./__wasm_split.js", "__wasm_split_load_after"),
    ]
    .map(|(m, n)| (m.to_owned(), n.to_owned()));
    assert_eq!(names, expected);
    let saved = ["__wbg_body_5f971cbc6950ca4f", "__wbg_new_bb74001155cb8ca8", "__wbindgen_init_externref_table"]
        .map(|old| old.len() - 1)
        .iter()
        .sum::<usize>();
    assert_eq!(new.len(), wasm.len() - saved);
    assert!(new.starts_with(&wasm[..14]), "the header and type section are the same bytes");
    assert!(new.ends_with(&section(0, CUSTOM)), "a custom section after the imports is kept");
}

#[test]
fn a_module_without_imports_is_the_same_bytes() {
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.extend(section(1, &[1, 0x60, 0, 0]));
    assert_eq!(shorten_imports(&wasm, GLUE).unwrap(), (wasm, vec![]));
}

#[test]
fn what_it_cannot_read_is_refused() {
    assert!(shorten_imports(b"\0asm\x02\0\0\0", GLUE).is_err(), "another version");
    assert!(shorten_imports(b"<html>", GLUE).is_err());
    let unknown_kind = module(&[import(GLUE, "__wbg_x", &[0x09, 0])]);
    assert_eq!(shorten_imports(&unknown_kind, GLUE).unwrap_err().0, "an import of an unknown kind 0x09");
    let whole = module(&[import(GLUE, "__wbg_x", &[0x00, 0])]);
    assert!(shorten_imports(&whole, GLUE).is_ok());
    let cut = &whole[..whole.len() - section(0, CUSTOM).len() - 1];
    assert!(shorten_imports(cut, GLUE).is_err(), "a module cut inside its imports");
    let mut extra = Vec::new();
    write_u32(&mut extra, 1);
    extra.extend(import(GLUE, "__wbg_x", &[0x00, 0, 0xff]));
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.extend(section(2, &extra));
    assert!(shorten_imports(&wasm, GLUE).is_err(), "bytes after the last import");
}

#[test]
fn the_glue_says_each_key_by_its_new_name() {
    let glue = "const import0 = {\n    __proto__: null,\n    __wbg_get_2080c49015e35254: function(arg0) { return arg0; },\n    \
                __wbg_body_5f971cbc6950ca4f: function() { return document.body; },\n};\nwasm.__wbindgen_malloc(1);";
    let renames = [renamed("__wbg_body_5f971cbc6950ca4f", "b"), renamed("__wbg_get_2080c49015e35254", "a")];
    assert_eq!(
        rename_keys_in_glue(glue, &renames).unwrap(),
        "const import0 = {\n    __proto__: null,\n    a: function(arg0) { return arg0; },\n    \
         b: function() { return document.body; },\n};\nwasm.__wbindgen_malloc(1);"
    );
}

#[test]
fn a_key_missing_twice_or_inside_a_longer_name_fails_the_build() {
    let rename = [renamed("__wbg_get_1", "a")];
    assert!(rename_keys_in_glue("{ __wbg_set_1: f }", &rename).is_err(), "missing");
    assert!(rename_keys_in_glue("{ __wbg_get_1: f, __wbg_get_1: g }", &rename).is_err(), "twice");
    assert!(rename_keys_in_glue("{ x__wbg_get_1: f }", &rename).is_err(), "inside a longer name");
    assert!(rename_keys_in_glue("{ f(__wbg_get_1) }", &rename).is_err(), "not a key");
    assert_eq!(rename_keys_in_glue("{ __wbg_get_1: f } // __wbg_get_1 ", &rename).unwrap(), "{ a: f } // __wbg_get_1 ");
}

fn export(name: &str, kind: u8, index: u32) -> Vec<u8> {
    let mut out = Vec::new();
    write_name(&mut out, name);
    out.push(kind);
    write_u32(&mut out, index);
    out
}

/// The name and kind of every export of `wasm`, read back.
fn export_names(wasm: &[u8]) -> Vec<(String, u8)> {
    let mut r = Reader { bytes: section_body(wasm, EXPORT_SECTION), at: 0 };
    let names = (0..r.u32().unwrap())
        .map(|_| {
            let name = (r.name().unwrap().to_owned(), r.byte().unwrap());
            r.u32().unwrap();
            name
        })
        .collect();
    assert!(r.done());
    names
}

#[test]
fn the_glue_reads_the_exports_it_names_after_wasm_dot() {
    let glue = "const ptr = wasm.__wbindgen_malloc(len, 1);\nwasm.__wbindgen_malloc(2);\n\
                ret = wasm.memory.buffer; mywasm.not_this(); wasm.invoke__h5a_15(a);\nwasm.";
    assert_eq!(glue_calls(glue), ["__wbindgen_malloc", "invoke__h5a_15", "memory"]);
}

#[test]
fn functions_the_glue_calls_get_short_names_and_the_rest_keep_theirs() {
    let wasm = module_with(EXPORT_SECTION, &[
        export("main", 0x00, 5),
        export("__wbindgen_malloc", 0x00, 6),
        export("memory", 0x02, 0),
        export("a", 0x00, 7),
        export("__indirect_function_table", 0x01, 0),
        export("__wasm_split_shared0", 0x03, 1),
        export("wasm_bindgen__convert__closures_____invoke__h5a612d84c741c5c0_15", 0x00, 8),
    ]);
    let glue = "wasm.__wbindgen_malloc(1); wasm.memory; wasm.__wasm_split_shared0; \
                wasm.wasm_bindgen__convert__closures_____invoke__h5a612d84c741c5c0_15(x); wasm.__wbindgen_malloc(2);";
    let calls = glue_calls(glue);
    let (new, renames) = shorten_exports(&wasm, |name| calls.contains(&name)).unwrap();
    assert_eq!(
        renames,
        [
            renamed("__wbindgen_malloc", "b"),
            renamed("wasm_bindgen__convert__closures_____invoke__h5a612d84c741c5c0_15", "c")
        ],
        "`a` is an export the glue does not call, and keeps its name; so do the memory, table and global"
    );
    let names = export_names(&new);
    let expected = [
        ("main", 0x00),
        ("b", 0x00),
        ("memory", 0x02),
        ("a", 0x00),
        ("__indirect_function_table", 0x01),
        ("__wasm_split_shared0", 0x03),
        ("c", 0x00),
    ]
    .map(|(n, k)| (n.to_owned(), k));
    assert_eq!(names, expected);
    assert_eq!(
        rename_calls_in_glue(glue, &renames).unwrap(),
        "wasm.b(1); wasm.memory; wasm.__wasm_split_shared0; wasm.c(x); wasm.b(2);"
    );
}

#[test]
fn an_export_the_glue_does_not_call_or_cannot_be_read_fails_the_build() {
    let rename = [renamed("__wbindgen_free", "a")];
    assert!(rename_calls_in_glue("wasm.__wbindgen_free_all(1); my_wasm.__wbindgen_free(2);", &rename).is_err());
    assert_eq!(rename_calls_in_glue("wasm.__wbindgen_free(1)", &rename).unwrap(), "wasm.a(1)");
    let unknown_kind = module_with(EXPORT_SECTION, &[export("x", 0x07, 0)]);
    assert_eq!(shorten_exports(&unknown_kind, |_| true).unwrap_err().0, "an export of an unknown kind 0x07");
    let mut extra = Vec::new();
    write_u32(&mut extra, 1);
    extra.extend(export("x", 0x00, 0));
    extra.push(0);
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.extend(section(7, &extra));
    assert!(shorten_exports(&wasm, |_| true).is_err(), "bytes after the last export");
}

#[test]
fn a_name_is_found_as_a_word_only() {
    let loader = "const { __indirect_function_table, __wasm_split_shared0, memory } = initSync(undefined);";
    assert!(names_word(loader, "memory"));
    assert!(names_word(loader, "__wasm_split_shared0"));
    assert!(!names_word(loader, "__wasm_split_shared"));
    assert!(!names_word(loader, "Sync"));
    assert!(!names_word("", "memory"));
}

/// A module importing two glue functions and exporting one the glue calls, with its glue.
fn wasm_and_glue() -> (Vec<u8>, String) {
    let mut wasm = module(&[
        import(GLUE, "__wbg_body_5f971cbc6950ca4f", &[0x00, 0]),
        import(GLUE, "__wbindgen_throw_4c88d8bf264fd984", &[0x00, 0]),
    ]);
    let mut exports = Vec::new();
    write_u32(&mut exports, 2);
    exports.extend(export("__wbindgen_malloc", 0x00, 2));
    exports.extend(export("memory", 0x02, 0));
    wasm.extend(section(EXPORT_SECTION, &exports));
    let glue = "const import0 = { __wbg_body_5f971cbc6950ca4f: function() { return document.body; },\n\
                __wbindgen_throw_4c88d8bf264fd984: function(p, n) { throw new Error(getString(p, n)); } };\n\
                function __wbindgen_malloc(n) { return wasm.__wbindgen_malloc(n, 1); }\nwasm.memory.buffer;";
    (wasm, glue.to_owned())
}

#[test]
fn both_sides_are_renamed_together() {
    let (wasm, glue) = wasm_and_glue();
    let loader = "const { __indirect_function_table, __wasm_split_shared0, memory } = initSync();";
    let short = shorten(&wasm, &glue, GLUE, &[loader]).unwrap();
    assert_eq!(short.imports.len(), 2);
    assert_eq!(short.exports, [renamed("__wbindgen_malloc", "a")]);
    assert_eq!(
        short.glue,
        "const import0 = { a: function() { return document.body; },\nb: function(p, n) { throw new Error(getString(p, n)); } };\n\
         function __wbindgen_malloc(n) { return wasm.a(n, 1); }\nwasm.memory.buffer;",
        "the glue's own function of the export's name keeps it"
    );
    assert_eq!(import_names(&short.wasm)[1], (GLUE.to_owned(), "b".to_owned()));
    assert_eq!(export_names(&short.wasm), [("a".to_owned(), 0x00), ("memory".to_owned(), 0x02)]);
}

#[test]
fn a_name_that_would_be_left_behind_fails_the_build() {
    let (wasm, glue) = wasm_and_glue();
    let quoted = format!("{glue}\nReflect.get(wasm, \"__wbindgen_malloc\");");
    assert!(shorten(&wasm, &quoted, GLUE, &[]).unwrap_err().0.contains("still names __wbindgen_malloc"));
    let loader_calls = "const { __wbindgen_malloc } = initSync();";
    assert!(shorten(&wasm, &glue, GLUE, &[loader_calls]).unwrap_err().0.contains("names the export __wbindgen_malloc"));
    assert_eq!(shorten(&wasm, &glue, "./other_bg.js", &[]).unwrap_err().0, "no function imported from ./other_bg.js");
}

/// Glue as wasm-bindgen writes it for one exported class, between other code.
const CLASS_GLUE: &str = "import * as import1 from \"./__wasm_split.js\"\n\n\
export class IntoUnderlyingSink {\n    __destroy_into_raw() {\n        const ptr = this.__wbg_ptr;\n        this.__wbg_ptr = 0;\n        IntoUnderlyingSinkFinalization.unregister(this);\n        return ptr;\n    }\n    free() {\n        const ptr = this.__destroy_into_raw();\n        wasm.__wbg_intounderlyingsink_free(ptr, 0);\n    }\n    write(chunk) {\n        const ret = wasm.intounderlyingsink_write(this.__wbg_ptr, chunk);\n        return ret;\n    }\n}\n\
if (Symbol.dispose) IntoUnderlyingSink.prototype[Symbol.dispose] = IntoUnderlyingSink.prototype.free;\n\n\
function keep() { return wasm.main(); }\n\
const IntoUnderlyingSinkFinalization = (typeof FinalizationRegistry === 'undefined')\n    ? { register: () => {}, unregister: () => {} }\n    : new FinalizationRegistry(ptr => wasm.__wbg_intounderlyingsink_free(ptr, 1));\n\
export { initSync, __wbg_init as default };\n";

fn class_module() -> Vec<u8> {
    module_with(EXPORT_SECTION, &[
        export("main", 0x00, 0),
        export("__wbg_intounderlyingsink_free", 0x00, 1),
        export("memory", 0x02, 0),
        export("intounderlyingsink_write", 0x00, 2),
        export("intounderlyingsinkextra_write", 0x00, 3),
    ])
}

#[test]
fn an_unused_class_leaves_the_glue_and_its_exports_the_wasm() {
    let dropped = drop_classes(&class_module(), CLASS_GLUE, &["IntoUnderlyingSink"], &["import init from './glue.js';"]).unwrap();
    assert_eq!(dropped.exports, ["__wbg_intounderlyingsink_free", "intounderlyingsink_write"]);
    assert_eq!(
        export_names(&dropped.wasm),
        [("main".into(), 0x00), ("memory".into(), 0x02), ("intounderlyingsinkextra_write".into(), 0x00)],
        "another name that only starts like the class stays"
    );
    assert_eq!(
        dropped.glue,
        "import * as import1 from \"./__wasm_split.js\"\n\n\nfunction keep() { return wasm.main(); }\nexport { initSync, __wbg_init as default };\n"
    );
    // Every other section is as it was.
    assert_eq!(section_body(&dropped.wasm, 1), section_body(&class_module(), 1));
}

#[test]
fn a_class_the_page_uses_or_that_is_not_there_is_refused() {
    let wasm = class_module();
    let refused = |glue: &str, classes: &[&str], others: &[&str]| drop_classes(&wasm, glue, classes, others).unwrap_err().0;
    // The wasm makes one: the glue wraps what an import returns.
    let wrapped = format!("{CLASS_GLUE}function make(ptr) {{ return IntoUnderlyingSink.__wrap(ptr); }}\n");
    assert!(refused(&wrapped, &["IntoUnderlyingSink"], &[]).contains("still names IntoUnderlyingSink"));
    // Other JS uses it.
    let loader = "import { IntoUnderlyingSink } from './glue.js';";
    assert!(refused(CLASS_GLUE, &["IntoUnderlyingSink"], &[loader]).contains("other JS names IntoUnderlyingSink"));
    // A class the glue does not define, or whose registry is missing.
    assert!(refused(CLASS_GLUE, &["IntoUnderlyingSource"], &[]).contains("exactly once"));
    let no_registry = CLASS_GLUE.replace("const IntoUnderlyingSinkFinalization = ", "const Other = ");
    assert!(refused(&no_registry, &["IntoUnderlyingSink"], &[]).contains("exactly once"));
    // A class with no export in the wasm (wasm-bindgen changed how it names them).
    let bare = module_with(EXPORT_SECTION, &[export("main", 0x00, 0)]);
    assert!(drop_classes(&bare, CLASS_GLUE, &["IntoUnderlyingSink"], &[]).unwrap_err().0.contains("exports nothing"));
    // An export of the class the glue still calls elsewhere.
    let called = format!("{CLASS_GLUE}function other(p) {{ return wasm.intounderlyingsink_write(p, 0); }}\n");
    assert!(refused(&called, &["IntoUnderlyingSink"], &[]).contains("still calls wasm.intounderlyingsink_write"));
}
