//! The log pipeline end to end: every record one row, in order, whatever
//! the thread count and the chunk size, in every output format; the
//! columnar outputs read back as the JSON Lines rows; bad inputs give error
//! rows or one fault, never a panic, and lose nothing before the fault.

use arrow_array::RecordBatch;
use serde_json::{json, Value};
use std::path::PathBuf;
use support::readback::{hex, json_rows, read_back};
use support::run::{input, repo, rows_of, temp, Run};
use urilex::{Profile, Syntax};
use urilex_io::format::{Extractor, InputFormat, LogField};
use urilex_io::rows::{Job, Worker};
use urilex_io::run::OutputFormat;
use urilex_io::schema::Schema;
use urilex_io::source::{Item, ReadOptions, Reader};
use urilex_io::text::{TextFormat, TextWriter};

mod support {
    pub mod readback;
    pub mod run;
}

/// Lines of every kind: corpus URLs, relative references, hostile bytes,
/// empty lines, CRLF.
fn mixed_lines() -> Vec<Vec<u8>> {
    let corpus = std::fs::read(repo("benches/data/kasztp.txt")).unwrap();
    let mut v: Vec<Vec<u8>> = corpus
        .split(|&b| b == b'\n')
        .take(300)
        .map(<[u8]>::to_vec)
        .collect();
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for i in 0..100 {
        let mut l = Vec::new();
        for _ in 0..(i % 37) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = x as u8;
            if b != b'\n' {
                l.push(b);
            }
        }
        v.insert((x % v.len() as u64) as usize, l);
    }
    v.push(b"/a\r".to_vec());
    v.push(Vec::new());
    v.push(b"http://[::1]:80/".to_vec());
    v
}

fn combined_line(target: &[u8], referer: &[u8]) -> Vec<u8> {
    let mut l = b"10.0.0.1 - - [25/Nov/2026:10:00:00 +0000] \"GET ".to_vec();
    l.extend_from_slice(target);
    l.extend_from_slice(b" HTTP/1.1\" 200 12 \"");
    l.extend_from_slice(referer);
    l.extend_from_slice(b"\" \"agent\"");
    l
}

/// The same records in four input formats, and how many records each has.
fn inputs() -> Vec<(InputFormat, Vec<u8>, usize)> {
    let lines = mixed_lines();
    let plain = lines.join(&b'\n');
    let printable: Vec<&Vec<u8>> = lines
        .iter()
        .filter(|l| {
            l.iter()
                .all(|b| (0x20..0x7f).contains(b) && *b != b'"' && *b != b'\\')
        })
        .collect();
    let combined: Vec<u8> = printable
        .iter()
        .map(|l| combined_line(if l.starts_with(b"/") { l } else { b"/x" }, l))
        .collect::<Vec<_>>()
        .join(&b'\n');
    let jsonl: Vec<u8> = lines
        .iter()
        .map(|l| {
            json!({"url": {"original": String::from_utf8_lossy(l)}})
                .to_string()
                .into_bytes()
        })
        .collect::<Vec<_>>()
        .join(&b'\n');
    let mut csv = b"id,url\n".to_vec();
    for (i, l) in printable.iter().enumerate() {
        csv.extend_from_slice(format!("{i},\"").as_bytes());
        for &b in l.iter() {
            if b == b'"' {
                csv.push(b'"');
            }
            csv.push(b);
        }
        csv.extend_from_slice(b"\"\n");
    }
    vec![
        (input("lines"), plain, lines.len()),
        (input("combined"), combined, printable.len()),
        (input("jsonl:url.original"), jsonl, lines.len()),
        (input("csv:url"), csv, printable.len()),
    ]
}

