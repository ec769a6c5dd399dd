//! The subcommands, one module each: its flags (`Args`, with the shared
//! ones flattened in from `args`), its `--help` examples, and `run`.

pub mod edit;
pub mod extract;
pub mod get;
pub mod hierarchy;
pub mod lint;
pub mod normalize;
pub mod ops;
pub mod params;
pub mod parse;
pub mod resolve;
pub mod sql;
pub mod stats;
pub mod urn;
pub mod validate;

/// Chunks handed to the batch engine: large enough for every core.
pub const BATCH_CHUNK: usize = 16 << 20;

use crate::failure::Failure;
use urilex_io::model::{Cell, Columns, ErrorCell, Type};
use urilex_io::run::OutputFormat;
use urilex_io::table::{Encoded, Rows, TableSink};

/// Where a line is, for rows and messages: `FILE:LINE` (grep's and the
/// compilers' form; `-` is standard input).
pub struct At<'a> {
    pub name: &'a str,
    pub line: u64,
    /// The rule the record's reference is read with when its record says
    /// (an access log's request target, by its form).
    pub syntax: Option<urilex::Syntax>,
}

impl At<'_> {
    /// `parser`, reading this record's reference with the rule its record
    /// gives it, where the profile has that rule.
    pub fn parser(&self, parser: urilex::Parser) -> urilex::Parser {
        match self.syntax {
            Some(s) if parser.get_profile().entry_rule(s).is_some() => parser.syntax(s),
            _ => parser,
        }
    }
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.name, self.line)
    }
}

/// A record's reference for the line-by-line subcommands: its text, or
/// why there is none (the record does not fit its format, or has no
/// reference, as a referer of `-`).
pub type Record<'a> = Result<&'a [u8], &'a str>;

/// Where a line-by-line subcommand's rows go: rows of the model in a
/// table format, or plain text lines (`resolve`'s and `normalize`'s
/// default, `urn --equiv`'s).
pub struct LinesOut<'a> {
    /// The rows' columns (unused for text lines).
    pub columns: Columns,
    /// `None`: text lines.
    pub format: Option<OutputFormat>,
    /// A header line first (TSV; CSV always has one).
    pub header: bool,
    /// The file to write (standard output when none), or with a `/` at
    /// its end the directory of part files.
    pub output: Option<&'a std::path::Path>,
    /// `--compress`, `--part-bytes`.
    pub spread: crate::args::SpreadArg,
}

/// Rows of `columns` as `--format`, `--header` and `-o` say (`lint`,
/// `urn`), JSON Lines unless `--format` names another (`text`: text lines
/// when it names none).
pub fn rows_out<'a>(rows: &'a crate::args::RowsArg, columns: Columns, text: bool) -> LinesOut<'a> {
    LinesOut {
        columns,
        format: match rows.format {
            None if text => None,
            f => Some(f.unwrap_or(crate::args::Format::Jsonl).to_io()),
        },
        header: rows.header,
        output: rows.output.as_deref(),
        spread: rows.spread,
    }
}

