//! `urilex-sql`: SQL with urilex's URI functions over logs, Parquet, CSV
//! and JSON files, on this machine (embedded DataFusion) or on a Ballista
//! cluster (`--remote`), and the cluster's scheduler and executor
//! processes (`urilex-sql scheduler`, `urilex-sql executor`). The `urilex`
//! CLI runs it as `urilex sql`.

/// DataFusion allocates a buffer per batch and column and frees it soon
/// after; mimalloc keeps freed pages for reuse where glibc hands large
/// ones back to the system (as DataFusion's own CLI does).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand, ValueEnum};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::error::{DataFusionError, Result};
use datafusion::prelude::{
    CsvReadOptions, JsonReadOptions, ParquetReadOptions, SessionConfig, SessionContext,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use urilex_datafusion::cluster;
use urilex_datafusion::table::LogTable;
use urilex_io::format::LogField;

/// SQL over logs with urilex's URI functions (uri_host, uri_valid,
/// uri_registrable_domain, uri_query_param, uri_parse, ... : see
/// docs/sql.md).
///
/// Tables come from `--table`: Parquet, CSV (with a header) and JSON Lines
/// files by their extension, or a log in any of `urilex parse`'s input
/// formats, named after a colon: `--table logs=access.log.gz:combined`.
/// A log table's columns are those of `urilex parse --fields all`.
#[derive(Parser)]
#[command(name = "urilex-sql", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    query: QueryArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Run a Ballista scheduler that knows the urilex functions.
    Scheduler {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:50050")]
        bind: std::net::SocketAddr,
    },
    /// Run a Ballista executor that knows the urilex functions.
    Executor {
        /// Host to bind (and to be reached at).
        #[arg(long, default_value = "127.0.0.1")]
        bind_host: String,
        /// Arrow Flight port (shuffle data).
        #[arg(long, default_value_t = 50051)]
        port: u16,
        /// gRPC port (tasks).
        #[arg(long, default_value_t = 50052)]
        grpc_port: u16,
        /// The scheduler, as host:port.
        #[arg(long, default_value = "127.0.0.1:50050")]
        scheduler: String,
        /// Tasks run at once.
        #[arg(long, default_value_t = 2)]
        concurrent_tasks: usize,
        /// Folder for shuffle files.
        #[arg(long)]
        work_dir: Option<String>,
    },
}

#[derive(clap::Args)]
struct QueryArgs {
    /// The SQL to run (several statements separated by `;` run in turn;
    /// the last one's rows are printed).
    sql: Option<String>,
    /// A table: `NAME=PATH[:FORMAT]`, or `PATH` (named after the file).
    /// FORMAT is a log format of `urilex parse --input` (lines, combined,
    /// common, jsonl:FIELD, tsv:COLUMN, csv:COLUMN); without one, `.parquet`,
    /// `.csv` and `.json`/`.jsonl`/`.ndjson` files are read as such, and
    /// anything else as lines. A log's PATH may be a folder: its files, in
    /// name order, each compressed or not.
    #[arg(long = "table", short = 't', value_name = "NAME=PATH[:FORMAT]")]
    tables: Vec<String>,
    /// How rows are printed.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write the rows to this file instead of standard output.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// DataFusion's target partitions (default: the number of cores).
    #[arg(long)]
    partitions: Option<usize>,
    /// Grammar profile of log tables' references.
    #[arg(long, default_value = "rfc3986")]
    profile: String,
    /// In a combined log, whose parts the row has: the request target, or
    /// the referer.
    #[arg(long, value_enum, default_value_t = Field::Target)]
    field: Field,
    /// Run on the Ballista scheduler at this URL (`df://host:port`).
    /// A log table's files are read by the executors, by the same paths
    /// (absolute, as this machine resolves them): each reads its own
    /// files, or byte ranges of an uncompressed one.
    #[arg(long, value_name = "URL")]
    remote: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Table,
    Jsonl,
    Csv,
    Parquet,
}