/// Property: every record gives exactly one row, in order, for 1, 2 and 4
/// threads and any chunk size, with the same rows.
#[test]
fn every_record_one_row_in_order_for_any_threads_and_chunks() {
    for (k, (format, bytes, records)) in inputs().into_iter().enumerate() {
        let file = temp(&format!("mixed{k}"), &bytes);
        let files = [file];
        let want = Run::new(format.clone()).jsonl(&files);
        assert_eq!(want.len(), records, "{format}");
        let mut x: u64 = 77;
        for threads in [1, 2, 4] {
            for _ in 0..6 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let chunk = 1 + (x >> 33) as usize % 3000;
                let mut run = Run::new(format.clone());
                run.threads = threads;
                run.chunk = chunk;
                let got = run.jsonl(&files);
                assert_eq!(
                    got.len(),
                    want.len(),
                    "{format}, {threads} threads, chunk {chunk}"
                );
                assert!(got == want, "{format}, {threads} threads, chunk {chunk}");
            }
        }
    }
}

/// Every output format has one row per record, in order.
#[test]
fn every_output_format_has_every_row() {
    for (k, (format, bytes, records)) in inputs().into_iter().enumerate() {
        let file = temp(&format!("formats{k}"), &bytes);
        let files = [file];
        // One worker leaves the pages' compression (Parquet) and the
        // arrays' making (Arrow) to the thread that writes the file,
        // several do their own: the same files.
        let mut columnar: [Option<Vec<u8>>; 2] = [None, None];
        for threads in [1, 2] {
            let mut run = Run::new(format.clone());
            run.threads = threads;
            run.chunk = 700;
            for f in [OutputFormat::Jsonl, OutputFormat::Tsv, OutputFormat::Csv] {
                let (out, rows, _) = run.out(&files, f);
                assert_eq!(rows as usize, records);
                let text = String::from_utf8_lossy(&out);
                let header = usize::from(f == OutputFormat::Csv);
                // Quoted CSV fields may hold line breaks, so count records
                // by their line numbers instead.
                if f != OutputFormat::Csv {
                    assert_eq!(text.lines().count(), records + header, "{format} {f:?}");
                }
            }
            for f in [OutputFormat::Arrow, OutputFormat::Parquet] {
                let (out, rows, _) = run.out(&files, f);
                assert_eq!(rows as usize, records);
                let batches = read_back(&out, f);
                let n: usize = batches.iter().map(RecordBatch::num_rows).sum();
                assert_eq!(n, records, "{format} {f:?}");
                let first = &mut columnar[usize::from(f == OutputFormat::Parquet)];
                match first {
                    None => *first = Some(out),
                    Some(one) => assert!(*one == out, "{format} {f:?}: 1 and 2 threads"),
                }
            }
        }
    }
}

/// Arrow and Parquet read back with the same crates equal the JSON Lines
/// rows: null for null, "" for "", lists as lists, the error struct as the
/// error object, across profiles and input formats.
#[test]
fn arrow_and_parquet_read_back_as_the_jsonl_rows() {
    let mut cases: Vec<(Run, PathBuf)> = Vec::new();
    for (k, (format, bytes, _)) in inputs().into_iter().enumerate() {
        let file = temp(&format!("readback{k}"), &bytes);
        let mut run = Run::new(format.clone());
        run.chunk = 1500;
        run.fields = Some("all");
        cases.push((run, file));
    }
    for p in [
        Profile::Rfc1738,
        Profile::Rfc6874,
        Profile::UrnDraft03,
        Profile::Rfc2396bis00,
    ] {
        let file = repo(if p == Profile::Rfc1738 {
            "samples/rfc1738.txt"
        } else {
            "samples/requests.txt"
        });
        let mut run = Run::new(input("lines"));
        run.profile = p;
        cases.push((run, file));
    }
    let mut log = Run::new(input("combined"));
    log.field = LogField::Both;
    log.fields = Some("all");
    cases.push((log, repo("samples/access.log")));
    // A corpus in large chunks: runs of valid rows longer than the row
    // builder takes at once (256) between its invalid ones, with one
    // worker (the arrays made, the pages compressed, on the writing
    // thread) and with two.
    for threads in [1, 2] {
        let mut run = Run::new(input("lines"));
        run.threads = threads;
        cases.push((run, repo("benches/data/kasztp.txt")));
    }
    for (run, file) in cases {
        let files = [file];
        let want = run.jsonl(&files);
        for f in [OutputFormat::Arrow, OutputFormat::Parquet] {
            let (out, _, _) = run.out(&files, f);
            let got = json_rows(&read_back(&out, f));
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g, w, "{} {:?} {f:?}", run.input, run.profile);
            }
        }
    }
}

