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
//!    the same program as a tagged DFA, for every span in one pass.
//! 6. [`emit`]: deterministic Rust source.
#![allow(dead_code)]

pub mod abnf;
pub mod dfa;
pub mod emit;
pub mod ir;
pub mod nfa;
pub mod program;
pub mod tdfa;

use std::path::Path;

/// Compiles every profile in `dir`.
pub fn compile_dir(dir: &Path) -> Result<Vec<emit::Compiled>, abnf::GrammarError> {
    let specs = ir::load_profiles(dir)?;
    let mut out = Vec::new();
    for mut spec in specs {
        program::find_repeated(&mut spec)?;
        let mut pool = program::Pool::default();
        let nslots = spec.nslots();
        let build = |rules: &[usize], pool: &mut program::Pool| -> Result<_, abnf::GrammarError> {
            let n = nfa::from_rules(&spec.grammar, Some(&spec), rules);
            let d = dfa::build(&n, true);
            let p = program::compile(&spec, pool, rules)?;
            let t = tdfa::build(&p, pool, nslots);
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

/// The Rust source of the tables for every profile in `dir`.
pub fn generate(dir: &Path) -> Result<String, abnf::GrammarError> {
    Ok(emit::emit(&compile_dir(dir)?))
}
