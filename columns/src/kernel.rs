//! The kernels: URI functions over whole Arrow string columns. Each parses its
//! column once with the batch engine over the column's values and offsets
//! (no copy of a `Utf8` or `LargeUtf8` column, no allocation per row) and
//! builds its result in one pass from the batch's records; parts of the
//! references come back as `Utf8View` values that point into the input's
//! buffers (the result keeps them alive). The SQL functions
//! (`urilex-datafusion`) and the Python package's column functions are
//! these.
//!
//! Arguments after the column are closures from the row's index to its
//! value, so that one function serves a literal and a column of them.

use crate::refs::Refs;
use crate::views::{Bits, SpanViews, Views};

use arrow_array::builder::{
    BooleanBufferBuilder, ListBuilder, StringBuilder, UInt16Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, BooleanArray, ListArray, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields};
use std::fmt::Write as _;
use std::sync::Arc;
use urilex::template::Template;
use urilex::whatwg::Differential;
use urilex::{Batch, Component, HostKind, Parser, Profile, Syntax};
use urilex_io::columnar::BatchBuilder;
use urilex_io::schema::{Column, Schema};

use crate::Result;

/// A `Utf8View` field of a list's struct.
fn view(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Utf8View, nullable)
}

/// The type of [`query_params`]: a list of `{key, value}` structs.
pub fn params_type() -> DataType {
    let s = DataType::Struct(Fields::from(vec![view("key", false), view("value", true)]));
    DataType::List(Arc::new(Field::new_list_field(s, true)))
}

/// The type of [`extract`]: a list of `{uri, start, end}` structs.
pub fn extract_type() -> DataType {
    let s = DataType::Struct(Fields::from(vec![
        Field::new("uri", DataType::Utf8, false),
        Field::new("start", DataType::UInt64, false),
        Field::new("end", DataType::UInt64, false),
    ]));
    DataType::List(Arc::new(Field::new_list_field(s, true)))
}

/// The type of [`parse`] for `profile`: the reference columns of the row
/// schema (`docs/schema.md`, less `line`), its parts `Utf8View` (views of
/// the input where it is `Utf8` or `LargeUtf8`).
pub fn parse_type(profile: Profile) -> DataType {
    DataType::Struct(parse_fields(&Schema::references(
        profile,
        Syntax::Reference,
    )))
}

/// Whether `c` is a part of one value (a view of its reference's text).
fn is_view(c: &Column) -> bool {
    matches!(c, Column::Part(_, p) if !p.is_repeated())
}

/// The fields of [`parse`]: the schema's, parts as `Utf8View`.
fn parse_fields(schema: &Schema) -> Fields {
    urilex_io::columnar::arrow_schema(schema)
        .fields()
        .iter()
        .zip(&schema.columns)
        .map(|(f, c)| match is_view(c) {
            true => Arc::new(f.as_ref().clone().with_data_type(DataType::Utf8View)),
            false => f.clone(),
        })
        .collect()
}

/// Whether each value is a valid reference to `parser`: the spanless
/// verdict over the whole column, no batch needed.
pub fn valid(refs: &Refs<'_>, parser: &Parser) -> ArrayRef {
    let mut bits = BooleanBufferBuilder::new(refs.len());
    refs.validate(parser, |v| bits.append(v));
    Arc::new(BooleanArray::new(bits.finish(), refs.nulls().cloned()))
}

/// Value `i`'s part `c` as a range of the value, when it is valid and
/// has one.
#[inline]
fn span(refs: &Refs<'_>, batch: &Batch, i: usize, c: Component) -> Option<std::ops::Range<usize>> {
    if refs.is_null(i) {
        return None;
    }
    batch.entry(i).span(c)
}

/// Value `i`'s part `c` as text.
#[inline]
fn part_text<'r>(refs: &'r Refs<'_>, batch: &Batch, i: usize, c: Component) -> Option<&'r str> {
    let r = span(refs, batch, i, c)?;
    std::str::from_utf8(&refs.value(i)[r]).ok()
}

/// Where `sub`, a slice of `whole`, lies in it.
#[inline]
fn offset_in(whole: &str, sub: &str) -> std::ops::Range<usize> {
    let at = sub.as_ptr() as usize - whole.as_ptr() as usize;
    at..at + sub.len()
}

