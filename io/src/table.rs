//! Rows of the model that a command pushes cell by cell (the operations'
//! tables and counts, `lint`, `urn`, `resolve`, `normalize`, `extract`,
//! `--semantics`), encoded as they come by the model's one encoder for the
//! output format: [`RowText`] for JSON Lines, TSV and CSV (one buffer per
//! chunk), the Arrow column builders of [`crate::columnar`] for Arrow IPC
//! and Parquet (a record batch per chunk, encoded by the worker too).
//!
//! Text that comes out of percent-decoding may not be UTF-8: such columns
//! are [`Type::Bytes`], Binary in Arrow and Parquet (the exact bytes), and
//! in JSON a string with U+FFFD for each bad sequence, as elsewhere in
//! urilex's outputs.

use crate::columnar::{encode_row_group, Col, EncodedRowGroup, ParquetSink};
pub use crate::model::{Cell, Columns, Type};
use crate::run::{OutputFormat, RunError};
use crate::text::{RowText, TextFormat};
use arrow_array::{ArrayRef, RecordBatch};
use std::io::Write;
use std::sync::Arc;

/// A chunk's rows, encoded as they are pushed.
pub struct Rows {
    columns: Columns,
    body: Body,
    rows: usize,
}

enum Body {
    /// The encoder, the rows so far, and a buffer written before, for the
    /// next chunk (a fresh one would fault its pages in again).
    Text(RowText, Vec<u8>, Option<Vec<u8>>),
    Arrow(Vec<Col>),
}

impl Rows {
    /// No rows yet, to be written in `format`.
    pub fn new(columns: Columns, format: OutputFormat) -> Rows {
        let body = match format.text() {
            Some(f) => Body::Text(RowText::new(f, &columns), Vec::new(), None),
            None => Body::Arrow(arrow_cols(&columns)),
        };
        Rows {
            columns,
            body,
            rows: 0,
        }
    }

    /// The columns.
    pub fn columns(&self) -> &Columns {
        &self.columns
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The bytes of text encoded so far (0 for Arrow and Parquet).
    pub fn text_len(&self) -> usize {
        match &self.body {
            Body::Text(_, out, _) => out.len(),
            Body::Arrow(_) => 0,
        }
    }

    /// Adds a row: one cell per column, in order (missing ones null; a
    /// cell of another type than its column's is written as null).
    pub fn push<'a>(&mut self, cells: impl IntoIterator<Item = Cell<'a>>) {
        let n = self.columns.len();
        let mut cells = cells.into_iter();
        match &mut self.body {
            Body::Text(enc, out, _) => {
                for k in 0..n {
                    enc.cell(out, k, cells.next().unwrap_or(Cell::Null));
                }
                enc.end(out);
            }
            Body::Arrow(cols) => {
                for col in cols.iter_mut() {
                    col.append(cells.next().unwrap_or(Cell::Null));
                }
            }
        }
        self.rows += 1;
    }

    /// The rows as text (JSON Lines, TSV or CSV), taken: the table is
    /// empty after.
    pub fn take_text(&mut self) -> Vec<u8> {
        self.rows = 0;
        match &mut self.body {
            // The next chunk's rows are about as long: no growing again.
            Body::Text(_, out, spare) => {
                let next = spare
                    .take()
                    .unwrap_or_else(|| Vec::with_capacity(out.capacity()));
                std::mem::replace(out, next)
            }
            Body::Arrow(_) => Vec::new(),
        }
    }

    /// Gives back a buffer that [`take_text`](Self::take_text) took, once
    /// written (a [`TableSink`] hands it back): the next chunk's rows go
    /// there.
    pub fn recycle(&mut self, mut buf: Vec<u8>) {
        if let Body::Text(_, _, spare) = &mut self.body {
            buf.clear();
            *spare = Some(buf);
        }
    }

