//! The library's modules depend on each other without a circle: each
//! top-level module of `src/` (a file or a folder) may use the ones below
//! it, never one that uses it back. Read from the sources (`crate::NAME`
//! paths and `use crate::{...}` lists, test code left out), with the crate
//! root's re-exports traced to the module they come from.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The code of a file without its comments and its `#[cfg(test)]` tail.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names `code` reaches through `super::` paths, each with how many
/// `super::` it goes up (`super::super::skip::x` is `(2, "skip")`; a
/// `super::{a, b}` list gives each name).
fn super_paths(code: &str) -> Vec<(usize, String)> {
    let mut used = Vec::new();
    for (at, _) in code.match_indices("super::") {
        // Each path once, from its first `super::`.
        if code[..at].ends_with("super::") {
            continue;
        }
        let mut rest = &code[at..];
        let mut ups = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            rest = r;
            ups += 1;
        }
        if let Some(list) = rest.strip_prefix('{') {
            for w in words(list.split('}').next().unwrap_or("")) {
                used.push((ups, w.to_string()));
            }
        } else if let Some(w) = words(rest).next() {
            used.push((ups, w.to_string()));
        }
    }
    used
}

/// Fails when some node of `deps` reaches itself.
fn assert_no_circle(
    nodes: &BTreeSet<String>,
    deps: &BTreeMap<String, BTreeSet<String>>,
    what: &str,
) {
    for m in nodes {
        let mut seen = BTreeSet::new();
        let mut stack = vec![m.clone()];
        while let Some(x) = stack.pop() {
            for y in deps.get(&x).into_iter().flatten() {
                assert!(
                    y != m,
                    "{what}`{m}` depends on itself through `{x}`: {deps:?}"
                );
                if seen.insert(y.clone()) {
                    stack.push(y.clone());
                }
            }
        }
    }
}

/// The top-level modules of the crate whose sources are in `src` (root
/// file `root`), and which of them each uses.
fn module_deps(src: &Path, root: &str) -> (BTreeSet<String>, BTreeMap<String, BTreeSet<String>>) {
    let lib = std::fs::read_to_string(src.join(root)).unwrap();
    let mut modules = BTreeSet::new();
    let mut reexport: BTreeMap<String, String> = BTreeMap::new();
    for line in lib.lines().map(str::trim) {
        let line = line.strip_prefix("pub ").unwrap_or(line);
        if let Some(m) = line.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) {
            modules.insert(m.to_string());
        }
        if let Some(rest) = line.strip_prefix("use ") {
            let mut w = words(rest);
            if let Some(m) = w.next() {
                for name in w {
                    reexport.insert(name.to_string(), m.to_string());
                }
            }
        }
    }
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut all = Vec::new();
    files(src, &mut all);
    for f in all {
        let rel = f.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let m = first.trim_end_matches(".rs").to_string();
        if !modules.contains(&m) || rel.ends_with("tests.rs") {
            continue;
        }
        let text = code(&std::fs::read_to_string(&f).unwrap());
        let mut used = Vec::new();
        for part in text.split("crate::").skip(1) {
            if let Some(list) = part.strip_prefix('{') {
                used.extend(words(list.split('}').next().unwrap_or("")).map(String::from));
            } else if let Some(w) = words(part).next() {
                used.push(w.to_string());
            }
        }
        for u in used {
            let target = if modules.contains(&u) {
                Some(u)
            } else {
                reexport.get(&u).cloned()
            };
            if let Some(t) = target.filter(|t| *t != m) {
                deps.entry(m.clone()).or_default().insert(t);
            }
        }
    }
    (modules, deps)
}

#[test]
fn no_module_depends_on_itself_through_others() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (modules, deps) = module_deps(&src, "lib.rs");
    assert!(modules.len() >= 8, "{modules:?}");
    assert_no_circle(&modules, &deps, "module ");
    // The two ends of the stack: the kernels know nothing else of the
    // crate, and the engine knows no references, errors or batches.
    assert!(deps.get("scan").is_none_or(|d| d.is_empty()), "{deps:?}");
    let engine = deps.get("engine").cloned().unwrap_or_default();
    assert!(
        engine.iter().all(|d| d == "scan" || d == "steps"),
        "{engine:?}"
    );
}

