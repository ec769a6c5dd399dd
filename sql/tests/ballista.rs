//! The functions on a Ballista cluster: a scheduler and two executors
//! started as processes on localhost (`urilex-sql scheduler`,
//! `urilex-sql executor`), the README's queries sent to it over Parquet
//! made from the sample log, and the results exactly those of the
//! embedded run; then queries over a folder of compressed and plain
//! access logs, read by the executors themselves, equal to the embedded
//! run's.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_urilex-sql");

/// Kills the processes when the test ends, passed or not.
struct Procs(Vec<Child>);

impl Drop for Procs {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn run(args: &[&str]) -> Result<String, String> {
    let out = Command::new(BIN).args(args).output().unwrap();
    if out.status.success() {
        Ok(String::from_utf8(out.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/access.log")
}

/// The README's queries (docs/sql.md), over table `logs`.
const QUERIES: &[&str] = &[
    "SELECT uri_registrable_domain(referer) AS domain, count(*) AS hits FROM logs \
     WHERE referer IS NOT NULL GROUP BY 1 ORDER BY hits DESC, domain LIMIT 10",
    "SELECT uri_host(input) AS host, count(*) AS n FROM logs GROUP BY 1 ORDER BY n DESC, host LIMIT 10",
    "SELECT count(*) AS valid FROM logs WHERE uri_valid(input)",
    "SELECT uri_query_param(input, 'q') AS q, uri_path_segment(input, 1) AS first, \
     uri_parse_url(referer, 'HOST') AS spark_host, uri_get(referer, '{scheme}://{host}') AS origin \
     FROM logs ORDER BY line LIMIT 20",
    // Grouped by a dictionary-typed value, Ballista 55's shuffle hands
    // the next stage plain strings where its plan expects a dictionary
    // (a RowConverter schema mismatch): the cast is the workaround.
    "SELECT CAST(uri_parse(input)['host_kind'] AS VARCHAR) AS kind, count(*) AS n FROM logs GROUP BY 1 ORDER BY 1",
];

#[test]
fn ballista_with_two_executors_gives_the_embedded_result() {
    let dir = std::env::temp_dir().join(format!("urilex-ballista-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The log as Parquet, written by the embedded engine (the cluster
    // reads Parquet; a log table is read on one machine).
    let parquet = dir.join("logs.parquet");
    let log = format!("logs={}:combined", sample().display());
    run(&[
        "-t",
        &log,
        &format!("COPY (SELECT * FROM logs) TO '{}'", parquet.display()),
    ])
    .unwrap();
    let table = format!("logs={}", parquet.display());
    // And a CSV table (a header line), from the same rows.
    let csv = dir.join("hosts.csv");
    run(&[
        "-t",
        &table,
        &format!(
            "COPY (SELECT line, input, referer FROM logs) TO '{}' STORED AS CSV OPTIONS ('format.has_header' 'true')",
            csv.display()
        ),
    ])
    .unwrap();
    let csv_table = format!("hosts={}", csv.display());

    let sport = free_port();
    let mut procs = Procs(Vec::new());
    let spawn = |args: &[String]| {
        Command::new(BIN)
            .args(args)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    procs.0.push(spawn(&[
        "scheduler".into(),
        "--bind".into(),
        format!("127.0.0.1:{sport}"),
    ]));
    for k in 0..2 {
        let work = dir.join(format!("executor{k}"));
        std::fs::create_dir_all(&work).unwrap();
        procs.0.push(spawn(&[
            "executor".into(),
            "--port".into(),
            free_port().to_string(),
            "--grpc-port".into(),
            free_port().to_string(),
            "--scheduler".into(),
            format!("127.0.0.1:{sport}"),
            "--concurrent-tasks".into(),
            "1".into(),
            "--work-dir".into(),
            work.display().to_string(),
        ]));
    }
    let remote = format!("df://127.0.0.1:{sport}");
    for q in QUERIES {
        let embedded = run(&["-t", &table, "--format", "csv", q]).unwrap();
        assert!(embedded.lines().count() > 1, "{q}: no rows");
        // The cluster takes a moment to come up: the first query retries.
        let started = Instant::now();
        let on_cluster = loop {
            match run(&["--remote", &remote, "-t", &table, "--format", "csv", q]) {
                Ok(out) => break out,
                Err(e) if started.elapsed() < Duration::from_secs(90) => {
                    let _ = e;
                    std::thread::sleep(Duration::from_millis(500));
                }
                Err(e) => panic!("{q} on the cluster: {e}"),
            }
        };
        assert_eq!(on_cluster, embedded, "{q}");
    }
    // A CSV table on the cluster.
    let q = "SELECT uri_registrable_domain(referer) AS domain, count(*) AS n FROM hosts \
             GROUP BY 1 ORDER BY n DESC, domain LIMIT 5";
    let embedded = run(&["-t", &csv_table, "--format", "csv", q]).unwrap();
    let on_cluster = run(&["--remote", &remote, "-t", &csv_table, "--format", "csv", q]).unwrap();
    assert!(embedded.lines().count() > 1, "{q}: no rows");
    assert_eq!(on_cluster, embedded, "{q} over CSV");
    // A folder of logs as users keep them: three gzip files and one plain
    // one large enough to be cut into byte ranges. The table travels to
    // the scheduler, its scan's partitions (whole files, byte ranges) to
    // the executors, each reading its own; the rows are the embedded
    // run's.
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let text = std::fs::read(sample()).unwrap();
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    for k in 0..3 {
        use std::io::Write;
        let part: Vec<u8> = lines[k * lines.len() / 3..(k + 1) * lines.len() / 3].concat();
        let f = std::fs::File::create(logs.join(format!("access.{k}.log.gz"))).unwrap();
        let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::fast());
        gz.write_all(&part).unwrap();
        gz.finish().unwrap();
    }
    std::fs::write(logs.join("access.log"), text.repeat(8)).unwrap();
    let log_table = format!("logs={}:combined", logs.display());
    let log_queries = [
        "SELECT file, count(*) AS n, sum(line) AS lines, max(line) AS last FROM logs GROUP BY file ORDER BY file",
        "SELECT uri_host(referer) AS host, count(*) AS n FROM logs WHERE uri_valid(referer) \
         GROUP BY 1 ORDER BY n DESC, host LIMIT 10",
        "SELECT count(*) AS n, count(DISTINCT host) AS hosts, sum(length(path)) AS path_bytes FROM logs WHERE valid",
        // The error kind is a dictionary: cast, as above (a shuffle of
        // Ballista 55 may hand on plain strings where a dictionary is
        // expected; seen once in CI on this query).
        "SELECT file, line, input, CAST(error['kind'] AS VARCHAR) AS kind, error['message'] AS message \
         FROM logs WHERE NOT valid ORDER BY file, line LIMIT 20",
    ];
    // Several partitions: the plain file is cut into byte ranges.
    let plan = run(&[
        "--partitions",
        "6",
        "-t",
        &log_table,
        &format!("EXPLAIN {}", log_queries[0]),
    ])
    .unwrap();
    // Each gzip file a group of its own, the plain one in byte ranges.
    assert!(plan.contains("file_type=log"), "{plan}");
    for k in 0..3 {
        assert!(plan.contains(&format!("access.{k}.log.gz]")), "{plan}");
    }
    assert!(plan.contains("access.log:0.."), "{plan}");
    for q in log_queries {
        let embedded = run(&["--partitions", "1", "-t", &log_table, "--format", "csv", q]).unwrap();
        assert!(embedded.lines().count() > 1, "{q}: no rows");
        let on_cluster = run(&[
            "--remote",
            &remote,
            "--partitions",
            "6",
            "-t",
            &log_table,
            "--format",
            "csv",
            q,
        ])
        .unwrap_or_else(|e| panic!("{q} on the cluster: {e}"));
        assert_eq!(on_cluster, embedded, "{q} over a folder of logs");
    }
    drop(procs);
    let _ = std::fs::remove_dir_all(&dir);
}