    /// The rows as an Arrow record batch, taken: the table is empty after.
    pub fn take_batch(&mut self) -> RecordBatch {
        let n = std::mem::take(&mut self.rows);
        let cols = match &mut self.body {
            Body::Arrow(cols) => std::mem::replace(cols, arrow_cols(&self.columns)),
            Body::Text(..) => arrow_cols(&self.columns),
        };
        let arrays: Vec<ArrayRef> = cols.into_iter().map(Col::finish).collect();
        debug_assert!(arrays.iter().all(|a| a.len() == n));
        RecordBatch::try_new(self.columns.arrow(), arrays).expect("columns match the schema")
    }
}

/// The header line rows of `columns` start with in `format`: CSV's
/// always, TSV's when `header` asks, none otherwise.
pub fn header_line(columns: &Columns, format: OutputFormat, header: bool) -> Vec<u8> {
    match format {
        OutputFormat::Csv => columns.header(TextFormat::Csv),
        OutputFormat::Tsv if header => columns.header(TextFormat::Tsv),
        _ => Vec::new(),
    }
}

fn arrow_cols(columns: &Columns) -> Vec<Col> {
    let arrow = columns.arrow();
    arrow
        .fields()
        .iter()
        .map(|f| Col::for_field(f, 0, 0, &[]))
        .collect()
}

/// A chunk's rows made ready to write (by a worker).
pub enum Encoded {
    /// Text.
    Text(Vec<u8>),
    /// An Arrow record batch.
    Batch(RecordBatch),
    /// A Parquet row group.
    RowGroup(parquet::errors::Result<EncodedRowGroup>),
    /// Encoding failed (compressing text): the write stops with it.
    Failed(std::io::Error),
}

/// Where tables go: text, Arrow IPC or Parquet on a stream.
pub struct TableSink {
    inner: Inner,
    encoder: Option<Arc<crate::columnar::RowGroupEncoder>>,
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
    encoder: Option<Arc<crate::columnar::RowGroupEncoder>>,
}

impl TableEncoder {
    /// An empty table of `columns` for this sink's format.
    pub fn rows(&self, columns: Columns) -> Rows {
        Rows::new(columns, self.format)
    }

