//! Rows as Arrow record batches, written as an Arrow IPC stream or as
//! Parquet (zstd), one record batch (and one Parquet row group) per chunk.
//!
//! Types: `line` UInt64; `valid` Boolean; parts Utf8 (a repeated part a
//! List of Utf8); `port_number` UInt16; kinds, target forms, rules and
//! error kinds dictionary-encoded; `error` a Struct of kind, part, index
//! (UInt64), rule, message and raw (Binary: the reference's bytes when
//! they are not UTF-8); carried `status` UInt16 and `bytes` UInt64. Text
//! that is not UTF-8 (an input, a carried field) has U+FFFD for each bad
//! sequence, as in JSON; `error.raw` keeps the bytes.
//!
//! A worker builds a chunk's record batch and, for Parquet, encodes its
//! columns (the expensive part) into column chunks; the writer only
//! appends them to the file, in order.

use crate::rows::ChunkRows;
use crate::schema::{Cell, Column, ErrorCell, Schema};
use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, ListBuilder, StringBuilder, StringDictionaryBuilder,
    UInt16Builder, UInt64Builder,
};
use arrow_array::types::Int16Type;
use arrow_array::{Array, ArrayRef, RecordBatch, StructArray};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field, Fields, Schema as ArrowSchema, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowSchemaConverter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use std::fmt::Write as _;
use std::io::Write;
use std::sync::Arc;

fn dict() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8))
}

fn error_fields() -> Fields {
    Fields::from(vec![
        Field::new("kind", dict(), false),
        Field::new("part", DataType::Utf8, true),
        Field::new("index", DataType::UInt64, true),
        Field::new("rule", DataType::Utf8, true),
        Field::new("message", DataType::Utf8, false),
        Field::new("raw", DataType::Binary, true),
    ])
}

/// The Arrow schema of `schema`'s rows.
pub fn arrow_schema(schema: &Schema) -> SchemaRef {
    let fields: Vec<Field> = schema
        .columns
        .iter()
        .zip(&schema.names)
        .map(|(c, n)| {
            let t = match c {
                Column::Line => return Field::new(n, DataType::UInt64, false),
                Column::Valid(_) => DataType::Boolean,
                Column::Rule(_) | Column::TargetForm | Column::Kind(_) => dict(),
                Column::Part(_, p) if p.is_repeated() => {
                    DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, false)))
                }
                Column::PortNumber(_) => DataType::UInt16,
                Column::Error(_) => DataType::Struct(error_fields()),
                Column::Carried(_, crate::format::Carried::Status) => DataType::UInt16,
                Column::Carried(_, crate::format::Carried::Bytes) => DataType::UInt64,
                _ => DataType::Utf8,
            };
            Field::new(n, t, true)
        })
        .collect();
    Arc::new(ArrowSchema::new(fields))
}

enum Builder {
    U64(UInt64Builder),
    U16(UInt16Builder),
    Bool(BooleanBuilder),
    Str(StringBuilder),
    Dict(Box<StringDictionaryBuilder<Int16Type>>),
    List(Box<ListBuilder<StringBuilder>>),
    Error(Box<ErrorBuilder>),
}

struct ErrorBuilder {
    valid: Vec<bool>,
    kind: StringDictionaryBuilder<Int16Type>,
    part: StringBuilder,
    index: UInt64Builder,
    rule: StringBuilder,
    message: StringBuilder,
    raw: BinaryBuilder,
    scratch: String,
}

fn utf8(t: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(t)
}

