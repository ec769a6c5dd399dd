//! Output past one file (issue 47, item 5): `-o DIR/` writes part files,
//! one per worker's run of chunks, whose names in order are the rows in
//! order; `--compress zstd|gzip` compresses text rows on the workers, a
//! frame (member) per chunk, into one valid stream. Each form is checked
//! against the plain output of the same command: the parts put together
//! (and decompressed) are exactly it, every record one row.

mod common;

use arrow_array::RecordBatch;
use common::urilex;
use std::io::Read;
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("urilex-parts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// About 3 MB of references, one in nine invalid, so that every part has
/// error rows among its rows (the line numbers run on across parts).
fn input(dir: &Path) -> PathBuf {
    let mut text = String::new();
    let mut k = 0u32;
    while text.len() < 3 << 20 {
        k += 1;
        match k % 9 {
            0 => text.push_str(&format!("http://bad host/{k}\n")),
            1 => text.push_str(&format!("../rel/{k}?q=%41#f\n")),
            _ => text.push_str(&format!("https://h{}.example/p/{k}?a={k}\n", k % 17)),
        }
    }
    let p = dir.join("in.txt");
    std::fs::write(&p, text).unwrap();
    p
}

fn run(args: &[&str]) {
    let (code, _, err) = urilex(args, b"");
    assert_eq!(code, 0, "{args:?}: {err}");
}

/// The part files of `dir`, sorted by name (the order the rows are in).
fn parts(dir: &Path) -> Vec<PathBuf> {
    let mut p: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    p.sort();
    for f in &p {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("part-"),
            "{name}: not a part (a partial one left?)"
        );
    }
    p
}

fn decompressed(bytes: &[u8], how: &str) -> Vec<u8> {
    let mut out = Vec::new();
    match how {
        "zstd" => {
            zstd::stream::read::Decoder::new(bytes)
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
        }
        "gzip" => {
            flate2::read::MultiGzDecoder::new(bytes)
                .read_to_end(&mut out)
                .unwrap();
        }
        _ => out.extend_from_slice(bytes),
    }
    out
}

/// Text without its first line (a part's header).
fn body(text: &[u8]) -> &[u8] {
    let nl = text.iter().position(|&b| b == b'\n').unwrap();
    &text[nl + 1..]
}

