//! gzip and zstd inputs (the reader's streams): text cut into pieces, each
//! compressed as a gzip member or a zstd frame, the members (or frames)
//! concatenated, then read whole or truncated anywhere:
//! - whole, or cut at a member's end: the text of those members, no fault;
//! - cut inside a member: the text of the members before it (and maybe
//!   some of the cut one), a prefix of the whole text, then exactly one
//!   fault, the last item;
//! - the pipeline's rows are those of the text read, one per line, and the
//!   fault comes after them;
//! - whole chunks (`full_chunks`, Parquet's row groups): a complete
//!   stream is cut where the plain file of its text is, line numbers and
//!   all.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::io::Write;

use urilex_io::source::{Item, ReadOptions, Reader};

#[derive(Arbitrary, Debug)]
struct Case {
    pieces: Vec<Vec<u8>>,
    zstd: bool,
    cut: Option<u32>,
    chunk: u16,
}

fuzz_target!(|case: Case| {
    if case.pieces.is_empty() || case.pieces.len() > 8 {
        return;
    }
    // Lines of printable text, so that rows can be counted.
    let pieces: Vec<Vec<u8>> = case
        .pieces
        .iter()
        .map(|p| {
            p.iter()
                .take(4096)
                .map(|&b| if b % 7 == 0 { b'\n' } else { b'a' + b % 26 })
                .collect()
        })
        .collect();
    let mut packed = Vec::new();
    let mut ends = Vec::new();
    for p in &pieces {
        if case.zstd {
            packed.extend(zstd::bulk::compress(p, 1).unwrap());
        } else {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(p).unwrap();
            packed.extend(e.finish().unwrap());
        }
        ends.push(packed.len());
    }
    let whole: Vec<u8> = pieces.concat();
    // Fewer than 4 bytes is no longer recognised as compressed.
    let cut = match case.cut {
        Some(c) => 4 + c as usize % (packed.len() - 3),
        None => packed.len(),
    };
    packed.truncate(cut);
    let complete = ends.iter().take_while(|&&e| e <= cut).count();
    let at_end = ends.contains(&cut);
    let before: Vec<u8> = pieces[..complete].concat();

    let file = common::file("in.gz", &packed);
    let opts = ReadOptions {
        chunk_bytes: 1 + case.chunk as usize,
        ..ReadOptions::default()
    };
    let mut text = Vec::new();
    let mut faults = 0;
    for item in Reader::new(std::slice::from_ref(&file), opts) {
        match item {
            Item::Chunk(c) => {
                assert_eq!(faults, 0, "a chunk after the fault");
                text.extend_from_slice(&c.data);
            }
            Item::Fault(_) => faults += 1,
        }
    }
    if at_end {
        assert_eq!(faults, 0);
        assert_eq!(text, before);
    } else {
        assert_eq!(faults, 1);
        assert!(text.starts_with(&before));
        assert!(whole.starts_with(&text));
    }

    if at_end && !before.is_empty() {
        let whole_chunks = ReadOptions {
            full_chunks: true,
            ..opts
        };
        let chunks = |f: &std::path::PathBuf| -> Vec<(u64, Vec<u8>)> {
            Reader::new(std::slice::from_ref(f), whole_chunks)
                .map(|i| match i {
                    Item::Chunk(c) => (c.first_line, c.data.to_vec()),
                    Item::Fault(m) => panic!("{m}"),
                })
                .collect()
        };
        let plain = common::file("plain.txt", &before);
        assert_eq!(chunks(&file), chunks(&plain));
    }

    // The pipeline: a row per line of the text read, then the fault.
    let mut run = common::Run::new(common::input("lines"));
    run.chunk = 1 + case.chunk as usize;
    let (rows, f) = common::rows(&run, &[file]);
    assert_eq!(f.len(), faults);
    let lines =
        text.split(|&b| b == b'\n').count() - usize::from(text.ends_with(b"\n") || text.is_empty());
    assert_eq!(rows.len(), lines);
});
