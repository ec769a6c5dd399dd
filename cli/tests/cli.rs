//! The `urilex` binary end to end: every published parse vector through
//! `urilex parse`, row counts on hostile input, exit codes.

mod common;

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

fn urilex(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    common::run_in(None, args, stdin)
}

/// The JSON Lines rows of an output.
fn json_rows(out: &[u8]) -> Vec<Value> {
    out.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

/// Same decisions as tests/vectors.rs, by RFC 3986 section 3.2.2.
fn rfc_verdict(r: &Value) -> bool {
    if r.get("contested").and_then(Value::as_bool) == Some(true) {
        return !r["note"].as_str().unwrap_or("").contains("zone ID");
    }
    r["valid"].as_bool().expect("valid")
}

#[test]
fn parse_vectors_through_the_cli() {
    let records: Vec<Value> = include_str!("../../tests/data/parse.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    for syntax in ["reference", "uri"] {
        let chosen: Vec<&Value> = records
            .iter()
            .filter(|r| {
                let g = r.get("grammar").and_then(Value::as_str);
                let is_uri = matches!(g, Some("URI") | Some("IRI"));
                is_uri == (syntax == "uri")
            })
            .filter(|r| !r["input"].as_str().unwrap_or("").contains(['\n', '\r']))
            .collect();
        let mut input = Vec::new();
        for r in &chosen {
            input.extend_from_slice(r["input"].as_str().unwrap_or("").as_bytes());
            input.push(b'\n');
        }
        let (code, out, err) = urilex(&["parse", "--syntax", syntax], &input);
        assert_eq!(code, 0, "{err}");
        let rows: Vec<Value> = out
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).expect("row"))
            .collect();
        assert_eq!(rows.len(), chosen.len());
        for (r, row) in chosen.iter().zip(&rows) {
            let want = rfc_verdict(r);
            assert_eq!(row["valid"].as_bool(), Some(want), "{r} -> {row}");
            let keys = [
                "scheme",
                "authority",
                "userinfo",
                "host",
                "host_kind",
                "port",
                "path",
                "query",
                "fragment",
            ];
            // line, valid, the eight parts, host_kind, port_number, error:
            // the same keys in every row (docs/schema.md).
            assert_eq!(row.as_object().map(|o| o.len()), Some(13), "{row}");
            if want {
                for k in keys {
                    if let Some(v) = r.get(k) {
                        assert_eq!(&row[k], v, "{k} of {}", r["input"]);
                    }
                }
            } else {
                let e = &row["error"];
                for k in ["kind", "part", "index", "rule", "message", "raw"] {
                    assert!(e.get(k).is_some(), "{row}");
                }
            }
        }
    }
}

#[test]
fn one_row_per_line_whatever_the_bytes() {
    let mut input = Vec::new();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut lines = 0;
    for _ in 0..2000 {
        let len = (x >> 58) as usize;
        for _ in 0..len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = x as u8;
            if b != b'\n' {
                input.push(b);
            }
        }
        input.push(b'\n');
        lines += 1;
    }
    input.extend_from_slice(b"no final newline");
    lines += 1;
    let (code, out, _) = urilex(&["parse"], &input);
    assert_eq!(code, 0);
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), lines);
    let (code, out, _) = urilex(&["parse", "--format", "tsv"], &input);
    assert_eq!(code, 0);
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), lines);
}

#[test]
fn invalid_utf8_is_a_row_with_its_offset() {
    let (code, out, _) = urilex(&["parse"], b"/ok\n/caf\xc3\n");
    assert_eq!(code, 0);
    let rows = json_rows(&out);
    assert_eq!(rows[0]["valid"], true);
    assert_eq!(rows[1]["valid"], false);
    assert_eq!(rows[1]["error"]["index"], 4);
    assert_eq!(rows[1]["error"]["part"], "path");
    // The exact bytes of a line that is not UTF-8, as hex.
    assert_eq!(rows[1]["error"]["raw"], "2f636166c3");
}

#[test]
fn usage_and_io_errors_exit_2() {
    let (code, _, err) = urilex(&["parse", "/no/such/file"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file"), "{err}");
    let (code, _, _) = urilex(&["parse", "--profile", "nope"], b"");
    assert_eq!(code, 2);
    let (code, _, _) = urilex(&["frobnicate"], b"");
    assert_eq!(code, 2);
}

#[test]
fn profiles_by_name() {
    let (code, out, _) = urilex(
        &["parse", "--profile", "rfc2396bis-00"],
        b"http://[v1.x]/\n",
    );
    assert_eq!(code, 0);
    // Seed 000 has no IPvFuture.
    assert_eq!(
        json_rows(&out)[0]["valid"],
        false,
        "{}",
        String::from_utf8_lossy(&out)
    );
    let (_, out, _) = urilex(&["parse", "--profile", "rfc3986"], b"http://[v1.x]/\n");
    assert_eq!(json_rows(&out)[0]["valid"], true);
}

#[path = "../../tests/support/expect.rs"]
mod expect;

fn run_lines(args: &[&str], lines: &[String]) -> Vec<String> {
    let mut input = lines.join("\n").into_bytes();
    input.push(b'\n');
    let (code, out, err) = urilex(args, &input);
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).expect("utf-8 output");
    let rows: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(rows.len(), lines.len());
    rows
}

fn check_resolve_table(args: &[&str], table: &[(&str, &str)]) {
    let refs: Vec<String> = table.iter().map(|(r, _)| r.to_string()).collect();
    let rows = run_lines(args, &refs);
    for ((r, want), got) in table.iter().zip(rows) {
        let want = want.replace("(current document)", expect::BASE);
        assert_eq!(got, want, "{args:?} {r:?}");
    }
}

#[test]
fn resolve_tables_through_the_cli() {
    let base = ["resolve", "--base", expect::BASE];
    check_resolve_table(&base, &expect::RFC3986_NORMAL);
    check_resolve_table(&base, &expect::RFC3986_ABNORMAL);
    check_resolve_table(
        &["resolve", "--base", expect::BASE, "--non-strict"],
        &[("http:g", "http://a/b/c/g")],
    );
    check_resolve_table(
        &[
            "resolve",
            "--base",
            expect::BASE,
            "--profile",
            "rfc2396bis-00",
        ],
        &expect::SEED_000,
    );
    check_resolve_table(
        &[
            "resolve",
            "--base",
            expect::BASE,
            "--profile",
            "url-draft-05",
        ],
        &expect::SEED_001,
    );
    check_resolve_table(
        &[
            "resolve",
            "--base",
            expect::BASE,
            "--dot-above-root",
            "keep",
        ],
        &[("../../../g", "http://a/../g")],
    );
    let rows = run_lines(
        &[
            "resolve",
            "--base",
            expect::BASE,
            "--dot-above-root",
            "error",
        ],
        &["../../../g".into()],
    );
    assert!(rows[0].starts_with("ERROR"), "{rows:?}");
}

#[test]
fn resolve_and_normalize_vectors_through_the_cli() {
    let mut pairs = Vec::new();
    let mut wants = Vec::new();
    for line in include_str!("../../tests/data/resolve.jsonl").lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        let (b, x) = (r["base"].as_str().unwrap(), r["ref"].as_str().unwrap());
        if (b.to_string() + x).contains(['\n', '\r', '\t']) {
            // Not expressible as one TSV line; such records are invalid
            // references anyway, and tests/resolve.rs covers them.
            continue;
        }
        pairs.push(format!("{b}\t{x}"));
        wants.push(match expect::resolve_expectation(&r) {
            Some(Ok(w)) => Some(w),
            Some(Err(())) => None,
            None => Some(r["expected"].as_str().unwrap().to_string()),
        });
    }
    let rows = run_lines(&["resolve", "--pairs"], &pairs);
    for ((p, want), got) in pairs.iter().zip(&wants).zip(&rows) {
        match want {
            Some(w) => assert_eq!(got, w, "{p:?}"),
            None => assert!(got.starts_with("ERROR"), "{p:?}: {got}"),
        }
    }
    assert!(pairs.len() > 1000);
    // Normalize: each record with the options its RFC answer needs.
    let mut groups: std::collections::BTreeMap<Vec<&str>, Vec<(String, String)>> =
        Default::default();
    for line in include_str!("../../tests/data/normalize.jsonl").lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        let (o, want) = expect::normalize_expectation(&r);
        let mut args = vec!["normalize"];
        if o == urilex::NormalizeOptions::new().ipv6_rfc5952(true) {
            args.push("--ipv6-rfc5952");
        } else {
            assert_eq!(o, urilex::NormalizeOptions::new());
        }
        groups
            .entry(args)
            .or_default()
            .push((r["input"].as_str().unwrap().to_string(), want));
    }
    let mut n = 0;
    for (args, items) in groups {
        let inputs: Vec<String> = items.iter().map(|(i, _)| i.clone()).collect();
        let rows = run_lines(&args, &inputs);
        for ((input, want), got) in items.iter().zip(rows) {
            assert_eq!(&got, want, "{args:?} {input:?}");
            n += 1;
        }
    }
    assert_eq!(n, 248);
}