/// `c` of every value (`uri_host` and the like).
pub fn part(refs: &Refs<'_>, parser: &Parser, c: Component) -> ArrayRef {
    part_on(refs, parser, c, crate::threads())
}

/// [`part`], its rows cut into a piece for each of `threads` (made at
/// once with the `rayon` feature, else one after the other) whose views
/// are joined before the column is made once.
pub(crate) fn part_on(refs: &Refs<'_>, parser: &Parser, c: Component, threads: usize) -> ArrayRef {
    if let Some(buffer) = refs.buffer() {
        let made = crate::each_of(crate::pieces(refs.len(), threads), |over| {
            let mut out = SpanViews::new(buffer, over.len());
            crate::in_blocks_over(refs, parser, Some(c), over, |batch, rows| {
                out.check_ascii(refs.start(rows.start)..refs.start(rows.end));
                // An entry's start is its value's in the buffer (no
                // offsets read); the input's nulls are applied once, at
                // the end.
                out.extend(rows.len(), (batch, c));
            });
            out
        });
        let mut made = made.into_iter();
        let mut out = made.next().expect("a piece at least");
        for p in made {
            out.append(p);
        }
        return out.finish_under(refs.nulls());
    }
    let mut out = Views::new(refs.len());
    crate::in_blocks(refs, parser, Some(c), |batch, rows| {
        // The records in order (no search for each), nulls checked apart.
        for (i, e) in rows.zip(batch.entries()) {
            match e.span(c).filter(|_| !refs.is_null(i)) {
                Some(r) => out.part(refs, i, r),
                None => out.null(),
            }
        }
    });
    out.finish()
}

/// The port of every value as a number (null when absent or empty).
pub fn port(refs: &Refs<'_>, batch: &Batch) -> ArrayRef {
    let mut out = UInt16Builder::with_capacity(refs.len());
    for i in 0..refs.len() {
        let n = span(refs, batch, i, Component::Port)
            .and_then(|r| urilex::port_number(&refs.value(i)[r]));
        out.append_option(n);
    }
    Arc::new(out.finish())
}

/// The parse error of every value, null where it is valid.
pub fn error(refs: &Refs<'_>, batch: &Batch) -> ArrayRef {
    let mut out = StringBuilder::with_capacity(refs.len(), 0);
    for i in 0..refs.len() {
        match (refs.is_null(i), batch.parse_error(i)) {
            (false, Some(e)) => {
                let _ = write!(out, "{e}");
                out.append_value("");
            }
            _ => out.append_null(),
        }
    }
    Arc::new(out.finish())
}

/// Every value as the struct of [`parse_type`] (null where the value is).
///
/// Where the values are one buffer (`Utf8`, `LargeUtf8`) and the
/// profile's parts are the batch records' spans, the parts are views of
/// that buffer and they and `valid` are made column by column in one pass
/// over the records; the other columns (`host_kind`, `port_number`,
/// `error`) are built as the log pipeline's rows are. Otherwise every
/// column is built that way and the parts are then viewed in place.
pub fn parse(refs: &Refs<'_>, parser: &Parser, profile: Profile) -> ArrayRef {
    parse_on(refs, parser, profile, crate::threads())
}

/// [`parse`], its rows cut into a piece for each of `threads` (made at
/// once with the `rayon` feature, else one after the other), joined.
pub(crate) fn parse_on(
    refs: &Refs<'_>,
    parser: &Parser,
    profile: Profile,
    threads: usize,
) -> ArrayRef {
    let made = parse_schema(profile);
    let (schema, fields) = &*made;
    let present = |i: usize| !refs.is_null(i);
    let fast = schema.fast()
        && schema.columns.iter().all(|c| {
            is_view(c)
                || matches!(
                    c,
                    Column::Valid(0) | Column::Kind(0) | Column::PortNumber(0) | Column::Error(0)
                )
        });
    let columns: Vec<ArrayRef> = match refs.buffer().filter(|_| fast) {
        Some(buffer) => parse_columns(refs, parser, schema, fields, buffer, threads),
        None => {
            let rows = crate::parsed(refs, parser, |batch| {
                BatchBuilder::new(schema.clone()).build_references(batch, refs.values(), present)
            });
            rows.columns()
                .iter()
                .zip(&schema.columns)
                .map(|(a, c)| match is_view(c) {
                    true => arrow_cast::cast(a, &DataType::Utf8View)
                        .expect("Utf8 is viewed as Utf8View"),
                    false => a.clone(),
                })
                .collect()
        }
    };
    Arc::new(StructArray::new(
        fields.clone(),
        columns,
        refs.nulls().cloned(),
    ))
}

