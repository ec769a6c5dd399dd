//! Operations on references (`urilex get`, `params`, `keys`, `values`,
//! `hierarchy`, `edit`): an [`Operation`] turns each reference into items
//! (a `get` line, a query pair, ...), cells in the operation's columns,
//! and [`Pipeline::operate`] runs it over the inputs. The items are
//! written as rows (the record's line first), or text lines, or kept once
//! each in first-seen order ([`Mode::Unique`]), or counted
//! ([`Mode::Count`]: each worker counts what it reads, the counts are
//! merged at the end, [`crate::tally`]). Memory grows with the number of
//! distinct items only.

use crate::rows::Uri;
use crate::run::{Done, OutputFormat, Pipeline, RunError};
use crate::source::ReadOptions;
use crate::table::{Cell, Columns, Encoded, Rows, TableEncoder, TableSink, Type};
use crate::tally::{cells_of, key, Counts, FirstSeen};
use crate::text::{put_u64, text_cell};
use std::io::Write;
use std::sync::Mutex;
use urilex::UriRef;

/// What an operation makes of a reference.
pub trait Operation: Sync {
    /// Its columns (without `line`, which comes first in rows).
    fn columns(&self) -> Vec<(&'static str, Type, bool)>;
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
    sink: &'o mut ChunkOut,
    line: u64,
    /// The worker's scratch space, kept between rows.
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
            Out::Text if self.sink.as_is && !self.sink.numbered => Some(&mut self.sink.text),
            _ => None,
        }
    }
}

/// What [`Pipeline::operate`] makes of the items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every item: a row with the record's line first in a table format,
    /// or a text line (`urilex get`'s default).
    Items,
    /// Each distinct value once, first seen first.
    Unique,
    /// Each distinct value with its count, most frequent first.
    Count,
}

/// What a worker makes of a chunk's items: [`Mode`] with the items' form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Out {
    Text,
    Rows,
    Unique,
    Count,
}

/// How [`Pipeline::operate`] writes.
#[derive(Clone, Copy, Debug)]
pub struct OpOutput {
    /// What is written.
    pub mode: Mode,
    /// The table format of rows, values and counts; `None`: text lines
    /// (values as they are, several TSV).
    pub format: Option<OutputFormat>,
    /// A header line first (TSV).
    pub header: bool,
    /// With [`Mode::Count`]: only the `top` most frequent.
    pub top: Option<usize>,
}

/// An invalid reference: its line, and why.
pub type Invalid = (u64, String);

/// Who hears of an operation's run: inputs' faults, the messages of
/// invalid references (`(input name, line, message)`, a chunk's at once,
/// in order with the output), progress.
pub struct OpReport<'r> {
    /// An input's fault; the message names it.
    pub fault: &'r mut dyn FnMut(&str),
    /// A chunk's invalid references: its input's name and, per reference,
    /// its line and why.
    pub invalid: &'r mut dyn FnMut(&str, &[Invalid]),
    /// Input bytes done.
    pub progress: &'r mut dyn FnMut(u64),
}

/// What an operation's run saw.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpSummary {
    /// References that were invalid (or whose items failed).
    pub invalid: u64,
    /// Inputs that could not be read.
    pub faults: u64,
}

/// Where a chunk's rows are, for the messages' line numbers.
struct ChunkAt {
    name: String,
    starts_input: bool,
    rows: u64,
}