#[test]
fn lint_runs_over_the_corpora() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../benches/data/kasztp.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_urilex"))
        .args(["lint", path])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let rows: Vec<Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 48_010);
    assert_eq!(rows.iter().filter(|r| r["valid"] == false).count(), 341);
    let lints: usize = rows
        .iter()
        .map(|r| r["lints"].as_array().unwrap().len())
        .sum();
    assert!(lints > 0);
    for r in &rows {
        for l in r["lints"].as_array().unwrap() {
            let (s, e) = (
                l["start"].as_u64().unwrap() as usize,
                l["end"].as_u64().unwrap() as usize,
            );
            assert_eq!(r["input"].as_str().unwrap().get(s..e), l["text"].as_str());
        }
    }
}

/// Lines end at LF; a CR right before the LF is dropped; any other CR stays
/// in its line (an invalid character there); NUL and invalid UTF-8 lines are
/// rows with their offsets; the last line needs no newline.
#[test]
fn nothing_lost_exact_rows() {
    let (code, out, err) = urilex(&["parse"], b"a\r\nb\rc\n\0\n\xff\n\n\r\nlast");
    assert_eq!(code, 0, "{err}");
    let rows = json_rows(&out);
    let summary: Vec<(bool, Option<u64>)> = rows
        .iter()
        .map(|r| (r["valid"].as_bool().unwrap(), r["error"]["index"].as_u64()))
        .collect();
    assert_eq!(
        summary,
        [
            (true, None),
            (false, Some(1)),
            (false, Some(0)),
            (false, Some(0)),
            (true, None),
            (true, None),
            (true, None)
        ]
    );
    assert_eq!(rows[6]["path"], "last");
    assert_eq!(rows[4]["path"], "");
}

#[test]
fn a_million_empty_lines() {
    let input = vec![b'\n'; 1_000_000];
    let (code, out, _) = urilex(&["parse", "--format", "tsv"], &input);
    assert_eq!(code, 0);
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1_000_000);
    // Each row: its line number, then `true`.
    assert!(out
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .enumerate()
        .all(|(i, l)| l.starts_with(format!("{}\ttrue\t", i + 1).as_bytes())));
}

/// A reader that goes away ends the run quietly (exit 0, nothing on stderr).
#[test]
fn closed_pipe_ends_quietly() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_urilex"))
        .args(["parse"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = b"http://example.com/some/path?q=1\n".repeat(200_000);
        let _ = stdin.write_all(&line);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn unreadable_input_exits_2_naming_it() {
    let dir = std::env::temp_dir();
    let (code, _, err) = urilex(&["parse", dir.to_str().unwrap()], b"");
    assert_eq!(code, 2);
    assert!(err.contains(dir.to_str().unwrap()), "{err}");
    for cmd in ["resolve", "normalize", "lint"] {
        let mut args = vec![cmd];
        if cmd == "resolve" {
            args.extend(["--base", "http://a/"]);
        }
        args.push("/no/such/file");
        let (code, _, err) = urilex(&args, b"");
        assert_eq!(code, 2, "{cmd}");
        assert!(err.contains("/no/such/file"), "{cmd}: {err}");
    }
}

#[test]
fn validate_counts_and_exit_status() {
    let kasztp = concat!(env!("CARGO_MANIFEST_DIR"), "/../benches/data/kasztp.txt");
    let nodes = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../benches/data/node_files.txt"
    );
    for threads in ["1", "2"] {
        let out = Command::new(env!("CARGO_BIN_EXE_urilex"))
            .args(["validate", "--threads", threads, kasztp])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("total\t48010\n") && text.contains("invalid\t341\n"),
            "{text}"
        );
        assert!(text.contains("invalid.invalid-character\t341\n"), "{text}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_urilex"))
        .args(["validate", nodes])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("valid\t43415\n"));
    let (code, _, _) = urilex(&["validate", "/no/such/file"], b"");
    assert_eq!(code, 2);
    let (code, out, _) = urilex(&["validate"], b"http://a/\n/b\n");
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&out));
}

