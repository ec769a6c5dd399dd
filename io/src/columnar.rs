//! Rows as Arrow record batches, written as an Arrow IPC stream or as
//! Parquet (zstd), one record batch (and one Parquet row group) per chunk.
//!
//! Types: `line` UInt64; `valid` Boolean; parts Utf8 (a repeated part a
//! List of Utf8); `port_number` UInt16; kinds, target forms, rules and
//! error kinds dictionary-encoded; `error` a Struct of kind, part, index
//! (UInt64), rule, message and raw (Binary: the reference's bytes when
//! they are not UTF-8); carried numbers (`status`, `bytes`) UInt16 or UInt64. Text
//! that is not UTF-8 (an input, a carried field) has U+FFFD for each bad
//! sequence, as in JSON; `error.raw` keeps the bytes.
//!
//! A worker builds a chunk's record batch and, for Parquet, encodes its
//! columns (the expensive part) into column chunks; the writer only
//! appends them to the file, in order.

use crate::model::{error_fields, Cell, ErrorCell};
use crate::rows::{ChunkRows, Record};
use crate::schema::{Column, Schema};
use arrow_array::builder::{GenericByteBuilder, ListBuilder, StringBuilder};
use arrow_array::types::{BinaryType, ByteArrayType, Int16Type, Utf8Type};
use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, DictionaryArray, Int16Array, RecordBatch, StringArray,
    StructArray, UInt16Array, UInt64Array,
};
use arrow_buffer::{BooleanBufferBuilder, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Schema as ArrowSchema, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowSchemaConverter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnDescPtr, ColumnPath};
use std::fmt::Write as _;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use urilex::Component;

/// The Arrow schema of `schema`'s rows.
pub fn arrow_schema(schema: &Schema) -> SchemaRef {
    schema.fields().arrow()
}

/// A column being built: plain vectors, turned into an Arrow array once
/// the chunk is done (no per-value dispatch through Arrow's builders).
pub(crate) enum Col {
    U64(Vec<u64>, Bits),
    U16(Vec<u16>, Bits),
    Bool(Bits, Bits),
    /// Offsets, bytes, validity; `binary` for Binary, else Utf8.
    Bytes {
        offsets: Vec<i32>,
        bytes: Vec<u8>,
        valid: Bits,
        binary: bool,
    },
    /// Keys into `names` (found or added as values come).
    Dict {
        keys: Vec<i16>,
        valid: Bits,
        names: Vec<&'static str>,
    },
    List(Box<ListBuilder<StringBuilder>>),
    Error(Box<ErrorCol>),
}

/// Validity (or boolean values) as bits.
type Bits = BooleanBufferBuilder;

/// The error struct, kept sparse (most rows have none): its rows' count
/// and each error with its row; the children are made at the end.
pub(crate) struct ErrorCol {
    rows: usize,
    errors: Vec<(usize, ErrorRow)>,
}

struct ErrorRow {
    kind: &'static str,
    part: Option<&'static str>,
    index: Option<u64>,
    rule: Option<&'static str>,
    message: String,
    raw: Option<Vec<u8>>,
}

fn bytes_col(rows: usize, bytes: usize, binary: bool) -> Col {
    let mut offsets = Vec::with_capacity(rows + 1);
    offsets.push(0);
    Col::Bytes {
        offsets,
        bytes: Vec::with_capacity(bytes),
        valid: Bits::new(rows),
        binary,
    }
}

fn dict_col(rows: usize, names: Vec<&'static str>) -> Col {
    Col::Dict {
        keys: Vec::with_capacity(rows),
        valid: Bits::new(rows),
        names,
    }
}

/// The values of a dictionary of `names`: one array for the same names
/// (the fixed sets above all: host kinds, error kinds, target forms), so
/// that columns built apart and then joined (Arrow's `concat` keeps a
/// dictionary that is the same array once) have one dictionary.
fn dict_values(names: &[&'static str]) -> ArrayRef {
    type Cache = Vec<(Vec<&'static str>, ArrayRef)>;
    static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, a)) = cache.iter().find(|(n, _)| n.as_slice() == names) {
        return a.clone();
    }
    let a: ArrayRef = Arc::new(StringArray::from(names.to_vec()));
    // Lists that grow with their column (rule names) vary: keep a few.
    if cache.len() < 64 {
        cache.push((names.to_vec(), a.clone()));
    }
    a
}

