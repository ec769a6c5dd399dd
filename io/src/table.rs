//! Small tables for the operations on references (`get`, `params`, `keys`,
//! `values`, `hierarchy`, `edit`, and their counts): a few columns of
//! numbers and text, filled a row at a time by a worker, then written as
//! JSON Lines, TSV, CSV (one buffer per chunk), or as an Arrow record
//! batch for Arrow IPC and Parquet (encoded by the worker too).
//!
//! Text that comes out of percent-decoding may not be UTF-8: such columns
//! are [`Kind::Bytes`], Binary in Arrow and Parquet (the exact bytes), and
//! in JSON a string with U+FFFD for each bad sequence, as elsewhere in
//! urilex's outputs.

use crate::columnar::{encode_row_group, EncodedRowGroup, ParquetSink};
use crate::run::{OutputFormat, RunError};
use crate::text::{json_text, put_u64, TextFormat};
use arrow_array::builder::{BinaryBuilder, StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema as ArrowSchema, SchemaRef};
use std::io::Write;
use std::sync::Arc;

/// A column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// UInt64.
    U64,
    /// UTF-8 text (Utf8).
    Text,
    /// Bytes that are usually text (Binary).
    Bytes,
}

/// A table's columns: names, types, and whether they may be null.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns(pub Vec<(&'static str, Kind, bool)>);

impl Columns {
    /// The Arrow schema.
    pub fn arrow(&self) -> SchemaRef {
        Arc::new(ArrowSchema::new(
            self.0
                .iter()
                .map(|&(n, k, null)| {
                    let t = match k {
                        Kind::U64 => DataType::UInt64,
                        Kind::Text => DataType::Utf8,
                        Kind::Bytes => DataType::Binary,
                    };
                    Field::new(n, t, null)
                })
                .collect::<Vec<_>>(),
        ))
    }

    /// The header line of TSV and CSV.
    pub fn header(&self, format: TextFormat) -> Vec<u8> {
        let mut out = Vec::new();
        for (k, (n, _, _)) in self.0.iter().enumerate() {
            if k > 0 {
                out.push(if format == TextFormat::Csv {
                    b','
                } else {
                    b'\t'
                });
            }
            out.extend_from_slice(n.as_bytes());
        }
        out.push(b'\n');
        out
    }
}

/// One cell.
#[derive(Clone, Copy, Debug)]
pub enum Cell<'a> {
    /// A number.
    U64(u64),
    /// Text or bytes.
    Text(&'a [u8]),
    /// Null.
    Null,
}

/// Rows of a table, stored column by column.
pub struct Rows {
    columns: Columns,
    cols: Vec<Col>,
    rows: usize,
}

#[derive(Default)]
struct Col {
    nums: Vec<u64>,
    bytes: Vec<u8>,
    /// Where each row's bytes end.
    ends: Vec<usize>,
    nulls: Vec<bool>,
}

