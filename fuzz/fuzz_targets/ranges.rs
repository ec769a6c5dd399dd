//! A file read in byte ranges (`ReadOptions::range`): any bytes, cut at
//! any points into ranges that cover it. Oracle: the file read whole. Both
//! as records (each line of a chunk with its number, an overlong record
//! with its length and number), the ranges' records in order are exactly
//! the whole file's: none lost, none twice, numbered alike.
#![no_main]

#[path = "common/mod.rs"]
#[allow(unused_imports)]
mod common;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

use urilex_io::source::{ChunkKind, Item, ReadOptions, Reader};

#[derive(Arbitrary, Debug)]
struct Case {
    bytes: Vec<u8>,
    cuts: Vec<u16>,
    chunk: u8,
    max_record: u8,
}

/// One record: its line number, and its bytes (a line, LF included) or
/// an overlong record's length.
#[derive(Debug, PartialEq, Eq)]
enum Record {
    Line(u64, Vec<u8>),
    Overlong(u64, u64),
}

fn records(file: &std::path::Path, opts: ReadOptions) -> Vec<Record> {
    let mut out = Vec::new();
    for item in Reader::new(&[file.to_path_buf()], opts) {
        match item {
            Item::Chunk(c) => match c.kind {
                ChunkKind::Records => {
                    for (k, line) in c.data.split_inclusive(|&b| b == b'\n').enumerate() {
                        out.push(Record::Line(c.first_line + k as u64, line.to_vec()));
                    }
                }
                ChunkKind::Overlong { bytes } => out.push(Record::Overlong(c.first_line, bytes)),
            },
            Item::Fault(m) => panic!("a fault reading a plain file: {m}"),
        }
    }
    out
}

fuzz_target!(|case: Case| {
    if case.bytes.len() > 1 << 16 || case.cuts.len() > 16 {
        return;
    }
    // Mostly short lines, so that cuts fall near line ends.
    let bytes: Vec<u8> = case
        .bytes
        .iter()
        .map(|&b| if b % 5 == 0 { b'\n' } else { b })
        .collect();
    let file = common::file("ranges.txt", &bytes);
    let opts = ReadOptions {
        chunk_bytes: 1 + case.chunk as usize,
        max_record_bytes: 1 + case.max_record as usize * 4,
        ..ReadOptions::default()
    };
    let whole = records(&file, opts);
    // The cuts, sorted, past the end too (a range past the end is empty).
    let n = bytes.len() as u64;
    let mut cuts: Vec<u64> = case.cuts.iter().map(|&c| u64::from(c) % (n + 3)).collect();
    cuts.sort_unstable();
    let mut bounds = vec![0];
    bounds.extend(cuts);
    bounds.push(n + 3);
    let mut ranged = Vec::new();
    for w in bounds.windows(2) {
        let opts = ReadOptions {
            range: Some((w[0], w[1])),
            ..opts
        };
        ranged.extend(records(&file, opts));
    }
    assert_eq!(ranged, whole, "ranges {bounds:?}");
});
