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

#[test]
fn errors_say_what_is_wrong() {
    let (code, _, err) = run(&["-t", "logs=/no/such/file.log:combined", "SELECT 1"]);
    assert_eq!(code, 1);
    assert!(err.contains("/no/such/file.log"), "{err}");
    let (code, _, err) = run(&[
        "-t",
        &format!("logs={}:combined", sample()),
        "SELECT uri_host(input, input) FROM logs",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("uri_host takes 1 argument"), "{err}");
    let (code, _, err) = run(&[]);
    assert_eq!(code, 1);
    assert!(err.contains("no query"), "{err}");
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