/// The straight-line writer of valid rows writes what the general path
/// writes, on the corpora and samples, in every text format and profile.
#[test]
fn the_fast_rows_equal_the_general_rows() {
    let mut files = vec![
        repo("benches/data/kasztp.txt"),
        repo("benches/data/node_files.txt"),
        repo("samples/requests.txt"),
    ];
    let shared = repo("../shared/data/urls/userbait.txt");
    if shared.exists() {
        files.push(shared);
    }
    let mut cases = Vec::new();
    for p in Profile::ALL {
        for f in &files {
            cases.push((input("lines"), *p, f.clone()));
        }
    }
    cases.push((
        input("combined"),
        Profile::Rfc3986,
        repo("samples/access.log"),
    ));
    for (input, profile, file) in cases {
        let mut run = Run::new(input);
        run.profile = profile;
        let (engine, schema) = run.engine();
        for tf in [TextFormat::Jsonl, TextFormat::Tsv, TextFormat::Csv] {
            let mut fast = TextWriter::new(tf, schema.clone());
            let mut general = TextWriter::new(tf, schema.clone()).general_only();
            let mut worker = Worker::default();
            let read = ReadOptions {
                chunk_bytes: 1 << 16,
                ..ReadOptions::default()
            };
            for item in Reader::new(std::slice::from_ref(&file), read) {
                let Item::Chunk(chunk) = item else {
                    panic!("fault")
                };
                let job = Job {
                    chunk,
                    context: None,
                };
                let rows = worker.parse(&engine, &job);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let na = fast.write(&rows, &mut a);
                let nb = general.write(&rows, &mut b);
                assert!(a[..na] == b[..nb], "{profile:?} {tf:?} {}", file.display());
            }
        }
    }
}

#[test]
fn a_truncated_gzip_stream_keeps_the_rows_before_it() {
    use std::io::Write;
    let text: Vec<u8> = (0..20_000)
        .map(|i| format!("http://a/{i}\n"))
        .collect::<String>()
        .into_bytes();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    let whole = temp("whole.gz", &gz);
    let cut = temp("cut.gz", &gz[..gz.len() / 2]);
    for threads in [1, 2] {
        let mut run = Run::new(input("lines"));
        run.threads = threads;
        let all = run.jsonl(std::slice::from_ref(&whole));
        assert_eq!(all.len(), 20_000);
        let (out, rows, faults) = run.out(std::slice::from_ref(&cut), OutputFormat::Jsonl);
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert!(
            faults[0].contains("cut.gz") && faults[0].contains("gzip"),
            "{faults:?}"
        );
        let got = rows_of(&out);
        assert_eq!(got.len() as u64, rows);
        assert!(rows > 1000 && rows < 20_000);
        // Everything before the fault, as the whole stream gives it (the
        // last line may be cut short).
        let n = got.len() - 1;
        assert_eq!(got[..n], all[..n]);
    }
}

#[test]
fn concatenated_gzip_members_and_zstd_frames_are_all_read() {
    use std::io::Write;
    let part = |i: usize| format!("http://a/{i}\n").repeat(1000).into_bytes();
    let mut gz = Vec::new();
    let mut zs = Vec::new();
    for i in 0..3 {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&part(i)).unwrap();
        gz.extend(e.finish().unwrap());
        zs.extend(zstd::encode_all(&part(i)[..], 1).unwrap());
    }
    for (name, bytes) in [("m.gz", gz), ("f.zst", zs)] {
        let rows = Run::new(input("lines")).jsonl(&[temp(name, &bytes)]);
        assert_eq!(rows.len(), 3000, "{name}");
        assert_eq!(rows[2999]["path"], "/2");
        assert_eq!(rows[2999]["line"], 3000);
    }
}