/// A dictionary column of `names` (`host_kind`, an error's `kind`) from
/// its keys, its values the one array the row builders share for the same
/// names (so that columns built apart join into one dictionary).
pub fn dictionary(names: &[&'static str], keys: Int16Array) -> ArrayRef {
    Arc::new(
        DictionaryArray::<Int16Type>::try_new(keys, dict_values(names)).expect("keys in range"),
    )
}

fn nulls(mut valid: Bits) -> Option<NullBuffer> {
    let n = NullBuffer::new(valid.finish());
    (n.null_count() > 0).then_some(n)
}

impl Col {
    /// An empty column of `f`'s type for `rows` rows; a text or binary
    /// one with room for `bytes` bytes of values.
    pub(crate) fn for_field(f: &Field, rows: usize, bytes: usize, kinds: &[&'static str]) -> Col {
        match f.data_type() {
            DataType::UInt64 => Col::U64(Vec::with_capacity(rows), Bits::new(rows)),
            DataType::UInt16 => Col::U16(Vec::with_capacity(rows), Bits::new(rows)),
            DataType::Boolean => Col::Bool(Bits::new(rows), Bits::new(rows)),
            DataType::Dictionary(..) => {
                let names = if f.name().ends_with("_kind") {
                    kinds.to_vec()
                } else if f.name() == "target_form" {
                    crate::format::TargetForm::NAMES.to_vec()
                } else {
                    Vec::new()
                };
                dict_col(rows, names)
            }
            DataType::List(_) => Col::List(Box::new(
                ListBuilder::new(StringBuilder::new())
                    .with_field(Arc::new(Field::new_list_field(DataType::Utf8, false))),
            )),
            DataType::Struct(_) => Col::Error(Box::new(ErrorCol {
                rows: 0,
                errors: Vec::new(),
            })),
            DataType::Binary => bytes_col(rows, bytes, true),
            _ => bytes_col(rows, bytes, false),
        }
    }

    /// Appends ASCII text (a valid reference's part, a name).
    #[inline]
    fn push_ascii(&mut self, t: &[u8]) {
        if let Col::Bytes {
            offsets,
            bytes,
            valid,
            ..
        } = self
        {
            bytes.extend_from_slice(t);
            offsets.push(bytes.len() as i32);
            valid.append(true);
        }
    }

    #[inline]
    fn push_bytes(&mut self, t: &[u8]) {
        if let Col::Bytes {
            offsets,
            bytes,
            valid,
            binary,
        } = self
        {
            if *binary || t.is_ascii() {
                bytes.extend_from_slice(t);
            } else {
                // Text that is not UTF-8 (a carried field, an input) as JSON
                // writes it: U+FFFD for each bad sequence.
                for c in t.utf8_chunks() {
                    bytes.extend_from_slice(c.valid().as_bytes());
                    if !c.invalid().is_empty() {
                        bytes.extend_from_slice("\u{FFFD}".as_bytes());
                    }
                }
            }
            offsets.push(bytes.len() as i32);
            valid.append(true);
        }
    }

    #[inline]
    fn push_dict(&mut self, name: &'static str) {
        if let Col::Dict { keys, valid, names } = self {
            keys.push(dict_key(names, name));
            valid.append(true);
        }
    }

    #[inline]
    fn push_null(&mut self) {
        match self {
            Col::U64(v, ok) => {
                v.push(0);
                ok.append(false);
            }
            Col::U16(v, ok) => {
                v.push(0);
                ok.append(false);
            }
            Col::Bool(v, ok) => {
                v.append(false);
                ok.append(false);
            }
            Col::Bytes {
                offsets,
                bytes,
                valid,
                ..
            } => {
                offsets.push(bytes.len() as i32);
                valid.append(false);
            }
            Col::Dict { keys, valid, .. } => {
                keys.push(0);
                valid.append(false);
            }
            Col::List(b) => b.append(false),
            Col::Error(e) => e.push_null(),
        }
    }

    pub(crate) fn append(&mut self, cell: Cell<'_>) {
        match (self, cell) {
            (Col::U64(v, ok), Cell::U64(n)) => {
                v.push(n);
                ok.append(true);
            }
            (Col::U16(v, ok), Cell::U64(n)) => {
                v.push(n as u16);
                ok.append(n <= u64::from(u16::MAX));
            }
            (Col::Bool(v, ok), Cell::Bool(b)) => {
                v.append(b);
                ok.append(true);
            }
            (c @ Col::Bytes { .. }, Cell::Plain(t)) => c.push_ascii(t),
            (c @ Col::Bytes { .. }, Cell::Text(t) | Cell::Json(t)) => c.push_bytes(t),
            (c @ Col::Dict { .. }, Cell::Name(n)) => c.push_dict(n),
            (c @ Col::Bytes { .. }, Cell::Name(n)) => c.push_ascii(n.as_bytes()),
            (Col::List(b), Cell::List(xs)) => {
                for x in xs {
                    b.values().append_value(x);
                }
                b.append(true);
            }
            (Col::Error(b), Cell::Error(e)) => b.push(&e),
            (c, _) => c.push_null(),
        }
    }

    pub(crate) fn finish(self) -> ArrayRef {
        match self {
            Col::U64(v, ok) => Arc::new(UInt64Array::new(v.into(), nulls(ok))),
            Col::U16(v, ok) => Arc::new(UInt16Array::new(v.into(), nulls(ok))),
            Col::Bool(mut v, ok) => Arc::new(BooleanArray::new(v.finish(), nulls(ok))),
            Col::Bytes {
                offsets,
                bytes,
                valid,
                binary,
            } => {
                let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
                let values = Buffer::from_vec(bytes);
                if binary {
                    Arc::new(BinaryArray::new(offsets, values, nulls(valid)))
                } else {
                    Arc::new(
                        StringArray::try_new(offsets, values, nulls(valid))
                            .expect("text pushed as UTF-8"),
                    )
                }
            }
            Col::Dict { keys, valid, names } => {
                let keys = Int16Array::new(keys.into(), nulls(valid));
                let values = dict_values(&names);
                Arc::new(
                    DictionaryArray::<Int16Type>::try_new(keys, values).expect("keys in range"),
                )
            }
            Col::List(mut b) => Arc::new(b.finish()),
            Col::Error(e) => e.finish(),
        }
    }
}

fn error_kinds() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = urilex::ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
    v.push("format");
    v
}

impl ErrorRow {
    fn new(e: &ErrorCell<'_>) -> ErrorRow {
        let mut message = String::new();
        let _ = write!(message, "{}", e.message);
        ErrorRow {
            kind: e.kind,
            part: e.part,
            index: e.index,
            rule: e.rule,
            message,
            raw: e.raw.map(<[u8]>::to_vec),
        }
    }
}

/// The `error` struct column of `docs/schema.md` made from its errors
/// alone, each given with its row, the other rows null: a column of
/// mostly valid references costs a fill per child for the rows between
/// errors, not a cell each (as the rows' [`Col`] builds it, which this
/// is).
///
/// ```
/// use urilex_io::columnar::SparseErrors;
/// use urilex_io::model::ErrorCell;
/// let mut e = SparseErrors::new();
/// e.push_at(2, &ErrorCell::other("resolve", "no base"));
/// let col = e.finish(4);
/// assert_eq!((col.len(), col.null_count()), (4, 3));
/// ```
#[derive(Default)]
pub struct SparseErrors(Vec<(usize, ErrorRow)>);

impl SparseErrors {
    /// No errors yet.
    pub fn new() -> SparseErrors {
        SparseErrors(Vec::new())
    }

    /// Whether no error was pushed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The error of row `row`, after every row pushed so far.
    ///
    /// # Panics
    /// When `row` is not after the last row pushed.
    pub fn push_at(&mut self, row: usize, e: &ErrorCell<'_>) {
        assert!(
            self.0.last().is_none_or(|(r, _)| *r < row),
            "errors in row order"
        );
        self.0.push((row, ErrorRow::new(e)));
    }

    /// `other`'s errors after these (its rows after theirs).
    ///
    /// # Panics
    /// When `other`'s first row is not after the last row of these.
    pub fn append(&mut self, other: SparseErrors) {
        if let (Some((a, _)), Some((b, _))) = (self.0.last(), other.0.first()) {
            assert!(a < b, "errors in row order");
        }
        self.0.extend(other.0);
    }

    /// The column of `rows` rows.
    ///
    /// # Panics
    /// When an error's row is not below `rows`.
    pub fn finish(self, rows: usize) -> ArrayRef {
        assert!(
            self.0.last().is_none_or(|(r, _)| *r < rows),
            "errors within the rows"
        );
        ErrorCol {
            rows,
            errors: self.0,
        }
        .finish()
    }
}

impl ErrorCol {
    fn push(&mut self, e: &ErrorCell<'_>) {
        self.errors.push((self.rows, ErrorRow::new(e)));
        self.rows += 1;
    }

    fn push_null(&mut self) {
        self.rows += 1;
    }

    /// The struct and its children, null together at a row without an
    /// error (a reader of a child alone, such as SQL's
    /// `uri_parse(u)['error']['kind']`, sees null there too).
    fn finish(self) -> ArrayRef {
        let n = self.rows;
        let mut valid = Bits::new(n);
        valid.append_n(n, false);
        let mut kinds = error_kinds();
        let mut keys = vec![0i16; n];
        let mut index = vec![0u64; n];
        let mut index_ok = Bits::new(n);
        index_ok.append_n(n, false);
        // Text children through Arrow's builders: the rows without an
        // error are runs of nulls (their offsets a fill), the errors are in
        // row order, one per row at most; and the builder's array is not
        // checked again (each offset for order and, in a string column, as
        // a character boundary, about 20 instructions a row and child),
        // as arrays made from plain vectors are.
        fn text<T: ByteArrayType>(
            errors: &[(usize, ErrorRow)],
            n: usize,
            pick: impl Fn(&ErrorRow) -> Option<&T::Native>,
        ) -> ArrayRef
        where
            T::Native: AsRef<T::Native>,
        {
            let mut b = GenericByteBuilder::<T>::with_capacity(n, 0);
            let mut at = 0;
            for (r, e) in errors {
                b.append_nulls(r - at);
                b.append_option(pick(e));
                at = r + 1;
            }
            b.append_nulls(n - at);
            Arc::new(b.finish())
        }
        for (r, e) in &self.errors {
            valid.set_bit(*r, true);
            let k = match kinds.iter().position(|k| *k == e.kind) {
                Some(k) => k,
                None => {
                    kinds.push(e.kind);
                    kinds.len() - 1
                }
            };
            keys[*r] = k as i16;
            if let Some(i) = e.index {
                index[*r] = i;
                index_ok.set_bit(*r, true);
            }
        }
        let errors = &self.errors;
        let part = text::<Utf8Type>(errors, n, |e| e.part);
        let rule = text::<Utf8Type>(errors, n, |e| e.rule);
        let message = text::<Utf8Type>(errors, n, |e| Some(e.message.as_str()));
        let raw = text::<BinaryType>(errors, n, |e| e.raw.as_deref());
        let values = dict_values(&kinds);
        let valid = nulls(valid);
        let keys = Int16Array::new(keys.into(), valid.clone());
        let kind: ArrayRef =
            Arc::new(DictionaryArray::<Int16Type>::try_new(keys, values).expect("keys in range"));
        let index: ArrayRef = Arc::new(UInt64Array::new(index.into(), nulls(index_ok)));
        let arrays = vec![kind, part, index, rule, message, raw];
        Arc::new(StructArray::new(error_fields(), arrays, valid))
    }
}

/// A chunk's rows as the columns being built ([`BatchBuilder::build_columns`]).
pub struct Columns {
    cols: Vec<Col>,
    rows: usize,
}

impl Columns {
    /// The rows.
    pub fn num_rows(&self) -> usize {
        self.rows
    }
}

/// Builds record batches of one schema.
pub struct BatchBuilder {
    schema: Schema,
    arrow: SchemaRef,
    /// The profile's kinds, in the order of their dictionary.
    kinds: Vec<&'static str>,
    /// Per column, what the straight line for valid rows does.
    fast: Option<Vec<FastCol>>,
    /// Per column, the bytes of values per 16 rows in the last chunk
    /// built (any thread's), so that the next chunk's text columns start
    /// near their size instead of doubling into it (each doubling a copy
    /// of what is there).
    widths: Vec<AtomicUsize>,
}

/// Valid rows taken a run at a time (a run's records, 64 bytes a row, are
/// read once per column: a run of a whole chunk's rows left the cache
/// between columns).
const RUN: usize = 256;

/// A text column's bytes per 16 rows before any chunk is built.
const FIRST_WIDTH: usize = 8 * 16;

/// A column of a row of one valid reference whose parts come from its
/// batch record.
#[derive(Clone, Copy)]
enum FastCol {
    Line,
    Valid,
    Part(Component),
    Kind,
    Port,
    Null,
    Form,
}

impl BatchBuilder {
    /// A builder of `schema`'s rows.
    pub fn new(schema: Schema) -> BatchBuilder {
        let arrow = arrow_schema(&schema);
        let kinds: Vec<&'static str> = schema.profile.kinds().collect();
        let fast = schema
            .fast()
            .then(|| {
                schema
                    .columns
                    .iter()
                    .map(|c| match c {
                        Column::Line => Some(FastCol::Line),
                        Column::Valid(0) => Some(FastCol::Valid),
                        Column::Part(0, p) => Some(FastCol::Part(Component::ALL[p.index()])),
                        Column::Kind(0) => Some(FastCol::Kind),
                        Column::PortNumber(0) => Some(FastCol::Port),
                        Column::Error(0) => Some(FastCol::Null),
                        Column::TargetForm => Some(FastCol::Form),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()
            })
            .flatten();
        let widths = (0..arrow.fields().len())
            .map(|_| AtomicUsize::new(FIRST_WIDTH))
            .collect();
        BatchBuilder {
            schema,
            arrow,
            kinds,
            fast,
            widths,
        }
    }

    /// The Arrow schema.
    pub fn arrow_schema(&self) -> SchemaRef {
        self.arrow.clone()
    }

    /// Empty columns for `n` rows, one per field.
    fn columns(&self, n: usize) -> Vec<Col> {
        self.arrow
            .fields()
            .iter()
            .zip(&self.widths)
            .map(|(f, w)| {
                // The last chunk's width and an eighth more.
                let bytes = n * w.load(Ordering::Relaxed) / 16;
                Col::for_field(f, n, bytes + bytes / 8, &self.kinds)
            })
            .collect()
    }

    /// A chunk's columns, their widths noted for the next chunk's.
    fn widths_of(&self, cols: Vec<Col>, n: usize) -> Columns {
        for (c, w) in cols.iter().zip(&self.widths) {
            if let (Col::Bytes { bytes, .. }, true) = (c, n > 0) {
                w.store(bytes.len() * 16 / n, Ordering::Relaxed);
            }
        }
        Columns { cols, rows: n }
    }

    /// The columns of [`build_columns`](Self::build_columns) as Arrow
    /// arrays in a record batch.
    pub fn finish_columns(&self, c: Columns) -> RecordBatch {
        let Columns { cols, rows: n } = c;
        let arrays: Vec<ArrayRef> = cols.into_iter().map(Col::finish).collect();
        debug_assert!(arrays.iter().all(|a| a.len() == n));
        // A projection of no columns (`count(*)`) still has its rows.
        let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(n));
        RecordBatch::try_new_with_options(self.arrow.clone(), arrays, &options)
            .expect("the arrays follow the schema")
    }

    /// The rows' schema (`urilex_io::schema`).
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The Arrow schema, borrowed.
    pub fn schema_ref(&self) -> &SchemaRef {
        &self.arrow
    }

    /// The rows of a chunk as one record batch.
    pub fn build(&self, rows: &ChunkRows<'_>) -> RecordBatch {
        self.finish_columns(self.build_columns(rows))
    }

    /// The rows of a chunk as columns not yet made Arrow arrays (which
    /// checks each text column's offsets and UTF-8 again): with one
    /// worker, [`finish_columns`](Self::finish_columns) runs on the thread
    /// that encodes and writes, beside it.
    pub fn build_columns(&self, rows: &ChunkRows<'_>) -> Columns {
        let n = rows.len();
        let mut cols = self.columns(n);
        let Some(fast) = self.fast.as_deref().filter(|_| rows.ex.uris.len() == 1) else {
            for r in 0..n {
                self.schema.cells(rows, r, |k, cell| cols[k].append(cell));
            }
            return self.widths_of(cols, n);
        };
        // Valid references' rows a run at a time, column by column (each
        // column's loop over the run's records); any other row (absent,
        // invalid, parsed on its own) cell by cell between the runs.
        let mut run: Vec<(urilex::Entry<'_>, &[u8])> = Vec::with_capacity(RUN.min(n));
        let mut first = 0;
        for r in 0..n {
            if let Record::Entry(entry, buf) = rows.record(0, r) {
                if entry.is_valid() {
                    run.push((entry, &buf[entry.line_start()..]));
                    if run.len() == RUN {
                        fast_run(&mut cols, fast, &run, first, rows);
                        run.clear();
                        first = r + 1;
                    }
                    continue;
                }
            }
            fast_run(&mut cols, fast, &run, first, rows);
            run.clear();
            self.schema.cells(rows, r, |k, cell| cols[k].append(cell));
            first = r + 1;
        }
        fast_run(&mut cols, fast, &run, first, rows);
        self.widths_of(cols, n)
    }

    /// The rows of references that are not a log's (a string column's
    /// values: see [`Schema::references`]): row `i` is reference `i` of
    /// `batch`, parsed from `buf`, or all nulls where `present(i)` is
    /// false.
    pub fn build_references(
        &self,
        batch: &urilex::Batch,
        buf: &[u8],
        present: impl Fn(usize) -> bool,
    ) -> RecordBatch {
        let n = batch.len();
        let mut cols = self.columns(n);
        for (i, entry) in batch.entries().enumerate() {
            let here = present(i);
            if let (Some(fast), true, true) = (&self.fast, here, entry.is_valid()) {
                let line = &buf[entry.line_start()..];
                fast_row(&mut cols, fast, entry, line, || 0, || None);
                continue;
            }
            let value = here.then_some((batch, buf, i));
            self.schema
                .reference_cells(value, |k, cell| cols[k].append(cell));
        }
        self.finish_columns(self.widths_of(cols, n))
    }
}

/// The rows `first..first + run.len()` of `rows`, each a valid reference
/// whose parts come from its batch record (with the line it starts in),
/// column by column: a loop per column over the run, its vectors and
/// bitmaps taken out of the column once.
fn fast_run(
    cols: &mut [Col],
    fast: &[FastCol],
    run: &[(urilex::Entry<'_>, &[u8])],
    first: usize,
    rows: &ChunkRows<'_>,
) {
    let n = run.len();
    if n == 0 {
        return;
    }
    for (c, f) in cols.iter_mut().zip(fast) {
        match (*f, c) {
            (FastCol::Line, Col::U64(v, ok)) => {
                v.extend((first..first + n).map(|r| rows.line(r)));
                ok.append_n(n, true);
            }
            (FastCol::Valid, Col::Bool(v, ok)) => {
                v.append_n(n, true);
                ok.append_n(n, true);
            }
            (
                FastCol::Part(p),
                Col::Bytes {
                    offsets,
                    bytes,
                    valid,
                    ..
                },
            ) => {
                let mut ok = Gather::new(valid);
                for (e, line) in run {
                    let s = e.span(p);
                    ok.push(s.is_some());
                    if let Some(s) = s {
                        push_part(bytes, line, s);
                    }
                    offsets.push(bytes.len() as i32);
                }
                ok.finish();
            }
            (FastCol::Kind, Col::Dict { keys, valid, names }) => {
                // Each kind's key looked up once per run, not per row.
                let mut key = [None::<i16>; urilex::HostKind::ALL.len()];
                let mut ok = Gather::new(valid);
                for (e, _) in run {
                    let k = e.host_kind();
                    ok.push(k.is_some());
                    keys.push(match k {
                        Some(k) => {
                            *key[k as usize].get_or_insert_with(|| dict_key(names, k.as_str()))
                        }
                        None => 0,
                    });
                }
                ok.finish();
            }
            (FastCol::Port, Col::U16(v, ok)) => {
                let mut ok = Gather::new(ok);
                for (e, line) in run {
                    let port = e.span(Component::Port).map(|s| &line[s]);
                    let n = port.and_then(urilex::port_number);
                    ok.push(n.is_some());
                    v.push(n.unwrap_or(0));
                }
                ok.finish();
            }
            // The error struct: no error in a valid reference's row.
            (FastCol::Null, Col::Error(e)) => e.rows += n,
            (FastCol::Form, c) => {
                for r in first..first + n {
                    match rows.form(r) {
                        Some(f) => c.push_dict(f.as_str()),
                        None => c.push_null(),
                    }
                }
            }
            // A column of another type than its kind's (not made by
            // `Col::for_field`): row by row, as a cell.
            (f, c) => {
                for (k, (e, line)) in run.iter().enumerate() {
                    fast_row(
                        std::slice::from_mut(c),
                        &[f],
                        *e,
                        line,
                        || rows.line(first + k),
                        || rows.form(first + k),
                    );
                }
            }
        }
    }
}

/// Bits gathered a word at a time and appended to a bitmap 64 at once
/// (a bit at a time costs a call and a capacity check per value).
struct Gather<'b> {
    to: &'b mut Bits,
    word: u64,
    n: u32,
}

impl<'b> Gather<'b> {
    fn new(to: &'b mut Bits) -> Gather<'b> {
        Gather { to, word: 0, n: 0 }
    }

    #[inline(always)]
    fn push(&mut self, bit: bool) {
        self.word |= u64::from(bit) << self.n;
        self.n += 1;
        if self.n == 64 {
            self.to.append_packed_range(0..64, &self.word.to_le_bytes());
            self.word = 0;
            self.n = 0;
        }
    }

    fn finish(self) {
        if self.n > 0 {
            self.to
                .append_packed_range(0..self.n as usize, &self.word.to_le_bytes());
        }
    }
}

/// Appends `line[s]` to `bytes`: a part of 32 bytes or less, where the
/// line has 32 bytes from its start on, as one fixed 32-byte copy cut back
/// to its length (no call to a copy routine for the short parts most are:
/// at 16 bytes, the parts of 17 to 32 called one).
#[inline(always)]
fn push_part(bytes: &mut Vec<u8>, line: &[u8], s: std::ops::Range<usize>) {
    let len = s.len();
    match line.get(s.start..s.start + 32) {
        Some(w) if len <= 32 => {
            let at = bytes.len();
            let w: &[u8; 32] = w.try_into().expect("32 bytes");
            bytes.extend_from_slice(w);
            bytes.truncate(at + len);
        }
        _ => bytes.extend_from_slice(&line[s]),
    }
}

/// The key of `name` among a dictionary column's `names`, added when new.
fn dict_key(names: &mut Vec<&'static str>, name: &'static str) -> i16 {
    match names.iter().position(|n| *n == name) {
        Some(k) => k as i16,
        None => {
            names.push(name);
            (names.len() - 1) as i16
        }
    }
}

/// One row of a valid reference whose parts come from its batch record
/// (`line` the buffer from its line's start), through the straight line of
/// `fast`; its line number and target form asked for only when a column
/// holds them.
#[inline]
fn fast_row(
    cols: &mut [Col],
    fast: &[FastCol],
    entry: urilex::Entry<'_>,
    line: &[u8],
    line_no: impl Fn() -> u64,
    form: impl Fn() -> Option<crate::format::TargetForm>,
) {
    for (c, f) in cols.iter_mut().zip(fast) {
        match *f {
            FastCol::Line => c.append(Cell::U64(line_no())),
            FastCol::Valid => c.append(Cell::Bool(true)),
            FastCol::Part(p) => match entry.span(p) {
                Some(s) => c.push_ascii(&line[s]),
                None => c.push_null(),
            },
            FastCol::Kind => match entry.host_kind() {
                Some(k) => c.push_dict(k.as_str()),
                None => c.push_null(),
            },
            FastCol::Port => {
                let port = entry.span(Component::Port).map(|s| &line[s]);
                match port.and_then(urilex::port_number) {
                    Some(n) => c.append(Cell::U64(u64::from(n))),
                    None => c.push_null(),
                }
            }
            FastCol::Null => c.push_null(),
            FastCol::Form => match form() {
                Some(f) => c.push_dict(f.as_str()),
                None => c.push_null(),
            },
        }
    }
}

/// Columns whose values seldom repeat: no dictionary encoding (building
/// one costs a hash per value, and the encoder falls back to plain pages
/// anyway).
const UNIQUE: [&str; 8] = [
    "line", "path", "query", "fragment", "userinfo", "input", "time", "message",
];

/// Writer properties for Parquet output: zstd (level 1), statistics per
/// column chunk, dictionaries for the columns whose values repeat (hosts,
/// schemes, kinds, ...), and the Arrow schema kept in the file's metadata
/// (so dictionaries read back as dictionaries).
pub fn parquet_properties(arrow: &ArrowSchema) -> WriterProperties {
    let mut b = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_statistics_enabled(EnabledStatistics::Chunk);
    for f in arrow.fields() {
        let unique = |n: &str| {
            UNIQUE
                .iter()
                .any(|u| n == *u || n.ends_with(&format!("_{u}")))
        };
        if unique(f.name()) {
            b = b.set_column_dictionary_enabled(ColumnPath::from(f.name().as_str()), false);
        }
        // Line numbers climb by one: deltas pack them into a few bits.
        if matches!(f.data_type(), DataType::UInt64) && f.name() == "line" {
            b = b.set_column_encoding(ColumnPath::from("line"), Encoding::DELTA_BINARY_PACKED);
        }
        if let DataType::Struct(children) = f.data_type() {
            for c in children {
                if unique(c.name()) || c.name() == "raw" {
                    let path = ColumnPath::new(vec![f.name().clone(), c.name().clone()]);
                    b = b.set_column_dictionary_enabled(path, false);
                }
            }
        }
    }
    let mut props = b.build();
    parquet::arrow::add_encoded_arrow_schema_to_metadata(arrow, &mut props);
    props
}

/// A Parquet file written one encoded row group at a time.
pub struct ParquetSink<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    encoder: Arc<RowGroupEncoder>,
}

/// How a worker encodes a record batch's columns into a row group: the
/// top-level string, binary and dictionary columns by
/// [`pages`](crate::pages), the others (numbers, booleans, the error
/// struct) by the `parquet` crate's Arrow writer.
pub struct RowGroupEncoder {
    /// The crate's writers, for the columns not encoded here (a schema of
    /// just those: their leaves' descriptors are the file's).
    crate_columns: ArrowRowGroupWriterFactory,
    /// Per top-level field, when it is encoded here: its leaf column's
    /// descriptor, whether it gets a dictionary, its zstd level (as the
    /// properties say).
    own: Vec<Option<(ColumnDescPtr, bool, ZstdLevel)>>,
}

/// A column chunk of an encoded row group.
enum Chunk {
    Crate(ArrowColumnChunk),
    Own(crate::pages::OwnChunk),
    /// Encoded here, its pages not yet compressed.
    Pending(crate::pages::PendingChunk),
}

/// A row group's column chunks, encoded (by a worker).
pub struct EncodedRowGroup(Vec<Chunk>);

/// Whether a field's column is encoded by [`pages`](crate::pages).
fn encoded_here(f: &Field) -> bool {
    crate::pages::encodes(f.data_type())
}

impl<W: Write + Send> ParquetSink<W> {
    /// Starts a file of rows of `arrow` on `out`.
    pub fn new(out: W, arrow: SchemaRef) -> parquet::errors::Result<ParquetSink<W>> {
        let props = Arc::new(parquet_properties(&arrow));
        let converter = ArrowSchemaConverter::new().with_coerce_types(props.coerce_types());
        let parquet_schema = converter.convert(&arrow)?;
        // The columns the crate's writer encodes, as a file of their own
        // (never written to) for its factory.
        let rest: Vec<_> = arrow
            .fields()
            .iter()
            .filter(|f| !encoded_here(f))
            .cloned()
            .collect();
        let rest = Arc::new(ArrowSchema::new_with_metadata(
            rest,
            arrow.metadata().clone(),
        ));
        let rest_schema = converter.convert(&rest)?;
        let shadow = SerializedFileWriter::new(
            std::io::sink(),
            rest_schema.root_schema_ptr(),
            props.clone(),
        )?;
        let crate_columns = ArrowRowGroupWriterFactory::new(&shadow, rest);
        // A column encoded here is one leaf: the leaf whose root is its
        // field.
        let mut own = vec![None; arrow.fields().len()];
        for (i, d) in parquet_schema.columns().iter().enumerate() {
            let field = parquet_schema.get_column_root_idx(i);
            if encoded_here(&arrow.fields()[field]) {
                let dictionary = props.dictionary_enabled(d.path());
                let level = match props.compression(d.path()) {
                    Compression::ZSTD(l) => l,
                    _ => ZstdLevel::default(),
                };
                own[field] = Some((d.clone(), dictionary, level));
            }
        }
        let writer = SerializedFileWriter::new(out, parquet_schema.root_schema_ptr(), props)?;
        let encoder = Arc::new(RowGroupEncoder { crate_columns, own });
        Ok(ParquetSink { writer, encoder })
    }

    /// What the workers encode row groups with.
    pub fn encoder(&self) -> Arc<RowGroupEncoder> {
        self.encoder.clone()
    }

    /// Appends an encoded row group, compressing first the pages of its
    /// chunks encoded with [`encode_row_group_later`].
    pub fn append(&mut self, rg: EncodedRowGroup) -> parquet::errors::Result<()> {
        if rg.0.is_empty() {
            return Ok(());
        }
        let mut w = self.writer.next_row_group()?;
        for c in rg.0 {
            match c {
                Chunk::Crate(c) => c.append_to_row_group(&mut w)?,
                Chunk::Own(c) => w.append_column(&c.data, c.close)?,
                Chunk::Pending(c) => {
                    let c = c.complete()?;
                    w.append_column(&c.data, c.close)?
                }
            }
        }
        w.close()?;
        Ok(())
    }

    /// Writes the footer.
    pub fn finish(self) -> parquet::errors::Result<()> {
        self.writer.close()?;
        Ok(())
    }

    /// Writes the footer and gives the output back, flushed.
    pub fn into_inner(self) -> parquet::errors::Result<W> {
        self.writer.into_inner()
    }
}

/// Encodes a record batch's columns into a row group (a worker's share of
/// Parquet output).
pub fn encode_row_group(
    encoder: &RowGroupEncoder,
    batch: &RecordBatch,
) -> parquet::errors::Result<EncodedRowGroup> {
    encode_columns(encoder, batch, false)
}

/// [`encode_row_group`], leaving the compression of the pages of the
/// columns encoded by [`pages`](crate::pages) (the strings: most of
/// the bytes) to [`ParquetSink::append`]: with one worker, the thread
/// that appends and writes then compresses beside it. The file is the
/// same.
pub fn encode_row_group_later(
    encoder: &RowGroupEncoder,
    batch: &RecordBatch,
) -> parquet::errors::Result<EncodedRowGroup> {
    encode_columns(encoder, batch, true)
}

fn encode_columns(
    encoder: &RowGroupEncoder,
    batch: &RecordBatch,
    later: bool,
) -> parquet::errors::Result<EncodedRowGroup> {
    if batch.num_rows() == 0 {
        return Ok(EncodedRowGroup(Vec::new()));
    }
    let mut writers = encoder.crate_columns.create_column_writers(0)?.into_iter();
    let mut chunks = Vec::with_capacity(batch.num_columns());
    let fields = batch.schema();
    for ((array, field), own) in batch
        .columns()
        .iter()
        .zip(fields.fields())
        .zip(&encoder.own)
    {
        if let Some((descr, dictionary, level)) = own {
            let (d, a) = (descr.clone(), array);
            chunks.push(match later {
                true => Chunk::Pending(crate::pages::encode_later(d, a, *dictionary, *level)?),
                false => Chunk::Own(crate::pages::encode(d, a, *dictionary, *level)?),
            });
            continue;
        }
        for leaf in compute_leaves(field, array)? {
            let mut w = writers.next().expect("a writer per leaf column");
            w.write(&leaf)?;
            chunks.push(Chunk::Crate(w.close()?));
        }
    }
    Ok(EncodedRowGroup(chunks))
}