/// A profile's reference columns and [`parse`]'s fields for them.
type ParseSchema = (Schema, Fields);

/// [`parse`]'s schema and fields for `profile`, made once per process:
/// a call over a short column (a Python call over some thousand URLs)
/// would otherwise spend a good part of its time naming columns.
fn parse_schema(profile: Profile) -> Arc<ParseSchema> {
    static MADE: std::sync::Mutex<Vec<(Profile, Arc<ParseSchema>)>> =
        std::sync::Mutex::new(Vec::new());
    let mut made = MADE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, s)) = made.iter().find(|(p, _)| *p == profile) {
        return s.clone();
    }
    let schema = Schema::references(profile, Syntax::Reference);
    let fields = parse_fields(&schema);
    let s = Arc::new((schema, fields));
    made.push((profile, s.clone()));
    s
}

/// [`parse`]'s columns, for a profile whose parts are the records'
/// spans: the rows in a piece for each of `threads` ([`parse_piece`]),
/// the pieces' vectors joined (the first piece's have room for all), then
/// the arrays made once; `error` placed at its rows (a column of nulls
/// when all are valid).
fn parse_columns(
    refs: &Refs<'_>,
    parser: &Parser,
    schema: &Schema,
    fields: &Fields,
    buffer: &arrow_buffer::Buffer,
    threads: usize,
) -> Vec<ArrayRef> {
    let n = refs.len();
    let parts: Vec<Component> = schema
        .columns
        .iter()
        .filter_map(|c| match c {
            Column::Part(_, p) if is_view(c) => Some(Component::ALL[p.index()]),
            _ => None,
        })
        .collect();
    let kinds: Vec<&'static str> = schema.profile.kinds().collect();
    let kind_key: Vec<i16> = HostKind::ALL
        .iter()
        .map(|k| kinds.iter().position(|n| *n == k.as_str()).unwrap_or(0) as i16)
        .collect();
    // The rows in pieces, made on the cores at once where there are
    // several, then joined (the first piece's vectors have room for all).
    let pieces = crate::pieces(n, threads);
    let mut made = crate::each_of(pieces, |rows| {
        let room = if rows.start == 0 { n } else { rows.len() };
        parse_piece(
            refs,
            parser,
            schema.profile,
            &parts,
            &kind_key,
            buffer,
            rows,
            room,
        )
    })
    .into_iter();
    let mut all = made.next().expect("a piece at least");
    // Each part's views of the later pieces, to be joined to the first
    // piece's in a task of their own.
    let mut later: Vec<Vec<SpanViews<'_>>> = parts.iter().map(|_| Vec::new()).collect();
    let mut errors = vec![all.errors];
    for p in made {
        for (l, w) in later.iter_mut().zip(p.views) {
            l.push(w);
        }
        all.valid.append(p.valid);
        all.kind_keys.extend_from_slice(&p.kind_keys);
        all.kind_valid.append(p.kind_valid);
        all.ports.extend_from_slice(&p.ports);
        all.port_valid.append(p.port_valid);
        errors.push(p.errors);
    }
    let nulls = refs.nulls();
    let error_field = schema
        .columns
        .iter()
        .zip(fields.iter())
        .find_map(|(c, f)| matches!(c, Column::Error(_)).then_some(f));
    // The part columns (each a copy of the later pieces' views after the
    // first's: some 16 bytes a row and part) on the cores at once, beside
    // the error column.
    let whole: Vec<_> = all.views.into_iter().zip(later).collect();
    let (views, mut error) = crate::both(
        || {
            crate::each_of(whole, |(mut v, later)| {
                for w in later {
                    v.append(w);
                }
                v.finish_under(nulls)
            })
        },
        || error_field.map(|f| Errors::finish(errors, n, f)),
    );
    let valid: ArrayRef = Arc::new(BooleanArray::new(all.valid.finish(), nulls.cloned()));
    let under = |bits: Bits| NullBuffer::union(bits.nulls().as_ref(), nulls);
    let kind = urilex_io::columnar::dictionary(
        &kinds,
        arrow_array::Int16Array::new(all.kind_keys.into(), under(all.kind_valid)),
    );
    let port: ArrayRef = Arc::new(arrow_array::UInt16Array::new(
        all.ports.into(),
        under(all.port_valid),
    ));
    let mut views = views.into_iter();
    schema
        .columns
        .iter()
        .zip(fields.iter())
        .map(|(c, f)| match c {
            Column::Valid(_) => valid.clone(),
            Column::Kind(_) => kind.clone(),
            Column::PortNumber(_) => port.clone(),
            Column::Error(_) => error
                .take()
                .unwrap_or_else(|| arrow_array::new_null_array(f.data_type(), n)),
            _ => views.next().expect("a view column per part"),
        })
        .collect()
}

