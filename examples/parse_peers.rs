//! Parsing timed against fluent-uri and oxiri in one process, interleaved
//! round by round, each one's best round kept (see `resolve_peers`): single
//! `UriRef::parse`, the batch (`Batch::parse_lines`, all spans) and the
//! validating DFA over each bundled corpus, and over `../shared/data/urls`'
//! corpora when they are there. The corpora and the rounds are the
//! benchmark's own (`benches/support/parsing.rs`); `cargo bench --bench
//! parse` stays the reference, this is the quick check while working.
//!
//!     cargo run --release --example parse_peers [ROUNDS]
//!     URILEX_KERNEL=avx2 cargo run --release --example parse_peers   # the AVX2 kernels
#[path = "../benches/support/parsing.rs"]
mod parsing;
#[path = "../benches/support/race.rs"]
mod race;
use race::{race, Job};

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    // Which kernels run (URILEX_KERNEL chooses a lower family).
    match urilex::kernel_family() {
        Ok(k) => println!("kernels: {k}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
    for (name, lines) in parsing::corpora() {
        let bytes: usize = lines.iter().map(String::len).sum();
        let buf = lines.join("\n").into_bytes();
        let parser = urilex::Parser::new();
        let mut batch = urilex::Batch::new();
        let mut jobs: Vec<(&str, Job)> = vec![
            ("fluent-uri", Box::new(|| parsing::fluent(&lines))),
            ("oxiri", Box::new(|| parsing::oxiri(&lines))),
            ("urilex", Box::new(|| parsing::urilex(&lines))),
            (
                "urilex-batch",
                Box::new(|| parsing::urilex_batch(&parser, &mut batch, &buf)),
            ),
            (
                "urilex-validate-dfa",
                Box::new(|| parsing::urilex_dfa(&parser, &lines)),
            ),
            (
                "urilex-validate-lines",
                Box::new(|| parsing::urilex_validate_lines(&parser, &buf)),
            ),
        ];
        race(&name, (bytes, lines.len()), 3, rounds, &mut jobs);
    }
}
