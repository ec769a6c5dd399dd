//! What the operations on references share (`get`, `params`, `keys`,
//! `values`, `hierarchy`, `edit`): their flags, reading records through the
//! log pipeline (each reference read from the batch's spans, not parsed
//! again), rows out in any table format, and `--unique` / `--count`.
//!
//! An operation turns each reference into items (a `get` line, a query
//! pair, ...): cells in the operation's columns. They are written as rows
//! (the input's line number first), or kept once each in first-seen order
//! (`--unique`), or counted (`--count`; each worker counts what it reads,
//! and the counts are merged at the end). Memory grows with the number of
//! distinct items only.

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use urilex::{Syntax, UriRef};
use urilex_io::rows::Uri;
use urilex_io::run::{Done, OutputFormat};
use urilex_io::table::{Cell, Columns, Encoded, Kind, Rows, TableEncoder, TableSink};
use urilex_io::tally::{cells_of, key, Counts, FirstSeen};

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
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
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

/// What an operation makes of a reference.
pub trait Operation: Sync {
    /// Its columns (without `line`, which comes first in rows).
    fn columns(&self) -> Vec<(&'static str, Kind, bool)>;
    /// Which of them make up a value for `--unique` and `--count`.
    fn counted(&self) -> Vec<usize> {
        (0..self.columns().len()).collect()
    }
    /// Whether every record gives exactly one item (`get`): a record
    /// without a reference, or with an invalid one, then gives an empty
    /// item (an empty line; a row of nulls).
    fn one_per_record(&self) -> bool {
        false
    }
    /// Whether its values are written on text lines as they are (they
    /// hold no CR or LF of their own: `get`'s template sees to it).
    fn text_as_is(&self) -> bool {
        false
    }
    /// Whether text lines start with the input's line number (`params`).
    fn text_line_number(&self) -> bool {
        false
    }
    /// Writes the items of reference `i` of a batch (parsed from `buf`)
    /// from its record, when the operation can (`None`: it needs the
    /// [`UriRef`]): the same items as [`items`](Self::items), faster; for
    /// an invalid reference, its error.
    fn batch_items(
        &self,
        _batch: &urilex::Batch,
        _i: usize,
        _buf: &[u8],
        _out: &mut Items<'_>,
    ) -> Option<Result<(), String>> {
        None
    }
    /// Whether [`batch_items`](Self::batch_items) is worth asking.
    fn has_entry_items(&self) -> bool {
        false
    }
    /// Writes `u`'s items to `out`; an error message for the row
    /// otherwise. `scratch` is the worker's, kept between rows.
    fn items(&self, u: &UriRef<'_>, out: &mut Items<'_>) -> Result<(), String>;
}

/// Where an operation's items go, for one row.
pub struct Items<'o> {
    pub(super) sink: &'o mut ChunkOut,
    line: u64,
    pub scratch: &'o mut Vec<u8>,
}

impl Items<'_> {
    /// One item: a cell per column.
    pub fn item(&mut self, cells: &[Cell<'_>]) {
        self.sink.item(self.line, cells);
    }

    /// The text output itself, when items are written there as they are,
    /// one line each (`text` format, rows neither counted nor kept once,
    /// [`Operation::text_as_is`]): an operation writes its line there
    /// (ending it with LF) instead of making an item.
    pub fn text_line(&mut self) -> Option<&mut Vec<u8>> {
        match self.sink.mode {
            Mode::Text if self.sink.as_is && !self.sink.numbered => Some(&mut self.sink.text),
            _ => None,
        }
    }
}

#[derive(Clone, Copy)]
enum Mode {
    Text,
    Rows,
    Unique,
    Count,
}

/// A worker's output for one chunk.
pub struct ChunkOut {
    mode: Mode,
    /// The operation's columns (without `line`).
    columns: usize,
    /// [`Operation::one_per_record`].
    one: bool,
    as_is: bool,
    numbered: bool,
    counted: Vec<usize>,
    text: Vec<u8>,
    rows: Rows,
    /// --unique: the chunk's distinct values in first-seen order.
    seen: FirstSeen,
    key: Vec<u8>,
    /// Messages for stderr: the row (its line when lines are numbered,
    /// else its index in the chunk) and the message.
    messages: Vec<(u64, String)>,
    invalid: u64,
    /// --count: this worker's counts, over all its chunks (merged with the
    /// others' when the run ends).
    tally: Counts,
}