#[test]
fn stats_counts_schemes_hosts_and_kinds() {
    let (code, out, err) = urilex(
        &["stats", "--top", "2"],
        b"http://a.example/\nHTTPS://A.example/x\nhttps://b.example\n//[::1]/\n/rel\nbad uri\n",
    );
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    for want in [
        "total\t6\n",
        "valid\t5\n",
        "invalid\t1\n",
        "invalid.invalid-character\t1\n",
        "scheme.https\t2\n",
        "scheme.http\t1\n",
        "scheme.(relative)\t2\n",
        "host_kind.reg-name\t3\n",
        "host_kind.ipv6\t1\n",
        "host.a.example\t2\n",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    assert_eq!(text.lines().filter(|l| l.starts_with("host.")).count(), 2);
}

#[test]
fn parse_output_does_not_depend_on_threads() {
    let mut input = Vec::new();
    for _ in 0..4 {
        input.extend_from_slice(include_bytes!("../../benches/data/kasztp.txt"));
        input.push(b'\n'); // the file has no final newline
    }
    let path = std::env::temp_dir().join(format!("urilex-threads-{}.txt", std::process::id()));
    std::fs::write(&path, &input).unwrap();
    let run = |t: &str| {
        Command::new(env!("CARGO_BIN_EXE_urilex"))
            .args(["parse", "--threads", t, path.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(
        one.stdout.iter().filter(|&&b| b == b'\n').count(),
        4 * 48_010
    );
    // Into a file, in every format: one worker (which reads on a thread
    // of its own where rows are numbered) writes the bytes two do.
    for format in ["jsonl", "tsv", "csv", "arrow", "parquet"] {
        let file = |t: &str| {
            let out = std::env::temp_dir().join(format!(
                "urilex-threads-{}-{t}.{format}",
                std::process::id()
            ));
            let status = Command::new(env!("CARGO_BIN_EXE_urilex"))
                .args(["parse", "--threads", t, "--format", format, "-o"])
                .args([&out, &path])
                .status()
                .unwrap();
            assert_eq!(status.code(), Some(0), "{format}");
            let bytes = std::fs::read(&out).unwrap();
            let _ = std::fs::remove_file(&out);
            bytes
        };
        let (one, two) = (file("1"), file("2"));
        assert!(!one.is_empty(), "{format}");
        assert!(one == two, "{format}: one thread's file differs from two's");
        if format == "jsonl" {
            assert_eq!(one.iter().filter(|&&b| b == b'\n').count(), 4 * 48_010);
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// `parse` rows list every part the profile's grammar declares, under the
/// grammar's names, in layout order, with the classified part's kind right
/// after it: RFC 6874's `zone` appears with no writer code of its own.
#[test]
fn rows_follow_the_profiles_parts() {
    for profile in urilex::Profile::ALL {
        // A profile that picks its rule by the scheme has rows by rule
        // (`rfc1738_rows_by_rule`).
        if profile.schemes().next().is_some() {
            continue;
        }
        let (code, out, err) = urilex(
            &["parse", "--profile", profile.name()],
            b"http://[fe80::1%25eth0]:80/a?q#f\nhttp://a b\n",
        );
        assert_eq!(code, 0, "{err}");
        let mut want: Vec<String> = vec!["line".into(), "valid".into()];
        for p in profile.parts() {
            want.push(p.name().into());
            if profile.kind_part() == Some(p) {
                want.push(format!("{}_kind", p.name()));
            }
            if p.name() == "port" {
                want.push("port_number".into());
            }
        }
        want.push("error".into());
        for (i, line) in out
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .enumerate()
        {
            let row: serde_json::Map<String, Value> = serde_json::from_slice(line).unwrap();
            let names = want.clone();
            assert_eq!(
                !row["error"].is_null(),
                i == 1 || *profile != urilex::Profile::Rfc6874
            );
            // The same keys, and in this order in the text.
            let mut sorted = names.clone();
            sorted.sort();
            assert_eq!(
                row.keys().cloned().collect::<Vec<_>>(),
                sorted,
                "{profile:?}"
            );
            let text = String::from_utf8_lossy(line);
            let at: Vec<usize> = names
                .iter()
                .map(|k| text.find(&format!("\"{k}\":")).unwrap())
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{profile:?}: {text}");
        }
    }
    let (_, out, _) = urilex(
        &["parse", "--profile", "rfc6874"],
        b"http://[fe80::1%25eth0]:80/a\nhttp://[::1]/\nhttp://[::1%25]/\n",
    );
    let rows = json_rows(&out);
    assert_eq!(rows[0]["zone"], "eth0");
    assert_eq!(rows[0]["host_kind"], "ipv6");
    assert_eq!(rows[1]["zone"], Value::Null);
    assert_eq!(rows[2]["error"]["part"], "zone");
    let (_, out, _) = urilex(
        &[
            "parse",
            "--profile",
            "rfc6874",
            "--format",
            "tsv",
            "--header",
        ],
        b"//[::1%25lo]\n",
    );
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .ends_with("\tfragment\tzone\terror_kind\terror_part\terror_index\terror_rule\terror_message\terror_raw"));
    assert!(lines
        .next()
        .unwrap()
        .ends_with("\t\\N\tlo\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N"));
}

/// A file that cannot be read is reported on stderr when it is met; the
/// others are still read; the exit status is 2 at the end (grep's way).
#[test]
fn a_missing_file_does_not_stop_the_others() {
    let dir = std::env::temp_dir().join(format!("urilex-cli-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "http://a/\n/b\n").unwrap();
    let good = good.to_str().unwrap();
    for cmd in ["parse", "validate", "stats", "lint", "normalize"] {
        let (code, out, err) = urilex(&[cmd, "/no/such/file", good], b"");
        assert_eq!(code, 2, "{cmd}");
        assert!(err.contains("/no/such/file"), "{cmd}: {err}");
        assert!(
            !out.is_empty(),
            "{cmd}: the readable file's rows are printed"
        );
    }
    let (_, out, _) = urilex(&["parse", good, "/no/such/file", good], b"");
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rows and messages name the 1-based line: JSON Lines errors carry `line`,
/// text rows say `FILE:LINE:` (standard input is `-`).
#[test]
fn errors_name_their_line() {
    let (_, out, _) = urilex(&["parse"], b"http://a/\n\nhttp://a b/\nx\n");
    let rows = json_rows(&out);
    assert_eq!(rows[2]["line"], 3);
    assert!(!rows[2]["error"].is_null());
    let (_, out, _) = urilex(&["normalize"], b"http://a/\nhttp://a b/\n");
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text.lines().nth(1).unwrap(),
        "ERROR -:2: invalid character ' ' (0x20) at byte 8 in host (rule reg-name)"
    );
    let (_, out, _) = urilex(&["lint"], b"ok:x\nbad bad\n");
    let row: Value = serde_json::from_slice(out.split(|&b| b == b'\n').nth(1).unwrap()).unwrap();
    assert_eq!(row["line"], 2);
    // Line numbers go on across chunks and count from 1 in each file.
    let many = "http://a/\n".repeat(300_000) + "bad bad\n";
    let (_, out, _) = urilex(&["parse"], many.as_bytes());
    let last: Value =
        serde_json::from_slice(out.split(|&b| b == b'\n').nth(300_000).unwrap()).unwrap();
    assert_eq!(last["line"], 300_001);
    assert_eq!(last["valid"], false);
}

#[test]
fn usage_mistakes_are_explained() {
    let (code, _, err) = urilex(&["resolve"], b"x\n");
    assert_eq!(code, 2);
    assert!(err.contains("--base") && err.contains("--pairs"), "{err}");
    let (code, _, err) = urilex(&["parse", "--header"], b"x\n");
    assert_eq!(code, 2);
    assert!(err.contains("--header is for --format tsv"), "{err}");
}

/// Standard input is streamed: a row appears as soon as its line has
/// arrived, while the writer still holds the pipe open.
#[test]
fn rows_appear_as_lines_arrive() {
    use std::io::{BufRead, BufReader};
    for cmd in ["parse", "normalize", "lint"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_urilex"))
            .arg(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        stdin.write_all(b"http://a/one\n").unwrap();
        stdin.flush().unwrap();
        // Not a timing threshold: a generous bound so that a run that only
        // prints at the end fails instead of hanging.
        let first = rx.recv_timeout(std::time::Duration::from_secs(60));
        assert!(
            first.is_ok_and(|l| l.contains("one")),
            "{cmd}: no row before the input ended"
        );
        stdin.write_all(b"http://a/two\n").unwrap();
        drop(stdin);
        assert!(rx.recv().unwrap().contains("two"));
        assert!(child.wait().unwrap().success());
    }
}

/// Memory stays bounded on a large pipe (resident size sampled while it
/// runs; Linux only).
#[cfg(target_os = "linux")]
#[test]
fn piped_input_is_not_held_in_memory() {
    let block = "https://example.com/some/path?query=1#f\n".repeat(25_000); // 1 MB
    let (peak, code, out) =
        peak_rss_piped(&["validate", "--threads", "2"], block.into_bytes(), 200);
    assert_eq!(code, 0);
    assert!(String::from_utf8_lossy(&out).starts_with("total\t5000000\n"));
    assert!(
        peak > 0 && peak < 64 << 10,
        "peak resident {peak} kB for 200 MB piped"
    );
}

#[test]
fn man_page_and_completions() {
    let (code, out, _) = urilex(&["man"], b"");
    assert_eq!(code, 0);
    let man = String::from_utf8(out).unwrap();
    assert!(
        man.contains(".TH urilex") && man.contains("normalize"),
        "{man}"
    );
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, _) = urilex(&["completions", shell], b"");
        assert_eq!(code, 0);
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("rfc6874"),
            "{shell}: profiles come from the generated list"
        );
    }
}

/// `extract`: one row per hit in text order, with byte offsets and 1-based
/// lines in its input; `--only-uri`; TSV; across chunks and inputs.
#[test]
fn extract_rows() {
    let text =
        b"see \"http://a.example/x\",\nthen <URL:ftp://b.example/\n  y> and hxxp://c[.]example/.\n";
    let (code, out, err) = urilex(&["extract"], text);
    assert_eq!(code, 0, "{err}");
    let rows = json_rows(&out);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["uri"], "http://a.example/x");
    assert_eq!(
        (rows[0]["start"].as_u64(), rows[0]["end"].as_u64()),
        (Some(5), Some(23))
    );
    assert_eq!(rows[0]["line"], 1);
    assert_eq!(rows[0]["delimiter"], "quote");
    assert_eq!(rows[1]["uri"], "ftp://b.example/y");
    assert_eq!(rows[1]["line"], 2);
    assert_eq!(rows[1]["delimiter"], "url");
    assert_eq!(rows[1]["flags"][0], "whitespace-removed");
    let (_, out, _) = urilex(&["extract", "--only-uri", "--refang"], text);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "http://a.example/x\nftp://b.example/y\nhttp://c.example/\n"
    );
    let (_, out, _) = urilex(&["extract", "--format", "tsv"], b"x http://a/\n");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "1\thttp://a/\t2\t11\tnone\t[]\n"
    );
    // Many lines: lines and offsets go on across pieces and chunks.
    let big = "filler text without links, just words and more words\n".repeat(400_000)
        + "at last http://end.example/\n";
    let (_, out, _) = urilex(&["extract"], big.as_bytes());
    let row: Value = serde_json::from_slice(out.strip_suffix(b"\n").unwrap()).unwrap();
    assert_eq!(row["line"], 400_001);
    assert_eq!(row["start"].as_u64(), Some(big.len() as u64 - 20));
}

/// Every subcommand's `--help` shows examples.
#[test]
fn every_subcommand_has_examples() {
    for cmd in [
        "parse",
        "resolve",
        "validate",
        "stats",
        "lint",
        "normalize",
        "extract",
    ] {
        let (code, out, _) = urilex(&[cmd, "--help"], b"");
        assert_eq!(code, 0, "{cmd}");
        let text = String::from_utf8(out).unwrap();
        let examples = text.split("Examples:\n").nth(1).unwrap_or("");
        assert!(examples.contains(&format!("urilex {cmd}")), "{cmd}: {text}");
    }
}

/// `--profile rfc1738`: each row names the rule its scheme chose and lists
/// that rule's parts in a `parts` object (`null` absent, `""` empty, an
/// array for a repeated part); `--semantics` adds the typed fields of RFC
/// 1738 section 3; a bad line is an error row naming part, rule and byte.
#[test]
fn rfc1738_semantics_rows() {
    let input = b"ftp://@host.com/%2Fetc/motd;type=a\nnews:*\ngopher://h/1sel%09srch%09+\nhttp://h/a#frag\nprospero://h//x;a=b\nx-y:z\n";
    let (code, out, err) = urilex(&["parse", "--profile", "rfc1738", "--semantics"], input);
    assert_eq!(code, 0, "{err}");
    let rows = json_rows(&out);
    assert_eq!(rows.len(), 6);
    let ftp = &rows[0];
    assert_eq!(ftp["rule"], "ftpurl");
    // Parse rows: each part at top level, null where the rule has none.
    assert_eq!(ftp["user"], "");
    assert_eq!(ftp["password"], Value::Null);
    assert_eq!(ftp["fsegment"], serde_json::json!(["%2Fetc", "motd"]));
    assert_eq!(ftp["ftptype"], "a");
    assert_eq!(ftp["gtype"], Value::Null, "only the ftp rule's parts");
    assert_eq!(ftp["host_kind"], "reg-name");
    let sem = &ftp["semantics"];
    assert_eq!(sem["section"], "3.2");
    assert_eq!(sem["port"], 21);
    assert_eq!(
        sem["login"],
        serde_json::json!({"user": "", "password": null})
    );
    assert_eq!(
        sem["commands"],
        serde_json::json!(["CWD /etc", "TYPE A", "RETR motd"])
    );
    assert_eq!(rows[1]["rule"], "newsurl");
    assert_eq!(rows[1]["grouppart"], "*");
    assert_eq!(rows[1]["semantics"]["target"], "all-groups");
    assert_eq!(rows[2]["search"], "srch");
    assert_eq!(rows[2]["semantics"]["gopher_type"], "1");
    assert_eq!(rows[2]["semantics"]["request"], "sel\tsrch\t+\r\n");
    assert_eq!(rows[3]["valid"], false);
    assert_eq!(rows[3]["scheme"], Value::Null);
    assert_eq!(rows[3]["semantics"], Value::Null);
    assert_eq!(rows[3]["error"]["part"], "hsegment");
    assert_eq!(rows[3]["error"]["index"], 10);
    assert_eq!(rows[3]["line"], 4);
    assert_eq!(rows[4]["semantics"]["hsoname"], "/x");
    assert_eq!(
        rows[4]["semantics"]["fields"],
        serde_json::json!([["a", "b"]])
    );
    assert_eq!(rows[5]["rule"], "genericurl");
    assert_eq!(rows[5]["schemepart"], "z");
    // Any format: the typed fields are JSON text in CSV.
    let (code, out, err) = urilex(
        &[
            "parse",
            "--profile",
            "rfc1738",
            "--semantics",
            "--format",
            "csv",
        ],
        b"news:*\n",
    );
    assert_eq!(code, 0, "{err}");
    let csv = String::from_utf8(out).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with(",error_raw,semantics"),
        "{csv}"
    );
    assert!(csv.contains("\"{\"\"default_port\"\":null,"), "{csv}");
    // --semantics needs the RFC 1738 profile.
    let (code, _, err) = urilex(&["parse", "--semantics"], b"http://a/\n");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--semantics"));
    // The bundled sample: every line valid.
    let sample = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../samples/rfc1738.txt"
    ))
    .unwrap();
    let (code, out, _) = urilex(&["parse", "--profile", "rfc1738", "--semantics"], &sample);
    assert_eq!(code, 0);
    let rows = json_rows(&out);
    assert!(rows.len() > 20);
    assert_eq!(
        rows.iter().filter(|r| r["valid"] == true).count(),
        rows.len() - 2
    );
}