#[test]
fn json_lines_that_are_not_json_or_not_strings_are_error_rows() {
    let text = b"{\"u\":\"http://a/\"}\nnot json\n{\"u\":42}\n{\"u\":null}\n{}\n{\"u\":\"a\\/b\\u0041\"}\n{\"u\":\"x\n";
    let rows = Run::new(input("jsonl:u")).jsonl(&[temp("bad.jsonl", text)]);
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[0]["valid"], true);
    assert_eq!(rows[1]["error"]["kind"], "format");
    assert_eq!(
        rows[1]["error"]["message"],
        "line 2: not a JSON object (JSON Lines)"
    );
    assert_eq!(
        rows[2]["error"]["message"],
        "line 3: the field is a number, not a string (JSON Lines)"
    );
    assert_eq!(rows[2]["valid"], Value::Null);
    // Missing or null: no reference, no error.
    for r in [3, 4] {
        assert_eq!(rows[r]["valid"], Value::Null);
        assert_eq!(rows[r]["error"], Value::Null);
    }
    assert_eq!(rows[5]["path"], "a/bA");
    assert!(rows[6]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unclosed string"));
}

#[test]
fn a_csv_quote_never_closed_is_an_error_row_after_the_good_rows() {
    let text = b"url,x\nhttp://a/,\"q,\nq\"\n\"http://b/\",1\n\"http://c/\nnever closed\n";
    let rows = Run::new(input("csv:1")).jsonl(&[temp("bad.csv", text)]);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1]["host"], "a");
    assert_eq!(rows[2]["host"], "b");
    assert_eq!(rows[2]["line"], 4);
    assert_eq!(rows[3]["line"], 5);
    assert_eq!(rows[3]["error"]["message"], "line 5: unclosed quote (CSV)");
}

#[test]
fn a_line_over_the_limit_is_an_error_row_and_its_neighbours_stay() {
    let mut text = b"http://a/\n".to_vec();
    text.extend(std::iter::repeat_n(b'x', 10 << 20));
    text.extend_from_slice(b"\nhttp://b/\n");
    let file = temp("long.txt", &text);
    for (threads, chunk) in [(1, 1 << 18), (2, 1000), (4, 1 << 20)] {
        let mut run = Run::new(input("lines"));
        run.max = 1 << 20;
        run.threads = threads;
        run.chunk = chunk;
        let rows = run.jsonl(std::slice::from_ref(&file));
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0]["host"], "a");
        assert_eq!(rows[1]["error"]["kind"], "format");
        assert_eq!(
            rows[1]["error"]["message"],
            "line 2: longer than the limit of 1048576 bytes (10485760 bytes; --max-line-bytes)"
        );
        assert_eq!(rows[2]["host"], "b");
        assert_eq!(rows[2]["line"], 3);
    }
    // Under the default limit the 10 MB line is parsed: a relative path.
    let rows = Run::new(input("lines")).jsonl(&[file]);
    assert_eq!(rows[1]["valid"], true);
    assert_eq!(rows[1]["path"].as_str().map(str::len), Some(10 << 20));
}

