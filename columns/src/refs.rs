//! A string column as the batch engine reads it: its values one after
//! another and their offsets (Arrow's layout for `Utf8` and `LargeUtf8`;
//! a `Utf8View` column is gathered into that layout once), its nulls, and
//! where each value's bytes live, so that substrings go out as views of
//! the input's own buffers.

use crate::Result;
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, GenericStringArray, OffsetSizeTrait, StringViewArray};
use arrow_buffer::{Buffer, NullBuffer};
use arrow_schema::DataType;
use std::ops::Range;
use urilex::{Batch, Component, Offset, Parser};

/// Offsets of a column, in its own type.
enum Offsets<'a> {
    I32(&'a [i32]),
    I64(&'a [i64]),
    /// A `Utf8View` column's values, gathered.
    Gathered(Vec<u32>),
}

/// Where a value's bytes are, for a view of them in the output.
enum Origin<'a> {
    /// In `buffer`, at the value's offset (`Utf8`, `LargeUtf8`).
    Buffer(&'a Buffer),
    /// In the view array's data buffers (values over 12 bytes) or inline.
    Views(&'a StringViewArray),
    /// Nowhere: there are no values.
    Empty,
}

/// Whether `t` is a string type a column function reads (`Utf8`,
/// `LargeUtf8`, `Utf8View`).
pub fn is_text(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

/// The values one after another: the column's own buffer, or for a
/// `Utf8View` column their copy, an Arrow buffer of its own so that the
/// results can view it as they view a `Utf8` column's buffer.
enum Values<'a> {
    Borrowed(&'a [u8]),
    Gathered(Buffer),
}

/// One string column, read for the batch engine.
pub struct Refs<'a> {
    /// The values one after another (the column's buffer, or gathered).
    values: Values<'a>,
    offsets: Offsets<'a>,
    nulls: Option<&'a NullBuffer>,
    len: usize,
    origin: Origin<'a>,
}

impl<'a> Refs<'a> {
    /// The column `array` (`Utf8`, `LargeUtf8` or `Utf8View`).
    pub fn new(array: &'a ArrayRef) -> Result<Refs<'a>> {
        if array.is_empty() && is_text(array.data_type()) {
            // No values to read: not even the offsets, which an empty
            // slice imported through the C data interface may give past
            // the end of a values buffer of no bytes.
            return Ok(Refs {
                values: Values::Borrowed(&[]),
                offsets: Offsets::Gathered(vec![0]),
                nulls: None,
                len: 0,
                origin: Origin::Empty,
            });
        }
        match array.data_type() {
            DataType::Utf8 => Ok(Refs::offsets(array.as_string::<i32>(), Offsets::I32)),
            DataType::LargeUtf8 => {
                let a = array.as_string::<i64>();
                let o = a.value_offsets();
                let span = (o[a.len()] - o[0]) as u64;
                if span > u64::from(u32::MAX) {
                    return Err(format!(
                        "a batch of {span} bytes of text: at most 4 GiB are parsed at once (split the column into smaller arrays)"
                    ));
                }
                Ok(Refs::offsets(a, Offsets::I64))
            }
            DataType::Utf8View => {
                let a = array.as_string_view();
                let total: u64 = a.lengths().map(u64::from).sum();
                if total > u64::from(u32::MAX) {
                    return Err(format!(
                        "a batch of {total} bytes of text: at most 4 GiB are parsed at once (split the column into smaller arrays)"
                    ));
                }
                Ok(Refs::views(a))
            }
            t => Err(format!("a column of {t}, not of strings")),
        }
    }

    fn offsets<O: OffsetSizeTrait>(
        a: &'a GenericStringArray<O>,
        wrap: fn(&'a [O]) -> Offsets<'a>,
    ) -> Refs<'a> {
        Refs {
            values: Values::Borrowed(a.values().as_slice()),
            offsets: wrap(a.value_offsets()),
            nulls: a.nulls(),
            len: a.len(),
            origin: Origin::Buffer(a.values()),
        }
    }

    /// A view column: its values gathered into one buffer (one copy, no
    /// allocation per value), which the results' views then point into
    /// (see [`buffer`](Self::buffer)).
    fn views(a: &'a StringViewArray) -> Refs<'a> {
        let total: usize = a.lengths().map(|l| l as usize).sum();
        // At most u32::MAX bytes (checked by `new`): u32 offsets.
        let mut values = Vec::with_capacity(total);
        let mut offsets = Vec::with_capacity(a.len() + 1);
        offsets.push(0u32);
        for i in 0..a.len() {
            if a.is_valid(i) {
                values.extend_from_slice(a.value(i).as_bytes());
            }
            offsets.push(values.len() as u32);
        }
        Refs {
            values: Values::Gathered(Buffer::from_vec(values)),
            offsets: Offsets::Gathered(offsets),
            nulls: a.nulls(),
            len: a.len(),
            origin: Origin::Views(a),
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values one after another: the buffer the batch parsed.
    pub fn values(&self) -> &[u8] {
        match &self.values {
            Values::Borrowed(v) => v,
            Values::Gathered(b) => b.as_slice(),
        }
    }

    /// The column's nulls.
    pub fn nulls(&self) -> Option<&'a NullBuffer> {
        self.nulls
    }

    /// Whether value `i` is null.
    #[inline]
    pub fn is_null(&self, i: usize) -> bool {
        self.nulls.is_some_and(|n| n.is_null(i))
    }

    /// Where value `i` starts in [`values`](Self::values).
    #[inline]
    pub fn start(&self, i: usize) -> usize {
        match &self.offsets {
            Offsets::I32(o) => o[i].index(),
            Offsets::I64(o) => o[i].index(),
            Offsets::Gathered(o) => o[i] as usize,
        }
    }

    /// Value `i`'s bytes.
    #[inline]
    pub fn value(&self, i: usize) -> &[u8] {
        let end = self.start(i + 1);
        &self.values()[self.start(i)..end]
    }

    /// Value `i` as text (a column of strings holds UTF-8).
    #[inline]
    pub fn text(&self, i: usize) -> &str {
        std::str::from_utf8(self.value(i)).unwrap_or_default()
    }

    /// Every value parsed into `batch` by the batch engine, over the
    /// values and offsets at once.
    pub fn parse(&self, parser: &Parser, batch: &mut Batch) {
        self.parse_keeping(parser, batch, None);
    }

    /// [`parse`](Self::parse), for a caller that reads part `part` alone
    /// when one is given (`Batch::parse_offsets_keeping`: the others'
    /// spans may be left out, which saves the engine their saves).
    pub fn parse_keeping(&self, parser: &Parser, batch: &mut Batch, part: Option<Component>) {
        self.parse_rows_keeping(parser, batch, part, 0..self.len);
    }

    /// [`parse_keeping`](Self::parse_keeping) of rows `rows` alone: the
    /// batch's entries are those rows', in order, their starts still
    /// places in [`values`](Self::values).
    pub fn parse_rows_keeping(
        &self,
        parser: &Parser,
        batch: &mut Batch,
        part: Option<Component>,
        rows: Range<usize>,
    ) {
        fn go<O: Offset>(b: &mut Batch, p: &Parser, v: &[u8], o: &[O], part: Option<Component>) {
            match part {
                Some(c) => b.parse_offsets_keeping(p, v, o, c),
                None => b.parse_offsets(p, v, o),
            }
        }
        let o = rows.start..rows.end + 1;
        match &self.offsets {
            Offsets::I32(x) => go(batch, parser, self.values(), &x[o], part),
            Offsets::I64(x) => go(batch, parser, self.values(), &x[o], part),
            Offsets::Gathered(x) => go(batch, parser, self.values(), &x[o], part),
        }
    }

    /// Whether each value is a valid reference, in order.
    pub fn validate(&self, parser: &Parser, each: impl FnMut(bool)) {
        match &self.offsets {
            Offsets::I32(o) => urilex::validate_offsets(parser, self.values(), o, each),
            Offsets::I64(o) => urilex::validate_offsets(parser, self.values(), o, each),
            Offsets::Gathered(o) => urilex::validate_offsets(parser, self.values(), o, each),
        }
    }

    /// The one buffer every value lies in (a `Utf8` or `LargeUtf8`
    /// column's, or a `Utf8View` column's values gathered), when a view's
    /// 32-bit offset reaches all of it: value `i` starts at
    /// [`start(i)`](Self::start) there.
    pub fn buffer(&self) -> Option<&Buffer> {
        let b = match (&self.origin, &self.values) {
            (Origin::Buffer(b), _) => *b,
            (_, Values::Gathered(b)) => b,
            _ => return None,
        };
        (b.len() <= u32::MAX as usize).then_some(b)
    }

    /// Where bytes `range` of value `i` lie in the input's buffers, for a
    /// view: the buffer and the offset there, or `None` when they are
    /// inline in a view (then they are copied; they are 12 bytes at most).
    #[inline]
    pub fn source(&self, i: usize, range: &Range<usize>) -> Option<(&'a Buffer, usize)> {
        match self.origin {
            Origin::Empty => None,
            Origin::Buffer(b) => Some((b, self.start(i) + range.start)),
            Origin::Views(a) => {
                let view = a.views()[i];
                let len = view as u32;
                if len <= 12 {
                    return None;
                }
                let buffer = (view >> 64) as u32 as usize;
                let offset = (view >> 96) as u32 as usize;
                Some((&a.data_buffers()[buffer], offset + range.start))
            }
        }
    }
}