#[derive(Clone, Copy, ValueEnum)]
enum Field {
    Target,
    Referer,
}

fn main() {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(16 << 20)
        .build()
        .expect("a tokio runtime");
    let result: std::result::Result<(), String> = runtime.block_on(async {
        match cli.command {
            Some(Command::Scheduler { bind }) => cluster::run_scheduler(bind)
                .await
                .map_err(|e| e.to_string()),
            Some(Command::Executor {
                bind_host,
                port,
                grpc_port,
                scheduler,
                concurrent_tasks,
                work_dir,
            }) => {
                let (host, sport) = scheduler
                    .rsplit_once(':')
                    .and_then(|(h, p)| Some((h.to_string(), p.parse().ok()?)))
                    .ok_or_else(|| format!("--scheduler {scheduler}: not host:port"))?;
                cluster::run_executor(cluster::ExecutorOptions {
                    bind_host,
                    port,
                    grpc_port,
                    scheduler_host: host,
                    scheduler_port: sport,
                    concurrent_tasks,
                    work_dir,
                })
                .await
                .map_err(|e| e.to_string())
            }
            None => query(cli.query).await.map_err(|e| e.to_string()),
        }
    });
    if let Err(e) = result {
        // The reader of the rows went away (`| head`): stop quietly.
        if e.contains("Broken pipe") {
            return;
        }
        eprintln!("urilex-sql: {e}");
        // As `urilex`: 2 for a usage error, a statement that does not
        // parse or plan, or an input or output that fails (clap's own
        // usage errors exit 2 too).
        std::process::exit(2);
    }
}

async fn query(a: QueryArgs) -> Result<()> {
    let Some(sql) = a.sql.clone() else {
        return Err(DataFusionError::Plan(
            "no query given (urilex-sql --help)".into(),
        ));
    };
    let mut config = SessionConfig::new().with_information_schema(true);
    if let Some(p) = a.partitions {
        config = config.with_target_partitions(p.max(1));
    }
    let ctx = match &a.remote {
        Some(url) => cluster::remote_context(url, config).await?,
        None => {
            let ctx = SessionContext::new_with_config(config);
            urilex_datafusion::register(&ctx);
            // The benchmark's peer (feature bench): Spark's functions too.
            #[cfg(feature = "bench")]
            for f in datafusion_spark::all_default_scalar_functions() {
                ctx.register_udf(f.as_ref().clone());
            }
            ctx
        }
    };
    for t in &a.tables {
        register_table(&ctx, t, &a).await?;
    }
    let statements: Vec<&str> = sql
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    // The last statement's schema, from its plan: a query with no rows
    // still writes its header (CSV), an empty Parquet file with the
    // schema, or nothing (JSON Lines), and always creates (or empties)
    // the output file, so that no stale file of an earlier run survives.
    let mut batches = Vec::new();
    let mut schema = None;
    for s in statements {
        let df = ctx.sql(s).await?;
        schema = Some(Arc::new(df.schema().as_arrow().clone()));
        batches = df.collect().await?;
    }
    let Some(schema) = schema else {
        return Err(DataFusionError::Plan(
            "no statement in the query (urilex-sql --help)".into(),
        ));
    };
    // A batch's own schema wins where the plan's differs in metadata.
    let schema = batches.first().map_or(schema, RecordBatch::schema);
    let mut out: Box<dyn Write + Send> = match &a.output {
        Some(p) => Box::new(std::io::BufWriter::new(std::fs::File::create(p)?)),
        None => Box::new(std::io::BufWriter::new(std::io::stdout())),
    };
    write_rows(&mut out, a.format, schema, &batches)?;
    out.flush()?;
    Ok(())
}