#[test]
fn access_log_lines_read_as_their_forms_say() {
    let log = [
        combined_line(b"//evil.example/x?q", b"-"),
        b"1.2.3.4 - - [t] \"CONNECT [2001:db8::1]:8443 HTTP/1.1\" 200 0 \"-\" \"-\"".to_vec(),
        b"1.2.3.4 - - [t] \"OPTIONS * HTTP/1.1\" 200 0 \"-\" \"-\"".to_vec(),
        b"1.2.3.4 - - [t] \"GET * HTTP/1.1\" 400 0 \"-\" \"-\"".to_vec(),
        b"1.2.3.4 - - [t] \"GET /q?x=\\\"y\\\" HTTP/1.1\" 400 0 \"-\" \"-\"".to_vec(),
        b"1.2.3.4 - - [t] \"GET /bad\\xff HTTP/1.1\" 400 0 \"-\" \"-\"".to_vec(),
        b"1.2.3.4 - - [t] \"\\x16\\x03\\x01\" 400 0 \"-\" \"-\"".to_vec(),
        b"1.2.3.4 - - [t] \"GET http://a.example:8080/p HTTP/1.0\" 200 1 \"http://r.example/\" \"-\"".to_vec(),
        b"1.2.3.4 - - [t] \"GET / HTTP/1.1\" 200 1".to_vec(),
    ]
    .join(&b'\n');
    let file = temp("forms.log", &log);
    let mut run = Run::new(input("combined"));
    run.field = LogField::Both;
    run.fields = Some("default,method,status,bytes,referer");
    let rows = run.jsonl(std::slice::from_ref(&file));
    assert_eq!(rows.len(), 9);
    // origin-form: "//evil.example/x" is a path, not an authority.
    assert_eq!(rows[0]["target_form"], "origin");
    assert_eq!(rows[0]["path"], "//evil.example/x");
    assert_eq!(rows[0]["host"], Value::Null);
    assert_eq!(rows[0]["query"], "q");
    // "-" is no referer: absent, not an error.
    assert_eq!(rows[0]["referer_valid"], Value::Null);
    assert_eq!(rows[0]["referer_error"], Value::Null);
    assert_eq!(rows[1]["target_form"], "authority");
    assert_eq!(rows[1]["host_kind"], "ipv6");
    assert_eq!(rows[1]["port_number"], 8443);
    assert_eq!(rows[1]["scheme"], Value::Null);
    assert_eq!(rows[2]["target_form"], "asterisk");
    assert_eq!(rows[2]["valid"], true);
    assert_eq!(rows[3]["target_form"], "absolute");
    assert_eq!(rows[3]["valid"], false);
    // The logger's escapes undone before parsing.
    assert_eq!(rows[4]["error"]["index"], 5);
    assert_eq!(
        rows[4]["error"]["message"],
        "invalid character '\"' (0x22) at byte 5 in query (rule query)"
    );
    // Bytes that are not UTF-8: the error keeps them.
    assert_eq!(rows[5]["error"]["raw"], hex(b"/bad\xff"));
    assert_eq!(rows[6]["error"]["kind"], "format");
    assert_eq!(
        rows[6]["error"]["message"],
        "line 7: no target in the request line (combined format)"
    );
    assert_eq!(rows[7]["scheme"], "http");
    assert_eq!(rows[7]["port_number"], 8080);
    assert_eq!(rows[7]["method"], "GET");
    assert_eq!(rows[7]["status"], 200);
    assert_eq!(rows[7]["bytes"], 1);
    assert_eq!(rows[7]["referer_host"], "r.example");
    assert_eq!(rows[7]["referer"], "http://r.example/");
    assert_eq!(
        rows[8]["error"]["message"],
        "line 9: no referer field (combined format)"
    );
    // The common format has no referer: the same line reads.
    let rows = Run::new(input("common")).jsonl(&[file]);
    assert_eq!(rows[8]["valid"], true);
}

#[test]
fn binary_bytes_give_one_row_each() {
    let mut text = Vec::new();
    for i in 0..=255u8 {
        text.extend_from_slice(&[i, i.wrapping_mul(7), 0, 0xff]);
        text.push(b'\n');
    }
    let file = temp("binary.bin", &text);
    for input in [
        input("lines"),
        input("combined"),
        input("jsonl:u"),
        input("tsv:1"),
    ] {
        let rows = Run::new(input.clone()).jsonl(std::slice::from_ref(&file));
        // A line per LF (two of the 256 lines hold one more).
        assert_eq!(
            rows.len(),
            text.iter().filter(|&&b| b == b'\n').count(),
            "{input}"
        );
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r["line"], i as u64 + 1);
        }
    }
}

#[test]
fn a_named_column_missing_from_the_header_is_one_fault() {
    let file = temp("noheader.csv", b"a,b\n1,2\n");
    let run = Run::new(input("csv:url"));
    let (out, rows, faults) = run.out(&[file], OutputFormat::Jsonl);
    assert!(out.is_empty() && rows == 0);
    assert_eq!(faults.len(), 1);
    assert!(
        faults[0].contains("no column `url` in the header (its columns: a, b)"),
        "{faults:?}"
    );
}

