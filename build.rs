//! A build with the `split` feature keeps the linker's relocations in the page's wasm: wasm-split-cli
//! needs them to move the parts that come after the page into chunks (src/ui/split.rs).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let split = std::env::var_os("CARGO_FEATURE_SPLIT").is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    if split && wasm {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}
