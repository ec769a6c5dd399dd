//! The grammar compiler: ABNF files in, Rust tables out.
//!
//! Each stage is a plain function in its own file, so that `build.rs` and the
//! tests (through `#[path]`) run the very same code:
//!
//! 1. [`abnf`]: ABNF text to syntax trees (RFC 5234).
//! 2. [`ir`]: resolved rules and the profiles declared by `;@` directives.
//! 3. [`nfa`]: Thompson NFAs over bytes, with error labels.
//! 4. [`dfa`]: byte classes, subset construction, minimization.
//! 5. [`program`]: the structure of a reference as a loop-free program over
//!    leaf DFAs, with the proof that longest matches are safe; and [`tdfa`]:
//!    the same program as a tagged DFA, for every span in one pass;
//!    [`bitprog`]: the same program over bitmaps of the line, each choice
//!    decided without backtracking (the fast path), written as code by
//!    [`fastemit`].
//! 6. [`emit`]: deterministic Rust source, one file of what every profile
//!    shares and one per profile (each behind its cargo feature).
//!
//! Two small modules are both generator and runtime: [`escape`] (the form
//! of a percent-escape that runs fold) and [`ranges`] (a byte set as
//! ranges, for the SSE2 kernel). The generator uses them, and `emit` copies
//! their source into the generated `tables.rs`, so the runtime compiles the
//! same text without reaching into this folder.
#![allow(dead_code)]

pub mod abnf;
pub mod bitprog;
pub mod dfa;
pub mod emit;
pub mod escape;
pub mod fastemit;
pub mod ir;
pub mod nfa;
pub mod program;
pub mod ranges;
pub mod tdfa;

use std::path::Path;

/// Compiles every profile in `dir`.
pub fn compile_dir(dir: &Path) -> Result<Vec<emit::Compiled>, abnf::GrammarError> {
    let specs = ir::load_profiles(dir)?;
    let mut out = Vec::new();
    for mut spec in specs {
        program::find_repeated(&mut spec)?;
        program::assign_slots(&mut spec)?;
        let mut pool = program::Pool::default();
        let nslots = spec.nslots();
        let build = |rules: &[usize], pool: &mut program::Pool| -> Result<_, abnf::GrammarError> {
            let n = nfa::from_rules(&spec.grammar, Some(&spec), rules);
            let d = dfa::build(&n, true);
            let p = program::compile(&spec, pool, rules)?;
            let t = tdfa::build(&p, pool, nslots);
            if !p.exact && t.is_none() {
                let r = &spec.grammar.rules[rules[0]];
                return Err(abnf::GrammarError {
                    file: r.file.clone(),
                    line: r.line,
                    message: format!(
                        "rule `{}`: a part can take bytes of what follows it, so its parse \
                         needs a tagged DFA, and this one is over the generator's size limit",
                        r.name
                    ),
                });
            }
            Ok((d, p, t))
        };
        let mut entries = Vec::new();
        for (name, r) in &spec.entries {
            entries.push((name.clone(), build(&[*r], &mut pool)?));
        }
        let mut schemes = Vec::new();
        for (name, r) in &spec.schemes {
            schemes.push((name.clone(), build(&[*r], &mut pool)?));
        }
        let mut parts = Vec::new();
        for index in 0..spec.nparts() {
            parts.push(match spec.part_at(index) {
                Some(p) if !p.hidden => Some(build(&p.rules, &mut pool)?),
                _ => None,
            });
        }
        // One program per region rule, for the repeated parts' occurrences.
        let mut regions: Vec<(usize, usize, program::Program)> = Vec::new();
        let wanted: Vec<(usize, usize)> = spec.parts.iter().filter_map(|p| p.region).collect();
        for (slot, rule) in wanted {
            if !regions.iter().any(|(r, _, _)| *r == rule) {
                let prog = program::compile_region(&spec, &mut pool, rule)?;
                regions.push((rule, slot, prog));
            }
        }
        out.push(emit::Compiled {
            spec,
            pool,
            entries,
            schemes,
            parts,
            regions,
        });
    }
    Ok(out)
}

/// The generated files for every profile in `dir` as (file name, text):
/// `tables.rs` first, headed by the hash of what it was generated from
/// (see [`input_hash`]), then one file per profile.
pub fn generate(dir: &Path) -> Result<Vec<(String, String)>, abnf::GrammarError> {
    let mut files = emit::emit(&compile_dir(dir)?);
    files[0].1.insert_str(0, &hash_line(input_hash(dir)));
    Ok(files)
}

/// The profile files a generated `tables.rs` includes, in order.
pub fn included_files(tables: &str) -> Vec<String> {
    tables
        .lines()
        .filter_map(|l| {
            let rest = l.split("include!(concat!(env!(\"OUT_DIR\"), \"/").nth(1)?;
            Some(rest.split('"').next()?.to_string())
        })
        .collect()
}

/// The first line of a generated file: the hash of its inputs.
pub fn hash_line(hash: u64) -> String {
    format!("// urilex-input-hash: {hash:016x}\n")
}

/// The hash a generated file records in its first line, if it has one.
pub fn recorded_hash(generated: &str) -> Option<u64> {
    let line = generated.lines().next()?;
    u64::from_str_radix(line.strip_prefix("// urilex-input-hash: ")?, 16).ok()
}

/// The files a generation depends on: the grammars in `abnf` and the
/// generator's own sources (`../codegen/*.rs`), in a fixed order.
pub fn inputs(abnf: &Path) -> Vec<std::path::PathBuf> {
    let root = abnf.parent().unwrap_or(abnf);
    let mut files = Vec::new();
    for (dir, ext) in [(abnf.to_path_buf(), "abnf"), (root.join("codegen"), "rs")] {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                let p = e.path();
                if p.is_file() && p.extension().is_some_and(|x| x == ext) {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    files
}

/// FNV-1a (64 bits) over each input's name and bytes: enough to notice
/// that a grammar or the generator changed since a file was generated (it
/// guards against edits, not against an adversary). A missing file hashes
/// as empty, so the result is still defined.
pub fn input_hash(abnf: &Path) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for f in inputs(abnf) {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read(&f).unwrap_or_default();
        eat(name.as_bytes());
        eat(&(text.len() as u64).to_le_bytes());
        eat(&text);
    }
    h
}