/// One piece of [`parse_columns`]' rows, its columns as they are made:
/// each part's views, the verdicts' bits, the host kinds' keys, the
/// ports, and the invalid rows with their errors.
struct Piece<'b> {
    views: Vec<SpanViews<'b>>,
    valid: Bits,
    kind_keys: Vec<i16>,
    kind_valid: Bits,
    ports: Vec<u16>,
    port_valid: Bits,
    errors: Errors,
}

/// Rows `rows` of [`parse_columns`], a block of rows at a time (the
/// block's bytes and records stay in the cache while its columns are
/// made) and column by column within a block: each part views of
/// `buffer` in a loop of its own ([`SpanViews::extend`]), then `valid` a
/// bitmap, `host_kind` the dictionary's keys and the invalid rows in one
/// pass, `port_number` read from the port's spans; `error` built as the
/// log pipeline's rows are, for the invalid values alone. The vectors
/// have room for `room` rows.
#[allow(clippy::too_many_arguments)]
fn parse_piece<'b>(
    refs: &Refs<'_>,
    parser: &Parser,
    profile: Profile,
    parts: &[Component],
    kind_key: &[i16],
    buffer: &'b arrow_buffer::Buffer,
    rows: std::ops::Range<usize>,
    room: usize,
) -> Piece<'b> {
    let mut known = SpanViews::new(buffer, 0);
    let mut p = Piece {
        views: parts.iter().map(|_| SpanViews::new(buffer, room)).collect(),
        valid: Bits::new(room),
        kind_keys: Vec::with_capacity(room),
        kind_valid: Bits::new(room),
        ports: Vec::with_capacity(room),
        port_valid: Bits::new(room),
        errors: Errors::new(profile),
    };
    crate::in_blocks_over(refs, parser, None, rows, |batch, rows| {
        // The block's bytes are checked ASCII once, for every column.
        known.check_ascii(refs.start(rows.start)..refs.start(rows.end));
        for (v, &c) in p.views.iter_mut().zip(parts) {
            v.know_as(&known);
            v.extend(rows.len(), (batch, c));
        }
        for (i, e) in rows.clone().zip(batch.entries()) {
            let ok = e.is_valid();
            p.valid.push(ok);
            let key = e.host_kind().filter(|_| ok);
            p.kind_keys.push(key.map_or(0, |k| kind_key[k as usize]));
            p.kind_valid.push(key.is_some());
            if !ok && !refs.is_null(i) {
                p.errors.push(refs, batch, i - rows.start, i);
            }
        }
        let values = refs.values();
        batch.for_each_span(Component::Port, |s| {
            let port = s.and_then(|(at, len)| urilex::port_number(&values[at..at + len]));
            p.ports.push(port.unwrap_or(0));
            p.port_valid.push(port.is_some());
        });
    });
    p
}

/// The error column of [`parse_columns`]: the errors of its invalid rows,
/// pushed with their rows as each block is parsed; nulls elsewhere, and
/// all nulls when no value is invalid.
struct Errors {
    profile: Profile,
    /// The error column's schema, made at the first error (a column of
    /// valid references needs none).
    schema: Option<Schema>,
    errors: urilex_io::columnar::SparseErrors,
}