impl Pipeline<'_> {
    /// Runs `op` over every record's reference (URI column 0) and writes
    /// its items as `output` says to `out`. `--count` and `--unique`
    /// are done here: each worker counts what it reads (its state), the
    /// counts are merged when the run ends.
    pub fn operate(
        &self,
        op: &dyn Operation,
        output: OpOutput,
        out: Box<dyn Write + Send>,
        report: OpReport<'_>,
    ) -> Result<OpSummary, RunError> {
        let OpReport {
            fault,
            invalid: on_invalid,
            progress,
        } = report;
        let text_format = output.format.is_none();
        let mode = match output.mode {
            Mode::Items if text_format => Out::Text,
            Mode::Items => Out::Rows,
            Mode::Unique => Out::Unique,
            Mode::Count => Out::Count,
        };
        let counting = mode == Out::Count;
        // Plain lines are numbered from the rows' count (only an invalid
        // line needs its number); other formats by the reader (a CSV record
        // may take several lines), and rows carry their line.
        let lines_input = self.engine.extractor.format.is_lines();
        let op_columns = op.columns();
        let counted = op.counted();
        let mut row_columns = vec![("line", Type::U64, false)];
        row_columns.extend(op_columns.iter().copied());
        // The table written: rows with their line, or values (with counts).
        let out_columns = match mode {
            Out::Text | Out::Rows => Columns::of(row_columns.iter().copied()),
            Out::Unique | Out::Count => {
                let mut cols: Vec<_> = counted.iter().map(|&k| op_columns[k]).collect();
                if counting {
                    cols.push(("count", Type::U64, false));
                }
                Columns::of(cols)
            }
        };
        let io_format = output.format.unwrap_or(OutputFormat::Tsv);
        let mut sink = TableSink::new(io_format, &out_columns, output.header, out)?;
        let encoder: TableEncoder = sink.encoder();
        let one = op.one_per_record();
        let as_is = op.text_as_is();
        let mut summary = OpSummary::default();
        let mut global = FirstSeen::default();
        let mut unique = Values::new(&encoder, &out_columns, text_format, as_is);
        // Text buffers go back to the workers once written.
        let pool = Mutex::new(Vec::<Vec<u8>>::new());
        let pool = &pool;
        let numbered =
            !lines_input || mode == Out::Rows || (mode == Out::Text && op.text_line_number());
        let fast = op.has_entry_items();
        // The line the next chunk of plain lines starts at, 0-based.
        let mut base = 0u64;
        let pipeline = Pipeline {
            read: ReadOptions {
                number_lines: numbered,
                ..self.read
            },
            ..*self
        };
        let workers = pipeline.run(
            || {
                (
                    // The worker's scratch space, kept between rows.
                    Vec::<u8>::new(),
                    ChunkOut {
                        as_is,
                        numbered: op.text_line_number(),
                        mode,
                        one,
                        counted: counted.clone(),
                        text: Vec::new(),
                        rows: encoder.rows(Columns::of(row_columns.iter().copied())),
                        seen: FirstSeen::default(),
                        key: Vec::new(),
                        messages: Vec::new(),
                        invalid: 0,
                        tally: Counts::default(),
                    },
                )
            },
            |(scratch, out), rows| {
                out.text.clear();
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
                                scratch: &mut *scratch,
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
                                scratch: &mut *scratch,
                            };
                            op.items(&u, &mut items)
                        }
                        Uri::Parsed(Err(e)) => Err(e.to_string()),
                        Uri::Format(e) => Err(e.message.clone()),
                        Uri::Absent | Uri::Asterisk => {
                            // No reference (a referer of `-`): an empty value,
                            // as `get` prints it (a null in rows).
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
                    Out::Text => Some(Encoded::Text(std::mem::take(&mut out.text))),
                    Out::Rows => Some(encoder.encode(&mut out.rows)),
                    Out::Unique | Out::Count => None,
                };
                let at = ChunkAt {
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
            |done| -> Result<(), RunError> {
                match done {
                    Done::Rows((encoded, order, mut messages, bad, at), bytes) => {
                        summary.invalid += bad;
                        if at.starts_input {
                            base = 0;
                        }
                        if !messages.is_empty() {
                            if !numbered {
                                for (l, _) in &mut messages {
                                    *l += base + 1;
                                }
                            }
                            on_invalid(&at.name, &messages);
                        }
                        base += at.rows;
                        if let Some(e) = encoded {
                            if let Some(b) = sink.put(e)? {
                                if let Ok(mut p) = pool.lock() {
                                    p.push(b);
                                }
                            }
                        }
                        if !order.is_empty() {
                            for k in order {
                                if !global.seen(&k) {
                                    unique.push(cells_of(&k));
                                    global.remember(k);
                                }
                            }
                            sink.put(unique.take(&encoder))?;
                        }
                        progress(bytes);
                    }
                    Done::Fault(m) => {
                        summary.faults += 1;
                        fault(&m);
                    }
                }
                Ok(())
            },
        )?;
        if counting {
            let all =
                Counts::merge(workers.into_iter().map(|(_, out)| out.tally)).ranked(output.top);
            let mut rows = Values::new(&encoder, &out_columns, text_format, as_is);
            for (k, n) in &all {
                let mut cells = cells_of(k);
                cells.push(Cell::U64(*n));
                rows.push(cells);
                if rows.len() >= 1 << 16 {
                    sink.put(rows.take(&encoder))?;
                }
            }
            sink.put(rows.take(&encoder))?;
        }
        sink.finish()?;
        Ok(summary)
    }
}