#[test]
fn text_parts_put_together_are_the_one_file() {
    let dir = temp_dir("text");
    let input = input(&dir);
    let input = input.to_str().unwrap();
    let commands: [&[&str]; 4] = [
        &["parse"],
        &["parse", "--input", "lines", "--fields", "all"],
        &["lint"],
        &["normalize"],
    ];
    for cmd in commands {
        for format in ["jsonl", "tsv", "csv"] {
            let header = format != "jsonl";
            for (threads, how) in [("1", "none"), ("3", "none"), ("3", "zstd"), ("1", "gzip:1")] {
                {
                    let one = dir.join("one");
                    let mut a = cmd.to_vec();
                    a.extend(["--format", format]);
                    if header && format == "tsv" {
                        a.push("--header");
                    }
                    a.extend(["--threads", threads, input]);
                    let mut plain = a.clone();
                    plain.extend(["-o", one.to_str().unwrap()]);
                    run(&plain);
                    let want = std::fs::read(&one).unwrap();

                    let out = dir.join(format!("parts-{format}-{threads}-{how}"));
                    let _ = std::fs::remove_dir_all(&out);
                    let dir_arg = format!("{}/", out.display());
                    let mut p = a.clone();
                    p.extend(["-o", &dir_arg, "--part-bytes", "300K"]);
                    if how != "none" {
                        p.extend(["--compress", how]);
                    }
                    run(&p);
                    let files = parts(&out);
                    assert!(files.len() >= 3, "{p:?}: {} parts", files.len());
                    let how = how.split(':').next().unwrap();
                    let mut got = Vec::new();
                    for (k, f) in files.iter().enumerate() {
                        let ext = match how {
                            "zstd" => ".zst",
                            "gzip" => ".gz",
                            _ => "",
                        };
                        let name = f.file_name().unwrap().to_string_lossy().into_owned();
                        assert_eq!(name, format!("part-{k:05}.{format}{ext}"), "{p:?}");
                        let text = decompressed(&std::fs::read(f).unwrap(), how);
                        // Each part of TSV with --header and of CSV starts with
                        // the header, as one file does.
                        if header && k > 0 {
                            assert_eq!(
                                text.split(|&b| b == b'\n').next(),
                                want.split(|&b| b == b'\n').next(),
                                "{p:?}"
                            );
                            got.extend_from_slice(body(&text));
                        } else {
                            got.extend_from_slice(&text);
                        }
                    }
                    assert!(got == want, "{p:?}: the parts differ from one file");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compressed_output_is_one_stream() {
    let dir = temp_dir("compress");
    let input = input(&dir);
    let input = input.to_str().unwrap();
    let (_, plain, _) = urilex(&["parse", "--threads", "2", input], b"");
    let (_, plain_tsv, _) = urilex(&["parse", "--format", "tsv", "--header", input], b"");
    let (_, lint, _) = urilex(&["lint", input], b"");
    for (how, ext) in [("zstd", "zst"), ("zstd:6", "zst"), ("gzip", "gz")] {
        let z = how.split(':').next().unwrap();
        // To a file, written at each chunk's place by several writers.
        let f = dir.join(format!("rows.jsonl.{ext}"));
        run(&[
            "parse",
            "--threads",
            "3",
            "--compress",
            how,
            input,
            "-o",
            f.to_str().unwrap(),
        ]);
        assert!(
            decompressed(&std::fs::read(&f).unwrap(), z) == plain,
            "{how}"
        );
        // To a pipe, in order.
        let (code, out, err) = urilex(&["parse", "--compress", how, input], b"");
        assert_eq!(code, 0, "{err}");
        assert!(out.len() < plain.len() / 3, "{how}: {} bytes", out.len());
        assert!(decompressed(&out, z) == plain, "{how}");
        // A header first, compressed too.
        let (_, out, _) = urilex(
            &[
                "parse",
                "--format",
                "tsv",
                "--header",
                "--compress",
                how,
                input,
            ],
            b"",
        );
        assert!(decompressed(&out, z) == plain_tsv, "{how}");
        // The other commands' rows.
        let (_, out, _) = urilex(&["lint", "--compress", how, input], b"");
        assert!(decompressed(&out, z) == lint, "{how}");
    }
    // CSV's header is a frame of its own, in every command's rows; no rows
    // at all are still a valid stream.
    let (_, lint_csv, _) = urilex(&["lint", "--format", "csv", input], b"");
    let (_, out, _) = urilex(
        &["lint", "--format", "csv", "--compress", "gzip", input],
        b"",
    );
    assert!(decompressed(&out, "gzip") == lint_csv);
    for cmd in ["parse", "lint"] {
        for how in ["zstd", "gzip"] {
            let (code, out, err) = urilex(&[cmd, "--compress", how], b"");
            assert_eq!(code, 0, "{err}");
            assert!(
                !out.is_empty(),
                "{cmd} {how}: an empty stream is still a frame"
            );
            assert!(decompressed(&out, how).is_empty(), "{cmd} {how}");
        }
    }
    // The file's name says so when --compress does not.
    for ext in ["zst", "gz"] {
        let f = dir.join(format!("named.jsonl.{ext}"));
        run(&["parse", input, "-o", f.to_str().unwrap()]);
        let z = if ext == "zst" { "zstd" } else { "gzip" };
        assert!(
            decompressed(&std::fs::read(&f).unwrap(), z) == plain,
            "{ext}"
        );
    }
    // extract writes in order on one thread: its stream is framed too.
    let text = b"see http://a/ and https://b/c?d\nthen ftp://e/f\n";
    let (_, want, _) = urilex(&["extract"], text);
    let (code, out, err) = urilex(&["extract", "--compress", "gzip"], text);
    assert_eq!(code, 0, "{err}");
    assert_eq!(decompressed(&out, "gzip"), want);
    let _ = std::fs::remove_dir_all(&dir);
}

fn batches(path: &Path) -> Vec<RecordBatch> {
    let name = path.to_string_lossy();
    if name.ends_with(".parquet") {
        let f = std::fs::File::open(path).unwrap();
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f)
            .unwrap()
            .build()
            .unwrap()
            .map(|b| b.unwrap())
            .collect()
    } else {
        let bytes = std::fs::read(path).unwrap();
        arrow_ipc::reader::StreamReader::try_new(&bytes[..], None)
            .unwrap()
            .map(|b| b.unwrap())
            .collect()
    }
}

fn together(batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

#[test]
fn arrow_and_parquet_parts_hold_the_one_files_rows() {
    let dir = temp_dir("columnar");
    let input = input(&dir);
    let input = input.to_str().unwrap();
    let commands: [&[&str]; 3] = [&["parse"], &["parse", "--fields", "all"], &["lint"]];
    for cmd in commands {
        for (format, ext) in [("arrow", "arrows"), ("parquet", "parquet")] {
            let one = dir.join(format!("one.{ext}"));
            let mut a = cmd.to_vec();
            a.extend(["--format", format, "--threads", "2", input]);
            let mut plain = a.clone();
            plain.extend(["-o", one.to_str().unwrap()]);
            run(&plain);
            let want = together(&batches(&one));

            let out = dir.join(format!("parts-{format}"));
            let _ = std::fs::remove_dir_all(&out);
            let dir_arg = format!("{}/", out.display());
            let mut p = a.clone();
            p.extend(["-o", &dir_arg, "--part-bytes", "1"]);
            run(&p);
            let files = parts(&out);
            assert!(files.len() >= 2, "{p:?}: {} parts", files.len());
            let mut all = Vec::new();
            for (k, f) in files.iter().enumerate() {
                let name = f.file_name().unwrap().to_string_lossy().into_owned();
                assert_eq!(name, format!("part-{k:05}.{ext}"));
                // Each part a whole file of its own, with the schema.
                let b = batches(f);
                assert!(!b.is_empty(), "{name}");
                assert_eq!(b[0].schema(), want.schema(), "{name}");
                all.extend(b);
            }
            let got = together(&all);
            assert_eq!(got.num_rows(), want.num_rows(), "{p:?}");
            assert!(got == want, "{p:?}: the parts' rows differ from one file's");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parts_keep_every_record_and_report_faults() {
    let dir = temp_dir("faults");
    let good = dir.join("good.log");
    let lines: String = (1..=4000)
        .map(|k| match k % 5 {
            0 => "not a log line at all\n".to_string(),
            _ => format!(
                "10.0.0.{} - - [10/Oct/2000:13:55:36 -0700] \"GET /a/{k}?x=%zz HTTP/1.1\" 200 7\n",
                k % 200
            ),
        })
        .collect();
    std::fs::write(&good, &lines).unwrap();
    let missing = dir.join("missing.log");
    let out = dir.join("out");
    let dir_arg = format!("{}/", out.display());
    let (code, _, err) = urilex(
        &[
            "parse",
            "--input",
            "common",
            "--part-bytes",
            "64K",
            good.to_str().unwrap(),
            missing.to_str().unwrap(),
            good.to_str().unwrap(),
            "-o",
            &dir_arg,
        ],
        b"",
    );
    assert_eq!(code, 2, "an input that cannot be read: exit status 2");
    assert!(err.contains("missing.log"), "{err}");
    let mut rows = Vec::new();
    for f in parts(&out) {
        for l in std::fs::read_to_string(f).unwrap().lines() {
            rows.push(serde_json::from_str::<serde_json::Value>(l).unwrap());
        }
    }
    assert_eq!(
        rows.len(),
        8000,
        "every record of both readable inputs, once"
    );
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r["line"], (k % 4000 + 1) as u64, "{r}");
    }
    let errors = rows
        .iter()
        .filter(|r| r["error"]["kind"] == "format")
        .count();
    assert_eq!(
        errors, 1600,
        "each line that is not a log line is an error row"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_parts_and_compression_refuse() {
    let dir = temp_dir("refuse");
    let input = input(&dir);
    let input = input.to_str().unwrap();
    let out = dir.join("out");
    let dir_arg = format!("{}/", out.display());
    run(&["parse", input, "-o", &dir_arg]);
    // Parts left from an earlier run would be read as this run's.
    let (code, _, err) = urilex(&["parse", input, "-o", &dir_arg], b"");
    assert_eq!(code, 2);
    assert!(err.contains("part files already"), "{err}");
    // Parquet and Arrow compress their own way.
    let f = dir.join("x.parquet");
    let (code, _, err) = urilex(
        &[
            "parse",
            "--format",
            "parquet",
            "--compress",
            "zstd",
            input,
            "-o",
            f.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 2);
    assert!(err.contains("--compress is for text rows"), "{err}");
    // Plain text lines are not rows.
    let (code, _, err) = urilex(
        &["normalize", input, "-o", &format!("{}/n/", dir.display())],
        b"",
    );
    assert_eq!(code, 2);
    assert!(err.contains("give --format"), "{err}");
    // extract reads in order on one thread.
    let (code, _, err) = urilex(
        &["extract", input, "-o", &format!("{}/e/", dir.display())],
        b"",
    );
    assert_eq!(code, 2);
    assert!(err.contains("one thread"), "{err}");
    // Compressed rows are not for a terminal either; bad names and levels.
    for bad in ["brotli", "zstd:99", "gzip:x"] {
        let (code, _, err) = urilex(&["parse", "--compress", bad, input], b"");
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("--compress"), "{bad}: {err}");
    }
    let (code, _, err) = urilex(&["parse", "--part-bytes", "0", input, "-o", &dir_arg], b"");
    assert_eq!(code, 2);
    assert!(err.contains("above 0"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Parquet row groups are one per chunk of input, and a pipe's chunks
/// are cut where a file's are: the same row groups from a pipe as from a
/// file, never the scraps a pipe happens to deliver at a time (they were:
/// ten groups of 291 to 36,500 rows for 3 MB; then groups of 512 KiB
/// of input against a file's 2 MiB).
#[test]
fn parquet_row_groups_from_a_pipe_are_a_files() {
    use parquet::file::reader::FileReader;
    let dir = temp_dir("groups");
    let input = input(&dir);
    let text = std::fs::read(&input).unwrap();
    let groups = |path: &Path| -> Vec<i64> {
        let r =
            parquet::file::reader::SerializedFileReader::new(std::fs::File::open(path).unwrap())
                .unwrap();
        r.metadata()
            .row_groups()
            .iter()
            .map(|g| g.num_rows())
            .collect()
    };
    let from_file = dir.join("file.parquet");
    run(&[
        "parse",
        "--format",
        "parquet",
        input.to_str().unwrap(),
        "-o",
        from_file.to_str().unwrap(),
    ]);
    let from_pipe = dir.join("pipe.parquet");
    let (code, _, err) = urilex(
        &[
            "parse",
            "--format",
            "parquet",
            "-o",
            from_pipe.to_str().unwrap(),
        ],
        &text,
    );
    assert_eq!(code, 0, "{err}");
    let (f, p) = (groups(&from_file), groups(&from_pipe));
    assert!(f.len() >= 2, "{f:?}");
    assert_eq!(f, p);
    // The rows themselves, byte for byte: the files are the same.
    assert_eq!(
        std::fs::read(&from_file).unwrap(),
        std::fs::read(&from_pipe).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An interrupt while parts are written leaves whole parts only: a part
/// being written has a hidden name until it is whole, and the interrupt
/// removes the hidden ones; the process ends by the signal.
#[test]
fn an_interrupt_leaves_whole_parts() {
    let dir = temp_dir("interrupt");
    let input = input(&dir);
    let bin = env!("CARGO_BIN_EXE_urilex");
    for (threads, wait) in [("2", "0.3"), ("1", "0.5")] {
        let out = dir.join(format!("out{threads}"));
        // Standard input held open after 3 MB: whole runs are written as
        // parts, the one that waits for more input is not.
        let status = std::process::Command::new("sh")
            .current_dir(&dir)
            .arg("-c")
            .arg(format!(
                "timeout 20 sh -c 'cat {}; sleep 3' | '{bin}' parse --threads {threads} \
                 --part-bytes 256K -o {}/ & p=$!; sleep {wait}; kill -TERM $p; wait $p",
                input.display(),
                out.display()
            ))
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(143), "threads {threads}");
        let files = parts(&out);
        assert!(
            !files.is_empty(),
            "threads {threads}: whole parts written before"
        );
        // Each part whole rows, one line after another; the parts in
        // order.
        let mut last = 0u64;
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            assert!(text.ends_with('\n'), "{}", f.display());
            let mut first = true;
            for l in text.lines() {
                let row: serde_json::Value = serde_json::from_str(l).unwrap();
                let line = row["line"].as_u64().unwrap();
                match first {
                    true => assert!(line > last, "{}", f.display()),
                    false => assert_eq!(line, last + 1, "{}", f.display()),
                }
                first = false;
                last = line;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The operations (`get`, `params`, ...) compress their one output too:
/// by `--compress` or the file's name, rows and counts alike, each
/// decompressing to the plain output (invalid lines still reported, the
/// exit status the plain run's); empty output is still a stream; part
/// files and compressed Parquet are refused with a message.
#[test]
fn operations_compress_their_output() {
    let dir = temp_dir("ops");
    let input = input(&dir);
    let input = input.to_str().unwrap();
    let cases: [&[&str]; 4] = [
        &["get", "{host}{path}"],
        &["params", "--format", "jsonl"],
        &["get", "{host}", "--count", "--format", "csv"],
        &["keys", "--unique", "--format", "tsv", "--header"],
    ];
    for args in cases {
        let (code, plain, err) = urilex(&[args, &[input]].concat(), b"");
        assert!(!plain.is_empty(), "{args:?}: {err}");
        for (how, name) in [("zstd", "o.zst"), ("gzip", "o.gz"), ("zstd", "o.txt")] {
            let f = dir.join(name);
            let f = f.to_str().unwrap();
            let mut a = [args, &[input, "-o", f]].concat();
            if name == "o.txt" {
                a.extend(["--compress", "zstd:3"]);
            }
            let (c, _, e) = urilex(&a, b"");
            assert_eq!(c, code, "{a:?}: {e}");
            let bytes = std::fs::read(f).unwrap();
            if plain.len() > 4096 {
                assert!(bytes.len() < plain.len() / 2, "{a:?}: not compressed");
            }
            assert_eq!(decompressed(&bytes, how), plain, "{a:?}");
        }
    }
    // No values at all: one empty frame, which decompresses to nothing.
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    for (how, name) in [("zstd", "e.zst"), ("gzip", "e.gz")] {
        let f = dir.join(name);
        run(&[
            "get",
            "{host}",
            empty.to_str().unwrap(),
            "-o",
            f.to_str().unwrap(),
        ]);
        let bytes = std::fs::read(&f).unwrap();
        assert!(!bytes.is_empty(), "{name}");
        assert!(decompressed(&bytes, how).is_empty(), "{name}");
    }
    let (code, _, err) = urilex(
        &["get", "{host}", input, "-o", &format!("{}/", dir.display())],
        b"",
    );
    assert_eq!(code, 2);
    assert!(err.contains("an operation writes one file"), "{err}");
    let (code, _, err) = urilex(
        &[
            "get",
            "{host}",
            "--format",
            "parquet",
            "--compress",
            "gzip",
            input,
        ],
        b"",
    );
    assert_eq!(code, 2);
    assert!(err.contains("--compress is for text rows"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
