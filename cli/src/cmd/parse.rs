//! `urilex parse`: one row per input record with every part the profile's
//! grammar declares, in the schema of `docs/schema.md`.

use crate::args::{
    syntax_parser, use_threads, Format, FormatArg, InputsArg, ProfileArg, ThreadsArg,
};
use crate::failure::Failure;
use crate::input::{file_output, for_each_chunk, output, LongLines, Progress};
use crate::output::{write_json, Columns};
use std::io::{self, BufWriter, Write};
use urilex::{Parser, Profile, Syntax};
use urilex_io::run::{FileAt, Pipeline, Positions, Report, RowOutput};
use urilex_io::schema::ErrorCell;
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
    /// commands, the Gopher type, ...) in a `semantics` object (JSON Lines,
    /// `--input lines`; rows in the older by-rule layout).
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
    let binary = matches!(format, Format::Arrow | Format::Parquet);
    let progress = std::cell::RefCell::new(Progress::new(&a.inputs.files));
    // Larger chunks for the columnar formats: one record batch (and one
    // Parquet row group) per chunk.
    let mut read = a.inputs.read_options(true);
    read.chunk_bytes = match format {
        Format::Parquet => 2 << 20,
        Format::Arrow => 1 << 20,
        _ => read.chunk_bytes,
    };
    let header = a.header || format == Format::Csv;
    let mut on_fault = |m: &str| progress.borrow_mut().suspend(|| crate::failure::say(&m));
    let mut on_progress = |n: u64| progress.borrow_mut().inc(n);
    // Text rows into a regular file go to their offsets from several
    // threads at once; anything else is written in order.
    let at = if binary {
        None
    } else {
        file_output(a.format.output.as_deref())?
    };
    let pipeline = Pipeline {
        files: &a.inputs.files,
        read,
        engine: &engine,
        threads,
    };
    let rows = RowOutput {
        schema: &schema,
        format: format.to_io(),
        header,
    };
    let report = Report {
        fault: &mut on_fault,
        progress: &mut on_progress,
    };
    let r = match at {
        Some(mut f) => {
            let writers = threads.clamp(1, 4);
            // An interrupt leaves the rows written before the first gap:
            // chunks written ahead of it are cut off.
            let positions = std::sync::Arc::new(Positions::new());
            let p = positions.clone();
            crate::interrupt::on_interrupt(Box::new(move || {
                let _ = p.interrupt();
            }));
            let at = FileAt {
                file: f.file.try_clone()?,
                start: f.start,
                writers,
                positions: &positions,
            };
            let r = pipeline.write_at(rows, at, report);
            if let (Ok((_, end)), true) = (&r, f.stdout) {
                use std::io::Seek;
                f.file.seek(std::io::SeekFrom::Start(*end))?;
            }
            r.map(|(s, _)| s)
        }
        None => {
            let mut out = output(a.format.output.as_deref(), binary)?;
            // Into a regular file, an interrupt waits for the chunk being
            // written, and a failed write is cut back: whole rows.
            let file = crate::input::output_handle(a.format.output.as_deref());
            if let (false, Some(file)) = (binary, file) {
                let gate = std::sync::Arc::new(std::sync::Mutex::new(()));
                let g = gate.clone();
                crate::interrupt::on_interrupt(Box::new(move || {
                    let _held = g.lock();
                    // Held until the process ends.
                    std::mem::forget(_held);
                }));
                out = Box::new(crate::interrupt::Gated {
                    inner: out,
                    gate,
                    file,
                });
            }
            pipeline.write(rows, out, report)
        }
    };
    progress.borrow_mut().finish();
    let summary = r?;
    Failure::of(summary.faults, 0)
}

/// `--semantics`: RFC 1738 rows with their typed fields, one line at a
/// time, in the by-rule layout.
fn semantics(a: Args) -> Result<(), Failure> {
    if a.format.format != Format::Jsonl
        || a.profile.profile != Profile::Rfc1738
        || !a.inputs.input.is_lines()
    {
        return Err(Failure::Message(
            "--semantics is for --profile rfc1738 with JSON Lines output of --input lines".into(),
        ));
    }
    use_threads(a.threads.threads);
    let parser = Parser::new().profile(a.profile.profile).syntax(a.syntax);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut cols = Columns::of(&parser);
    cols.semantics = true;
    let mut batch = urilex::Batch::new();
    let long = (a.inputs.max_line_bytes, LongLines::Report);
    for_each_chunk(&a.inputs.files, super::BATCH_CHUNK, true, long, |c| {
        if let Some(bytes) = c.overlong {
            // One error row for the line, as every other row writer.
            let line = c.first_line;
            let message = format!(
                "line {line}: longer than the limit of {} bytes ({bytes} bytes; --max-line-bytes)",
                a.inputs.max_line_bytes
            );
            write!(
                out,
                "{{\"line\":{line},\"valid\":null,\"rule\":null,\"parts\":null,\"semantics\":null"
            )?;
            crate::output::error_field(&mut out, &ErrorCell::format(&message, None))?;
            out.write_all(b"}\n")?;
            return Ok(());
        }
        batch.parse_lines_parallel(&parser, c.bytes, a.threads.threads);
        for i in 0..batch.len() {
            let result = batch.get(i, c.bytes);
            let input = batch.line(i, c.bytes);
            write_json(&mut out, &cols, &result, input, c.first_line + i as u64)?;
        }
        out.flush()?;
        Ok(())
    })
}
