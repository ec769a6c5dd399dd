//! The SQL benchmark (scripts/bench_sql.sh runs it): URLs from the corpora
//! in Parquet, and in one process, interleaved, best of `--rounds`:
//!
//! - `SELECT uri_host(u), count(*) FROM urls GROUP BY 1` against
//!   datafusion-spark's `try_parse_url(u, 'HOST')` (the WHATWG `url`
//!   crate; its `parse_url` raises on invalid input), end to end, with 1
//!   and 2 target partitions;
//! - `SELECT count(*) FROM urls WHERE uri_valid(u)` against
//!   `try_parse_url(u, 'PROTOCOL') IS NOT NULL` (a full parse either way
//!   on Spark's side: it has no validity function);
//! - each function's own compute time: the function alone over the
//!   table's batches in memory (no scan, no aggregation).
//!
//! `--remote df://host:port` runs the end-to-end queries on a Ballista
//! cluster as well.
//!
//! Build: `cargo run --release --features bench --example bench -- --help`.

/// DataFusion allocates a buffer per batch and column and frees it soon
/// after; mimalloc keeps freed pages for reuse where glibc hands large
/// ones back to the system (as DataFusion's own CLI does).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use datafusion::arrow::array::{Array, ArrayRef, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::common::config::ConfigOptions;
use datafusion::common::ScalarValue;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

struct Opts {
    corpus: Vec<PathBuf>,
    rows: usize,
    parquet: PathBuf,
    rounds: usize,
    remote: Option<String>,
}

fn opts() -> Opts {
    let mut o = Opts {
        corpus: Vec::new(),
        rows: 10_000_000,
        parquet: PathBuf::from("/dev/shm/urilex-bench/urls.parquet"),
        rounds: 3,
        remote: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().expect("a value");
        match a.as_str() {
            "--corpus" => o.corpus.push(val().into()),
            "--rows" => o.rows = val().parse().expect("a number"),
            "--parquet" => o.parquet = val().into(),
            "--rounds" => o.rounds = val().parse().expect("a number"),
            "--remote" => o.remote = Some(val()),
            _ => {
                eprintln!(
                    "bench [--corpus FILE]... [--rows N] [--parquet FILE] [--rounds N] [--remote df://HOST:PORT]"
                );
                std::process::exit(2);
            }
        }
    }
    o
}

/// The corpora's lines, cycled to `rows`, as Parquet (column `u`), unless
/// the file is there already.
fn make_parquet(o: &Opts) {
    if o.parquet.exists() {
        return;
    }
    let mut lines: Vec<String> = Vec::new();
    for c in &o.corpus {
        let text = std::fs::read_to_string(c).expect("a corpus");
        lines.extend(text.lines().map(str::to_string));
    }
    assert!(!lines.is_empty(), "no corpus lines (--corpus FILE)");
    if let Some(d) = o.parquet.parent() {
        std::fs::create_dir_all(d).unwrap();
    }
    let schema = Arc::new(Schema::new(vec![Field::new("u", DataType::Utf8, false)]));
    let file = std::fs::File::create(&o.parquet).unwrap();
    let mut w = ArrowWriter::try_new(file, schema.clone(), None).unwrap();
    let mut it = lines.iter().cycle().take(o.rows);
    loop {
        let chunk: Vec<&str> = it.by_ref().take(1 << 16).map(String::as_str).collect();
        if chunk.is_empty() {
            break;
        }
        let a: ArrayRef = Arc::new(StringArray::from(chunk));
        w.write(&RecordBatch::try_new(schema.clone(), vec![a]).unwrap())
            .unwrap();
    }
    w.close().unwrap();
}

async fn context(o: &Opts, partitions: usize, remote: bool) -> SessionContext {
    let mut config = SessionConfig::new().with_target_partitions(partitions);
    if std::env::var_os("BENCH_UTF8").is_some() {
        // Parquet strings read as Utf8 rather than Utf8View.
        config = config.set_bool(
            "datafusion.execution.parquet.schema_force_view_types",
            false,
        );
    }
    let ctx = match (&o.remote, remote) {
        (Some(url), true) => urilex_datafusion::cluster::remote_context(url, config)
            .await
            .unwrap(),
        _ => SessionContext::new_with_config(config),
    };
    urilex_datafusion::register(&ctx);
    for f in datafusion_spark::all_default_scalar_functions() {
        ctx.register_udf(f.as_ref().clone());
    }
    ctx.register_parquet(
        "urls",
        o.parquet.to_str().unwrap(),
        ParquetReadOptions::default(),
    )
    .await
    .unwrap();
    ctx
}

/// Runs `sql`: seconds, and the result's rows.
async fn time(ctx: &SessionContext, sql: &str) -> (f64, usize) {
    let t = Instant::now();
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    let rows = batches.iter().map(|b| b.num_rows()).sum();
    (t.elapsed().as_secs_f64(), rows)
}

