//! Compiles the grammars in `abnf/` into DFA tables (see `codegen/`).
//!
//! The reviewed copy of the generated files, `codegen/golden/`, records in
//! the first line of its `tables.rs` the hash of the grammars and generator
//! sources it came from. When the hash of the files here matches, that copy
//! is the output and the generator does not run (a dependent crate builds
//! urilex in seconds, where an unoptimized generator takes most of a
//! minute); after any edit of a grammar or of the generator, the hash
//! differs and the generator runs as always.
//!
//! Every profile's file is written whatever the features; `tables.rs`
//! includes a profile's file only when its cargo feature is on, so the
//! compiler never reads the others.

#[path = "codegen/mod.rs"]
mod codegen;

use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let abnf = root.join("abnf");
    let golden = root.join("codegen/golden");
    println!("cargo:rerun-if-changed=abnf");
    println!("cargo:rerun-if-changed=codegen");
    println!("cargo:rerun-if-env-changed=URILEX_REGENERATE");
    for f in codegen::inputs(&abnf) {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    // URILEX_REGENERATE=1 always runs the generator (tests/codegen.rs
    // compares the two ways).
    let force = std::env::var_os("URILEX_REGENERATE").is_some_and(|v| v != "0");
    let hash = codegen::input_hash(&abnf);
    if !force && copy_golden(&golden, &out, hash) {
        return;
    }
    let files = match codegen::generate(&abnf) {
        Ok(files) => files,
        Err(e) => {
            // Fail loudly, pointing at the grammar file and line.
            eprintln!("error: abnf/{e}");
            println!("cargo:warning=grammar error: abnf/{e}");
            std::process::exit(1);
        }
    };
    for (name, text) in files {
        std::fs::write(out.join(name), text).expect("write generated tables");
    }
}

/// Copies the reviewed files to `out` when their recorded hash is `hash`
/// and every file `tables.rs` includes is there; false otherwise.
fn copy_golden(golden: &Path, out: &Path, hash: u64) -> bool {
    let Ok(tables) = std::fs::read_to_string(golden.join("tables.rs")) else {
        return false;
    };
    if codegen::recorded_hash(&tables) != Some(hash) {
        return false;
    }
    let mut files = vec![(String::from("tables.rs"), tables.clone())];
    for name in codegen::included_files(&tables)
        .into_iter()
        .chain([String::from("ranges.rs")])
    {
        match std::fs::read_to_string(golden.join(&name)) {
            Ok(text) => files.push((name, text)),
            Err(_) => return false,
        }
    }
    for (name, text) in files {
        std::fs::write(out.join(name), text).expect("write generated tables");
    }
    true
}
