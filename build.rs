//! Compiles the grammars in `abnf/` into DFA tables (see `codegen/`).
//!
//! The reviewed copy of the generated file, `codegen/golden/tables.rs`,
//! records in its first line the hash of the grammars and generator sources
//! it came from. When the hash of the files here matches, that copy is the
//! output and the generator does not run (a dependent crate builds urilex in
//! seconds, where an unoptimized generator takes most of a minute); after
//! any edit of a grammar or of the generator, the hash differs and the
//! generator runs as always.

#[path = "codegen/mod.rs"]
mod codegen;

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let abnf = root.join("abnf");
    let golden = root.join("codegen/golden/tables.rs");
    println!("cargo:rerun-if-changed=abnf");
    println!("cargo:rerun-if-changed=codegen");
    println!("cargo:rerun-if-changed=src/scan/ranges.rs");
    println!("cargo:rerun-if-changed=src/engine/escape.rs");
    println!("cargo:rerun-if-env-changed=URILEX_REGENERATE");
    for f in codegen::inputs(&abnf).iter().chain([&golden]) {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("tables.rs");
    // URILEX_REGENERATE=1 always runs the generator (tests/codegen.rs
    // compares the two ways).
    let force = std::env::var_os("URILEX_REGENERATE").is_some_and(|v| v != "0");
    let hash = codegen::input_hash(&abnf);
    if !force {
        if let Ok(copy) = std::fs::read_to_string(&golden) {
            if codegen::recorded_hash(&copy) == Some(hash) {
                std::fs::write(&out, copy).expect("write generated tables");
                return;
            }
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
    std::fs::write(&out, src).expect("write generated tables");
}
