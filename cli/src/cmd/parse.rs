//! `urilex parse`: one row per input record with every part the profile's
//! grammar declares, in the schema of `docs/schema.md`.

use super::Out;
use crate::args::{syntax_parser, Format, FormatArg, InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use crate::input::Progress;
use urilex::{Profile, Syntax};
use urilex_io::model::{Cell, Field, Type};
use urilex_io::run::{Pipeline, Report, RowOutput};
use urilex_io::schema::Schema;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex parse samples/requests.txt                  one JSON row per line
  urilex parse --input combined samples/access.log   the request target of each log line
  urilex parse --input combined --field both --fields default,status,user_agent samples/access.log
  urilex parse --input jsonl:url.original samples/events.jsonl
  urilex parse --input csv:url --format parquet -o urls.parquet samples/visits.csv
  zcat access.log.gz | urilex parse --input combined --format tsv --header
  urilex parse --profile rfc6874 <<< 'http://[fe80::1%25eth0]/'
  urilex parse --syntax absolute-uri urls.txt        lines must have a scheme
  urilex parse --profile rfc1738 --semantics samples/rfc1738.txt
                                                     RFC 1738 URLs: each scheme's parts and their meaning
  tail -f access.log | urilex parse --input combined rows as lines arrive
Rows are formatted on every core and written in input order; compressed
inputs (gzip, zstd) are read as they are.")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Rule each reference must match (access logs' targets are read by
    /// their form instead; this applies to referers).
    #[arg(long, default_value = "reference", value_parser = syntax_parser())]
    pub syntax: Syntax,
    #[command(flatten)]
    pub format: FormatArg,
    /// Print a header row first (TSV; CSV always has one, JSON Lines rows
    /// name their fields).
    #[arg(long)]
    pub header: bool,
    /// With `--profile rfc1738`: add each URL's typed fields as RFC 1738
    /// section 3 defines them (default port, decoded names, the FTP
    /// commands, the Gopher type, ...) in a `semantics` column (JSON; in
    /// Arrow and Parquet Utf8 of the `arrow.json` extension type).
    #[arg(long)]
    pub semantics: bool,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let format = a.format.format;
    if a.header && format != Format::Tsv && format != Format::Csv {
        return Err(Failure::Message(
            "--header is for --format tsv: JSON Lines rows name their fields".into(),
        ));
    }
    if a.semantics {
        return semantics(a);
    }
    let threads = a.threads.count();
    let (engine, schema) = engine_and_schema(&a)?;
    let progress = std::cell::RefCell::new(Progress::new(&a.inputs.files));
    // Larger chunks for the columnar formats: one record batch (and one
    // Parquet row group) per chunk.
    let mut read = a.inputs.read_options(true);
    read.chunk_bytes = match format {
        Format::Parquet => 2 << 20,
        Format::Arrow => 1 << 20,
        _ => read.chunk_bytes,
    };
    // A Parquet file is read once it ends: a pipe's rows wait for whole
    // chunks, and its row groups are a file's size.
    read.full_chunks = format == Format::Parquet;
    let pipeline = Pipeline {
        files: &a.inputs.files,
        read,
        engine: &engine,
        threads,
    };
    let rows = RowOutput {
        schema: &schema,
        format: format.to_io(),
        header: a.header || format == Format::Csv,
        compress: None,
    };
    let dest = crate::sink::destination(
        a.format.output.as_deref(),
        &a.format.spread,
        format.to_io().is_text(),
    )?;
    let report = Report {
        fault: &mut |m: &str| progress.borrow_mut().suspend(|| crate::failure::say(&m)),
        progress: &mut |n: u64| progress.borrow_mut().inc(n),
    };
    let r = crate::sink::parse_rows(&pipeline, rows, &dest, report);
    progress.borrow_mut().finish();
    Failure::of(r?.faults, 0)
}

/// The engine for the flags, its decoders taking out only the fields
/// `--fields` asks for, and the rows' schema.
fn engine_and_schema(a: &Args) -> Result<(urilex_io::rows::Engine, Schema), Failure> {
    let engine = a
        .inputs
        .engine(a.profile.profile, a.syntax)
        .map_err(Failure::Message)?;
    let mut extractor = engine.extractor.clone();
    let schema = Schema::new(
        a.profile.profile,
        &mut extractor,
        a.format.fields.as_deref(),
    )
    .map_err(Failure::Message)?;
    let engine = urilex_io::rows::Engine {
        extractor,
        ..engine
    };
    Ok((engine, schema))
}

/// `--semantics`: parse rows (any input, any format) with a `semantics`
/// column: each valid URL's typed fields as RFC 1738 section 3 gives them
/// (JSON; `arrow.json` in Arrow and Parquet), null for an invalid one.
fn semantics(a: Args) -> Result<(), Failure> {
    if a.profile.profile != Profile::Rfc1738 {
        return Err(Failure::Message(
            "--semantics is for --profile rfc1738 (the meaning RFC 1738 section 3 gives each scheme's parts)".into(),
        ));
    }
    let (engine, schema) = engine_and_schema(&a)?;
    let mut columns = schema.fields();
    columns.0.push(Field {
        name: "semantics".into(),
        ty: Type::Json,
        nullable: true,
    });
    let out = super::LinesOut {
        columns,
        format: Some(a.format.format.to_io()),
        header: a.header,
        output: a.format.output.as_deref(),
        spread: a.format.spread,
    };
    let pipeline = Pipeline {
        files: &a.inputs.files,
        read: a.inputs.read_options(true),
        engine: &engine,
        threads: a.threads.count(),
    };
    super::run_rows(&pipeline, out, String::new, |json, rows, out| {
        let Out::Rows(out) = out else { return };
        for r in 0..rows.len() {
            json.clear();
            let sem = match rows.uri(0, r) {
                urilex_io::rows::Uri::Parsed(Ok(u)) => crate::semantics::of(&u),
                _ => None,
            };
            if let Some(v) = sem {
                json.push_str(&v.to_string());
            }
            let mut cells = Vec::with_capacity(schema.columns.len() + 1);
            schema.cells(rows, r, |_, c| cells.push(c));
            cells.push(match json.is_empty() {
                true => Cell::Null,
                false => Cell::Json(json.as_bytes()),
            });
            out.push(cells);
        }
    })
}
