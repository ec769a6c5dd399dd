//! `Pipeline::operate` from Rust: an operation's items counted across
//! workers (each worker's counts merged when the run ends), kept once in
//! first-seen order, or written as rows, the same with any number of
//! threads and any chunk size; invalid references reported with their
//! lines, every other record still read.

mod support {
    pub mod run;
}

use std::collections::BTreeMap;
use support::run::{input, repo, temp, Run};
use urilex::UriRef;
use urilex_io::ops::{Invalid, Items, Mode, OpOutput, OpReport, Operation};
use urilex_io::run::Pipeline;
use urilex_io::table::{Cell, Type};

/// The host of each reference (null where it has none).
struct Host;

impl Operation for Host {
    fn columns(&self) -> Vec<(&'static str, Type, bool)> {
        vec![("host", Type::Text, true)]
    }
    fn items(&self, u: &UriRef<'_>, out: &mut Items<'_>) -> Result<(), String> {
        match u.part("host") {
            Some(h) => out.item(&[Cell::Text(h.as_bytes())]),
            None => out.item(&[Cell::Null]),
        }
        Ok(())
    }
}

/// The text `operate` writes for `mode` over `file`, and the invalid
/// references it reported.
fn operate(
    file: &std::path::Path,
    mode: Mode,
    threads: usize,
    chunk: usize,
) -> (String, Vec<Invalid>) {
    let mut run = Run::new(input("lines"));
    run.threads = threads;
    run.chunk = chunk;
    let (engine, _) = run.engine();
    let files = [file.to_path_buf()];
    let pipeline = Pipeline {
        files: &files,
        read: run.read(),
        engine: &engine,
        threads,
    };
    let out = temp(&format!("ops-{mode:?}-{threads}-{chunk}.txt"), b"");
    let mut invalid = Vec::new();
    let summary = pipeline
        .operate(
            &Host,
            OpOutput {
                mode,
                format: None,
                header: false,
                top: None,
            },
            Box::new(std::fs::File::create(&out).unwrap()),
            OpReport {
                fault: &mut |m| panic!("{m}"),
                invalid: &mut |_, ms| invalid.extend_from_slice(ms),
                progress: &mut |_| {},
            },
        )
        .unwrap();
    assert_eq!(summary.invalid as usize, invalid.len());
    (std::fs::read_to_string(&out).unwrap(), invalid)
}

#[test]
fn counts_merged_across_workers_equal_a_count_by_hand() {
    let file = repo("benches/data/kasztp.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    // By hand: the host of every valid line.
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    let mut bad = 0;
    for l in text.lines() {
        match UriRef::parse(l) {
            Ok(u) => {
                *want
                    .entry(u.part("host").unwrap_or("\\N").to_string())
                    .or_default() += 1
            }
            Err(_) => bad += 1,
        }
    }
    let (one, invalid) = operate(&file, Mode::Count, 1, 1 << 20);
    assert_eq!(invalid.len(), bad);
    let got: BTreeMap<String, u64> = one
        .lines()
        .map(|l| {
            let (h, n) = l.rsplit_once('\t').unwrap();
            (h.to_string(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(got, want);
    // Most frequent first.
    let counts: Vec<u64> = one
        .lines()
        .map(|l| l.rsplit_once('\t').unwrap().1.parse().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]));
    for (threads, chunk) in [(2, 1 << 12), (3, 1 << 16), (4, 999)] {
        let (other, inv) = operate(&file, Mode::Count, threads, chunk);
        assert_eq!(other, one, "{threads} threads, chunks of {chunk}");
        // The messages name the same lines, in input order.
        assert_eq!(inv, invalid);
    }
}

#[test]
fn unique_values_first_seen_first_with_any_threads() {
    let file = repo("benches/data/kasztp.txt");
    let (one, _) = operate(&file, Mode::Unique, 1, 1 << 20);
    let mut seen = std::collections::HashSet::new();
    let want: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .filter_map(|l| UriRef::parse(l).ok())
        .map(|u| u.part("host").unwrap_or("\\N").to_string())
        .filter(|h| seen.insert(h.clone()))
        .collect();
    assert_eq!(one.lines().collect::<Vec<_>>(), want);
    for (threads, chunk) in [(2, 1 << 12), (4, 777)] {
        assert_eq!(operate(&file, Mode::Unique, threads, chunk).0, one);
    }
}
