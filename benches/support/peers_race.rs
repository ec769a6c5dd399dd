//! The `parse_peers` race: single `UriRef::parse`, the batch, the
//! validating DFA and `validate_lines` against fluent-uri and oxiri (and
//! whatever `extra` adds: the `peers/` crate's copy adds ada's
//! `can_parse`), one process, interleaved round by round, on each corpus.
//! Shared by the core's example and `peers/`' so that both time the same
//! jobs.
#![allow(dead_code)]

use crate::parsing;
use crate::race::{race, Job};
use std::path::Path;

/// The jobs a caller adds for a corpus's lines, after fluent-uri and oxiri.
pub type Extra = for<'a> fn(&'a [String]) -> Vec<(&'static str, Job<'a>)>;

/// Runs the race on the corpora of the repository at `root`, with the
/// rounds of the first argument (15 when absent).
pub fn run(root: &Path, extra: Extra) {
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
    for (name, lines) in parsing::corpora_in(root) {
        let bytes: usize = lines.iter().map(String::len).sum();
        let buf = lines.join("\n").into_bytes();
        let parser = urilex::Parser::new();
        let mut batch = urilex::Batch::new();
        let mut jobs: Vec<(&str, Job)> = vec![
            ("fluent-uri", Box::new(|| parsing::fluent(&lines))),
            ("oxiri", Box::new(|| parsing::oxiri(&lines))),
        ];
        jobs.extend(extra(&lines));
        jobs.extend::<Vec<(&str, Job)>>(vec![
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
        ]);
        race(&name, (bytes, lines.len()), 3, rounds, &mut jobs);
    }
}