    /// `rows` ready for the sink, taken (the table is empty after).
    pub fn encode(&self, rows: &mut Rows) -> Encoded {
        match self.format {
            OutputFormat::Jsonl | OutputFormat::Tsv | OutputFormat::Csv => {
                Encoded::Text(rows.take_text())
            }
            OutputFormat::Arrow => Encoded::Batch(rows.take_batch()),
            OutputFormat::Parquet => {
                let batch = rows.take_batch();
                let enc = self.encoder.as_ref().expect("a Parquet sink's encoder");
                Encoded::RowGroup(encode_row_group(enc, &batch))
            }
        }
    }
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
        out: Box<dyn Write + Send>,
    ) -> Result<TableSink, RunError> {
        TableSink::compressed(format, columns, header, out, None)
    }

    /// [`TableSink::new`] for text whose chunks the workers compress as
    /// `how` says (each one frame): the header is one frame too, and a
    /// stream with no header starts with an empty frame, so that even no
    /// rows at all are a valid stream.
    pub fn compressed(
        format: OutputFormat,
        columns: &Columns,
        header: bool,
        mut out: Box<dyn Write + Send>,
        how: Option<crate::compress::Compression>,
    ) -> Result<TableSink, RunError> {
        if how.is_some() && format.is_text() {
            let head = header_line(columns, format, header);
            let mut z = Vec::new();
            crate::compress::Framer::new(how).frame(&head, &mut z)?;
            out.write_all(&z)?;
            return Ok(TableSink {
                inner: Inner::Text(out),
                encoder: None,
                format,
            });
        }
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
            _ => {
                out.write_all(&header_line(columns, format, header))?;
                Inner::Text(out)
            }
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
            (_, Encoded::Failed(e)) => return Err(RunError::Io(e)),
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
    use crate::model::ErrorCell;

    fn columns() -> Columns {
        Columns::of([
            ("line", Type::U64, false),
            ("key", Type::Text, false),
            ("value", Type::Bytes, true),
            ("lints", Type::Json, true),
            ("error", Type::Error, true),
        ])
    }

    fn table(format: OutputFormat) -> Rows {
        let mut rows = Rows::new(columns(), format);
        rows.push([
            Cell::U64(1),
            Cell::Text(b"a"),
            Cell::Text(b"x\ty\""),
            Cell::Json(b"[{\"kind\":\"k\"}]"),
            Cell::Null,
        ]);
        rows.push([Cell::U64(2), Cell::Text(b"b,c"), Cell::Null]);
        rows.push([
            Cell::U64(3),
            Cell::Text(b""),
            Cell::Text(b"\xff"),
            Cell::Null,
            ErrorCell::other("resolve", "above the root").into(),
        ]);
        rows
    }

    #[test]
    fn text_formats() {
        let out = table(OutputFormat::Tsv).take_text();
        assert_eq!(
            out,
            &b"1\ta\tx\\ty\"\t[{\"kind\":\"k\"}]\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n\
               2\tb,c\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n\
               3\t\t\xff\t\\N\tresolve\t\\N\t\\N\t\\N\tabove the root\t\\N\n"[..]
        );
        let out = table(OutputFormat::Csv).take_text();
        assert_eq!(
            out,
            &b"1,a,\"x\ty\"\"\",\"[{\"\"kind\"\":\"\"k\"\"}]\",,,,,,\n\
               2,\"b,c\",,,,,,,,\n\
               3,\"\",\xff,,resolve,,,,above the root,\n"[..]
        );
        let out = table(OutputFormat::Jsonl).take_text();
        let rows: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows[0]["value"], "x\ty\"");
        assert_eq!(rows[0]["lints"][0]["kind"], "k");
        assert_eq!(rows[1]["value"], serde_json::Value::Null);
        assert_eq!(rows[2]["value"], "\u{FFFD}");
        assert_eq!(rows[2]["error"]["kind"], "resolve");
        assert_eq!(rows[2]["error"]["message"], "above the root");
    }

    #[test]
    fn arrow_batch() {
        use arrow_array::{Array, BinaryArray, StringArray, StructArray, UInt64Array};
        let b = table(OutputFormat::Arrow).take_batch();
        assert_eq!(b.num_rows(), 3);
        let line = b.column(0).as_any().downcast_ref::<UInt64Array>().unwrap();
        assert_eq!(line.values().to_vec(), vec![1, 2, 3]);
        let key = b.column(1).as_any().downcast_ref::<StringArray>().unwrap();
        assert_eq!(key.value(1), "b,c");
        let v = b.column(2).as_any().downcast_ref::<BinaryArray>().unwrap();
        assert!(v.is_null(1));
        assert_eq!(v.value(2), b"\xff");
        let lints = b.column(3).as_any().downcast_ref::<StringArray>().unwrap();
        assert_eq!(lints.value(0), "[{\"kind\":\"k\"}]");
        assert_eq!(
            b.schema().field(3).metadata()["ARROW:extension:name"],
            "arrow.json"
        );
        let e = b.column(4).as_any().downcast_ref::<StructArray>().unwrap();
        assert!(e.is_null(0) && e.is_valid(2));
    }

    #[test]
    fn parquet_round_trip() {
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
                &columns(),
                false,
                Box::new(Shared(buf.clone())),
            )
            .unwrap();
            let enc = sink.encoder();
            let mut rows = enc.rows(columns());
            rows.push([Cell::U64(1), Cell::Text(b"a"), Cell::Text(b"\xff")]);
            sink.put(enc.encode(&mut rows)).unwrap();
            assert!(rows.is_empty());
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
        let mut want = Rows::new(columns(), OutputFormat::Arrow);
        want.push([Cell::U64(1), Cell::Text(b"a"), Cell::Text(b"\xff")]);
        assert_eq!(batches[0], want.take_batch());
        let _ = std::fs::remove_file(path);
    }
}