#[test]
fn the_schema_names_its_columns_and_refuses_unknown_ones() {
    let mut ex = Extractor {
        format: input("combined"),
        syntax: Syntax::Reference,
        field: LogField::Target,
        carry: Vec::new(),
        max_record_bytes: 1 << 20,
    };
    let s = Schema::new(Profile::Rfc3986, &mut ex, None).unwrap();
    assert_eq!(
        s.names,
        [
            "line",
            "valid",
            "target_form",
            "scheme",
            "authority",
            "userinfo",
            "host",
            "host_kind",
            "port",
            "port_number",
            "path",
            "query",
            "fragment",
            "error"
        ]
    );
    let e = Schema::new(Profile::Rfc3986, &mut ex, Some("line,nope")).unwrap_err();
    assert!(
        e.contains("unknown field `nope`") && e.contains("user_agent"),
        "{e}"
    );
    let s = Schema::new(Profile::Rfc3986, &mut ex, Some("host,status,time")).unwrap();
    assert_eq!(s.names, ["host", "status", "time"]);
    assert_eq!(ex.carry.len(), 2);
}

/// Several compressed files (decompressed ahead on threads of their own)
/// and a plain one between them: every row, in input order, line numbers
/// from 1 in each input.
#[test]
fn several_compressed_inputs_in_order() {
    use std::io::Write;
    let mut files = Vec::new();
    for i in 0..5 {
        let text: String = (0..3000).map(|k| format!("http://h{i}/{k}\n")).collect();
        let bytes = if i == 2 {
            text.into_bytes()
        } else if i % 2 == 0 {
            zstd::encode_all(text.as_bytes(), 1).unwrap()
        } else {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(text.as_bytes()).unwrap();
            e.finish().unwrap()
        };
        files.push(temp(&format!("several{i}"), &bytes));
    }
    for threads in [1, 2, 4] {
        let mut run = Run::new(input("lines"));
        run.threads = threads;
        run.chunk = 5000;
        let rows = run.jsonl(&files);
        assert_eq!(rows.len(), 15_000);
        for (n, r) in rows.iter().enumerate() {
            assert_eq!(r["host"], format!("h{}", n / 3000));
            assert_eq!(r["line"], (n % 3000) as u64 + 1);
        }
    }
}

/// Text rows written at their offsets by several threads into a regular
/// file are the bytes written in order to a stream, from the offset given.
#[cfg(unix)]
#[test]
fn rows_written_at_their_offsets_equal_the_stream() {
    let file = repo("samples/access.log");
    for (input, format) in [
        (input("combined"), OutputFormat::Jsonl),
        (input("lines"), OutputFormat::Csv),
        (input("combined"), OutputFormat::Tsv),
    ] {
        let mut run = Run::new(input.clone());
        run.chunk = 3000;
        let (want, _, _) = run.out(std::slice::from_ref(&file), format);
        for (threads, writers) in [(1, 1), (2, 2), (4, 3)] {
            run.threads = threads;
            let (engine, schema) = run.engine();
            let path = temp(&format!("at-{threads}-{writers}.txt"), b"HEAD\n");
            let out = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            let read = ReadOptions {
                chunk_bytes: run.chunk,
                ..ReadOptions::default()
            };
            let pipeline = urilex_io::run::Pipeline {
                files: std::slice::from_ref(&file),
                read,
                engine: &engine,
                threads,
            };
            let rows = urilex_io::run::RowOutput {
                schema: &schema,
                format,
                header: format == OutputFormat::Csv,
                compress: None,
            };
            let at = urilex_io::run::FileAt {
                file: out,
                start: 5,
                writers,
                positions: &urilex_io::run::Positions::new(),
            };
            let report = urilex_io::run::Report {
                fault: &mut |m| panic!("{m}"),
                progress: &mut |_| {},
            };
            let (summary, end) = pipeline.write_at(rows, at, report).unwrap();
            let got = std::fs::read(&path).unwrap();
            assert_eq!(&got[..5], b"HEAD\n");
            assert!(
                got[5..] == want[..],
                "{input} {format:?} {threads} {writers}"
            );
            assert_eq!(end, 5 + want.len() as u64);
            assert!(summary.rows > 2000);
        }
    }
}