impl ChunkOut {
    /// The item of a record without a value: an empty one (a row of
    /// nulls in `Rows`).
    fn no_value(&mut self, line: u64) {
        match self.mode {
            Mode::Rows => self.item(line, &[Cell::Null; 7][..self.columns.min(7)]),
            _ => self.item(line, &[Cell::Text(b"")]),
        }
    }

    /// An invalid reference (or record): its message, at `at` (its line, or
    /// its row in the chunk), and for a one-per-record operation writing
    /// lines or rows, an empty item in its place.
    fn fail(&mut self, line: u64, at: u64, m: String) {
        self.invalid += 1;
        self.messages.push((at, m));
        if self.one && matches!(self.mode, Mode::Text | Mode::Rows) {
            self.no_value(line);
        }
    }

    fn item(&mut self, line: u64, cells: &[Cell<'_>]) {
        match self.mode {
            Mode::Text => {
                if self.numbered {
                    urilex_io::text::put_u64(&mut self.text, line);
                    self.text.push(b'\t');
                }
                text_line(&mut self.text, cells, self.as_is)
            }
            Mode::Rows => {
                let mut all = [Cell::Null; 8];
                all[0] = Cell::U64(line);
                for (k, c) in cells.iter().enumerate().take(7) {
                    all[k + 1] = *c;
                }
                self.rows.push(&all[..cells.len() + 1]);
            }
            Mode::Unique | Mode::Count => {
                key(&mut self.key, cells, &self.counted);
                if matches!(self.mode, Mode::Unique) {
                    self.seen.add(&self.key);
                } else {
                    self.tally.add(&self.key);
                }
            }
        }
    }
}

/// A value written on a text line: the bytes as they are but CR and LF.
fn text_value(out: &mut Vec<u8>, t: &[u8]) {
    let mut from = 0;
    for (i, &b) in t.iter().enumerate() {
        if b == b'\n' || b == b'\r' {
            out.extend_from_slice(&t[from..i]);
            out.extend_from_slice(if b == b'\n' { b"%0A" } else { b"%0D" });
            from = i + 1;
        }
    }
    out.extend_from_slice(&t[from..]);
}

fn text_line(out: &mut Vec<u8>, cells: &[Cell<'_>], as_is: bool) {
    if let [Cell::Text(t)] = cells {
        if as_is {
            out.extend_from_slice(t);
        } else {
            text_value(out, t);
        }
    } else {
        for (k, c) in cells.iter().enumerate() {
            if k > 0 {
                out.push(b'\t');
            }
            match c {
                Cell::Text(t) => urilex_io::text::text_cell(out, t, false),
                Cell::U64(n) => urilex_io::text::put_u64(out, *n),
                Cell::Null => out.extend_from_slice(b"\\N"),
            }
        }
    }
    out.push(b'\n');
}

/// Where a chunk's rows are, for the messages' line numbers.
struct Chunk {
    name: String,
    starts_input: bool,
    rows: u64,
}

/// A worker's scratch space, kept between rows.
struct Worker {
    scratch: Vec<u8>,
}

/// Runs `op` over the inputs as `c` says.
pub fn run(c: &Common, op: &dyn Operation) -> Result<(), Failure> {
    if matches!(c.inputs.field, crate::args::FieldArg::Both) {
        return Err(Failure::Message(
            "--field both is for `parse`: give --field target or --field referer".into(),
        ));
    }
    let threads = match c.threads.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let engine = c
        .inputs
        .engine(c.profile.profile, Syntax::Reference)
        .map_err(Failure::Message)?;
    let counting = c.count || c.top.is_some();
    // Plain lines are numbered from the rows' count (only an invalid
    // line needs its number); other formats by the reader (a CSV record
    // may take several lines), and rows carry their line.
    let lines_input = c.inputs.input.is_lines();
    let mode = if counting {
        Mode::Count
    } else if c.unique {
        Mode::Unique
    } else if c.format == OpFormat::Text {
        Mode::Text
    } else {
        Mode::Rows
    };
    let op_columns = op.columns();
    let counted = op.counted();
    let mut row_columns = vec![("line", Kind::U64, false)];
    row_columns.extend(op_columns.iter().copied());
    // The table written: rows with their line, or values (with counts).
    let out_columns = match mode {
        Mode::Text | Mode::Rows => Columns(row_columns.clone()),
        Mode::Unique | Mode::Count => {
            let mut cols: Vec<_> = counted.iter().map(|&k| op_columns[k]).collect();
            if counting {
                cols.push(("count", Kind::U64, false));
            }
            Columns(cols)
        }
    };
    let binary = matches!(c.format, OpFormat::Arrow | OpFormat::Parquet);
    let out = crate::input::output(c.output.as_deref(), binary)?;
    let io_format = match c.format {
        OpFormat::Text | OpFormat::Tsv => OutputFormat::Tsv,
        OpFormat::Jsonl => OutputFormat::Jsonl,
        OpFormat::Csv => OutputFormat::Csv,
        OpFormat::Arrow => OutputFormat::Arrow,
        OpFormat::Parquet => OutputFormat::Parquet,
    };
    let header = c.header && c.format == OpFormat::Tsv;
    let mut sink = TableSink::new(io_format, &out_columns, header, out).map_err(run_error)?;
    let encoder: TableEncoder = sink.encoder();
    let one = op.one_per_record();
    let mut failed_inputs = false;
    let mut invalid = 0u64;
    let mut global = FirstSeen::default();
    let mut unique_rows = Rows::new(out_columns.clone());
    let mut stderr = std::io::stderr().lock();
    let mut progress = crate::input::Progress::new(&c.inputs.files);
    // Text buffers go back to the workers once written.
    let pool = Mutex::new(Vec::<Vec<u8>>::new());
    let pool = &pool;
    let numbered = !lines_input
        || matches!(mode, Mode::Rows)
        || (matches!(mode, Mode::Text) && op.text_line_number());
    let fast = op.has_entry_items();
    // The line the next chunk of plain lines starts at, 0-based.
    let mut base = 0u64;
    let r = urilex_io::run::Pipeline {
        files: &c.inputs.files,
        read: c.inputs.read_options(numbered),
        engine: &engine,
        threads,
    }
    .run(
        || {
            (
                Worker {
                    scratch: Vec::new(),
                },
                ChunkOut {
                    as_is: op.text_as_is(),
                    numbered: op.text_line_number(),
                    mode,
                    columns: op_columns.len(),
                    one,
                    counted: counted.clone(),
                    text: Vec::new(),
                    rows: Rows::new(Columns(row_columns.clone())),
                    seen: FirstSeen::default(),
                    key: Vec::new(),
                    messages: Vec::new(),
                    invalid: 0,
                    tally: Counts::default(),
                },
            )
        },
        |(worker, out), rows| {
            out.text.clear();
            out.rows.clear();
            out.messages.clear();
            out.invalid = 0;
            if let Some(b) = pool.lock().ok().and_then(|mut p| p.pop()) {
                out.text = b;
                out.text.clear();
            }
            for r in 0..rows.len() {
                let line = rows.line(r);
                let at = if numbered { line } else { r as u64 };
                if fast {
                    if let Some((batch, buf, index)) = rows.in_batch(0, r) {
                        // The operation tells an invalid reference by its
                        // record (its error message), or asks for the
                        // reference itself (`None`).
                        let mut items = Items {
                            sink: out,
                            line,
                            scratch: &mut worker.scratch,
                        };
                        if let Some(res) = op.batch_items(batch, index, buf, &mut items) {
                            if let Err(m) = res {
                                out.fail(line, at, m);
                            }
                            continue;
                        }
                    }
                }
                // Matched where it is made: a reference is not moved
                // through wrappers (a copy of its spans each time).
                let result = match rows.uri(0, r) {
                    Uri::Parsed(Ok(u)) => {
                        let mut items = Items {
                            sink: out,
                            line,
                            scratch: &mut worker.scratch,
                        };
                        op.items(&u, &mut items)
                    }
                    Uri::Parsed(Err(e)) => Err(e.to_string()),
                    Uri::Format(e) => Err(e.message.clone()),
                    Uri::Absent | Uri::Asterisk => {
                        // No reference (a referer of `-`): an empty value, as
                        // `get` prints it (a null in rows).
                        if one {
                            out.no_value(line);
                        }
                        continue;
                    }
                };
                if let Err(m) = result {
                    out.fail(line, at, m);
                }
            }
            let encoded = match out.mode {
                Mode::Text => Some(Encoded::Text(std::mem::take(&mut out.text))),
                Mode::Rows => Some(encoder.encode(&out.rows)),
                Mode::Unique | Mode::Count => None,
            };
            let at = Chunk {
                name: if out.messages.is_empty() {
                    String::new()
                } else {
                    rows.name.to_string()
                },
                starts_input: rows.starts_input,
                rows: rows.len() as u64,
            };
            (
                encoded,
                out.seen.take(),
                std::mem::take(&mut out.messages),
                out.invalid,
                at,
            )
        },
        |done| -> Result<(), Failure> {
            match done {
                Done::Rows((encoded, order, messages, bad, at), bytes) => {
                    invalid += bad;
                    if at.starts_input {
                        base = 0;
                    }
                    if !messages.is_empty() {
                        let mut text = Vec::new();
                        for (l, m) in &messages {
                            let l = if numbered { *l } else { base + l + 1 };
                            let _ = writeln!(text, "urilex: {}:{l}: {m}", at.name);
                        }
                        progress.suspend(|| {
                            let _ = stderr.write_all(&text);
                        });
                    }
                    base += at.rows;
                    if let Some(e) = encoded {
                        if let Some(b) = sink.put(e).map_err(run_error)? {
                            if let Ok(mut p) = pool.lock() {
                                p.push(b);
                            }
                        }
                    }
                    if !order.is_empty() {
                        unique_rows.clear();
                        for k in order {
                            if !global.seen(&k) {
                                unique_rows.push(&cells_of(&k));
                                global.remember(k);
                            }
                        }
                        sink.put(encode_values(
                            &encoder,
                            &unique_rows,
                            c.format,
                            op.text_as_is(),
                        ))
                        .map_err(run_error)?;
                    }
                    progress.inc(bytes);
                }
                Done::Fault(m) => {
                    failed_inputs = true;
                    progress.suspend(|| crate::failure::say(&m));
                }
            }
            Ok(())
        },
    );
    progress.finish();
    let workers = r?;
    if counting {
        let all = Counts::merge(workers.into_iter().map(|(_, out)| out.tally)).ranked(c.top);
        let mut rows = Rows::new(out_columns.clone());
        for (k, n) in &all {
            let mut cells = cells_of(k);
            cells.push(Cell::U64(*n));
            rows.push(&cells);
            if rows.len() >= 1 << 16 {
                sink.put(encode_values(&encoder, &rows, c.format, op.text_as_is()))
                    .map_err(run_error)?;
                rows.clear();
            }
        }
        sink.put(encode_values(&encoder, &rows, c.format, op.text_as_is()))
            .map_err(run_error)?;
    }
    sink.finish().map_err(run_error)?;
    if failed_inputs {
        Err(Failure::Inputs)
    } else if invalid > 0 {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}

/// Values (and counts) for the sink: in `text`, a value alone on its line
/// as it is, several TSV.
fn encode_values(encoder: &TableEncoder, rows: &Rows, format: OpFormat, as_is: bool) -> Encoded {
    if format != OpFormat::Text {
        return encoder.encode(rows);
    }
    let mut out = Vec::new();
    rows.each(|cells| {
        if let [Cell::Text(v), Cell::U64(n)] = cells {
            if as_is {
                out.extend_from_slice(v);
            } else {
                text_value(&mut out, v);
            }
            let _ = writeln!(out, "\t{n}");
        } else {
            text_line(&mut out, cells, as_is);
        }
    });
    Encoded::Text(out)
}

fn run_error(e: urilex_io::run::RunError) -> Failure {
    match e {
        urilex_io::run::RunError::Io(e) => Failure::from(e),
        urilex_io::run::RunError::Other(m) => Failure::Message(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip() {
        let cells = [
            Cell::Text(b"a\0b"),
            Cell::Null,
            Cell::U64(7),
            Cell::Text(b""),
        ];
        let mut k = Vec::new();
        key(&mut k, &cells, &[0, 1, 2, 3]);
        let back = cells_of(&k);
        assert_eq!(format!("{back:?}"), format!("{:?}", cells));
        key(&mut k, &cells, &[3, 0]);
        assert_eq!(
            format!("{:?}", cells_of(&k)),
            format!("{:?}", [cells[3], cells[0]])
        );
    }

    #[test]
    fn text_lines_stay_lines() {
        let mut out = Vec::new();
        text_line(&mut out, &[Cell::Text(b"a\nb\rc\td")], false);
        assert_eq!(out, b"a%0Ab%0Dc\td\n");
        out.clear();
        text_line(
            &mut out,
            &[Cell::Text(b"a\tb"), Cell::Null, Cell::U64(3)],
            false,
        );
        assert_eq!(out, b"a\\tb\t\\N\t3\n");
    }
}