/// Distinct values (and counts) on their way to the sink: rows of the
/// table format, or text lines (a value alone on its line as it is,
/// several TSV).
enum Values {
    Rows(Rows),
    Text {
        out: Vec<u8>,
        as_is: bool,
        rows: usize,
    },
}

impl Values {
    fn new(encoder: &TableEncoder, columns: &Columns, text: bool, as_is: bool) -> Values {
        if text {
            Values::Text {
                out: Vec::new(),
                as_is,
                rows: 0,
            }
        } else {
            Values::Rows(encoder.rows(columns.clone()))
        }
    }

    fn len(&self) -> usize {
        match self {
            Values::Rows(r) => r.len(),
            Values::Text { rows, .. } => *rows,
        }
    }

    fn push(&mut self, cells: Vec<Cell<'_>>) {
        match self {
            Values::Rows(r) => r.push(cells),
            Values::Text { out, as_is, rows } => {
                *rows += 1;
                if let [Cell::Text(v), Cell::U64(n)] = cells[..] {
                    if *as_is {
                        out.extend_from_slice(v);
                    } else {
                        text_value(out, v);
                    }
                    out.push(b'\t');
                    put_u64(out, n);
                    out.push(b'\n');
                } else {
                    text_line(out, &cells, *as_is);
                }
            }
        }
    }

    /// What was pushed, encoded, taken.
    fn take(&mut self, encoder: &TableEncoder) -> Encoded {
        match self {
            Values::Rows(r) => encoder.encode(r),
            Values::Text { out, rows, .. } => {
                *rows = 0;
                Encoded::Text(std::mem::take(out))
            }
        }
    }
}

/// A worker's output for one chunk.
struct ChunkOut {
    mode: Out,
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
            Out::Rows => self.rows.push([Cell::U64(line)]),
            _ => self.item(line, &[Cell::Text(b"")]),
        }
    }

    /// An invalid reference (or record): its message, at `at` (its line, or
    /// its row in the chunk), and for a one-per-record operation writing
    /// lines or rows, an empty item in its place.
    fn fail(&mut self, line: u64, at: u64, m: String) {
        self.invalid += 1;
        self.messages.push((at, m));
        if self.one && matches!(self.mode, Out::Text | Out::Rows) {
            self.no_value(line);
        }
    }

    fn item(&mut self, line: u64, cells: &[Cell<'_>]) {
        match self.mode {
            Out::Text => {
                if self.numbered {
                    put_u64(&mut self.text, line);
                    self.text.push(b'\t');
                }
                text_line(&mut self.text, cells, self.as_is)
            }
            Out::Rows => {
                let cells = cells.iter().cloned();
                self.rows
                    .push(std::iter::once(Cell::U64(line)).chain(cells));
            }
            Out::Unique | Out::Count => {
                key(&mut self.key, cells, &self.counted);
                if matches!(self.mode, Out::Unique) {
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
                Cell::Text(t) => text_cell(out, t, false),
                Cell::U64(n) => put_u64(out, *n),
                _ => out.extend_from_slice(b"\\N"),
            }
        }
    }
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

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
