//! Compiles the grammars in `abnf/` into DFA tables (see `codegen/`).

#[path = "codegen/mod.rs"]
mod codegen;

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let abnf = root.join("abnf");
    println!("cargo:rerun-if-changed=abnf");
    println!("cargo:rerun-if-changed=codegen");
    println!("cargo:rerun-if-changed=src/scan/ranges.rs");
    if let Ok(entries) = std::fs::read_dir(&abnf) {
        for e in entries.flatten() {
            println!("cargo:rerun-if-changed={}", e.path().display());
        }
    }
    let src = match codegen::generate(&abnf) {
        Ok(src) => src,
        Err(e) => {
            // Fail loudly, pointing at the grammar file and line.
            eprintln!("error: abnf/{e}");
            println!("cargo:warning=grammar error: abnf/{e}");
            std::process::exit(1);
        }
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("tables.rs");
    std::fs::write(&out, src).expect("write generated tables");
}
