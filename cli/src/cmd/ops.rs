//! The flags the operations on references share (`get`, `params`, `keys`,
//! `values`, `hierarchy`, `edit`), and their wiring: flags to
//! [`urilex_io::ops::OpOutput`], the inputs to a [`Pipeline`], messages to
//! standard error, the summary to an exit status. The operations run in
//! `urilex_io::ops` (`Pipeline::operate`).

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use std::io::Write;
use std::path::PathBuf;
use urilex::Syntax;
use urilex_io::ops::{Mode, OpOutput, OpReport, Operation};
use urilex_io::run::{OutputFormat, Pipeline};

/// `--format` of the operations.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OpFormat {
    /// One value per line as it is (a decoded CR or LF written `%0D`,
    /// `%0A`, so that lines stay lines); several values TSV.
    Text,
    Jsonl,
    Tsv,
    Csv,
    Arrow,
    Parquet,
}

impl OpFormat {
    /// The table format; `None` for text lines.
    pub fn to_io(self) -> Option<OutputFormat> {
        match self {
            OpFormat::Text => None,
            OpFormat::Tsv => Some(OutputFormat::Tsv),
            OpFormat::Jsonl => Some(OutputFormat::Jsonl),
            OpFormat::Csv => Some(OutputFormat::Csv),
            OpFormat::Arrow => Some(OutputFormat::Arrow),
            OpFormat::Parquet => Some(OutputFormat::Parquet),
        }
    }
}

/// `--format`, `--header` and `-o` of `resolve` and `normalize`: text
/// lines, or rows of `line`, `input`, `result`, `error`.
#[derive(clap::Args)]
pub struct LinesArg {
    /// Output format (`text`: the result alone on its line, `ERROR
    /// FILE:LINE: message` for an invalid one; the table formats: rows of
    /// line, input, result and error).
    #[arg(long, value_enum, default_value_t = OpFormat::Text)]
    pub format: OpFormat,
    /// Print a header row first (TSV; CSV always has one).
    #[arg(long)]
    pub header: bool,
    /// Write to this file instead of standard output; a directory (`-o
    /// DIR/`, with a table format): part files, in order by name.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub spread: crate::args::SpreadArg,
}

/// The flags every operation takes.
#[derive(clap::Args)]
pub struct Common {
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Output format (`text`: values as they are, one per line; the table
    /// formats have the input's line number first).
    #[arg(long, value_enum, default_value_t = OpFormat::Text)]
    pub format: OpFormat,
    /// Print a header row first (TSV; CSV always has one).
    #[arg(long)]
    pub header: bool,
    /// Write to this file instead of standard output (one file: part
    /// files, `-o DIR/`, are `parse`'s and the other row commands').
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Compress the output (text lines, JSON Lines, TSV, CSV): `zstd` or
    /// `gzip`, a level after a colon (`zstd:9`); in frames (gzip members)
    /// of about 1 MiB of text, one stream `zstd -d` and `gzip -d` read.
    /// Implied by `-o FILE.zst` or `-o FILE.gz`.
    #[arg(long, value_name = "HOW", value_parser = |s: &str| s.parse::<urilex_io::compress::Compression>())]
    pub compress: Option<urilex_io::compress::Compression>,
    /// Each distinct value once, in the order first seen (memory grows
    /// with the number of distinct values only).
    #[arg(long, conflicts_with = "count")]
    pub unique: bool,
    /// Each distinct value with its count, most frequent first, ties by
    /// value (memory grows with the number of distinct values only).
    #[arg(long)]
    pub count: bool,
    /// With --count: only the K most frequent (implies --count).
    #[arg(long, value_name = "K")]
    pub top: Option<usize>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

/// Runs `op` over the inputs as `c` says.
pub fn run(c: &Common, op: &dyn Operation) -> Result<(), Failure> {
    if matches!(c.inputs.field, crate::args::FieldArg::Both) {
        return Err(Failure::Message(
            "--field both is for `parse`: give --field target or --field referer".into(),
        ));
    }
    let engine = c
        .inputs
        .engine(c.profile.profile, Syntax::Reference)
        .map_err(Failure::Message)?;
    let mode = if c.count || c.top.is_some() {
        Mode::Count
    } else if c.unique {
        Mode::Unique
    } else {
        Mode::Items
    };
    let format = c.format.to_io();
    let output = OpOutput {
        mode,
        format,
        header: c.header && c.format == OpFormat::Tsv,
        top: c.top,
    };
    let binary = matches!(c.format, OpFormat::Arrow | OpFormat::Parquet);
    if let Some(dir) = crate::sink::part_dir(c.output.as_deref()) {
        return Err(Failure::Message(format!(
            "{}: part files (-o DIR/) are written by parse, lint, urn, resolve and normalize; an operation writes one file (-o FILE)",
            dir.display()
        )));
    }
    let compress = crate::sink::compression(c.output.as_deref(), c.compress, !binary)?;
    let out = crate::sink::in_order(c.output.as_deref(), binary, compress.is_some())?;
    let out = match compress {
        Some(how) => crate::sink::compressed(out, how)?,
        None => out,
    };
    let pipeline = Pipeline {
        files: &c.inputs.files,
        read: c.inputs.read_options(true),
        engine: &engine,
        threads: c.threads.count(),
    };
    let mut stderr = std::io::stderr().lock();
    let progress = std::cell::RefCell::new(crate::input::Progress::new(&c.inputs.files));
    let report = OpReport {
        fault: &mut |m| progress.borrow_mut().suspend(|| crate::failure::say(&m)),
        invalid: &mut |name, messages| {
            let mut text = Vec::new();
            for (line, m) in messages {
                let _ = writeln!(text, "urilex: {name}:{line}: {m}");
            }
            progress.borrow_mut().suspend(|| {
                let _ = stderr.write_all(&text);
            });
        },
        progress: &mut |n| progress.borrow_mut().inc(n),
    };
    let summary = pipeline.operate(op, output, out, report);
    progress.borrow_mut().finish();
    let summary = summary?;
    Failure::of(summary.faults, summary.invalid)
}