/// `urilex urn`: every published URN vector (tests/data/urn.jsonl) through
/// the CLI, with its parts; every equivalence pair through `--equiv`; the
/// draft's directives and the NID message.
#[test]
fn urn_vectors_through_the_cli() {
    let text = include_str!("../../tests/data/urn.jsonl");
    let recs: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut input = Vec::new();
    for r in &recs {
        input.extend_from_slice(r["input"].as_str().unwrap().as_bytes());
        input.push(b'\n');
    }
    let (code, out, err) = urilex(&["urn"], &input);
    assert_eq!(code, 0, "{err}");
    let rows = json_rows(&out);
    assert_eq!(rows.len(), recs.len());
    for (r, row) in recs.iter().zip(&rows) {
        assert_eq!(row["valid"], r["valid"], "{}", r["input"]);
        for k in ["nid", "nss", "r", "q", "f"] {
            if let Some(v) = r.get(k) {
                assert_eq!(&row[k], v, "{} {k}", r["input"]);
            }
        }
        if row["valid"] == false {
            assert!(row["error"]["rule"].is_string() && row["error"]["index"].is_u64());
        }
    }
    let text = include_str!("../../tests/data/urn_equiv.jsonl");
    let recs: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut input = Vec::new();
    for r in &recs {
        input.extend_from_slice(
            format!(
                "{}\t{}\n",
                r["a"].as_str().unwrap(),
                r["b"].as_str().unwrap()
            )
            .as_bytes(),
        );
    }
    let (code, out, _) = urilex(&["urn", "--equiv"], &input);
    assert_eq!(code, 0);
    let got: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(got.len(), recs.len());
    for (r, g) in recs.iter().zip(got) {
        assert_eq!(
            g,
            if r["equivalent"] == true {
                "true"
            } else {
                "false"
            },
            "{r}"
        );
    }
    // The draft: directives, step 5b, and the NID's own message.
    let (_, out, _) = urilex(
        &["urn", "--profile", "urn-draft-03"],
        b"urn:isbn:0-395?s=I2L&c=ToC\nurn:-ab:x\n",
    );
    let rows = json_rows(&out);
    assert_eq!(
        rows[0]["directives"],
        serde_json::json!([["s", "I2L"], ["c", "ToC"]])
    );
    assert_eq!(rows[1]["error"]["part"], "nid");
    assert_eq!(
        rows[1]["error"]["message"],
        "NID must be 2 to 32 letters, digits or hyphens, not starting or ending with a hyphen: '-ab' at byte 4 (rule NID)"
    );
    let (_, out, _) = urilex(
        &["urn", "--equiv", "--profile", "urn-draft-03", "--query", "reorder"],
        b"urn:foo:a123,456?x=y\turn:foo:a123,456\nurn:a1:b?c=1&s=2\tURN:A1:b?s=2&c=1\nurn:a1:b\tnot-a-urn\n",
    );
    let got: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(got[..2], ["false", "true"]);
    assert!(got[2].starts_with("ERROR -:3: "), "{}", got[2]);
    // Only URN grammars are offered.
    let (code, _, _) = urilex(&["urn", "--profile", "rfc3986"], b"urn:a:b\n");
    assert_eq!(code, 2);
}