impl Builder {
    fn for_field(f: &Field, rows: usize) -> Builder {
        match f.data_type() {
            DataType::UInt64 => Builder::U64(UInt64Builder::with_capacity(rows)),
            DataType::UInt16 => Builder::U16(UInt16Builder::with_capacity(rows)),
            DataType::Boolean => Builder::Bool(BooleanBuilder::with_capacity(rows)),
            DataType::Dictionary(..) => Builder::Dict(Box::new(StringDictionaryBuilder::new())),
            DataType::List(_) => Builder::List(Box::new(
                ListBuilder::new(StringBuilder::new())
                    .with_field(Arc::new(Field::new_list_field(DataType::Utf8, false))),
            )),
            DataType::Struct(_) => Builder::Error(Box::new(ErrorBuilder {
                valid: Vec::with_capacity(rows),
                kind: StringDictionaryBuilder::new(),
                part: StringBuilder::new(),
                index: UInt64Builder::new(),
                rule: StringBuilder::new(),
                message: StringBuilder::new(),
                raw: BinaryBuilder::new(),
                scratch: String::new(),
            })),
            _ => Builder::Str(StringBuilder::with_capacity(rows, rows * 16)),
        }
    }

    fn append(&mut self, cell: Cell<'_>) {
        match (self, cell) {
            (Builder::U64(b), Cell::U64(n)) => b.append_value(n),
            (Builder::U16(b), Cell::U64(n)) => b.append_option(u16::try_from(n).ok()),
            (Builder::Bool(b), Cell::Bool(v)) => b.append_value(v),
            (Builder::Str(b), Cell::Plain(t) | Cell::Text(t)) => b.append_value(utf8(t)),
            (Builder::Dict(b), Cell::Plain(t) | Cell::Text(t)) => b.append_value(utf8(t)),
            (Builder::List(b), Cell::List(xs)) => {
                for x in xs {
                    b.values().append_value(x);
                }
                b.append(true);
            }
            (Builder::Error(b), Cell::Error(e)) => b.append(&e),
            (Builder::U64(b), _) => b.append_null(),
            (Builder::U16(b), _) => b.append_null(),
            (Builder::Bool(b), _) => b.append_null(),
            (Builder::Str(b), _) => b.append_null(),
            (Builder::Dict(b), _) => b.append_null(),
            (Builder::List(b), _) => b.append(false),
            (Builder::Error(b), _) => b.append_null(),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::U64(b) => Arc::new(b.finish()),
            Builder::U16(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
            Builder::Str(b) => Arc::new(b.finish()),
            Builder::Dict(b) => Arc::new(b.finish()),
            Builder::List(b) => Arc::new(b.finish()),
            Builder::Error(b) => b.finish(),
        }
    }
}

impl ErrorBuilder {
    fn append(&mut self, e: &ErrorCell<'_>) {
        self.valid.push(true);
        self.kind.append_value(e.kind);
        self.part.append_option(e.part);
        self.index.append_option(e.index);
        self.rule.append_option(e.rule);
        self.scratch.clear();
        let _ = write!(self.scratch, "{}", e.message);
        self.message.append_value(&self.scratch);
        self.raw.append_option(e.raw);
    }

    /// A null struct: its children hold placeholders (non-nullable ones a
    /// value) that no reader looks at.
    fn append_null(&mut self) {
        self.valid.push(false);
        self.kind.append_value("");
        self.part.append_null();
        self.index.append_null();
        self.rule.append_null();
        self.message.append_value("");
        self.raw.append_null();
    }

    fn finish(&mut self) -> ArrayRef {
        let nulls = NullBuffer::from(std::mem::take(&mut self.valid));
        let arrays: Vec<ArrayRef> = vec![
            Arc::new(self.kind.finish()),
            Arc::new(self.part.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.rule.finish()),
            Arc::new(self.message.finish()),
            Arc::new(self.raw.finish()),
        ];
        let nulls = (nulls.null_count() > 0).then_some(nulls);
        Arc::new(StructArray::new(error_fields(), arrays, nulls))
    }
}

/// Builds record batches of one schema.
pub struct BatchBuilder {
    schema: Schema,
    arrow: SchemaRef,
}

impl BatchBuilder {
    /// A builder of `schema`'s rows.
    pub fn new(schema: Schema) -> BatchBuilder {
        let arrow = arrow_schema(&schema);
        BatchBuilder { schema, arrow }
    }

