//! The row writers: the same records written in order (a stream) and at
//! their offsets (a file, several writers), with any chunk size, thread
//! count and writer count, give the same bytes in JSON Lines, TSV and
//! CSV; Arrow IPC and Parquet read back (arrow-rs's readers) equal the
//! JSON Lines rows, cell for cell.
#![no_main]

#[path = "common/mod.rs"]
mod common;
#[path = "../../io/tests/support/readback.rs"]
mod readback;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

use urilex_io::run::{FileAt, OutputFormat, Pipeline, Positions, Report, RowOutput};

#[derive(Arbitrary, Debug)]
struct Case {
    lines: Vec<Vec<u8>>,
    chunk: u16,
    threads: u8,
    writers: u8,
    all_fields: bool,
    start: u8,
}

fuzz_target!(|case: Case| {
    if case.lines.len() > 300 {
        return;
    }
    // References of every kind: URLs from the bytes' pieces.
    let mut text = Vec::new();
    for l in &case.lines {
        if l.first().is_some_and(|&b| b % 2 == 0) {
            text.extend_from_slice(b"http://h.example/");
        }
        text.extend(l.iter().take(200).filter(|&&b| b != b'\n'));
        text.push(b'\n');
    }
    let file = common::file("in.txt", &text);
    let files = [file];
    let mut run = common::Run::new(common::input("lines"));
    run.chunk = 1 + case.chunk as usize;
    run.threads = 1 + case.threads as usize % 4;
    if case.all_fields {
        run.fields = Some("all");
    }
    let mut one = common::Run::new(common::input("lines"));
    one.fields = run.fields;
    for format in [OutputFormat::Jsonl, OutputFormat::Tsv, OutputFormat::Csv] {
        // In order, one thread, one chunk: the reference bytes.
        let (want, _, _) = one.out(&files, format);
        let (stream, _, _) = run.out(&files, format);
        assert!(stream == want, "{format:?}: the stream differs");
        // At offsets, after `start` bytes already in the file.
        let start = case.start as u64;
        let out = common::file("out.txt", &vec![b'#'; start as usize]);
        let f = std::fs::OpenOptions::new().write(true).open(&out).unwrap();
        let (engine, schema) = run.engine();
        let pipeline = Pipeline {
            files: &files,
            read: run.read(),
            engine: &engine,
            threads: run.threads,
        };
        let rows = RowOutput {
            schema: &schema,
            format,
            header: format == OutputFormat::Csv,
        };
        let at = FileAt {
            file: f,
            start,
            writers: 1 + case.writers as usize % 4,
            positions: &Positions::new(),
        };
        let report = Report {
            fault: &mut |m| panic!("{m}"),
            progress: &mut |_| {},
        };
        let (summary, end) = pipeline.write_at(rows, at, report).unwrap();
        let got = std::fs::read(&out).unwrap();
        assert_eq!(end, got.len() as u64);
        assert!(got[start as usize..] == want[..], "{format:?}: at offsets");
        assert_eq!(summary.rows as usize, case.lines.len());
    }
    let (jsonl, _, _) = run.out(&files, OutputFormat::Jsonl);
    let want = common::rows_of(&jsonl);
    assert_eq!(want.len(), case.lines.len());
    for format in [OutputFormat::Arrow, OutputFormat::Parquet] {
        let (out, _, _) = run.out(&files, format);
        let got = readback::json_rows(&readback::read_back(&out, format));
        assert_eq!(got.len(), want.len(), "{format:?}");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g, w, "{format:?}");
        }
    }
});