impl Errors {
    fn new(profile: Profile) -> Errors {
        Errors {
            profile,
            schema: None,
            errors: urilex_io::columnar::SparseErrors::new(),
        }
    }

    /// The error of the batch's entry `i` (a value of `refs`), row `row`
    /// of the column.
    fn push(&mut self, refs: &Refs<'_>, batch: &Batch, i: usize, row: usize) {
        let profile = self.profile;
        let schema = self.schema.get_or_insert_with(|| {
            Schema::references_keeping(profile, Syntax::Reference, |c| {
                matches!(c, Column::Error(_))
            })
        });
        let errors = &mut self.errors;
        schema.reference_cells(Some((batch, refs.values(), i)), |_, c| {
            if let urilex_io::model::Cell::Error(e) = c {
                errors.push_at(row, &e);
            }
        });
    }

    /// The column of `n` rows from the errors of each piece in order
    /// (each piece's rows after the one's before).
    fn finish(pieces: Vec<Errors>, n: usize, field: &Field) -> ArrayRef {
        let mut all = urilex_io::columnar::SparseErrors::new();
        for p in pieces {
            all.append(p.errors);
        }
        match all.is_empty() {
            true => null_errors(field, n),
            false => all.finish(n),
        }
    }
}

/// Rows of an all-null error column kept for the next calls: its
/// children's zeroed buffers are some 26 bytes a row, which a call over
/// valid references would otherwise allocate and clear each time.
const KEPT_NULL_ROWS: usize = 1 << 16;

/// An error column of `n` null rows: a slice of one made before when it
/// is long enough (see [`KEPT_NULL_ROWS`]).
fn null_errors(field: &Field, n: usize) -> ArrayRef {
    static KEPT: std::sync::Mutex<Option<ArrayRef>> = std::sync::Mutex::new(None);
    if n > KEPT_NULL_ROWS {
        return arrow_array::new_null_array(field.data_type(), n);
    }
    let mut kept = KEPT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let whole = match &*kept {
        Some(a) if a.data_type() == field.data_type() => a.clone(),
        _ => {
            let a = arrow_array::new_null_array(field.data_type(), KEPT_NULL_ROWS);
            *kept = Some(a.clone());
            a
        }
    };
    whole.slice(0, n)
}

/// The raw value of the first parameter named `key(i)` in each value's
/// query (`''` for a key without `=`; null when there is none).
pub fn query_param<'k>(
    refs: &Refs<'_>,
    batch: &Batch,
    key: impl Fn(usize) -> Option<&'k str>,
) -> ArrayRef {
    let mut out = Views::new(refs.len());
    for i in 0..refs.len() {
        let found = key(i).and_then(|k| {
            let q = part_text(refs, batch, i, Component::Query)?;
            let p = urilex::query::params(q).find(|p| p.key == k)?;
            let at = span(refs, batch, i, Component::Query)?.start;
            Some(p.value.map(|v| {
                let r = offset_in(q, v);
                at + r.start..at + r.end
            }))
        });
        match found {
            Some(Some(r)) => out.part(refs, i, r),
            Some(None) => out.text(""),
            None => out.null(),
        }
    }
    out.finish()
}

/// Every value's query parameters, raw, as a list of key/value structs
/// ([`params_type`]).
pub fn query_params(refs: &Refs<'_>, batch: &Batch) -> ArrayRef {
    let mut keys = Views::new(refs.len());
    let mut values = Views::new(refs.len());
    let mut offsets = Vec::with_capacity(refs.len() + 1);
    offsets.push(0i32);
    let mut present = BooleanBufferBuilder::new(refs.len());
    let mut n = 0i32;
    for i in 0..refs.len() {
        let ok = !refs.is_null(i) && batch.is_valid(i);
        present.append(ok);
        if let (true, Some(q)) = (ok, part_text(refs, batch, i, Component::Query)) {
            let at = span(refs, batch, i, Component::Query).map_or(0, |r| r.start);
            for p in urilex::query::params(q) {
                let k = offset_in(q, p.key);
                keys.part(refs, i, at + k.start..at + k.end);
                match p.value {
                    Some(v) => {
                        let r = offset_in(q, v);
                        values.part(refs, i, at + r.start..at + r.end);
                    }
                    None => values.null(),
                }
                n += 1;
            }
        }
        offsets.push(n);
    }
    list_of_structs(
        params_type(),
        vec![keys.finish(), values.finish()],
        offsets,
        Some(NullBuffer::new(present.finish())),
    )
}

