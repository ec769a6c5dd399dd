//! CSV records (io's `delimited` and the reader's chunk cutter), on
//! arbitrary bytes and on structured records (quoted fields, doubled
//! quotes, commas, CR/LF, line breaks in quotes, stray quotes):
//! - the record ends of the whole input are those found with the input cut
//!   into three pieces anywhere (the scan's state carried across);
//! - the records of the reader's chunks (a file cut at any chunk size) are
//!   the whole input's records;
//! - the pipeline gives one row per record, numbered by the record's first
//!   line;
//! - where the input has no CR outside a CRLF, the records' fields equal
//!   the `csv` crate's (the oracle), except a last record whose quote is
//!   never closed (an error row here, read leniently there), and empty
//!   lines (the crate skips them; here each is a row).
#![no_main]

#[path = "common/mod.rs"]
mod common;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use urilex_io::delimited::{csv_header, csv_records, Quotes};

use urilex_io::source::{Item, ReadOptions, Reader};

#[derive(Arbitrary, Debug)]
struct Field {
    text: Vec<u8>,
    quoted: bool,
}

#[derive(Arbitrary, Debug)]
enum Input {
    Bytes(Vec<u8>),
    Records(Vec<(Vec<Field>, bool)>),
}

#[derive(Arbitrary, Debug)]
struct Case {
    input: Input,
    cuts: (u16, u16),
    chunk: u8,
    threads: bool,
}

/// Structured records as text: fields from a small alphabet of the bytes
/// that matter, quoted as RFC 4180 says where asked (and where not, left
/// as a careless writer leaves them), ended by LF or CRLF.
fn text(records: &[(Vec<Field>, bool)]) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ab\",\n\r x";
    let mut out = Vec::new();
    for (fields, crlf) in records {
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let t: Vec<u8> = f
                .text
                .iter()
                .map(|&b| ALPHABET[b as usize % ALPHABET.len()])
                .collect();
            if f.quoted {
                out.push(b'"');
                for &b in &t {
                    if b == b'"' {
                        out.push(b'"');
                    }
                    out.push(b);
                }
                out.push(b'"');
            } else {
                out.extend_from_slice(&t);
            }
        }
        out.extend_from_slice(if *crlf { b"\r\n" } else { b"\n" });
    }
    out
}

fn ends(pieces: &[&[u8]]) -> Vec<usize> {
    let mut q = Quotes::RECORD_START;
    let mut ends = Vec::new();
    let mut base = 0;
    for p in pieces {
        ends.extend(q.ends(p).map(|e| base + e));
        base += p.len();
    }
    ends
}

fuzz_target!(|case: Case| {
    let input = match &case.input {
        Input::Bytes(b) => b.clone(),
        Input::Records(r) => text(r),
    };
    if input.len() > 1 << 16 {
        return;
    }
    let whole: Vec<&[u8]> = csv_records(&input).collect();

    // Pieces cut anywhere find the same record ends.
    let n = input.len();
    let (a, b) = (
        case.cuts.0 as usize % (n + 1),
        case.cuts.1 as usize % (n + 1),
    );
    let (a, b) = (a.min(b), a.max(b));
    assert_eq!(
        ends(&[&input]),
        ends(&[&input[..a], &input[a..b], &input[b..]])
    );

    // The reader's chunks hold the same records.
    let path = common::file("in.csv", &input);
    let opts = ReadOptions {
        chunk_bytes: 1 + case.chunk as usize,
        csv_quotes: true,
        ..ReadOptions::default()
    };
    let mut chunked: Vec<Vec<u8>> = Vec::new();
    for item in Reader::new(std::slice::from_ref(&path), opts) {
        match item {
            Item::Chunk(c) => chunked.extend(csv_records(&c.data).map(<[u8]>::to_vec)),
            Item::Fault(m) => panic!("{m}"),
        }
    }
    assert_eq!(chunked, whole);

    // One row per record, numbered by its first line.
    let mut run = common::Run::new(common::input("csv:1"));
    run.chunk = 1 + case.chunk as usize;
    run.threads = if case.threads { 2 } else { 1 };
    let (rows, faults) = common::rows(&run, &[path]);
    assert!(faults.is_empty());
    assert_eq!(rows.len(), whole.len());
    let mut line = 1u64;
    let mut at = 0;
    for (row, rec) in rows.iter().zip(&whole) {
        assert_eq!(row["line"], line);
        // The record, its CR and LF, from `at`.
        let mut len = rec.len();
        if input.get(at + len) == Some(&b'\r') && input.get(at + len + 1) == Some(&b'\n') {
            len += 1;
        }
        let span = &input[at..(at + len + 1).min(n)];
        line += span.iter().filter(|&&c| c == b'\n').count() as u64;
        at += len + 1;
    }

    // The csv crate's fields, where CR only comes before LF.
    let lone_cr = input
        .iter()
        .enumerate()
        .any(|(i, &c)| c == b'\r' && input.get(i + 1) != Some(&b'\n'));
    if lone_cr {
        return;
    }
    let mut ours: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut open = false;
    for (k, rec) in whole.iter().enumerate() {
        match csv_header(rec) {
            Ok(fields) => ours.push(fields),
            Err(_) => {
                // A quote never closed runs to the end: the last record.
                assert_eq!(k + 1, whole.len(), "an unclosed quote before the end");
                open = true;
            }
        }
    }
    let mut theirs: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(&input[..]);
    for rec in r.byte_records() {
        let rec = rec.expect("a byte record");
        theirs.push(rec.iter().map(<[u8]>::to_vec).collect());
    }
    let empty = |f: &Vec<Vec<u8>>| f.len() == 1 && f[0].is_empty();
    ours.retain(|f| !empty(f));
    theirs.retain(|f| !empty(f));
    if open {
        // The crate reads the unclosed record leniently, as a record.
        theirs.truncate(ours.len());
    }
    assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(&input));
});