/// A record's output: a row of the model, or text.
pub enum Out<'o> {
    /// Rows in a table format: push one per record.
    Rows(&'o mut Rows),
    /// Text lines.
    Text(&'o mut Vec<u8>),
}

/// The columns of `resolve`'s and `normalize`'s rows.
pub fn result_columns() -> Columns {
    Columns::of([
        ("line", Type::U64, false),
        ("input", Type::Text, true),
        ("result", Type::Text, true),
        ("error", Type::Error, true),
    ])
}

/// A record's result (`resolve`, `normalize`): a row, or a text line of
/// the result or `ERROR FILE:LINE: message`.
pub fn put_result(out: &mut Out<'_>, at: &At, input: Record<'_>, result: Result<&str, ErrorCell>) {
    match out {
        Out::Text(t) => {
            match result {
                Ok(r) => t.extend_from_slice(r.as_bytes()),
                Err(e) => {
                    use std::io::Write as _;
                    let _ = write!(t, "ERROR {at}: {}", e.message);
                }
            }
            t.push(b'\n');
        }
        Out::Rows(rows) => {
            let input = input.map_or(Cell::Null, Cell::Text);
            let (r, e) = match result {
                Ok(r) => (Cell::Text(r.as_bytes()), Cell::Null),
                Err(e) => (Cell::Null, e.into()),
            };
            rows.push([Cell::U64(at.line), input, r, e]);
        }
    }
}

/// Runs `row` on every record of every input (read as `inputs` says), on
/// `threads` workers each with state from `init`; the rows each record
/// gives are written in input order as `out` says, a chunk at a time (so
/// rows of a paused stream show). An input that cannot be read is
/// reported when met and the others are still read (exit status 2).
pub fn run_lines<S: Send>(
    inputs: &crate::args::InputsArg,
    threads: usize,
    out: LinesOut<'_>,
    init: impl Fn() -> S + Sync,
    row: impl Fn(&mut S, Record<'_>, At, &mut Out<'_>) + Sync,
) -> Result<(), Failure> {
    let engine = inputs
        .engine(urilex::Profile::Rfc3986, urilex::Syntax::Reference)
        .map_err(Failure::Message)?;
    let pipeline = urilex_io::run::Pipeline {
        files: &inputs.files,
        read: inputs.read_options(true),
        engine: &engine,
        threads: crate::args::ThreadsArg { threads }.count(),
    };
    run_rows(&pipeline, out, init, |state, rows, out| {
        for r in 0..rows.len() {
            let at = At {
                name: rows.name,
                line: rows.line(r),
                syntax: rows.form(r).and_then(|f| f.syntax()),
            };
            let rec = match rows.value(0, r) {
                urilex_io::rows::Value::Format(e) => Err(e.message.as_str()),
                urilex_io::rows::Value::Absent => Err("no reference in this record"),
                _ => Ok(rows.text(0, r).unwrap_or_default()),
            };
            row(state, rec, at, out);
        }
    })
}

/// Runs `chunk` on every chunk's parsed rows (on the workers, each with
/// state from `init`), and writes what it pushes in input order as `out`
/// says: the one row encoder of every format (`urilex_io::table`).
pub fn run_rows<S: Send>(
    pipeline: &urilex_io::run::Pipeline<'_>,
    out: LinesOut<'_>,
    init: impl Fn() -> S + Sync,
    chunk: impl Fn(&mut S, &urilex_io::rows::ChunkRows<'_>, &mut Out<'_>) + Sync,
) -> Result<(), Failure> {
    let binary = matches!(
        out.format,
        Some(OutputFormat::Arrow | OutputFormat::Parquet)
    );
    let dest = crate::sink::destination(out.output, &out.spread, !binary)?;
    let format = out.format.unwrap_or(OutputFormat::Jsonl);
    let header = out.header || format == OutputFormat::Csv;
    if let Some(parts) = &dest.parts {
        if out.format.is_none() {
            return Err(Failure::Message(
                "-o DIR/ writes part files of rows: give --format (jsonl, tsv, csv, arrow, parquet)".into(),
            ));
        }
        crate::sink::parts_interrupt(parts)?;
        let kind = urilex_io::parts::PartKind {
            format,
            header: urilex_io::table::header_line(&out.columns, format, header),
            arrow: out.columns.arrow(),
        };
        let columns = &out.columns;
        let summary = pipeline.write_parts(
            parts,
            &kind,
            || (init(), Rows::new(columns.clone(), format)),
            |(state, rows), chunk_rows, part| {
                chunk(state, chunk_rows, &mut Out::Rows(rows));
                let n = rows.len();
                if format.is_text() {
                    let t = rows.take_text();
                    part.text(&t)?;
                    rows.recycle(t);
                } else {
                    part.batch(&rows.take_batch())?;
                }
                Ok(n)
            },
            urilex_io::run::Report {
                fault: &mut |m: &str| crate::failure::say(&m),
                progress: &mut |_| {},
            },
        )?;
        return Failure::of(summary.faults, 0);
    }
    let file = crate::sink::in_order(out.output, binary, dest.compress.is_some())?;
    let compress = dest.compress;
    let mut sink = TableSink::compressed(format, &out.columns, header, file, compress)?;
    let encoder = sink.encoder();
    let text = out.format.is_none();
    let mut failed = false;
    // Written buffers go back to the workers: a fresh one would fault its
    // pages in again.
    let pool = std::sync::Mutex::new(Vec::<Vec<u8>>::new());
    let r = pipeline.run(
        || {
            (
                init(),
                encoder.rows(out.columns.clone()),
                Vec::new(),
                urilex_io::compress::Framer::new(compress),
            )
        },
        |(state, rows, buf, framer), chunk_rows| {
            if let Some(mut b) = pool.lock().ok().and_then(|mut p| p.pop()) {
                b.clear();
                if text {
                    *buf = b;
                } else {
                    rows.recycle(b);
                }
            }
            buf.clear();
            let mut o = if text {
                Out::Text(buf)
            } else {
                Out::Rows(rows)
            };
            chunk(state, chunk_rows, &mut o);
            let e = match o {
                Out::Text(t) => Encoded::Text(std::mem::take(t)),
                Out::Rows(r) => encoder.encode(r),
            };
            match e {
                Encoded::Text(t) if framer.compresses() => {
                    let mut z = pool
                        .lock()
                        .ok()
                        .and_then(|mut p| p.pop())
                        .unwrap_or_default();
                    let r = framer.frame(&t, &mut z);
                    if let Ok(mut p) = pool.lock() {
                        p.push(t);
                    }
                    match r {
                        Ok(()) => Encoded::Text(z),
                        Err(e) => Encoded::Failed(e),
                    }
                }
                e => e,
            }
        },
        |done| -> Result<(), Failure> {
            match done {
                urilex_io::run::Done::Rows(e, _) => {
                    if let (Some(b), Ok(mut p)) = (sink.put(e)?, pool.lock()) {
                        p.push(b);
                    }
                }
                urilex_io::run::Done::Fault(m) => {
                    failed = true;
                    crate::failure::say(&m);
                }
            }
            Ok(())
        },
    );
    r?;
    sink.finish()?;
    Failure::of(u64::from(failed), 0)
}