/// A list of structs of type `t` (a `List(Struct(..))`) from the
/// structs' fields, the lists' offsets into them, and the lists' nulls.
fn list_of_structs(
    t: DataType,
    children: Vec<ArrayRef>,
    offsets: Vec<i32>,
    nulls: Option<NullBuffer>,
) -> ArrayRef {
    let DataType::List(item) = t else {
        unreachable!("a list")
    };
    let DataType::Struct(fields) = item.data_type().clone() else {
        unreachable!("of structs")
    };
    let structs = StructArray::new(fields, children, None);
    Arc::new(ListArray::new(
        item,
        OffsetBuffer::new(offsets.into()),
        Arc::new(structs),
        nulls,
    ))
}

/// Segment `n(i)` of each value's path (from 1; negative from the end).
pub fn path_segment(refs: &Refs<'_>, batch: &Batch, n: impl Fn(usize) -> Option<i64>) -> ArrayRef {
    let mut out = Views::new(refs.len());
    for i in 0..refs.len() {
        let r = n(i).and_then(|n| {
            let n = i32::try_from(n).ok()?;
            let path = part_text(refs, batch, i, Component::Path)?;
            let seg = urilex::template::path_segment(path, n)?;
            let at = span(refs, batch, i, Component::Path)?.start;
            let r = offset_in(path, seg);
            Some(at + r.start..at + r.end)
        });
        match r {
            Some(r) => out.part(refs, i, r),
            None => out.null(),
        }
    }
    out.finish()
}

/// Each host's registrable domain (`registrable`) or public suffix, by
/// the Public Suffix List; null for hosts that are no domain name.
pub fn domain(refs: &Refs<'_>, batch: &Batch, registrable: bool) -> ArrayRef {
    let mut out = StringBuilder::with_capacity(refs.len(), refs.len() * 12);
    let mut scratch = Vec::new();
    for i in 0..refs.len() {
        let d = (!refs.is_null(i) && batch.host_kind(i) == Some(HostKind::RegName))
            .then(|| part_text(refs, batch, i, Component::Host))
            .flatten()
            .filter(|host| urilex::domain::lookup_name(host, &mut scratch))
            .and_then(|_| urilex::domain::of_name(&scratch, urilex::domain::Section::All))
            .and_then(|d| {
                if registrable {
                    d.registrable()
                } else {
                    Some(d.suffix())
                }
            });
        match d.and_then(|d| std::str::from_utf8(d).ok()) {
            Some(d) => out.append_value(d),
            None => out.append_null(),
        }
    }
    Arc::new(out.finish())
}

/// How [`normalize`] normalizes.
enum Mode {
    Syntax(urilex::NormalizeOptions),
    Dedup(Box<(urilex::edit::Dedup, urilex::edit::Editor)>),
}

/// Every value normalized by `mode`: `syntax` (RFC 3986 6.2.2),
/// `scheme` (and 6.2.3), `dedup` (and the query sorted, no fragment,
/// no parameter stripped: `urilex normalize --dedup`).
pub fn normalize(refs: &Refs<'_>, batch: &Batch, mode: &str) -> Result<ArrayRef> {
    let mut mode = match mode {
        "syntax" => Mode::Syntax(urilex::NormalizeOptions::new()),
        "scheme" => Mode::Syntax(urilex::NormalizeOptions::new().scheme_based(true)),
        "dedup" => Mode::Dedup(Box::new((
            urilex::edit::Dedup::new(),
            urilex::edit::Editor::new(),
        ))),
        m => {
            return Err(format!(
                "unknown mode '{m}' (syntax: RFC 3986 6.2.2; scheme: and 6.2.3; dedup: and sorted query, no fragment)"
            ))
        }
    };
    let values = std::str::from_utf8(refs.values()).ok();
    let mut out = StringBuilder::with_capacity(refs.len(), refs.values().len());
    let mut text = String::new();
    for i in 0..refs.len() {
        let u = match (refs.is_null(i), values) {
            (false, Some(v)) => batch.get_str(i, v).ok(),
            (false, None) => batch.get(i, refs.values()).ok(),
            _ => None,
        };
        let Some(u) = u else {
            out.append_null();
            continue;
        };
        text.clear();
        let ok = match &mut mode {
            Mode::Syntax(o) => {
                urilex::normalize_into(&u, *o, &mut text);
                true
            }
            Mode::Dedup(d) => {
                let (dedup, editor) = &mut **d;
                dedup.apply(editor, &u, &mut text).is_ok()
            }
        };
        if ok {
            out.append_value(&text);
        } else {
            out.append_null();
        }
    }
    Ok(Arc::new(out.finish()))
}