    /// The Arrow schema.
    pub fn arrow_schema(&self) -> SchemaRef {
        self.arrow.clone()
    }

    /// The rows of a chunk as one record batch.
    pub fn build(&self, rows: &ChunkRows<'_>) -> RecordBatch {
        let n = rows.len();
        let mut builders: Vec<Builder> = self
            .arrow
            .fields()
            .iter()
            .map(|f| Builder::for_field(f, n))
            .collect();
        for r in 0..n {
            self.schema
                .cells(rows, r, |k, cell| builders[k].append(cell));
        }
        let arrays: Vec<ArrayRef> = builders.iter_mut().map(Builder::finish).collect();
        debug_assert!(arrays.iter().all(|a| a.len() == n));
        RecordBatch::try_new(self.arrow.clone(), arrays).expect("the arrays follow the schema")
    }
}

/// Writer properties for Parquet output: zstd, and the Arrow schema kept
/// in the file's metadata (so dictionaries read back as dictionaries).
pub fn parquet_properties(arrow: &ArrowSchema) -> WriterProperties {
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .build();
    parquet::arrow::add_encoded_arrow_schema_to_metadata(arrow, &mut props);
    props
}

/// A Parquet file written one encoded row group at a time.
pub struct ParquetSink<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    factory: Arc<ArrowRowGroupWriterFactory>,
}

/// A row group's column chunks, encoded (by a worker).
pub struct EncodedRowGroup(Vec<ArrowColumnChunk>);

impl<W: Write + Send> ParquetSink<W> {
    /// Starts a file of rows of `arrow` on `out`.
    pub fn new(out: W, arrow: SchemaRef) -> parquet::errors::Result<ParquetSink<W>> {
        let props = Arc::new(parquet_properties(&arrow));
        let parquet_schema = ArrowSchemaConverter::new()
            .with_coerce_types(props.coerce_types())
            .convert(&arrow)?;
        let writer = SerializedFileWriter::new(out, parquet_schema.root_schema_ptr(), props)?;
        let factory = Arc::new(ArrowRowGroupWriterFactory::new(&writer, arrow));
        Ok(ParquetSink { writer, factory })
    }

    /// What the workers encode row groups with.
    pub fn encoder(&self) -> Arc<ArrowRowGroupWriterFactory> {
        self.factory.clone()
    }

    /// Appends an encoded row group.
    pub fn append(&mut self, rg: EncodedRowGroup) -> parquet::errors::Result<()> {
        if rg.0.is_empty() {
            return Ok(());
        }
        let mut w = self.writer.next_row_group()?;
        for c in rg.0 {
            c.append_to_row_group(&mut w)?;
        }
        w.close()?;
        Ok(())
    }

    /// Writes the footer.
    pub fn finish(self) -> parquet::errors::Result<()> {
        self.writer.close()?;
        Ok(())
    }
}

/// Encodes a record batch's columns into a row group (a worker's share of
/// Parquet output).
pub fn encode_row_group(
    factory: &ArrowRowGroupWriterFactory,
    batch: &RecordBatch,
) -> parquet::errors::Result<EncodedRowGroup> {
    if batch.num_rows() == 0 {
        return Ok(EncodedRowGroup(Vec::new()));
    }
    let mut writers = factory.create_column_writers(0)?;
    let mut w = writers.iter_mut();
    for (array, field) in batch.columns().iter().zip(batch.schema().fields()) {
        for leaf in compute_leaves(field, array)? {
            w.next().expect("a writer per leaf column").write(&leaf)?;
        }
    }
    let chunks = writers
        .into_iter()
        .map(|w| w.close())
        .collect::<parquet::errors::Result<Vec<_>>>()?;
    Ok(EncodedRowGroup(chunks))
}