/// The log pipeline (`urilex-io`) and the command (`urilex-cli`) too: no
/// module of either uses itself through others.
#[test]
fn io_and_cli_modules_depend_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (dir, file, at_least) in [("io/src", "lib.rs", 12), ("cli/src", "main.rs", 6)] {
        let (modules, deps) = module_deps(&root.join(dir), file);
        assert!(modules.len() >= at_least, "{dir}: {modules:?}");
        assert_no_circle(&modules, &deps, &format!("{dir}: module "));
    }
}

/// Inside the engine, the files depend on each other one way too, read
/// the same way (`super::NAME` paths and `use super::{...}` lists), with
/// the generated files counted as `tables.rs`, which includes them:
/// `line.rs` (what the generated fast paths read and write) at the bottom,
/// `tables.rs` (the generated tables and the types they are written in)
/// over it, the runners (`run.rs`) and the bitmap loops (`bits.rs`) above.
/// And no engine file names the batch, its records or anything above.
#[test]
fn engine_files_depend_one_way() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let mut names = BTreeSet::new();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("mod.rs") {
            names.insert(p.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    assert!(names.len() >= 4, "{names:?}");
    let generated: String = std::fs::read_dir(env!("OUT_DIR"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(
        generated.contains("fn P"),
        "the generated files are in OUT_DIR"
    );
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for n in &names {
        let mut text = code(&std::fs::read_to_string(dir.join(format!("{n}.rs"))).unwrap());
        if n == "tables" {
            text.push_str(&code(&generated));
        }
        for forbidden in [
            "crate::batch",
            "crate::uri",
            "crate::extract",
            "Record",
            "Batch",
        ] {
            assert!(
                !text.contains(forbidden),
                "engine/{n}.rs (or the generated code) names `{forbidden}`"
            );
        }
        let used = super_paths(&text).into_iter().map(|(_, w)| w);
        for u in used {
            if names.contains(&u) && u != *n {
                deps.entry(n.clone()).or_default().insert(u);
            }
        }
    }
    assert_no_circle(&names, &deps, "engine file ");
    // The bottom knows no other engine file; the tables know only it.
    assert!(deps.get("line").is_none_or(|d| d.is_empty()), "{deps:?}");
    let tables = deps.get("tables").cloned().unwrap_or_default();
    assert!(tables.iter().all(|d| d == "line"), "{deps:?}");
}

/// The kernels' files (`src/scan`) depend one way too, read by their
/// `super::` paths: the scalar families (`skip.rs`, `rows.rs`, ...) reach
/// an architecture's kernels through its `mod.rs`, and each kernel file
/// (`x86_64/skip.rs`, `aarch64/skip.rs`) uses its scalar twin's family,
/// never the other way round within one file.
#[test]
fn scan_files_depend_one_way() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scan");
    let mut all = Vec::new();
    files(&dir, &mut all);
    // A file's node: `skip` for scan/skip.rs, `x86_64` for its mod.rs,
    // `x86_64/skip` for the files beside that.
    let node = |p: &Path| -> String {
        let rel = p.strip_prefix(&dir).unwrap().with_extension("");
        let s = rel.to_string_lossy().into_owned();
        s.strip_suffix("/mod").map(String::from).unwrap_or(s)
    };
    let names: BTreeSet<String> = all.iter().map(|p| node(p)).collect();
    assert!(
        names.contains("aarch64") && names.contains("x86_64/skip"),
        "{names:?}"
    );
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for p in &all {
        let n = node(p);
        // The folder whose children `super::NAME` names.
        let nested = p.parent().unwrap() != dir && !p.ends_with("mod.rs");
        let here = n.split('/').next().unwrap().to_string();
        let text = code(&std::fs::read_to_string(p).unwrap());
        // `super::X` in a nested file is a sibling (or the folder's
        // mod.rs); `super::super::X` there, or `super::X` in a file of
        // scan itself, is scan's X.
        let used = super_paths(&text)
            .into_iter()
            .map(|(ups, w)| (nested && ups == 1, w));
        for (in_folder, u) in used {
            let target = if in_folder {
                let sib = format!("{here}/{u}");
                if names.contains(&sib) {
                    sib
                } else {
                    here.clone()
                }
            } else if names.contains(&u) {
                u
            } else {
                continue;
            };
            if target != n {
                deps.entry(n.clone()).or_default().insert(target);
            }
        }
    }
    assert_no_circle(&names, &deps, "scan file ");
}