fn write_rows(
    out: &mut Box<dyn Write + Send>,
    format: Format,
    schema: datafusion::arrow::datatypes::SchemaRef,
    batches: &[RecordBatch],
) -> Result<()> {
    match format {
        Format::Table => {
            let empty = [RecordBatch::new_empty(schema.clone())];
            let batches = if batches.is_empty() { &empty } else { batches };
            let t = datafusion::arrow::util::pretty::pretty_format_batches(batches)?;
            writeln!(out, "{t}")?;
        }
        Format::Jsonl => {
            // Nulls written as `null`, as `urilex parse` writes them.
            let mut w = datafusion::arrow::json::WriterBuilder::new()
                .with_explicit_nulls(true)
                .build::<_, datafusion::arrow::json::writer::LineDelimited>(out);
            for b in batches {
                w.write(b)?;
            }
            w.finish()?;
        }
        Format::Csv => {
            let mut w = datafusion::arrow::csv::Writer::new(out);
            // The header comes with the first write, rows or none.
            if batches.is_empty() {
                w.write(&RecordBatch::new_empty(schema))?;
            }
            for b in batches {
                w.write(b)?;
            }
        }
        Format::Parquet => {
            let mut w = datafusion::parquet::arrow::ArrowWriter::try_new(out, schema, None)?;
            for b in batches {
                w.write(b)?;
            }
            w.close()?;
        }
    }
    Ok(())
}

/// A log table's files: `path`, or the files in folder `path` (not those
/// whose names start with `.`), in the order of their names.
fn log_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for e in std::fs::read_dir(path)? {
        let e = e?;
        let hidden = e.file_name().to_string_lossy().starts_with('.');
        if !hidden && e.file_type()?.is_file() {
            files.push(e.path());
        }
    }
    if files.is_empty() {
        return Err(std::io::Error::other("a folder with no files"));
    }
    files.sort();
    Ok(files)
}

/// Registers one `--table`.
async fn register_table(ctx: &SessionContext, spec: &str, a: &QueryArgs) -> Result<()> {
    let (name, rest) = match spec.split_once('=') {
        Some((n, r)) if !n.is_empty() && !n.contains(['/', '.']) => (n.to_string(), r),
        _ => (String::new(), spec),
    };
    // The path is up to the first colon after which a log format follows
    // (a path may hold colons; a format may too: `tsv:url`).
    let (path, format) = match rest.match_indices(':').map(|(k, _)| k).find(|&k| {
        rest[k + 1..]
            .parse::<urilex_io::format::InputFormat>()
            .is_ok()
    }) {
        Some(k) => (&rest[..k], Some(&rest[k + 1..])),
        None => (rest, None),
    };
    let p = Path::new(path);
    let name = if name.is_empty() {
        let stem = p
            .file_name()
            .and_then(|f| f.to_str())
            .and_then(|f| f.split('.').next())
            .unwrap_or("t");
        stem.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect()
    } else {
        name
    };
    let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
    let full = std::fs::canonicalize(p)
        .map_err(|e| DataFusionError::Plan(format!("--table {spec}: {path}: {e}")))?;
    let full = full.to_string_lossy().into_owned();
    match (format, ext) {
        (None, "parquet") => {
            ctx.register_parquet(&name, &full, ParquetReadOptions::default())
                .await
        }
        (None, "csv") => ctx.register_csv(&name, &full, CsvReadOptions::new()).await,
        (None, "json" | "jsonl" | "ndjson") => {
            ctx.register_json(&name, &full, JsonReadOptions::default().file_extension(ext))
                .await
        }
        (format, _) => {
            let files = log_files(Path::new(&full))
                .map_err(|e| DataFusionError::Plan(format!("--table {spec}: {path}: {e}")))?;
            let field = match a.field {
                Field::Target => LogField::Target,
                Field::Referer => LogField::Referer,
            };
            let threads = a
                .partitions
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let table =
                LogTable::new(files, format.unwrap_or("lines"), field, &a.profile, threads)?;
            ctx.register_table(name.as_str(), Arc::new(table.provider()?))
                .map(|_| ())
        }
    }
}
