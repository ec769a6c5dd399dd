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
    let mut e = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::fast(),
    );
    e.write_all(&std::fs::read(sample()).unwrap()).unwrap();
    e.finish().unwrap();
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