/// `urilex extract` over 40 MB of text where every other line goes on a
/// URI in <...> begun on the line before, so that the 16 MiB chunks of the
/// input and the 1 MiB pieces searched across the cores are cut inside
/// such URIs: from a file and from standard input, the rows are exactly
/// the hits of one search over the whole text.
#[test]
fn extract_across_chunk_and_piece_cuts() {
    let mut text = Vec::new();
    let mut n = 0u64;
    while text.len() < 40 << 20 {
        n += 1;
        text.extend_from_slice(
            format!(
                "see <URL:http://h{}.example/a/b-\n  c/{}> and \"http://q.example/{}\" here\n",
                n % 97,
                n,
                n
            )
            .as_bytes(),
        );
        if n.is_multiple_of(5) {
            text.extend_from_slice(
                b"plain prose without any link at all, http://bare.example/x.\n",
            );
        }
    }
    let want: Vec<(String, u64, u64)> =
        urilex::extract::find_iter(&text, urilex::extract::ExtractOptions::new())
            .map(|h| (h.uri.into_owned(), h.span.start as u64, h.span.end as u64))
            .collect();
    assert!(want.len() as u64 > 2 * n);
    let path = std::env::temp_dir().join(format!("urilex-extract-cuts-{}.txt", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    for (args, stdin) in [
        (
            vec!["extract", "--format", "tsv", path.to_str().unwrap()],
            &b""[..],
        ),
        (vec!["extract", "--format", "tsv"], &text[..]),
    ] {
        let (code, out, err) = urilex(&args, stdin);
        assert_eq!(code, 0, "{err}");
        let got: Vec<(String, u64, u64)> = std::str::from_utf8(&out)
            .unwrap()
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (
                    f[1].to_string(),
                    f[2].parse().unwrap(),
                    f[3].parse().unwrap(),
                )
            })
            .collect();
        assert_eq!(got.len(), want.len(), "{args:?}");
        if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
            panic!("{args:?}: row {i}: {:?} vs {:?}", got[i], want[i]);
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// Peak resident memory of `urilex ARGS` while `block` is piped in `times`
/// times, its output read and dropped; its exit code and the output's
/// first bytes.
fn peak_rss_piped(args: &[&str], block: Vec<u8>, times: usize) -> (u64, i32, Vec<u8>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_urilex"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..times {
            if stdin.write_all(&block).is_err() {
                break;
            }
        }
    });
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut head = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match stdout.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) if head.len() < 256 => head.extend_from_slice(&buf[..n.min(256)]),
                Ok(_) => {}
            }
        }
        head
    });
    let mut peak = 0u64;
    let status = format!("/proc/{pid}/status");
    while !reader.is_finished() {
        if let Ok(s) = std::fs::read_to_string(&status) {
            if let Some(kb) = s.lines().find_map(|l| l.strip_prefix("VmRSS:")) {
                let kb: u64 = kb
                    .trim()
                    .trim_end_matches(" kB")
                    .trim()
                    .parse()
                    .unwrap_or(0);
                peak = peak.max(kb);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    writer.join().unwrap();
    let head = reader.join().unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    (peak, code, head)
}

/// Standard input, compressed or not, stays within 64 MiB resident in
/// every output format, whatever its size (here 100 MB and more).
#[test]
fn piped_input_stays_in_bounded_memory_in_every_format() {
    let lines = "https://example.com/some/path?query=1#f\n"
        .repeat(25_000)
        .into_bytes(); // 1 MB
    for format in ["jsonl", "csv", "arrow", "parquet"] {
        let (peak, code, _) = peak_rss_piped(
            &["parse", "--threads", "2", "--format", format],
            lines.clone(),
            100,
        );
        assert_eq!(code, 0, "{format}");
        assert!(
            peak > 0 && peak < 64 << 10,
            "{format}: peak resident {peak} kB for 100 MB piped"
        );
    }
    // A gzip stream of a combined log, 100 copies of one member.
    let log: String = (0..8000)
        .map(|i| format!("10.0.0.1 - - [t] \"GET /p/{i}?q=1 HTTP/1.1\" 200 5 \"https://r.example/{i}\" \"agent\"\n"))
        .collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(log.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let args = [
        "parse",
        "--threads",
        "2",
        "--input",
        "combined",
        "--field",
        "both",
        "--format",
        "parquet",
    ];
    let (peak, code, _) = peak_rss_piped(&args, gz, 150);
    assert_eq!(code, 0);
    assert!(
        peak > 0 && peak < 64 << 10,
        "peak resident {peak} kB for a piped gzip log"
    );
}

/// The log formats through the binary: the bundled samples, compressed
/// standard input, Parquet to a file, and the counts of `validate` and
/// `stats`, which count records that do not fit the format apart.
#[test]
fn log_formats_through_the_cli() {
    let dir = std::env::temp_dir().join(format!("urilex-cli-logs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/access.log");
    let plain = std::fs::read(sample).unwrap();
    let records = plain.iter().filter(|&&b| b == b'\n').count();
    let (code, out, err) = urilex(&["parse", "--input", "combined", sample], b"");
    assert_eq!(code, 0, "{err}");
    let rows = json_rows(&out);
    assert_eq!(rows.len(), records);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["line"], i as u64 + 1);
    }
    // The same rows from gzip and zstd on standard input.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&plain).unwrap();
    let gz = gz.finish().unwrap();
    let zs = zstd::encode_all(&plain[..], 3).unwrap();
    for compressed in [gz, zs] {
        let (code, out2, err) = urilex(&["parse", "--input", "combined"], &compressed);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out2, out);
    }
    // Parquet to a file: a file with the rows (its readback is tested in
    // urilex-io); binary output is refused on no terminal only.
    let pq = dir.join("rows.parquet");
    let (code, _, err) = urilex(
        &[
            "parse",
            "--input",
            "combined",
            "--format",
            "parquet",
            "-o",
            pq.to_str().unwrap(),
            sample,
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&pq).unwrap().starts_with(b"PAR1"));
    // validate and stats count format errors apart from invalid URIs.
    let (code, out, _) = urilex(&["validate", "--input", "combined", sample], b"");
    assert_eq!(code, 1);
    let text = String::from_utf8(out).unwrap();
    let fmt = rows
        .iter()
        .filter(|r| r["error"]["kind"] == "format")
        .count();
    let invalid = rows.iter().filter(|r| r["valid"] == false).count();
    assert!(fmt > 0 && invalid > 0);
    assert!(
        text.contains(&format!("\nformat_errors\t{fmt}\n")),
        "{text}"
    );
    assert!(text.contains(&format!("\ninvalid\t{invalid}\n")), "{text}");
    let (_, out, _) = urilex(
        &["stats", "--input", "combined", "--field", "referer", sample],
        b"",
    );
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("scheme.https\t"), "{text}");
    assert!(text.contains("absent\t"), "{text}");
    // normalize and lint read the same records.
    let (_, out, _) = urilex(
        &["normalize", "--input", "jsonl:url.original"],
        b"{\"url\":{\"original\":\"HTTP://A/./b\"}}\nnope\n",
    );
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "http://a/b\nERROR -:2: line 2: not a JSON object (JSON Lines)\n"
    );
    // A flag error names what is wrong.
    let (code, _, err) = urilex(&["parse", "--input", "jsonl"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("`jsonl` needs a field"), "{err}");
    let (code, _, err) = urilex(&["parse", "--field", "referer"], b"");
    assert_eq!(code, 2);
    assert!(
        err.contains("need an input with referers (combined, w3c)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Standard output redirected to a file: the rows go after what the file
/// held at its position, and what is written next comes after them (the
/// rows are written at their offsets by several threads).
#[test]
fn rows_into_a_redirected_file_keep_their_place() {
    let dir = std::env::temp_dir().join(format!("urilex-cli-redirect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/access.log");
    let (_, piped, _) = urilex(&["parse", "--input", "combined", sample], b"");
    let path = dir.join("rows.jsonl");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(b"HEAD\n").unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_urilex"))
        .args(["parse", "--threads", "2", "--input", "combined", sample])
        .stdout(Stdio::from(f.try_clone().unwrap()))
        .status()
        .unwrap();
    assert!(status.success());
    f.write_all(b"TAIL\n").unwrap();
    let got = std::fs::read(&path).unwrap();
    let mut want = b"HEAD\n".to_vec();
    want.extend_from_slice(&piped);
    want.extend_from_slice(b"TAIL\n");
    assert!(got == want);
    let _ = std::fs::remove_dir_all(&dir);
}

/// normalize, lint and resolve read an access log's target by its form
/// too: in origin-form `//EXAMPLE/x` is a path (case kept), not a host
/// (which normalization would lower-case).
#[test]
fn line_commands_read_targets_by_their_form() {
    let log = b"1.2.3.4 - - [t] \"GET //EXAMPLE/./x HTTP/1.1\" 200 1 \"-\" \"-\"\n\
1.2.3.4 - - [t] \"CONNECT Example.COM:443 HTTP/1.1\" 200 1 \"-\" \"-\"\n";
    let (code, out, err) = urilex(&["normalize", "--input", "combined"], log);
    assert_eq!(code, 0, "{err}");
    // Without an authority a path cannot begin with "//" (RFC 3986 3.3):
    // the normal form writes "/." before it, so that it still reads as a
    // path; the authority-form target is an authority, written as a
    // network-path reference.
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "/.//EXAMPLE/x\n//example.com:443\n"
    );
    // As a plain reference the same text has a host.
    let (_, out, _) = urilex(&["normalize"], b"//EXAMPLE/./x\n");
    assert_eq!(String::from_utf8(out).unwrap(), "//example/x\n");
}

/// `URILEX_KERNEL` (a measuring aid): every kernel family this machine
/// runs gives the same rows, byte for byte, for `parse`, `validate` and
/// `extract` on the sample inputs; `--version` names the family; a family
/// the machine lacks, or no family, is refused (exit 2) before any work.
#[test]
fn every_kernel_family_gives_the_same_output() {
    let run = |family: Option<&str>, args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_urilex"));
        cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        if let Some(f) = family {
            cmd.env("URILEX_KERNEL", f);
        } else {
            cmd.env_remove("URILEX_KERNEL");
        }
        let out = cmd.args(args).stdin(Stdio::null()).output().expect("run");
        (out.status.code().unwrap_or(-1), out.stdout, out.stderr)
    };
    let (_, v, _) = run(None, &["--version"]);
    let v = String::from_utf8(v).unwrap();
    let best = v
        .lines()
        .find_map(|l| l.strip_prefix("kernels: "))
        .expect("--version names the kernels")
        .to_string();
    let families = urilex::KERNEL_FAMILIES;
    let at = families.iter().position(|f| *f == best).expect("a family");
    let jobs: [&[&str]; 3] = [
        &["parse", "samples/requests.txt"],
        &["validate", "samples/requests.txt"],
        &["extract", "tests/data/extract-seed002-appendix.txt"],
    ];
    let want: Vec<_> = jobs.iter().map(|a| run(None, a)).collect();
    let mut ran = 0;
    for f in &families[at..] {
        let x86 = !matches!(*f, "neon" | "scalar");
        if (*f == "neon" && cfg!(target_arch = "x86_64")) || (x86 && !cfg!(target_arch = "x86_64"))
        {
            continue;
        }
        let (code, v, _) = run(Some(f), &["--version"]);
        assert_eq!(code, 0, "{f}");
        assert!(String::from_utf8(v)
            .unwrap()
            .contains(&format!("kernels: {f}")));
        for (args, w) in jobs.iter().zip(&want) {
            let got = run(Some(f), args);
            assert_eq!((got.0, &got.1), (w.0, &w.1), "{f}: {args:?}");
        }
        ran += 1;
    }
    assert!(ran >= 2, "{ran} families");
    for f in &families[..at] {
        let (code, out, err) = run(Some(f), &["validate", "samples/requests.txt"]);
        assert_eq!(code, 2, "{f}");
        assert!(out.is_empty());
        assert!(String::from_utf8_lossy(&err).contains("this CPU cannot run"));
    }
    let (code, _, err) = run(Some("avx1024"), &["--version"]);
    assert_eq!(code, 2);
    assert!(String::from_utf8_lossy(&err).contains("no such kernel family"));
}

/// Every JSON row of every command starts with its record's `line`, and
/// an invalid or misfit record's `error` is the same object everywhere
/// (`kind`, `part`, `index`, `rule`, `message`, `raw`, in that order).
#[test]
fn every_json_row_has_its_line_and_one_error_object() {
    const KEYS: &str = r#""error":{"kind":"#;
    let order = [
        "\"part\":",
        "\"index\":",
        "\"rule\":",
        "\"message\":",
        "\"raw\":",
    ];
    let input = b"http://a/b\nhttp://a b/\n";
    let urns = b"urn:isbn:0451450523\nurn:x:bad\n";
    let rfc1738 = b"ftp://u@h/f\nftp://h:x/\n";
    let cases: [(&[&str], &[u8]); 6] = [
        (&["parse"], input),
        (&["lint"], input),
        (&["urn"], urns),
        (&["parse", "--profile", "rfc1738", "--semantics"], rfc1738),
        (&["get", "{host}", "--format", "jsonl"], input),
        (
            &["parse", "--input", "jsonl:u"],
            b"{\"u\":\"http://a/\"}\nnot json\n",
        ),
    ];
    for (args, stdin) in cases {
        let (_, out, err) = urilex(args, stdin);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {text}{err}");
        for (k, l) in lines.iter().enumerate() {
            assert!(
                l.starts_with(&format!("{{\"line\":{}", k + 1)),
                "{args:?}: {l}"
            );
        }
        // The second record is invalid or does not fit: its error object
        // (`get` reports it on stderr and writes a row of nulls).
        if args[0] != "get" {
            let e = &lines[1][lines[1]
                .find(KEYS)
                .unwrap_or_else(|| panic!("{args:?}: {}", lines[1]))..];
            let mut at = 0;
            for key in order {
                let i = e[at..]
                    .find(key)
                    .unwrap_or_else(|| panic!("{args:?}: {key} in {e}"));
                at += i;
            }
        }
    }
}

/// One row model: every command that writes rows writes them in all five
/// formats, one row per record (a misfit or invalid one an error row), and
/// a field has the same name and type in every command (`line` UInt64
/// first, `valid` Boolean, `input` Utf8, `error` the one struct).
#[test]
fn one_row_model_in_every_command_and_format() {
    use arrow_array::RecordBatch;
    let dir = std::env::temp_dir().join(format!("urilex-cli-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = b"http://a/b?x=1\nhttp://a b/\n";
    let urns = b"urn:isbn:0451450523\nurn:x:bad\n";
    let pairs = b"http://a/b/c\t../g\nhttp://a/\t%zz\n";
    let cases: [(&[&str], &[u8]); 11] = [
        (&["parse"], input),
        (&["lint"], input),
        (&["urn"], urns),
        (&["urn", "--equiv"], b"urn:a:b\turn:A:b\nx\n"),
        (&["resolve", "--base", "http://a/b/"], input),
        (&["resolve", "--pairs"], pairs),
        (&["normalize"], input),
        (&["normalize", "--dedup"], input),
        (
            &["parse", "--profile", "rfc1738", "--semantics"],
            b"ftp://h/f\nftp://h:x/\n",
        ),
        (&["get", "{host}"], input),
        (&["extract"], b"see http://a/ and\nhttp://b/ too\n"),
    ];
    let mut types: std::collections::BTreeMap<String, arrow_schema::DataType> = Default::default();
    for (args, stdin) in cases {
        for format in ["jsonl", "tsv", "csv", "arrow", "parquet"] {
            let out_file = dir.join(format!("rows.{format}"));
            let mut a = args.to_vec();
            a.extend(["--format", format, "-o", out_file.to_str().unwrap()]);
            if format == "tsv" {
                a.push("--header");
            }
            let (code, _, err) = urilex(&a, stdin);
            assert!(code < 2, "{a:?}: {err}");
            let bytes = std::fs::read(&out_file).unwrap();
            let batches: Vec<RecordBatch> = match format {
                "arrow" => arrow_ipc::reader::StreamReader::try_new(&bytes[..], None)
                    .unwrap()
                    .map(|b| b.unwrap())
                    .collect(),
                "parquet" => {
                    let f = std::fs::File::open(&out_file).unwrap();
                    parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f)
                        .unwrap()
                        .build()
                        .unwrap()
                        .map(|b| b.unwrap())
                        .collect()
                }
                _ => {
                    let text = String::from_utf8(bytes).unwrap();
                    let header = usize::from(format != "jsonl");
                    let lines: Vec<&str> = text.lines().collect();
                    assert_eq!(lines.len(), 2 + header, "{a:?}: {text}");
                    if format == "jsonl" {
                        for (k, l) in lines.iter().enumerate() {
                            let want = format!("{{\"line\":{}", k + 1);
                            assert!(l.starts_with(&want), "{a:?}: {l}");
                        }
                    } else {
                        assert!(lines[0].starts_with("line"), "{a:?}: {}", lines[0]);
                    }
                    continue;
                }
            };
            let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
            assert_eq!(rows, 2, "{a:?}");
            let schema = batches[0].schema();
            assert_eq!(schema.field(0).name(), "line", "{a:?}");
            for f in schema.fields() {
                let t = f.data_type().clone();
                if ["line", "valid", "input", "error"].contains(&f.name().as_str()) {
                    let seen = types.entry(f.name().clone()).or_insert_with(|| t.clone());
                    assert_eq!(*seen, t, "{a:?}: {}", f.name());
                }
            }
        }
    }
    assert_eq!(types.len(), 4, "{types:?}");
    assert_eq!(types["line"], arrow_schema::DataType::UInt64);
    assert_eq!(types["valid"], arrow_schema::DataType::Boolean);
    assert_eq!(types["input"], arrow_schema::DataType::Utf8);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `lint --whatwg`: the WHATWG reading and the differences on every row,
/// RFC-invalid ones too; `--only-differences`; `--whatwg-base` for an
/// access log's targets; every input format; and `get`'s `whatwg:` fields.
#[test]
fn lint_whatwg_reads_each_reference_both_ways() {
    let input = b"http://127.1/\nhttp://evil.com\\@good.com/\nhttps://example.com/a\n/rel\n";
    let (code, out, err) = urilex(&["lint", "--whatwg"], input);
    assert_eq!(code, 0, "{err}");
    let rows = json_rows(&out);
    assert_eq!(rows.len(), 4);
    let kinds = |r: &Value| -> Vec<String> {
        r["lints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["kind"].as_str().unwrap().to_string())
            .filter(|k| k.starts_with("whatwg") || k == "rfc-only")
            .collect()
    };
    assert_eq!(rows[0]["whatwg"]["host"], "127.0.0.1");
    assert_eq!(rows[0]["whatwg"]["href"], "http://127.0.0.1/");
    assert_eq!(
        kinds(&rows[0]),
        ["whatwg-host-differs", "whatwg-ipv4-number"]
    );
    assert_eq!(rows[1]["valid"], false);
    assert_eq!(rows[1]["whatwg"]["host"], "evil.com");
    assert_eq!(
        kinds(&rows[1]),
        ["whatwg-only", "whatwg-backslash", "whatwg-userinfo"]
    );
    assert_eq!(rows[2]["whatwg"]["port"], "");
    assert!(kinds(&rows[2]).is_empty());
    assert_eq!(rows[3]["whatwg"], Value::Null);
    assert_eq!(kinds(&rows[3]), ["rfc-only"]);
    // Only the rows that differ.
    let (_, out, _) = urilex(&["lint", "--whatwg", "--only-differences"], input);
    let lines: Vec<u64> = json_rows(&out)
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 2, 4]);
    // An access log's targets against the site, as a browser reads them.
    let log = b"1.2.3.4 - - [t] \"GET /\\\\evil.com/x HTTP/1.1\" 200 5 \"-\" \"a\"\n1.2.3.4 - - [t] \"GET /a?b HTTP/1.1\" 200 5 \"-\" \"a\"\n";
    let (code, out, err) = urilex(
        &[
            "lint",
            "--whatwg",
            "--whatwg-base",
            "https://good.com/",
            "--input",
            "combined",
        ],
        log,
    );
    assert_eq!(code, 0, "{err}");
    let rows = json_rows(&out);
    assert_eq!(rows[0]["whatwg"]["host"], "evil.com");
    assert_eq!(kinds(&rows[0]), ["whatwg-only", "whatwg-backslash"]);
    assert_eq!(rows[1]["whatwg"]["href"], "https://good.com/a?b");
    assert!(kinds(&rows[1]).is_empty());
    // A JSON Lines input, Parquet out: one row each.
    let (code, out, _) = urilex(
        &[
            "lint", "--whatwg", "--input", "jsonl:u", "--format", "parquet",
        ],
        b"{\"u\":\"http://0x7f.1/\"}\n{\"v\":1}\n",
    );
    assert_eq!(code, 0);
    assert!(out.starts_with(b"PAR1"));
    // Flags that need --whatwg, and a base that is not absolute.
    let (code, _, _) = urilex(&["lint", "--only-differences"], input);
    assert_eq!(code, 2);
    let (code, _, err) = urilex(&["lint", "--whatwg", "--whatwg-base", "/x"], input);
    assert_eq!(code, 2, "{err}");
    // get's fields.
    let (_, out, _) = common::text(
        &["get", "{whatwg:host} {whatwg:href}"],
        "HTTP://127.1:80/a/../b\n",
    );
    assert_eq!(out, "127.0.0.1 http://127.0.0.1/b\n");
}