/// Each value rendered by the template `template(i)` (the CLI's template
/// language, `urilex get`); null where it has no value.
pub fn get<'t>(
    refs: &Refs<'_>,
    batch: &Batch,
    template: impl Fn(usize) -> Option<&'t str>,
) -> Result<ArrayRef> {
    let mut cached: Option<(String, Template)> = None;
    let values = std::str::from_utf8(refs.values()).ok();
    let mut out = StringBuilder::with_capacity(refs.len(), refs.values().len());
    let mut buf = Vec::new();
    for i in 0..refs.len() {
        let Some(t) = template(i) else {
            out.append_null();
            continue;
        };
        if cached.as_ref().is_none_or(|(s, _)| s != t) {
            match Template::parse(t) {
                Ok(p) => cached = Some((t.to_string(), p)),
                Err(e) => return Err(format!("template {t:?}: {e}")),
            }
        }
        let tpl = &cached.as_ref().expect("parsed above").1;
        if refs.is_null(i) {
            out.append_null();
            continue;
        }
        buf.clear();
        let done = if tpl.entry_ready() {
            tpl.render_batch(batch, i, refs.values(), &mut buf).is_ok()
        } else {
            let u = match values {
                Some(v) => batch.get_str(i, v),
                None => batch.get(i, refs.values()),
            };
            u.is_ok_and(|u| tpl.render(&u, &mut buf).is_ok())
        };
        if done {
            out.append_value(String::from_utf8_lossy(&buf));
        } else {
            out.append_null();
        }
    }
    Ok(Arc::new(out.finish()))
}

/// Each URN's NID (`nid`) or NSS (RFC 8141); null for other values.
pub fn urn(refs: &Refs<'_>, nid: bool) -> ArrayRef {
    let mut out = Views::new(refs.len());
    for i in 0..refs.len() {
        let text = refs.text(i);
        let r = (!refs.is_null(i))
            .then(|| urilex::urn::Urn::parse(text).ok())
            .flatten()
            .map(|u| offset_in(text, if nid { u.nid() } else { u.nss() }));
        match r {
            Some(r) => out.part(refs, i, r),
            None => out.null(),
        }
    }
    out.finish()
}

/// The URIs in each value's text, with where each is (byte offsets), as
/// a list of structs ([`extract_type`]).
pub fn extract(refs: &Refs<'_>) -> ArrayRef {
    let mut uris = StringBuilder::new();
    let mut starts = UInt64Builder::new();
    let mut ends = UInt64Builder::new();
    let mut offsets = Vec::with_capacity(refs.len() + 1);
    offsets.push(0i32);
    let mut n = 0i32;
    for i in 0..refs.len() {
        if !refs.is_null(i) {
            for hit in
                urilex::extract::find_iter(refs.value(i), urilex::extract::ExtractOptions::new())
            {
                uris.append_value(&hit.uri);
                starts.append_value(hit.span.start as u64);
                ends.append_value(hit.span.end as u64);
                n += 1;
            }
        }
        offsets.push(n);
    }
    list_of_structs(
        extract_type(),
        vec![
            Arc::new(uris.finish()),
            Arc::new(starts.finish()),
            Arc::new(ends.finish()),
        ],
        offsets,
        refs.nulls().cloned(),
    )
}

