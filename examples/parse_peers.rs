//! Parsing timed against fluent-uri and oxiri in one process, interleaved
//! round by round, each one's best round kept (see `resolve_peers`): single
//! `UriRef::parse`, the batch (`Batch::parse_lines`, all spans) and the
//! validating DFA over each bundled corpus, and over `../shared/data/urls`'
//! corpora when they are there. `cargo bench --bench parse` stays the
//! reference; this is the quick check while working.
//!
//!     cargo run --release --example parse_peers [ROUNDS]
use std::hint::black_box;

#[path = "../benches/support/race.rs"]
mod race;
use race::{race, Job};

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for path in [
        root.join("benches/data/kasztp.txt"),
        root.join("benches/data/node_files.txt"),
        root.join("../shared/data/urls/isaacs_files.txt"),
        root.join("../shared/data/urls/userbait.txt"),
    ] {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        let bytes: usize = lines.iter().map(|l| l.len()).sum();
        let buf = lines.join("\n").into_bytes();
        let parser = urilex::Parser::new();
        let mut batch = urilex::Batch::new();
        let mut jobs: Vec<(&str, Job)> = vec![
            (
                "fluent-uri",
                Box::new(|| {
                    lines
                        .iter()
                        .filter(|l| fluent_uri::UriRef::parse(black_box(**l)).is_ok())
                        .count()
                }),
            ),
            (
                "oxiri",
                Box::new(|| {
                    lines
                        .iter()
                        .filter(|l| oxiri::IriRef::parse(black_box(**l)).is_ok())
                        .count()
                }),
            ),
            (
                "urilex",
                Box::new(|| {
                    lines
                        .iter()
                        .filter(|l| urilex::UriRef::parse(black_box(**l)).is_ok())
                        .count()
                }),
            ),
            (
                "urilex-batch",
                Box::new(|| {
                    batch.parse_lines(&parser, black_box(&buf));
                    batch.len()
                }),
            ),
            (
                "urilex-validate-dfa",
                Box::new(|| {
                    lines
                        .iter()
                        .filter(|l| parser.is_valid(black_box(l.as_bytes())))
                        .count()
                }),
            ),
        ];
        let name = path.file_stem().unwrap().to_string_lossy();
        race(&name, (bytes, lines.len()), 3, rounds, &mut jobs);
    }
}
