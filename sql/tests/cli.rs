//! `urilex-sql` on the bundled sample log: the README's query, log tables
//! plain and compressed, output formats, and errors that say what is
//! wrong.

use std::io::Write;
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_urilex-sql");

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../samples/access.log")
        .display()
        .to_string()
}

/// `bytes` gzip-compressed into the file `path`.
fn gzip(path: &Path, bytes: &[u8]) {
    let mut e = flate2::write::GzEncoder::new(
        std::fs::File::create(path).unwrap(),
        flate2::Compression::fast(),
    );
    e.write_all(bytes).unwrap();
    e.finish().unwrap();
}

/// The README's example: the top registrable domains of the sample log's
/// referers (counted by hand from the log: `grep -c` of each domain's
/// referers agrees).
#[test]
fn readme_query_on_the_sample_log() {
    let (code, out, err) = run(&[
        "-t",
        &format!("logs={}:combined", sample()),
        "SELECT uri_registrable_domain(referer) AS domain, count(*) AS hits FROM logs \
         WHERE referer IS NOT NULL GROUP BY 1 ORDER BY hits DESC, domain LIMIT 3",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(
        rows[0].split_whitespace().collect::<Vec<_>>(),
        ["|", "domain", "|", "hits", "|"]
    );
    assert_eq!(
        rows[1].split_whitespace().collect::<Vec<_>>(),
        ["|", "ietf.org", "|", "76", "|"]
    );
    assert_eq!(rows.len(), 4);
    // The referers that name ietf.org's hosts, counted without urilex.
    let log = std::fs::read_to_string(sample()).unwrap();
    let by_hand = log
        .lines()
        .filter_map(|l| l.split('"').nth(3))
        .filter(|r| {
            let host = r
                .split("://")
                .nth(1)
                .unwrap_or("")
                .split(['/', ':', '?', '#'])
                .next()
                .unwrap_or("");
            host == "ietf.org" || host.ends_with(".ietf.org")
        })
        .count();
    assert_eq!(by_hand, 76);
}

/// A W3C extended log (the format's registry entry, as `--input w3c`) is
/// a table with the request's parts and the W3C fields under their names.
#[test]
fn a_w3c_log_is_a_table() {
    let iis = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/iis.log");
    let (code, out, err) = run(&[
        "-t",
        &format!("iis={}:w3c", iis.display()),
        "--format",
        "csv",
        "SELECT line, path, \"sc-status\", \"c-ip\" FROM iis WHERE valid ORDER BY line",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows[0], "line,path,sc-status,c-ip");
    assert_eq!(rows[1], "5,/default.htm,200,203.0.113.7");
    // Lines 5 to 8 and the second block's two (its fields have no c-ip).
    assert_eq!(rows.len(), 1 + 6, "{out}");
    assert_eq!(rows[6], "16,,200,");
}

/// A gzip log reads as the plain one; JSON Lines keeps nulls as `null`.
#[test]
fn compressed_logs_and_json_lines() {
    let dir = std::env::temp_dir().join(format!("urilex-sql-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gz = dir.join("access.log.gz");
    gzip(&gz, &std::fs::read(sample()).unwrap());
    let q = "SELECT count(*) AS n, count(referer) AS r, sum(CASE WHEN valid THEN 1 ELSE 0 END) AS v FROM logs";
    let plain = run(&[
        "-t",
        &format!("logs={}:combined", sample()),
        "--format",
        "csv",
        q,
    ]);
    let packed = run(&[
        "-t",
        &format!("logs={}:combined", gz.display()),
        "--format",
        "csv",
        q,
    ]);
    assert_eq!(plain.0, 0, "{}", plain.2);
    assert_eq!(plain.1, packed.1);
    assert_eq!(plain.1, "n,r,v\n2016,1228,1990\n");
    let (code, out, err) = run(&[
        "-t",
        &format!("logs={}:combined", sample()),
        "--format",
        "jsonl",
        "SELECT uri_host(referer) AS h FROM logs ORDER BY line LIMIT 2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "{\"h\":null}\n{\"h\":\"disney.go.com\"}\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every failure exits 2, as `urilex` does for usage and I/O errors (1
/// there means "invalid references found"); issue 45, fault 7.
#[test]
fn errors_say_what_is_wrong() {
    let (code, _, err) = run(&["-t", "logs=/no/such/file.log:combined", "SELECT 1"]);
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file.log"), "{err}");
    let (code, _, err) = run(&[
        "-t",
        &format!("logs={}:combined", sample()),
        "SELECT uri_host(input, input) FROM logs",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("uri_host takes 1 argument"), "{err}");
    let (code, _, err) = run(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("no query"), "{err}");
    // A statement that does not parse, and a usage error.
    let (code, out, err) = run(&["SELEC 1 FROM"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("urilex-sql:"), "{err}");
    let (code, _, _) = run(&["--no-such-flag", "SELECT 1"]);
    assert_eq!(code, 2);
}

/// A query with no rows still writes its output, and always the file:
/// the header for CSV, an empty Parquet file with the schema, nothing for
/// JSON Lines; a stale file of an earlier run never survives (issue 45,
/// fault 7).
#[test]
fn a_query_with_no_rows_writes_its_file() {
    let dir = std::env::temp_dir().join(format!("urilex-sql-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = format!("logs={}:combined", sample());
    let q = "SELECT input, uri_host(input) AS host FROM logs WHERE line < 0";
    for (format, file) in [
        ("csv", "out.csv"),
        ("jsonl", "out.jsonl"),
        ("parquet", "out.parquet"),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, "stale rows of an earlier run\n").unwrap();
        let p = path.to_str().unwrap();
        let (code, out, err) = run(&["-t", &table, "--format", format, "-o", p, q]);
        assert_eq!(code, 0, "{format}: {err}");
        assert!(out.is_empty());
        let bytes = std::fs::read(&path).unwrap();
        match format {
            "csv" => assert_eq!(bytes, b"input,host\n"),
            "jsonl" => assert!(bytes.is_empty()),
            _ => {
                assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
                let r = datafusion::parquet::file::reader::SerializedFileReader::new(
                    std::fs::File::open(&path).unwrap(),
                )
                .unwrap();
                use datafusion::parquet::file::reader::FileReader;
                let meta = r.metadata();
                assert_eq!(meta.file_metadata().num_rows(), 0);
                let names: Vec<&str> = meta
                    .file_metadata()
                    .schema_descr()
                    .columns()
                    .iter()
                    .map(|c| c.name())
                    .collect();
                assert_eq!(names, ["input", "host"]);
            }
        }
    }
    // On standard output: the header, and the table's frame.
    let (code, out, _) = run(&["-t", &table, "--format", "csv", q]);
    assert_eq!((code, out.as_str()), (0, "input,host\n"));
    let (code, out, _) = run(&["-t", &table, q]);
    assert_eq!(code, 0);
    assert!(out.contains("| input | host |"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader that goes away (`| head`) ends the run quietly, as the CLI's
/// subcommands do.
#[test]
fn a_closed_pipe_is_no_error() {
    use std::io::Read;
    let mut child = Command::new(BIN)
        .args([
            "-t",
            &format!("logs={}:combined", sample()),
            "--format",
            "csv",
            "SELECT a.input FROM logs a, (SELECT line FROM logs LIMIT 50) b",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 5];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"input");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// A log table's scan builds only the columns its query uses (the
/// projection goes into the pipeline): the answers are those of the same
/// queries over a Parquet copy of every column, for projections of one
/// column, of several out of order, of none (`count(*)`), and through
/// `uri_parse`.
#[test]
fn a_scan_builds_only_the_columns_it_uses() {
    let dir = std::env::temp_dir().join(format!("urilex-sql-project-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = format!("logs={}:combined", sample());
    let parquet = dir.join("all.parquet");
    let (code, _, err) = run(&[
        "-t",
        &log,
        &format!("COPY (SELECT * FROM logs) TO '{}'", parquet.display()),
    ]);
    assert_eq!(code, 0, "{err}");
    let copy = format!("logs={}", parquet.display());
    let queries = [
        "SELECT count(*) AS n FROM logs",
        "SELECT referer FROM logs ORDER BY line",
        "SELECT status, line, uri_host(referer) AS h, host FROM logs ORDER BY line",
        "SELECT user_agent, count(*) AS n FROM logs GROUP BY 1 ORDER BY n DESC, user_agent LIMIT 5",
        "SELECT count(*) AS n FROM logs WHERE uri_valid(referer)",
        "SELECT line, error FROM logs WHERE NOT valid ORDER BY line",
        "SELECT CAST(uri_parse(input)['host_kind'] AS VARCHAR) AS k, count(*) AS n FROM logs GROUP BY 1 ORDER BY 1",
        // `uri_valid(column)` is the scan's own filter.
        "SELECT line FROM logs WHERE uri_valid(referer) AND status = 200 ORDER BY line",
        "SELECT count(*) AS n FROM logs WHERE uri_valid(input) AND uri_valid(referer)",
        "SELECT line, uri_host(referer) AS h FROM logs WHERE uri_valid(referer) ORDER BY line LIMIT 7",
        "SELECT count(*) AS n FROM logs WHERE uri_valid(user_agent)",
        "SELECT count(*) AS n FROM logs WHERE NOT uri_valid(referer)",
    ];
    for q in queries {
        let (code, want, err) = run(&["-t", &copy, "--format", "jsonl", q]);
        assert_eq!(code, 0, "{q}: {err}");
        let (code, got, err) = run(&["-t", &log, "--format", "jsonl", q]);
        assert_eq!(code, 0, "{q}: {err}");
        assert!(!want.is_empty(), "{q}");
        assert_eq!(got, want, "{q}");
    }
    // The filter runs in the scan: DataFusion's plan has no filter of its
    // own for it, and the scan builds the filter's column alone.
    let (code, plan, err) = run(&[
        "-t",
        &log,
        "EXPLAIN SELECT count(*) FROM logs WHERE uri_valid(referer)",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!plan.contains("FilterExec"), "{plan}");
    assert!(
        plan.contains("projection=[], full_filters=[uri_valid(logs.referer)]"),
        "{plan}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder of logs, gzip and plain: the same rows in one partition and
/// in many (whole files, and byte ranges of the plain one), line numbers
/// and error rows included; a format whose records need a header is not
/// cut, the same format by column number is.
#[test]
fn a_folder_of_logs_is_read_in_partitions() {
    let dir = std::env::temp_dir().join(format!("urilex-sql-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let text = std::fs::read(sample()).unwrap();
    for k in 0..2 {
        gzip(
            &logs.join(format!("a{k}.log.gz")),
            &text[..text.len() / (k + 2)],
        );
    }
    // A plain log of 2.5 MB, its last line without an LF, and a line
    // that does not fit the format; a hidden file is not the table's.
    let mut big = text.repeat(8);
    big.extend_from_slice(b"not a log line\n");
    big.extend_from_slice(&text[..text.iter().position(|&b| b == b'\n').unwrap()]);
    std::fs::write(logs.join("b.log"), &big).unwrap();
    std::fs::write(logs.join(".hidden"), b"x\n").unwrap();
    let table = format!("logs={}:combined", logs.display());
    let queries = [
        "SELECT file, count(*) AS n, sum(line) AS lines, max(line) AS last, sum(CAST(valid AS INT)) AS ok \
         FROM logs GROUP BY file ORDER BY file",
        "SELECT uri_host(referer) AS host, count(*) AS n FROM logs WHERE uri_valid(referer) \
         GROUP BY 1 ORDER BY n DESC, host LIMIT 5",
        "SELECT file, line, error['message'] AS message FROM logs WHERE NOT valid ORDER BY file, line",
    ];
    for q in queries {
        let (code, one, err) = run(&["--partitions", "1", "-t", &table, "--format", "csv", q]);
        assert_eq!(code, 0, "{err}");
        assert!(one.lines().count() > 1, "{q}: no rows");
        for p in ["3", "7"] {
            let (code, many, err) = run(&["--partitions", p, "-t", &table, "--format", "csv", q]);
            assert_eq!(code, 0, "{err}");
            assert_eq!(many, one, "{q} in {p} partitions");
        }
    }
    let (_, files, _) = run(&["-t", &table, "--format", "csv", queries[0]]);
    assert_eq!(
        files.lines().count(),
        4,
        "three files and a header: {files}"
    );
    assert!(files.contains("b.log,16130,"), "{files}");
    let (code, plan, err) = run(&[
        "--partitions",
        "7",
        "-t",
        &table,
        &format!("EXPLAIN {}", queries[0]),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        plan.contains("a0.log.gz]") && plan.contains("b.log:0.."),
        "{plan}"
    );
    // TSV with a header: each file whole, whatever the partitions.
    let tsv = dir.join("hosts.tsv");
    let mut t = b"n\turl\n".to_vec();
    for k in 0..120_000 {
        t.extend_from_slice(format!("{k}\thttp://h{}.example/p?q={k}\n", k % 7).as_bytes());
    }
    std::fs::write(&tsv, &t).unwrap();
    let tsv_table = format!("u={}:tsv:url", tsv.display());
    let q = "SELECT host, count(*) AS n, sum(line) AS lines FROM u GROUP BY 1 ORDER BY 1";
    let (_, plan, _) = run(&[
        "--partitions",
        "4",
        "-t",
        &tsv_table,
        &format!("EXPLAIN {q}"),
    ]);
    assert!(!plan.contains("hosts.tsv:0.."), "{plan}");
    let (code, one, err) = run(&["--partitions", "1", "-t", &tsv_table, "--format", "csv", q]);
    assert_eq!(code, 0, "{err}");
    let (_, four, _) = run(&["--partitions", "4", "-t", &tsv_table, "--format", "csv", q]);
    assert_eq!(four, one);
    assert!(one.contains("h0.example,17143,"), "{one}");
    // By number there is no header: the file is cut, the rows the same
    // (the header line is a row of its own, `url` a relative reference).
    let by_number = format!("u={}:tsv:2", tsv.display());
    let (_, plan, _) = run(&[
        "--partitions",
        "4",
        "-t",
        &by_number,
        &format!("EXPLAIN {q}"),
    ]);
    assert!(plan.contains("hosts.tsv:0.."), "{plan}");
    let (code, one, err) = run(&["--partitions", "1", "-t", &by_number, "--format", "csv", q]);
    assert_eq!(code, 0, "{err}");
    let (_, four, _) = run(&["--partitions", "4", "-t", &by_number, "--format", "csv", q]);
    assert_eq!(four, one);
    assert!(one.contains("h0.example,17143,"), "{one}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A log scan as it travels to a cluster's executors: decoded, it has
/// the same partitions and gives the same rows; a table's runs of whole
/// files keep their order and leave no file out.
#[test]
fn a_log_scan_travels_whole() {
    use datafusion::physical_plan::{collect, ExecutionPlan};
    use urilex_datafusion::table::{decode_scan, encode_scan, LogTable};
    let dir = std::env::temp_dir().join(format!("urilex-sql-wire-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read(sample()).unwrap();
    let mut files = Vec::new();
    for k in 0..5 {
        let p = dir.join(format!("{k}.log"));
        std::fs::write(&p, text.repeat(k + 1)).unwrap();
        files.push(p);
    }
    let field = urilex_io::format::LogField::Referer;
    let table = LogTable::new(files.clone(), "combined", field, "rfc3986", 4).unwrap();
    let schema = table.schema();
    let host = schema.index_of("host").unwrap();
    let line = schema.index_of("line").unwrap();
    let input = schema.index_of("input").unwrap();
    let kept = table.filtered(&[line, host], &[input]);
    for n in [1, 2, 3, 5, 9] {
        let parts = kept.parts(n);
        let mut all: Vec<usize> = parts.iter().flat_map(|p| p.files.clone()).collect();
        all.dedup();
        assert_eq!(all, [0, 1, 2, 3, 4], "{n} partitions: {parts:?}");
        if n <= 5 {
            assert_eq!(parts.len(), n, "{parts:?}");
        } else {
            assert!(parts.iter().any(|p| p.range.is_some()), "{parts:?}");
        }
        let scan = kept.scan(&parts);
        let mut bytes = Vec::new();
        encode_scan(scan.as_ref(), &mut bytes).unwrap().unwrap();
        let back = decode_scan(&bytes).unwrap();
        let mut again = Vec::new();
        encode_scan(back.as_ref(), &mut again).unwrap().unwrap();
        assert_eq!(again, bytes);
        assert_eq!(
            back.properties().output_partitioning().partition_count(),
            parts.len()
        );
        let ctx = datafusion::prelude::SessionContext::new();
        let rt = tokio::runtime::Runtime::new().unwrap();
        let rows = |plan: std::sync::Arc<dyn ExecutionPlan>| {
            let batches = rt.block_on(collect(plan, ctx.task_ctx())).unwrap();
            let mut lines: Vec<String> =
                datafusion::arrow::util::pretty::pretty_format_batches(&batches)
                    .unwrap()
                    .to_string()
                    .lines()
                    .map(str::to_string)
                    .collect();
            lines.sort();
            lines
        };
        assert_eq!(rows(back), rows(scan), "{n} partitions");
    }
    // Bytes that end early, or name a file the table lacks, are errors.
    let scan = kept.scan(&kept.parts(2));
    let mut bytes = Vec::new();
    encode_scan(scan.as_ref(), &mut bytes).unwrap().unwrap();
    for cut in [10, bytes.len() / 2, bytes.len() - 1] {
        assert!(decode_scan(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