/// Part `which(i)` of each value (with `key(i)` for a query's value), as
/// Spark's `parse_url` (whose parts are
/// those of `java.net.URI`, raw: nothing decoded), on RFC 3986's grammar;
/// an invalid reference, an unknown part, or a missing key give null, as
/// Spark's `try_parse_url` does.
pub fn parse_url<'a, K: Fn(usize) -> Option<&'a str>>(
    refs: &Refs<'_>,
    batch: &Batch,
    which: impl Fn(usize) -> Option<&'a str>,
    key: Option<K>,
) -> ArrayRef {
    let mut out = StringBuilder::with_capacity(refs.len(), refs.values().len());
    for i in 0..refs.len() {
        let v = (!refs.is_null(i) && batch.is_valid(i))
            .then(|| {
                let text = refs.value(i);
                let get = |c| span(refs, batch, i, c).map(|r| &text[r]);
                let key = match &key {
                    Some(k) => Some(k(i)?),
                    None => None,
                };
                match (which(i)?, key) {
                    ("QUERY", Some(k)) => spark_query_value(get(Component::Query)?, k.as_bytes()),
                    (_, Some(_)) => None,
                    ("HOST", None) => get(Component::Host).filter(|h| !h.is_empty()),
                    ("PATH", None) => get(Component::Path),
                    ("QUERY", None) => get(Component::Query),
                    ("REF", None) => get(Component::Fragment),
                    ("PROTOCOL", None) => get(Component::Scheme),
                    ("FILE", None) => {
                        let p = span(refs, batch, i, Component::Path)?;
                        let end = span(refs, batch, i, Component::Query).map_or(p.end, |q| q.end);
                        Some(&text[p.start..end])
                    }
                    ("AUTHORITY", None) => get(Component::Authority),
                    ("USERINFO", None) => get(Component::Userinfo),
                    _ => None,
                }
            })
            .flatten();
        match v.and_then(|v| std::str::from_utf8(v).ok()) {
            Some(v) => out.append_value(v),
            None => out.append_null(),
        }
    }
    Arc::new(out.finish())
}

/// Spark's value of `key` in a raw query: the text after the first
/// `key=` that starts the query or follows a `&`, up to the next `&`
/// (Spark's pattern `(&|^)key=([^&]*)`).
fn spark_query_value<'q>(query: &'q [u8], key: &[u8]) -> Option<&'q [u8]> {
    let mut at = 0;
    loop {
        let rest = &query[at..];
        if rest.len() > key.len() && rest.starts_with(key) && rest[key.len()] == b'=' {
            let v = &rest[key.len() + 1..];
            let end = v.iter().position(|&b| b == b'&').unwrap_or(v.len());
            return Some(&v[..end]);
        }
        at += rest.iter().position(|&b| b == b'&')? + 1;
    }
}

/// The type of [`whatwg_differences`]: a list of kind names.
pub fn differences_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, false)))
}

/// Row `i`'s reading both ways (`urilex::whatwg`), from the batch's RFC
/// 3986 reading.
fn differential(refs: &Refs<'_>, batch: &Batch, text: Option<&str>, i: usize) -> Differential {
    let u = match text {
        Some(t) => batch.get_str(i, t).ok(),
        None => batch.get(i, refs.values()).ok(),
    };
    Differential::of(refs.value(i), u.as_ref(), None)
}

/// The host the WHATWG URL Standard reads in each reference: null where
/// it rejects it.
pub fn whatwg_host(refs: &Refs<'_>, batch: &Batch) -> ArrayRef {
    let text = std::str::from_utf8(refs.values()).ok();
    let mut out = StringBuilder::with_capacity(refs.len(), refs.values().len() / 2);
    for i in 0..refs.len() {
        if refs.is_null(i) {
            out.append_null();
            continue;
        }
        match differential(refs, batch, text, i).reading {
            Some(r) => out.append_value(r.host()),
            None => out.append_null(),
        }
    }
    Arc::new(out.finish())
}

/// How the RFC 3986 and WHATWG readings of each reference differ: the
/// kinds' names, empty when they agree.
pub fn whatwg_differences(refs: &Refs<'_>, batch: &Batch) -> ArrayRef {
    let text = std::str::from_utf8(refs.values()).ok();
    let mut out = ListBuilder::new(StringBuilder::new())
        .with_field(Arc::new(Field::new_list_field(DataType::Utf8, false)));
    for i in 0..refs.len() {
        if refs.is_null(i) {
            out.append(false);
            continue;
        }
        for k in differential(refs, batch, text, i).differences {
            out.values().append_value(k.as_str());
        }
        out.append(true);
    }
    Arc::new(out.finish())
}