/// `port_number` is the port's value as RFC 3986 3.2.3 writes it (`*DIGIT`:
/// leading zeros allowed), the same on the straight line and the general
/// path, in every format.
#[test]
fn port_numbers_as_the_grammar_reads_them() {
    let file = temp(
        "ports.txt",
        b"http://a:000080/\nhttp://a:65535/\nhttp://a:65536/\nhttp://a:/\nhttp://a/\n",
    );
    let want = [
        json!(80),
        json!(65535),
        Value::Null,
        Value::Null,
        Value::Null,
    ];
    let run = Run::new(input("lines"));
    let rows = run.jsonl(std::slice::from_ref(&file));
    let got: Vec<Value> = rows.iter().map(|r| r["port_number"].clone()).collect();
    assert_eq!(got, want);
    assert_eq!(rows[0]["port"], "000080");
    for f in [OutputFormat::Arrow, OutputFormat::Parquet] {
        let (out, _, _) = run.out(std::slice::from_ref(&file), f);
        let got: Vec<Value> = json_rows(&read_back(&out, f))
            .iter()
            .map(|r| r["port_number"].clone())
            .collect();
        assert_eq!(got, want, "{f:?}");
    }
}

/// A TSV column by header name: the header gives no row.
#[test]
fn a_tsv_column_by_header_name() {
    let file = temp("named.tsv", b"id\turl\n1\thttp://a/\n2\tnot a uri\n");
    let rows = Run::new(input("tsv:url")).jsonl(&[file]);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["line"], 2);
    assert_eq!(rows[0]["host"], "a");
    assert_eq!(rows[1]["valid"], false);
}

/// A projection of the schema gives the projected columns of the full
/// rows, and its decoders take out only the carried fields it holds.
#[test]
fn a_projected_schema_gives_the_projected_columns() {
    use urilex_io::columnar::BatchBuilder;
    let mut run = Run::new(input("combined"));
    run.fields = Some("all");
    let (engine, schema) = run.engine();
    let names = &schema.names;
    let at = |n: &str| names.iter().position(|x| x == n).unwrap();
    let keep = [at("host"), at("line"), at("status"), at("user_agent")];
    let mut ex = engine.extractor.clone();
    let projected = schema.project(&keep, &mut ex);
    assert_eq!(projected.names, ["host", "line", "status", "user_agent"]);
    assert_eq!(ex.carry.len(), 2, "only the projected carried fields");
    assert!(projected.reads_references());
    assert!(!schema
        .project(&[at("line"), at("status")], &mut ex.clone())
        .reads_references());
    let small = urilex_io::rows::Engine {
        extractor: ex,
        ..engine.clone()
    };
    let (full, part) = (
        BatchBuilder::new(schema.clone()),
        BatchBuilder::new(projected),
    );
    let read = ReadOptions {
        chunk_bytes: 1 << 12,
        number_lines: true,
        ..ReadOptions::default()
    };
    let (mut w1, mut w2) = (Worker::default(), Worker::default());
    let mut chunks = 0;
    for item in Reader::new(&[repo("samples/access.log")], read) {
        let Item::Chunk(chunk) = item else {
            panic!("fault")
        };
        let job = Job {
            chunk,
            context: None,
        };
        let a = full.build(&w1.parse(&engine, &job));
        let b = part.build(&w2.parse(&small, &job));
        assert_eq!(b.num_rows(), a.num_rows());
        for (i, &k) in keep.iter().enumerate() {
            assert_eq!(b.column(i), a.column(k), "{}", names[k]);
        }
        chunks += 1;
    }
    assert!(chunks > 1);
}
