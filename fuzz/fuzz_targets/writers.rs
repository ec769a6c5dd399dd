//! The row writers: the same records written in order (a stream) and at
//! their offsets (a file, several writers), with any chunk size, thread
//! count and writer count, give the same bytes in JSON Lines, TSV and
//! CSV; Arrow IPC and Parquet read back (arrow-rs's readers) equal the
//! JSON Lines rows, cell for cell. Text compressed on the workers (zstd
//! or gzip, a frame per chunk) decompresses to the same bytes, and part
//! files (`-o DIR/`) of any size, put together in their names' order
//! (decompressed, each part's header after the first dropped), are the
//! same bytes or rows too.
#![no_main]

#[path = "common/mod.rs"]
mod common;
#[path = "../../io/tests/support/readback.rs"]
mod readback;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

use std::io::Read;
use std::path::Path;
use urilex_io::compress::Compression;
use urilex_io::parts::Parts;
use urilex_io::run::{FileAt, OutputFormat, Pipeline, Positions, Report, RowOutput};

fn decompressed(bytes: &[u8], how: Option<Compression>) -> Vec<u8> {
    let mut out = Vec::new();
    match how {
        Some(Compression::Zstd(_)) => {
            zstd::stream::read::Decoder::new(bytes)
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
        }
        Some(Compression::Gzip(_)) => {
            flate2::read::MultiGzDecoder::new(bytes)
                .read_to_end(&mut out)
                .unwrap();
        }
        None => out.extend_from_slice(bytes),
    }
    out
}

/// The part files of `dir`, in their names' order (each whole: no hidden
/// partial one left).
fn part_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut p: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    p.sort();
    for f in &p {
        assert!(f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("part-"));
    }
    p
}

#[derive(Arbitrary, Debug)]
struct Case {
    lines: Vec<Vec<u8>>,
    chunk: u16,
    threads: u8,
    writers: u8,
    all_fields: bool,
    start: u8,
    /// 0: none, 1: zstd, 2: gzip.
    compress: u8,
    /// Input bytes a part holds.
    part: u16,
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
    // The run's pipeline, for the writers at offsets and the parts.
    let (engine, schema) = run.engine();
    let pipeline = Pipeline {
        files: &files,
        read: run.read(),
        engine: &engine,
        threads: run.threads,
    };
    for format in [OutputFormat::Jsonl, OutputFormat::Tsv, OutputFormat::Csv] {
        // In order, one thread, one chunk: the reference bytes.
        let (want, _, _) = one.out(&files, format);
        let (stream, _, _) = run.out(&files, format);
        assert!(stream == want, "{format:?}: the stream differs");
        // At offsets, after `start` bytes already in the file.
        let start = case.start as u64;
        let out = common::file("out.txt", &vec![b'#'; start as usize]);
        let f = std::fs::OpenOptions::new().write(true).open(&out).unwrap();
        let rows = RowOutput {
            schema: &schema,
            format,
            header: format == OutputFormat::Csv,
            compress: None,
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
        // Compressed on the workers, at offsets again.
        let how = match case.compress % 3 {
            1 => Some(Compression::Zstd(1)),
            2 => Some(Compression::Gzip(1)),
            _ => None,
        };
        if how.is_some() {
            let out = common::file("out.z", b"");
            let at = FileAt {
                file: std::fs::OpenOptions::new().write(true).open(&out).unwrap(),
                start: 0,
                writers: 1 + case.writers as usize % 4,
                positions: &Positions::new(),
            };
            let report = Report {
                fault: &mut |m| panic!("{m}"),
                progress: &mut |_| {},
            };
            let rows = RowOutput {
                compress: how,
                ..rows
            };
            pipeline.write_at(rows, at, report).unwrap();
            let got = decompressed(&std::fs::read(&out).unwrap(), how);
            assert!(got == want, "{format:?} {how:?}: compressed");
        }
        // Part files, compressed or not.
        let dir = common::file("parts-dir", b"").with_extension("d");
        let _ = std::fs::remove_dir_all(&dir);
        let parts = Parts {
            dir: dir.clone(),
            compress: how,
            input_bytes: 1 + case.part as u64,
        };
        let report = Report {
            fault: &mut |m| panic!("{m}"),
            progress: &mut |_| {},
        };
        let summary = pipeline.write_rows_parts(rows, &parts, report).unwrap();
        assert_eq!(summary.rows as usize, case.lines.len());
        let mut got = Vec::new();
        for (k, f) in part_files(&dir).iter().enumerate() {
            let text = decompressed(&std::fs::read(f).unwrap(), how);
            if k > 0 && format == OutputFormat::Csv {
                let nl = text.iter().position(|&b| b == b'\n').unwrap();
                got.extend_from_slice(&text[nl + 1..]);
            } else {
                got.extend_from_slice(&text);
            }
        }
        assert!(got == want, "{format:?} {how:?}: parts");
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
        // Part files: each a whole file; their rows in order are the rows.
        let dir = common::file("parts-dir", b"").with_extension("d");
        let _ = std::fs::remove_dir_all(&dir);
        let rows = RowOutput {
            schema: &schema,
            format,
            header: false,
            compress: None,
        };
        let parts = Parts {
            dir: dir.clone(),
            compress: None,
            input_bytes: 1 + case.part as u64,
        };
        let report = Report {
            fault: &mut |m| panic!("{m}"),
            progress: &mut |_| {},
        };
        pipeline.write_rows_parts(rows, &parts, report).unwrap();
        let mut got = Vec::new();
        for f in part_files(&dir) {
            let bytes = std::fs::read(f).unwrap();
            got.extend(readback::json_rows(&readback::read_back(&bytes, format)));
        }
        assert_eq!(got, want, "{format:?}: parts");
    }
});