/// `f(u [, arg])` over every batch, nothing else: seconds.
fn compute(f: &ScalarUDF, batches: &[ArrayRef], arg: Option<&str>) -> f64 {
    let t = Instant::now();
    for a in batches {
        let mut args = vec![ColumnarValue::Array(a.clone())];
        let mut fields = vec![Arc::new(Field::new("u", a.data_type().clone(), true))];
        if let Some(s) = arg {
            // Of the column's type: Spark's function wants them alike.
            let v = ScalarValue::Utf8(Some(s.into()))
                .cast_to(a.data_type())
                .unwrap();
            fields.push(Arc::new(Field::new("p", v.data_type(), true)));
            args.push(ColumnarValue::Scalar(v));
        }
        // From the arguments (urilex's types depend on them: a part of a
        // view column is a view).
        let scalars: Vec<Option<&ScalarValue>> = args
            .iter()
            .map(|a| match a {
                ColumnarValue::Scalar(v) => Some(v),
                ColumnarValue::Array(_) => None,
            })
            .collect();
        let return_field = f
            .return_field_from_args(ReturnFieldArgs {
                arg_fields: &fields,
                scalar_arguments: &scalars,
            })
            .unwrap();
        let out = f
            .invoke_with_args(ScalarFunctionArgs {
                args,
                arg_fields: fields,
                number_rows: a.len(),
                return_field,
                config_options: Arc::new(ConfigOptions::default()),
            })
            .unwrap();
        std::hint::black_box(out);
    }
    t.elapsed().as_secs_f64()
}

#[tokio::main]
async fn main() {
    let o = opts();
    make_parquet(&o);
    let bytes: u64 = {
        let ctx = context(&o, 2, false).await;
        let b = ctx
            .sql("SELECT sum(length(u)) FROM urls")
            .await
            .unwrap()
            .collect()
            .await
            .unwrap();
        let c = b[0].column(0);
        datafusion::arrow::compute::cast(c, &DataType::UInt64)
            .unwrap()
            .as_any()
            .downcast_ref::<datafusion::arrow::array::UInt64Array>()
            .unwrap()
            .value(0)
    };
    let mb = bytes as f64 / 1e6;
    println!(
        "{} rows, {:.0} MB of URL text, {} rounds (best of each)",
        o.rows, mb, o.rounds
    );

    let queries: [(&str, &str, &str); 2] = [
        (
            "host GROUP BY",
            "SELECT uri_host(u) AS h, count(*) FROM urls GROUP BY 1",
            "SELECT try_parse_url(u, 'HOST') AS h, count(*) FROM urls GROUP BY 1",
        ),
        (
            "count valid",
            "SELECT count(*) FROM urls WHERE uri_valid(u)",
            "SELECT count(*) FROM urls WHERE try_parse_url(u, 'PROTOCOL') IS NOT NULL",
        ),
    ];
    let mut modes: Vec<(&str, usize, bool)> =
        vec![("1 partition", 1, false), ("2 partitions", 2, false)];
    if o.remote.is_some() {
        modes.push(("ballista, 2 executors", 2, true));
    }
    if std::env::var_os("BENCH_OURS_ONLY").is_some() {
        modes.clear();
    }
    for (mode, parts, remote) in &modes {
        let ctx = context(&o, *parts, *remote).await;
        for (name, ours, theirs) in &queries {
            let (mut a, mut b) = (f64::MAX, f64::MAX);
            let (mut ra, mut rb) = (0, 0);
            for _ in 0..o.rounds {
                let (t, r) = time(&ctx, ours).await;
                (a, ra) = (a.min(t), r);
                let (t, r) = time(&ctx, theirs).await;
                (b, rb) = (b.min(t), r);
            }
            println!(
                "{mode:>22} | {name:<14} | urilex {:>7.0} ms {:>6.0} MB/s ({ra} rows) | try_parse_url {:>7.0} ms {:>5.0} MB/s ({rb} rows) | {:.1}x",
                a * 1e3,
                mb / a,
                b * 1e3,
                mb / b,
                b / a
            );
        }
    }

    // The functions alone over the batches in memory.
    let ctx = context(&o, 1, false).await;
    let batches: Vec<ArrayRef> = ctx
        .sql("SELECT u FROM urls")
        .await
        .unwrap()
        .collect()
        .await
        .unwrap()
        .into_iter()
        .map(|b| b.column(0).clone())
        .collect();
    let ours = urilex_datafusion::udfs();
    let find = |name: &str| ours.iter().find(|f| f.name() == name).unwrap().clone();
    let spark = datafusion_spark::all_default_scalar_functions()
        .into_iter()
        .find(|f| f.name() == "try_parse_url")
        .unwrap();
    for (name, f, arg, g, garg) in [
        (
            "uri_host vs HOST",
            find("uri_host"),
            None,
            &spark,
            Some("HOST"),
        ),
        (
            "uri_valid vs PROTOCOL",
            find("uri_valid"),
            None,
            &spark,
            Some("PROTOCOL"),
        ),
        (
            "uri_parse_url HOST",
            find("uri_parse_url"),
            Some("HOST"),
            &spark,
            Some("HOST"),
        ),
    ] {
        let (mut a, mut b) = (f64::MAX, f64::MAX);
        for _ in 0..o.rounds {
            a = a.min(compute(&f, &batches, arg));
            if std::env::var_os("BENCH_OURS_ONLY").is_none() {
                b = b.min(compute(g, &batches, garg));
            }
        }
        println!(
            "{:>22} | {name:<22} | urilex {:>7.0} ms {:>6.0} MB/s | try_parse_url {:>7.0} ms {:>5.0} MB/s | {:.1}x",
            "compute only",
            a * 1e3,
            mb / a,
            b * 1e3,
            mb / b,
            b / a
        );
    }
}
