//! The inputs of the parsing benchmarks and one timed round per
//! implementation: shared by `benches/parse.rs` and the `parse_peers`
//! example, so that both time the same work. Each round parses every line
//! and returns how many were valid, so nothing is optimized away.
#![allow(dead_code)]

use std::hint::black_box;
use std::path::Path;

/// The corpora as lines: the two in benches/data/ and, when present, the
/// two uncopyable ones in ../shared/data/urls/.
pub fn corpora() -> Vec<(String, Vec<String>)> {
    corpora_in(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// [`corpora`] of the repository at `root` (the parser benchmark's crate,
/// `peers/`, lies one below it).
pub fn corpora_in(root: &Path) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let local = root.join("benches/data");
    let shared = root.join("../shared/data/urls");
    for (dir, name) in [
        (&local, "kasztp"),
        (&local, "node_files"),
        (&shared, "isaacs_files"),
        (&shared, "userbait"),
    ] {
        if let Ok(text) = std::fs::read_to_string(dir.join(format!("{name}.txt"))) {
            out.push((name.to_string(), text.lines().map(str::to_string).collect()));
        }
    }
    out
}

/// How many lines `valid` accepts, each line hidden from the optimizer.
fn count(lines: &[String], valid: impl Fn(&str) -> bool) -> usize {
    lines
        .iter()
        .filter(|l| valid(black_box(l.as_str())))
        .count()
}

pub fn urilex(lines: &[String]) -> usize {
    count(lines, |l| urilex::UriRef::parse(l).is_ok())
}

pub fn urilex_dfa(parser: &urilex::Parser, lines: &[String]) -> usize {
    count(lines, |l| parser.is_valid(l.as_bytes()))
}

pub fn urilex_batch(parser: &urilex::Parser, batch: &mut urilex::Batch, buf: &[u8]) -> usize {
    batch.parse_lines(parser, black_box(buf));
    batch.len()
}

pub fn urilex_validate_lines(parser: &urilex::Parser, buf: &[u8]) -> usize {
    urilex::validate_lines(parser, black_box(buf)).valid
}

pub fn fluent(lines: &[String]) -> usize {
    count(lines, |l| fluent_uri::UriRef::parse(l).is_ok())
}

pub fn oxiri(lines: &[String]) -> usize {
    count(lines, |l| oxiri::IriRef::parse(l).is_ok())
}