impl Rows {
    /// No rows yet.
    pub fn new(columns: Columns) -> Rows {
        let cols = columns.0.iter().map(|_| Col::default()).collect();
        Rows {
            columns,
            cols,
            rows: 0,
        }
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Empties the table (its storage is kept).
    pub fn clear(&mut self) {
        for c in &mut self.cols {
            c.nums.clear();
            c.bytes.clear();
            c.ends.clear();
            c.nulls.clear();
        }
        self.rows = 0;
    }

    /// Adds a row: one cell per column, in order. A cell of the wrong kind
    /// is stored as null.
    pub fn push(&mut self, cells: &[Cell<'_>]) {
        for (k, col) in self.cols.iter_mut().enumerate() {
            let kind = self.columns.0[k].1;
            let cell = cells.get(k).copied().unwrap_or(Cell::Null);
            match (kind, cell) {
                (Kind::U64, Cell::U64(n)) => {
                    col.nums.push(n);
                    col.nulls.push(false);
                }
                (Kind::U64, _) => {
                    col.nums.push(0);
                    col.nulls.push(true);
                }
                (_, Cell::Text(t)) => {
                    col.bytes.extend_from_slice(t);
                    col.ends.push(col.bytes.len());
                    col.nulls.push(false);
                }
                (_, _) => {
                    col.ends.push(col.bytes.len());
                    col.nulls.push(true);
                }
            }
        }
        self.rows += 1;
    }

    fn cell(&self, k: usize, r: usize) -> Cell<'_> {
        let col = &self.cols[k];
        if col.nulls[r] {
            return Cell::Null;
        }
        match self.columns.0[k].1 {
            Kind::U64 => Cell::U64(col.nums[r]),
            _ => {
                let start = if r == 0 { 0 } else { col.ends[r - 1] };
                Cell::Text(&col.bytes[start..col.ends[r]])
            }
        }
    }

    /// Runs `f` on each row's cells, in order.
    pub fn each(&self, mut f: impl FnMut(&[Cell<'_>])) {
        let mut cells = Vec::with_capacity(self.cols.len());
        for r in 0..self.rows {
            cells.clear();
            cells.extend((0..self.cols.len()).map(|k| self.cell(k, r)));
            f(&cells);
        }
    }

    /// The rows as text, appended to `out`.
    pub fn write_text(&self, format: TextFormat, out: &mut Vec<u8>) {
        let names = &self.columns.0;
        for r in 0..self.rows {
            for (k, (name, _, _)) in names.iter().enumerate() {
                let cell = self.cell(k, r);
                match format {
                    TextFormat::Jsonl => {
                        out.extend_from_slice(if k == 0 { b"{\"" } else { b",\"" });
                        out.extend_from_slice(name.as_bytes());
                        out.extend_from_slice(b"\":");
                        match cell {
                            Cell::U64(n) => put_u64(out, n),
                            Cell::Text(t) => json_text(out, t),
                            Cell::Null => out.extend_from_slice(b"null"),
                        }
                    }
                    TextFormat::Tsv | TextFormat::Csv => {
                        let csv = format == TextFormat::Csv;
                        if k > 0 {
                            out.push(if csv { b',' } else { b'\t' });
                        }
                        match cell {
                            Cell::U64(n) => put_u64(out, n),
                            Cell::Text(t) => crate::text::text_cell(out, t, csv),
                            Cell::Null if csv => {}
                            Cell::Null => out.extend_from_slice(b"\\N"),
                        }
                    }
                }
            }
            if format == TextFormat::Jsonl {
                out.push(b'}');
            }
            out.push(b'\n');
        }
    }

    /// The rows as an Arrow record batch.
    pub fn batch(&self) -> RecordBatch {
        let arrays: Vec<ArrayRef> = (0..self.cols.len())
            .map(|k| -> ArrayRef {
                match self.columns.0[k].1 {
                    Kind::U64 => {
                        let mut b = UInt64Builder::with_capacity(self.rows);
                        for r in 0..self.rows {
                            match self.cell(k, r) {
                                Cell::U64(n) => b.append_value(n),
                                _ => b.append_null(),
                            }
                        }
                        Arc::new(b.finish())
                    }
                    Kind::Text => {
                        let mut b =
                            StringBuilder::with_capacity(self.rows, self.cols[k].bytes.len());
                        for r in 0..self.rows {
                            match self.cell(k, r) {
                                // Text columns hold what the grammar
                                // admits (ASCII) or was checked.
                                Cell::Text(t) => b.append_value(String::from_utf8_lossy(t)),
                                _ => b.append_null(),
                            }
                        }
                        Arc::new(b.finish())
                    }
                    Kind::Bytes => {
                        let mut b =
                            BinaryBuilder::with_capacity(self.rows, self.cols[k].bytes.len());
                        for r in 0..self.rows {
                            match self.cell(k, r) {
                                Cell::Text(t) => b.append_value(t),
                                _ => b.append_null(),
                            }
                        }
                        Arc::new(b.finish())
                    }
                }
            })
            .collect();
        RecordBatch::try_new(self.columns.arrow(), arrays).expect("columns match the schema")
    }
}

/// A chunk's rows made ready to write (by a worker).
pub enum Encoded {
    /// Text.
    Text(Vec<u8>),
    /// An Arrow record batch.
    Batch(RecordBatch),
    /// A Parquet row group.
    RowGroup(parquet::errors::Result<EncodedRowGroup>),
}

/// Where tables go: text, Arrow IPC or Parquet on a stream.
pub struct TableSink {
    inner: Inner,
    encoder: Option<Arc<parquet::arrow::arrow_writer::ArrowRowGroupWriterFactory>>,
    format: OutputFormat,
}

enum Inner {
    Text(Box<dyn Write + Send>),
    Arrow(arrow_ipc::writer::StreamWriter<Box<dyn Write + Send>>),
    Parquet(ParquetSink<Box<dyn Write + Send>>),
}

/// What the workers need to encode rows for a [`TableSink`] (shared).
#[derive(Clone)]
pub struct TableEncoder {
    format: OutputFormat,
    encoder: Option<Arc<parquet::arrow::arrow_writer::ArrowRowGroupWriterFactory>>,
}

impl TableEncoder {
    /// `rows` ready for the sink.
    pub fn encode(&self, rows: &Rows) -> Encoded {
        match self.format {
            OutputFormat::Jsonl => text(rows, TextFormat::Jsonl),
            OutputFormat::Tsv => text(rows, TextFormat::Tsv),
            OutputFormat::Csv => text(rows, TextFormat::Csv),
            OutputFormat::Arrow => Encoded::Batch(rows.batch()),
            OutputFormat::Parquet => {
                let batch = rows.batch();
                let enc = self.encoder.as_ref().expect("a Parquet sink's encoder");
                Encoded::RowGroup(encode_row_group(enc, &batch))
            }
        }
    }
}

fn text(rows: &Rows, f: TextFormat) -> Encoded {
    let mut out = Vec::new();
    rows.write_text(f, &mut out);
    Encoded::Text(out)
}

fn other(e: impl std::fmt::Display) -> RunError {
    RunError::Other(e.to_string())
}

impl TableSink {
    /// A sink of `columns`' rows in `format` on `out`; TSV gets a header
    /// line when `header` is set, CSV always.
    pub fn new(
        format: OutputFormat,
        columns: &Columns,
        header: bool,
        mut out: Box<dyn Write + Send>,
    ) -> Result<TableSink, RunError> {
        let mut encoder = None;
        let inner = match format {
            OutputFormat::Arrow => Inner::Arrow(
                arrow_ipc::writer::StreamWriter::try_new(out, &columns.arrow()).map_err(other)?,
            ),
            OutputFormat::Parquet => {
                let s = ParquetSink::new(out, columns.arrow()).map_err(other)?;
                encoder = Some(s.encoder());
                Inner::Parquet(s)
            }
            OutputFormat::Csv => {
                out.write_all(&columns.header(TextFormat::Csv))?;
                Inner::Text(out)
            }
            OutputFormat::Tsv if header => {
                out.write_all(&columns.header(TextFormat::Tsv))?;
                Inner::Text(out)
            }
            _ => Inner::Text(out),
        };
        Ok(TableSink {
            inner,
            encoder,
            format,
        })
    }

    /// What workers encode with.
    pub fn encoder(&self) -> TableEncoder {
        TableEncoder {
            format: self.format,
            encoder: self.encoder.clone(),
        }
    }

    /// Writes a chunk's encoded rows; a text buffer is handed back (for
    /// the next chunk).
    pub fn put(&mut self, e: Encoded) -> Result<Option<Vec<u8>>, RunError> {
        match (&mut self.inner, e) {
            (Inner::Text(w), Encoded::Text(t)) => {
                w.write_all(&t)?;
                w.flush()?;
                return Ok(Some(t));
            }
            (Inner::Arrow(w), Encoded::Batch(b)) => {
                if b.num_rows() > 0 {
                    w.write(&b).map_err(other)?;
                    w.flush().map_err(other)?;
                }
            }
            (Inner::Parquet(s), Encoded::RowGroup(rg)) => {
                s.append(rg.map_err(other)?).map_err(other)?;
            }
            _ => return Err(RunError::Other("rows encoded for another format".into())),
        }
        Ok(None)
    }

    /// Ends the output (Arrow's end marker, Parquet's footer).
    pub fn finish(self) -> Result<(), RunError> {
        match self.inner {
            Inner::Text(mut w) => w.flush()?,
            Inner::Arrow(mut w) => {
                w.finish().map_err(other)?;
                w.into_inner().map_err(other)?.flush()?;
            }
            Inner::Parquet(s) => s.finish().map_err(other)?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Rows {
        let cols = Columns(vec![
            ("line", Kind::U64, false),
            ("key", Kind::Text, false),
            ("value", Kind::Bytes, true),
        ]);
        let mut rows = Rows::new(cols);
        rows.push(&[Cell::U64(1), Cell::Text(b"a"), Cell::Text(b"x\ty\"")]);
        rows.push(&[Cell::U64(2), Cell::Text(b"b,c"), Cell::Null]);
        rows.push(&[Cell::U64(3), Cell::Text(b""), Cell::Text(b"\xff")]);
        rows
    }

    #[test]
    fn text_formats() {
        let rows = table();
        let mut out = Vec::new();
        rows.write_text(TextFormat::Tsv, &mut out);
        assert_eq!(out, b"1\ta\tx\\ty\"\n2\tb,c\t\\N\n3\t\t\xff\n");
        out.clear();
        rows.write_text(TextFormat::Csv, &mut out);
        assert_eq!(out, b"1,a,\"x\ty\"\"\"\n2,\"b,c\",\n3,\"\",\xff\n");
        out.clear();
        rows.write_text(TextFormat::Jsonl, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"line\":1,\"key\":\"a\",\"value\":\"x\\ty\\\"\"}\n{\"line\":2,\"key\":\"b,c\",\"value\":null}\n{\"line\":3,\"key\":\"\",\"value\":\"\u{FFFD}\"}\n"
        );
    }

    #[test]
    fn arrow_batch() {
        use arrow_array::{Array, BinaryArray, StringArray, UInt64Array};
        let b = table().batch();
        assert_eq!(b.num_rows(), 3);
        let line = b.column(0).as_any().downcast_ref::<UInt64Array>().unwrap();
        assert_eq!(line.values().to_vec(), vec![1, 2, 3]);
        let key = b.column(1).as_any().downcast_ref::<StringArray>().unwrap();
        assert_eq!(key.value(1), "b,c");
        let v = b.column(2).as_any().downcast_ref::<BinaryArray>().unwrap();
        assert!(v.is_null(1));
        assert_eq!(v.value(2), b"\xff");
    }

    #[test]
    fn parquet_round_trip() {
        let rows = table();
        let mut file = Vec::new();
        {
            struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
            impl Write for Shared {
                fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                    self.0.lock().unwrap().extend_from_slice(b);
                    Ok(b.len())
                }
                fn flush(&mut self) -> std::io::Result<()> {
                    Ok(())
                }
            }
            let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
            let mut sink = TableSink::new(
                OutputFormat::Parquet,
                &rows.columns,
                false,
                Box::new(Shared(buf.clone())),
            )
            .unwrap();
            let enc = sink.encoder();
            sink.put(enc.encode(&rows)).unwrap();
            sink.finish().unwrap();
            file.extend_from_slice(&buf.lock().unwrap());
        }
        let path =
            std::env::temp_dir().join(format!("urilex-table-{}.parquet", std::process::id()));
        std::fs::write(&path, &file).unwrap();
        let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
            std::fs::File::open(&path).unwrap(),
        )
        .unwrap()
        .build()
        .unwrap();
        let batches: Vec<RecordBatch> = reader.map(|b| b.unwrap()).collect();
        assert_eq!(batches.len(), 1);
        assert_eq!(batches[0], rows.batch());
        let _ = std::fs::remove_file(path);
    }
}
