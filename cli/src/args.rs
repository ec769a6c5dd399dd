//! Flags that several subcommands share, each declared once and flattened
//! into the subcommands (`#[command(flatten)]`). Profile and syntax names
//! come from the generated lists, so a new grammar file is a new choice in
//! `--help` and in the completions.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::path::PathBuf;
use urilex::{Profile, Syntax};

/// `--profile`.
#[derive(clap::Args, Clone, Copy)]
pub struct ProfileArg {
    /// Grammar profile (one per abnf/*.abnf file).
    #[arg(long, default_value = "rfc3986", value_parser = profile_parser())]
    pub profile: Profile,
}

/// `--threads`.
#[derive(clap::Args, Clone, Copy)]
pub struct ThreadsArg {
    /// Worker threads (0: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

impl ThreadsArg {
    /// How many workers: `--threads`, or one per core for 0.
    pub fn count(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
}

/// `--format`, `--fields`, `--output`: the rows of the subcommands that
/// write rows, in the one schema of `docs/schema.md`.
#[derive(clap::Args, Clone)]
pub struct FormatArg {
    /// Output format: JSON Lines, TSV (`\N` for null), CSV (RFC 4180,
    /// with a header; empty for null, `""` for empty), Arrow IPC stream,
    /// or Parquet (zstd).
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,
    /// The columns to write, comma-separated, in order: column names,
    /// `default` (the default ones) and `all` (those and `file`, `input`,
    /// and for access logs `client`, `ident`, `user`, `time`, `method`,
    /// `protocol`, `status`, `bytes`, `referer`, `user_agent`).
    #[arg(long, value_name = "LIST")]
    pub fields: Option<String>,
    /// Write to this file instead of standard output (Arrow and Parquet
    /// are not written to a terminal); a directory (`-o DIR/`): part
    /// files, one per worker's run of input, in order by name.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub spread: SpreadArg,
}

/// `--compress` and `--part-bytes`: text rows compressed on the workers,
/// and the size of each part with `-o DIR/`.
#[derive(clap::Args, Clone, Copy)]
pub struct SpreadArg {
    /// Compress text rows (JSON Lines, TSV, CSV): `zstd` or `gzip`, a
    /// level after a colon (`zstd:9`, `gzip:1`); by the workers, one frame
    /// (gzip member) per chunk, in order: one stream `zstd -d` and `gzip
    /// -d` read. Implied by `-o FILE.zst` or `-o FILE.gz`.
    #[arg(long, value_name = "HOW", value_parser = |s: &str| s.parse::<urilex_io::compress::Compression>())]
    pub compress: Option<urilex_io::compress::Compression>,
    /// With `-o DIR/`: about how much input each part holds (a number,
    /// or with K, M or G: `256M`).
    #[arg(long, value_name = "BYTES", default_value = "32M", value_parser = bytes_parser)]
    pub part_bytes: u64,
}

/// `64`, `64K`, `32M`, `1G` (powers of 1024).
fn bytes_parser(s: &str) -> Result<u64, String> {
    let (num, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let shift = match unit {
        "" => 0,
        "K" | "k" | "KiB" => 10,
        "M" | "m" | "MiB" => 20,
        "G" | "g" | "GiB" => 30,
        _ => return Err(format!("`{s}`: a number of bytes, with K, M or G after it")),
    };
    match num.parse::<u64>() {
        Ok(n) if n > 0 && n.leading_zeros() >= shift => Ok(n << shift),
        _ => Err(format!(
            "`{s}`: a number of bytes above 0, with K, M or G after it"
        )),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Jsonl,
    Tsv,
    Csv,
    Arrow,
    Parquet,
}

impl Format {
    pub fn to_io(self) -> urilex_io::run::OutputFormat {
        use urilex_io::run::OutputFormat as O;
        match self {
            Format::Jsonl => O::Jsonl,
            Format::Tsv => O::Tsv,
            Format::Csv => O::Csv,
            Format::Arrow => O::Arrow,
            Format::Parquet => O::Parquet,
        }
    }
}

/// `--format`, `--header` and `-o` of the subcommands whose rows are
/// their own (`lint`, `urn`): the same five formats as `parse`.
#[derive(clap::Args, Clone)]
pub struct RowsArg {
    /// Output format (default JSON Lines): JSON Lines, TSV (`\N` for
    /// null), CSV (RFC 4180, with a header), Arrow IPC stream, or Parquet
    /// (zstd); nested values (lints, directives) are JSON text in TSV and
    /// CSV, Arrow's `arrow.json` type in Arrow and Parquet.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Print a header row first (TSV; CSV always has one).
    #[arg(long)]
    pub header: bool,
    /// Write to this file instead of standard output (Arrow and Parquet
    /// are not written to a terminal); a directory (`-o DIR/`): part
    /// files, one per worker's run of input, in order by name.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub spread: SpreadArg,
}

/// Input files of free text (read as they are, not as records).
#[derive(clap::Args, Clone)]
pub struct FilesArg {
    /// Input files; standard input when none is given or for `-`.
    pub files: Vec<PathBuf>,
}

/// `--input`'s help, from the formats' registry.
fn input_help() -> String {
    let mut h = String::from(
        "Where the references are in each record (gzip and zstd inputs are read transparently):",
    );
    for r in urilex_io::format::DECODERS {
        h.push_str(&format!("\n  {}: {}", r.usage(), r.about));
    }
    h
}

/// The input files and how to read them.
#[derive(clap::Args, Clone)]
pub struct InputsArg {
    #[arg(long = "input", value_name = "FORMAT", default_value = "lines",
          help = input_help(),
          value_parser = |s: &str| s.parse::<urilex_io::format::InputFormat>())]
    pub input: urilex_io::format::InputFormat,
    /// Which reference of a request log's record: the request target, the
    /// referer (combined, w3c), or both as two sets of columns (the referer's
    /// prefixed `referer_`).
    #[arg(long, value_enum, default_value_t = FieldArg::Target)]
    pub field: FieldArg,
    /// A record longer than this many bytes is an error row.
    #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
    pub max_line_bytes: usize,
    /// Input files; standard input when none is given or for `-`.
    pub files: Vec<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FieldArg {
    Target,
    Referer,
    Both,
}

impl InputsArg {
    /// The extractor for these flags, values parsed with `syntax`.
    pub fn extractor(&self, syntax: Syntax) -> Result<urilex_io::format::Extractor, String> {
        use urilex_io::format::LogField;
        let field = match self.field {
            FieldArg::Target => LogField::Target,
            FieldArg::Referer => LogField::Referer,
            FieldArg::Both => LogField::Both,
        };
        if field != LogField::Target && !self.input.decoder().has_referer() {
            return Err(format!(
                "--field referer and --field both need an input with referers ({})",
                urilex_io::format::with_referers().join(", ")
            ));
        }
        Ok(urilex_io::format::Extractor {
            format: self.input.clone(),
            syntax,
            field,
            carry: Vec::new(),
            max_record_bytes: self.max_line_bytes.max(1),
        })
    }

    /// The engine for these flags under `profile`.
    pub fn engine(
        &self,
        profile: Profile,
        syntax: Syntax,
    ) -> Result<urilex_io::rows::Engine, String> {
        let e = urilex_io::rows::Engine {
            extractor: self.extractor(syntax)?,
            profile,
        };
        e.check()?;
        Ok(e)
    }

    /// How to read the inputs.
    pub fn read_options(&self, number_lines: bool) -> urilex_io::source::ReadOptions {
        urilex_io::source::ReadOptions {
            number_lines,
            max_record_bytes: self.max_line_bytes.max(1),
            ..Default::default()
        }
    }
}

fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    let values = Profile::ALL
        .iter()
        .map(|p| PossibleValue::new(p.name()).help(p.description()));
    PossibleValuesParser::new(values)
        .map(|s: String| Profile::from_name(&s).expect("a listed profile"))
}

/// `--profile` of `urilex urn`: the URN grammars (those that name parts
/// `nid` and `nss`).
pub fn urn_profile_parser() -> impl TypedValueParser<Value = Profile> {
    let values = Profile::ALL
        .iter()
        .filter(|p| urilex::urn::is_urn_profile(**p))
        .map(|p| PossibleValue::new(p.name()).help(p.description()));
    PossibleValuesParser::new(values)
        .map(|s: String| Profile::from_name(&s).expect("a listed profile"))
}

/// `--syntax`: the entry points the grammars declare (`;@ entry`).
pub fn syntax_parser() -> impl TypedValueParser<Value = Syntax> {
    let values = Syntax::ALL.iter().map(|s| s.as_str());
    PossibleValuesParser::new(values)
        .map(|s: String| Syntax::from_name(&s).expect("a listed syntax"))
}
