//! Parquet column chunks of string columns, encoded here straight from an
//! Arrow array's offsets and bytes (the `parquet` crate's Arrow writer
//! copies each value into a `ByteArray` first, interns every row of a
//! dictionary column through a general hash map, makes a zstd context per
//! column chunk and compares every value for the statistics).
//!
//! A chunk is written as the crate's writer with its default properties
//! would write it, in format version 1: data pages (v1) of at most
//! [`PAGE_ROWS`] rows or about [`PAGE_BYTES`] of values, definition levels
//! RLE/bit-packed, values PLAIN or, for a dictionary column, keys into a
//! PLAIN dictionary page (RLE_DICTIONARY); every page compressed by one
//! zstd context per thread; statistics per chunk (minimum, maximum, nulls:
//! a dictionary's from its distinct values only) truncated to
//! [`TRUNCATE`] bytes as the crate truncates them; an offset index. A
//! dictionary that would pass [`DICTIONARY_BYTES`], or whose lookups run
//! long (values made to collide), gives the chunk plain pages instead,
//! so a chunk costs linear time in its bytes whatever they are.

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_buffer::NullBuffer;
use arrow_schema::DataType;
use bytes::Bytes;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::{ColumnChunkMetaData, OffsetIndexBuilder};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use std::cell::RefCell;
use std::hash::BuildHasher;
use std::ops::Range;

/// Most rows in a data page (the crate's default limit).
pub const PAGE_ROWS: usize = 20_000;
/// A data page ends once its values reach this many bytes (the crate's
/// default page size).
pub const PAGE_BYTES: usize = 1 << 20;
/// A dictionary of more bytes than this (the crate's default dictionary
/// page limit) is not made: the chunk's pages are plain.
pub const DICTIONARY_BYTES: usize = 1 << 20;
/// Statistics keep at most this many bytes of a minimum or maximum (the
/// crate's default).
pub const TRUNCATE: usize = 64;
/// Slots a dictionary lookup may probe before the chunk is written plain
/// instead (only values made to collide get near it).
const MAX_PROBE: usize = 64;

/// A string or binary column's values: `offsets` into `values`, and
/// which rows are null.
struct Strings<'a> {
    offsets: &'a [i32],
    values: &'a [u8],
    nulls: Option<&'a NullBuffer>,
    utf8: bool,
}

impl<'a> Strings<'a> {
    /// The values of `array` when it is `Utf8` or `Binary` (32-bit offsets).
    fn of(array: &'a ArrayRef) -> Option<Strings<'a>> {
        let (offsets, values, utf8) = match array.data_type() {
            DataType::Utf8 => {
                let a = array.as_string::<i32>();
                (a.value_offsets(), a.values().as_slice(), true)
            }
            DataType::Binary => {
                let a = array.as_binary::<i32>();
                (a.value_offsets(), a.values().as_slice(), false)
            }
            _ => return None,
        };
        Some(Strings {
            offsets,
            values,
            nulls: null_rows(array),
            utf8,
        })
    }

    /// Rows.
    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    #[inline(always)]
    fn valid(&self, r: usize) -> bool {
        self.nulls.is_none_or(|n| n.is_valid(r))
    }

    /// Row `r`'s value (whether or not it is null).
    #[inline(always)]
    fn value(&self, r: usize) -> &'a [u8] {
        &self.values[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }

    fn null_count(&self, rows: Range<usize>) -> usize {
        nulls_in(self.nulls, rows)
    }
}

/// An array's null rows, when it has any (the arrays here have no
/// logical nulls other than their null buffers).
fn null_rows(array: &ArrayRef) -> Option<&NullBuffer> {
    array.nulls().filter(|n| n.null_count() > 0)
}

/// The null rows among `rows`.
fn nulls_in(nulls: Option<&NullBuffer>, rows: Range<usize>) -> usize {
    match nulls {
        None => 0,
        Some(n) if rows == (0..n.len()) => n.null_count(),
        Some(n) => rows.len() - n.inner().slice(rows.start, rows.len()).count_set_bits(),
    }
}

/// A column chunk encoded here: its bytes (pages from offset 0) and what
/// the row group needs to append it.
pub struct OwnChunk {
    /// The pages.
    pub data: Bytes,
    /// Their metadata, offsets from the start of `data`.
    pub close: ColumnCloseResult,
}

/// A column chunk encoded here whose pages are not yet compressed
/// ([`encode_later`]): [`complete`](Self::complete) compresses and writes
/// them, on whichever thread has the time (with one worker, the thread
/// that writes the file, beside the worker).
pub struct PendingChunk {
    descr: ColumnDescPtr,
    level: ZstdLevel,
    pages: Vec<PageIn>,
    rows: usize,
    statistics: Statistics,
    encodings: Vec<Encoding>,
}

/// A page as encoded, before compression.
enum PageIn {
    /// A dictionary page and its number of values.
    Dictionary(Vec<u8>, usize),
    /// A data page, its rows and its values' encoding.
    Data(Vec<u8>, Range<usize>, Encoding),
}

impl PendingChunk {
    /// The chunk with its pages compressed and written, as [`encode`]
    /// gives it.
    pub fn complete(self) -> Result<OwnChunk> {
        let mut w = Writer::new(self.descr, self.level);
        for p in self.pages {
            match p {
                PageIn::Dictionary(page, values) => w.dictionary(&page, values)?,
                PageIn::Data(page, rows, encoding) => w.data(&page, rows, encoding)?,
            }
        }
        w.finish(self.rows, self.statistics, &self.encodings)
    }
}

/// A chunk's pages as they are encoded, kept for [`PendingChunk::complete`].
struct Pages {
    descr: ColumnDescPtr,
    level: ZstdLevel,
    pages: Vec<PageIn>,
}

impl Pages {
    fn optional(&self) -> bool {
        self.descr.max_def_level() > 0
    }

    fn dictionary(&mut self, page: Vec<u8>, values: usize) {
        self.pages.push(PageIn::Dictionary(page, values));
    }

    fn data(&mut self, page: Vec<u8>, rows: Range<usize>, encoding: Encoding) {
        self.pages.push(PageIn::Data(page, rows, encoding));
    }

    fn finish(self, rows: usize, statistics: Statistics, encodings: &[Encoding]) -> PendingChunk {
        PendingChunk {
            descr: self.descr,
            level: self.level,
            pages: self.pages,
            rows,
            statistics,
            encodings: encodings.to_vec(),
        }
    }
}

thread_local! {
    /// The thread's zstd context and its level (a context costs more to
    /// make than a small page costs to compress).
    static ZSTD: RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
        const { RefCell::new(None) };
}

fn compress(level: i32, page: &[u8]) -> Result<Vec<u8>> {
    ZSTD.with(|z| {
        let mut z = z.borrow_mut();
        if z.as_ref().map(|(l, _)| *l) != Some(level) {
            let c =
                zstd::bulk::Compressor::new(level).map_err(|e| ParquetError::External(e.into()))?;
            *z = Some((level, c));
        }
        let (_, c) = z.as_mut().expect("made above");
        c.compress(page)
            .map_err(|e| ParquetError::External(e.into()))
    })
}

/// Appends `v` as a ULEB128 varint (the RLE/bit-packed hybrid's run
/// headers).
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends the definition levels of `rows` (1 valid, 0 null), as a data
/// page v1 has them: their length in 4 bytes, then one RLE run when no row
/// is null, else one bit-packed run (the validity bits themselves).
fn levels(out: &mut Vec<u8>, valid: Option<&NullBuffer>, rows: Range<usize>, nulls: usize) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    let n = rows.len();
    match valid {
        Some(v) if nulls > 0 => {
            varint(out, ((n.div_ceil(8) as u64) << 1) | 1);
            // The validity bits from the page's first row on, moved to a
            // byte boundary where they are not on one.
            let bits = v.inner().slice(rows.start, n).sliced();
            let bytes = &bits.as_slice()[..n.div_ceil(8)];
            out.extend_from_slice(bytes);
            if n & 7 != 0 {
                // The last byte's bits past the page's rows are zeros.
                *out.last_mut().expect("a byte") &= (1u8 << (n & 7)) - 1;
            }
        }
        _ => {
            varint(out, (n as u64) << 1);
            out.push(1);
        }
    }
    let len = (out.len() - at - 4) as u32;
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

/// Appends `keys` bit-packed, `width` bits each, as one bit-packed run of
/// the hybrid encoding (groups of eight, the last padded with zeros).
fn bitpack(out: &mut Vec<u8>, keys: &[u32], width: u32) {
    if keys.is_empty() {
        return;
    }
    let groups = keys.len().div_ceil(8);
    varint(out, ((groups as u64) << 1) | 1);
    let mut acc = 0u64;
    let mut bits = 0u32;
    for k in 0..groups * 8 {
        acc |= u64::from(keys.get(k).copied().unwrap_or(0)) << bits;
        bits += width;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    debug_assert_eq!(bits, 0, "eight values of any width are whole bytes");
}

/// A plain value: its length in 4 bytes, then its bytes.
#[inline(always)]
fn plain(out: &mut Vec<u8>, v: &[u8]) {
    out.extend_from_slice(&(v.len() as u32).to_le_bytes());
    out.extend_from_slice(v);
}

/// The least and greatest values seen (bytewise, as Parquet orders
/// strings), compared by their first eight bytes first.
#[derive(Default)]
struct MinMax<'a> {
    min: Option<(u64, &'a [u8])>,
    max: Option<(u64, &'a [u8])>,
}

#[inline(always)]
fn prefix(v: &[u8]) -> u64 {
    if let Some(w) = v.first_chunk::<8>() {
        return u64::from_be_bytes(*w);
    }
    let mut p = [0u8; 8];
    let n = v.len().min(8);
    p[..n].copy_from_slice(&v[..n]);
    u64::from_be_bytes(p)
}

impl<'a> MinMax<'a> {
    #[inline(always)]
    fn see(&mut self, v: &'a [u8]) {
        let p = prefix(v);
        match self.min {
            Some((q, m)) if p > q || (p == q && v >= m) => {}
            _ => self.min = Some((p, v)),
        }
        match self.max {
            Some((q, m)) if p < q || (p == q && v <= m) => {}
            _ => self.max = Some((p, v)),
        }
    }

    /// The chunk's statistics: nulls, and the bounds truncated as the
    /// crate truncates them (a shortened minimum is a prefix; a shortened
    /// maximum has its last byte that can grow grown, or is left out).
    fn statistics(&self, nulls: usize, utf8: bool) -> Statistics {
        let cut = |v: &[u8]| -> usize {
            let mut n = TRUNCATE.min(v.len());
            // A string is cut where a character starts.
            while utf8 && n > 0 && n < v.len() && (v[n] & 0xC0) == 0x80 {
                n -= 1;
            }
            n
        };
        let min = self.min.map(|(_, v)| {
            let n = cut(v);
            (ByteArray::from(v[..n].to_vec()), n == v.len())
        });
        let max = self.max.and_then(|(_, v)| {
            let n = cut(v);
            if n == v.len() {
                return Some((ByteArray::from(v.to_vec()), true));
            }
            // The last byte that can grow and stay a string (ASCII below
            // DEL; any byte below 0xFF in binary), grown, the rest cut.
            let top = if utf8 { 0x7E } else { 0xFE };
            let k = v[..n].iter().rposition(|&b| b <= top)?;
            let mut m = v[..=k].to_vec();
            m[k] += 1;
            Some((ByteArray::from(m), false))
        });
        let (min, min_exact) = min.map_or((None, false), |(v, e)| (Some(v), e));
        let (max, max_exact) = max.map_or((None, false), |(v, e)| (Some(v), e));
        Statistics::ByteArray(
            ValueStatistics::new(min, max, None, Some(nulls as u64), false)
                .with_min_is_exact(min_exact)
                .with_max_is_exact(max_exact),
        )
    }
}

/// A dictionary of a chunk's distinct values: open addressing, a slot
/// the high half of a value's hash (seeded per process) and its key + 1,
/// so that a probe reads a value's bytes only when the hashes agree.
struct Dictionary<'a> {
    slots: Vec<u64>,
    values: Vec<&'a [u8]>,
    bytes: usize,
    seed: u64,
}

const MUL: u64 = 0x9E37_79B9_7F4A_7C15;

impl<'a> Dictionary<'a> {
    fn new() -> Dictionary<'a> {
        Dictionary {
            slots: vec![0; 1024],
            values: Vec::new(),
            bytes: 0,
            seed: seed(),
        }
    }

    /// The high 32 bits of `v`'s hash.
    #[inline(always)]
    fn hash(&self, v: &[u8]) -> u32 {
        let mut h = self.seed ^ (v.len() as u64).wrapping_mul(MUL);
        let mut words = v.chunks_exact(8);
        for w in &mut words {
            let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
            h = (h ^ w).wrapping_mul(MUL).rotate_left(27);
        }
        if !words.remainder().is_empty() {
            // The last bytes as one word read from the value's end (the
            // value's length is in the hash already), not copied out.
            h = (h ^ tail(v)).wrapping_mul(MUL).rotate_left(27);
        }
        ((h ^ (h >> 29)).wrapping_mul(MUL) >> 32) as u32
    }

    /// The key of `v`, added when new; `None` when the lookup probed too
    /// long.
    #[inline(always)]
    fn key(&mut self, v: &'a [u8]) -> Option<u32> {
        let h = self.hash(v);
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        for _ in 0..MAX_PROBE {
            let s = self.slots[i];
            if s == 0 {
                return Some(self.add(v, h, i));
            }
            if (s >> 32) as u32 == h {
                let k = (s as u32 - 1) as usize;
                if same(self.values[k], v) {
                    return Some(k as u32);
                }
            }
            i = (i + 1) & mask;
        }
        None
    }

    fn add(&mut self, v: &'a [u8], h: u32, slot: usize) -> u32 {
        let k = self.values.len() as u32;
        self.values.push(v);
        self.bytes += 4 + v.len();
        self.slots[slot] = (u64::from(h) << 32) | u64::from(k + 1);
        if self.values.len() * 2 > self.slots.len() {
            self.grow();
        }
        k
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let mut slots = vec![0u64; n];
        for &s in self.slots.iter().filter(|&&s| s != 0) {
            let mut i = (s >> 32) as usize & (n - 1);
            while slots[i] != 0 {
                i = (i + 1) & (n - 1);
            }
            slots[i] = s;
        }
        self.slots = slots;
    }
}

/// The last eight bytes of `v` as a word (its bytes, zeros above them,
/// when it has fewer), read without a copy routine's call.
#[inline(always)]
fn tail(v: &[u8]) -> u64 {
    if let Some(w) = v.last_chunk::<8>() {
        return u64::from_le_bytes(*w);
    }
    if let (Some(a), Some(b)) = (v.first_chunk::<4>(), v.last_chunk::<4>()) {
        // Four to seven bytes: two words of four that overlap.
        let (a, b) = (u32::from_le_bytes(*a), u32::from_le_bytes(*b));
        return u64::from(a) | u64::from(b) << (8 * (v.len() - 4));
    }
    v.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b))
}

/// Whether `a` and `b` are the same bytes: values of 16 bytes or less
/// (most hosts, schemes and ports) compared as two words that overlap,
/// without a call.
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match (a.first_chunk::<8>(), b.first_chunk::<8>()) {
        (Some(x), Some(y)) if a.len() <= 16 => {
            let (p, q) = (a.last_chunk::<8>(), b.last_chunk::<8>());
            x == y && p == q
        }
        (Some(_), Some(_)) => a == b,
        _ => tail(a) == tail(b),
    }
}

/// A seed for this process's dictionary hashes, from std's random keys.
fn seed() -> u64 {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64) | 1)
}

/// Whether [`encode`] takes columns of type `t`: strings and binary of
/// 32-bit offsets, and strings dictionary-encoded with 16-bit keys.
pub fn encodes(t: &DataType) -> bool {
    match t {
        DataType::Utf8 | DataType::Binary => true,
        DataType::Dictionary(k, v) => **k == DataType::Int16 && **v == DataType::Utf8,
        _ => false,
    }
}

/// Encodes column `descr`'s values `array` (one leaf at the top level,
/// optional or required, of a type [`encodes`] takes) as a column chunk
/// compressed with zstd at `level`: an Arrow dictionary's keys and values
/// as they are; strings with a dictionary when `dictionary` is set and
/// the values allow. `array` has a row at least.
pub fn encode(
    descr: ColumnDescPtr,
    array: &ArrayRef,
    dictionary: bool,
    level: ZstdLevel,
) -> Result<OwnChunk> {
    encode_later(descr, array, dictionary, level)?.complete()
}

/// [`encode`] without compressing the pages: the chunk is finished by
/// [`PendingChunk::complete`] (the same bytes).
pub fn encode_later(
    descr: ColumnDescPtr,
    array: &ArrayRef,
    dictionary: bool,
    level: ZstdLevel,
) -> Result<PendingChunk> {
    if array.is_empty() {
        return Err(ParquetError::General("a column chunk of no rows".into()));
    }
    if descr.max_rep_level() != 0 || descr.max_def_level() > 1 {
        return Err(ParquetError::General(format!(
            "{} is not a top-level column",
            descr.path()
        )));
    }
    let nulls = null_rows(array);
    if descr.max_def_level() == 0 && nulls.is_some() {
        return Err(ParquetError::General(format!(
            "nulls in required column {}",
            descr.path()
        )));
    }
    let mut w = Pages {
        descr,
        level,
        pages: Vec::new(),
    };
    if let DataType::Dictionary(..) = array.data_type() {
        let d = array.as_dictionary::<arrow_array::types::Int16Type>();
        let values = d.values().as_string::<i32>();
        if values.null_count() > 0 {
            return Err(ParquetError::General(
                "a dictionary with null values".into(),
            ));
        }
        let values: Vec<&[u8]> = values.iter().map(|v| v.unwrap_or("").as_bytes()).collect();
        let mut used = vec![false; values.len()];
        let mut keys = Vec::with_capacity(d.len());
        for (r, &k) in d.keys().values().iter().enumerate() {
            if nulls.is_none_or(|n| n.is_valid(r)) {
                let k = usize::try_from(k)
                    .ok()
                    .filter(|&k| k < values.len())
                    .ok_or_else(|| ParquetError::General(format!("dictionary key {k}")))?;
                used[k] = true;
                keys.push(k as u32);
            }
        }
        let mut mm = MinMax::default();
        for (v, _) in values.iter().zip(&used).filter(|(_, u)| **u) {
            mm.see(v);
        }
        return Ok(dictionary_pages(
            w,
            &values,
            &keys,
            nulls,
            d.len(),
            mm,
            true,
        ));
    }
    let s = Strings::of(array)
        .ok_or_else(|| ParquetError::General(format!("no pages for {} here", array.data_type())))?;
    if let Some((dict, keys)) = dictionary.then(|| self::keys(&s)).flatten() {
        let mut mm = MinMax::default();
        for v in &dict.values {
            mm.see(v);
        }
        return Ok(dictionary_pages(
            w,
            &dict.values,
            &keys,
            s.nulls,
            s.len(),
            mm,
            s.utf8,
        ));
    }
    let mut mm = MinMax::default();
    let mut start = 0;
    while start < s.len() {
        // The page's rows: up to PAGE_ROWS, ending once its values reach
        // PAGE_BYTES.
        let last = (start + PAGE_ROWS).min(s.len());
        let from = s.offsets[start] as usize;
        let mut end = start + 1;
        while end < last && (s.offsets[end] as usize) - from < PAGE_BYTES {
            end += 1;
        }
        let nulls = s.null_count(start..end);
        let bytes = s.offsets[end] as usize - from;
        let mut page = Vec::with_capacity(16 + (end - start) / 8 + 4 * (end - start) + bytes);
        if w.optional() {
            levels(&mut page, s.nulls, start..end, nulls);
        }
        for r in start..end {
            if s.valid(r) {
                let v = s.value(r);
                plain(&mut page, v);
                mm.see(v);
            }
        }
        w.data(page, start..end, Encoding::PLAIN);
        start = end;
    }
    Ok(w.finish(
        s.len(),
        mm.statistics(s.null_count(0..s.len()), s.utf8),
        &[Encoding::PLAIN, Encoding::RLE],
    ))
}

/// A dictionary page of `values` and data pages of `n` rows whose valid
/// ones have `keys`, with the statistics of `mm` (the values used).
fn dictionary_pages(
    mut w: Pages,
    values: &[&[u8]],
    keys: &[u32],
    nulls: Option<&NullBuffer>,
    n: usize,
    mm: MinMax<'_>,
    utf8: bool,
) -> PendingChunk {
    let mut page = Vec::with_capacity(values.iter().map(|v| 4 + v.len()).sum());
    for v in values {
        plain(&mut page, v);
    }
    w.dictionary(page, values.len());
    let width = (32 - (values.len().max(1) as u32 - 1).leading_zeros()).max(1);
    let mut next = 0;
    let mut start = 0;
    while start < n {
        let end = (start + PAGE_ROWS).min(n);
        let nulls_here = nulls_in(nulls, start..end);
        let count = end - start - nulls_here;
        let mut page = Vec::with_capacity(16 + (end - start) / 8 + count * 4);
        if w.optional() {
            levels(&mut page, nulls, start..end, nulls_here);
        }
        page.push(width as u8);
        bitpack(&mut page, &keys[next..next + count], width);
        next += count;
        w.data(page, start..end, Encoding::RLE_DICTIONARY);
        start = end;
    }
    w.finish(
        n,
        mm.statistics(nulls_in(nulls, 0..n), utf8),
        &[Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY],
    )
}

/// The keys of `s`'s valid rows in a dictionary of its values, or `None`
/// when the dictionary would be too large or a lookup ran long.
fn keys<'a>(s: &Strings<'a>) -> Option<(Dictionary<'a>, Vec<u32>)> {
    let mut dict = Dictionary::new();
    let mut keys = Vec::with_capacity(s.len());
    // The previous row's value and key: a value repeated in the next row
    // (a log's requests to one host) is not looked up again.
    let mut last: (&[u8], u32) = (&[], u32::MAX);
    for r in 0..s.len() {
        if s.valid(r) {
            let v = s.value(r);
            if last.1 == u32::MAX || !same(v, last.0) {
                last = (v, dict.key(v)?);
                if dict.bytes > DICTIONARY_BYTES {
                    return None;
                }
            }
            keys.push(last.1);
        }
    }
    // A chunk of nulls has no dictionary to make.
    (!dict.values.is_empty()).then_some((dict, keys))
}

/// A column chunk's pages as they are written: compressed, their headers
/// serialized by the crate, their places noted for the offset index.
struct Writer {
    descr: ColumnDescPtr,
    level: ZstdLevel,
    out: TrackedWrite<Vec<u8>>,
    index: OffsetIndexBuilder,
    dictionary: Option<u64>,
    first_data: Option<u64>,
    /// The pages' sizes before compression, headers included (after it,
    /// they are `out`'s length).
    uncompressed: u64,
}

impl Writer {
    fn new(descr: ColumnDescPtr, level: ZstdLevel) -> Writer {
        Writer {
            descr,
            level,
            out: TrackedWrite::new(Vec::new()),
            index: OffsetIndexBuilder::new(),
            dictionary: None,
            first_data: None,
            uncompressed: 0,
        }
    }

    fn write(
        &mut self,
        page: Page,
        uncompressed: usize,
    ) -> Result<parquet::column::page::PageWriteSpec> {
        let mut pw = SerializedPageWriter::new(&mut self.out);
        let spec = pw.write_page(CompressedPage::new(page, uncompressed))?;
        self.uncompressed += spec.uncompressed_size as u64;
        Ok(spec)
    }

    fn dictionary(&mut self, page: &[u8], values: usize) -> Result<()> {
        let buf = Bytes::from(compress(self.level.compression_level(), page)?);
        let spec = self.write(
            Page::DictionaryPage {
                buf,
                num_values: values as u32,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            },
            page.len(),
        )?;
        self.dictionary = Some(spec.offset);
        Ok(())
    }

    fn data(&mut self, page: &[u8], rows: Range<usize>, encoding: Encoding) -> Result<()> {
        let buf = Bytes::from(compress(self.level.compression_level(), page)?);
        let spec = self.write(
            Page::DataPage {
                buf,
                num_values: rows.len() as u32,
                encoding,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                statistics: None,
            },
            page.len(),
        )?;
        self.first_data.get_or_insert(spec.offset);
        self.index
            .append_offset_and_size(spec.offset as i64, spec.compressed_size as i32);
        self.index.append_row_count(rows.len() as i64);
        Ok(())
    }

    fn finish(
        self,
        rows: usize,
        statistics: Statistics,
        encodings: &[Encoding],
    ) -> Result<OwnChunk> {
        let data = Bytes::from(self.out.into_inner()?);
        let compressed = data.len() as u64;
        let metadata = ColumnChunkMetaData::builder(self.descr)
            .set_compression(Compression::ZSTD(self.level))
            .set_encodings(encodings.to_vec())
            .set_num_values(rows as i64)
            .set_total_compressed_size(compressed as i64)
            .set_total_uncompressed_size(self.uncompressed as i64)
            .set_data_page_offset(self.first_data.unwrap_or(0) as i64)
            .set_dictionary_page_offset(self.dictionary.map(|d| d as i64))
            .set_statistics(statistics)
            .build()?;
        Ok(OwnChunk {
            data,
            close: ColumnCloseResult {
                bytes_written: compressed,
                rows_written: rows as u64,
                metadata,
                bloom_filter: None,
                column_index: None,
                offset_index: Some(self.index.build()),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columnar::{encode_row_group, ParquetSink};
    use arrow_array::{BinaryArray, RecordBatch, StringArray, UInt64Array};
    use arrow_schema::{Field, Schema};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use std::sync::Arc;

    /// `same` is slice equality and `tail` a value's last eight bytes,
    /// for every length to 40 and a difference at every place (the short
    /// values' overlapping words cover each byte).
    #[test]
    fn values_compared_and_hashed_by_words() {
        let base: Vec<u8> = (0..40u8).map(|b| b.wrapping_mul(37) ^ 0x5a).collect();
        for n in 0..=40 {
            let a = &base[..n];
            let mut want = [0u8; 8];
            let k = n.min(8);
            want[..k].copy_from_slice(&a[n - k..]);
            assert_eq!(tail(a), u64::from_le_bytes(want), "length {n}");
            // Equal bytes elsewhere (not the same slice).
            let copy = base[..n].to_vec();
            assert!(same(a, &copy), "length {n}");
            let longer = [a, &[0]].concat();
            assert!(!same(a, &longer) && (n == 0 || !same(a, &a[1..])));
            for i in 0..n {
                let mut b = a.to_vec();
                b[i] ^= 0x80;
                assert!(!same(a, &b), "length {n}, byte {i}");
                assert!(!same(&b, a), "length {n}, byte {i}");
            }
        }
    }

    /// Writes `batches` through the sink (strings encoded here), reads the
    /// file back with the crate's reader: the same rows, the same arrays.
    fn round_trip(batches: &[RecordBatch]) -> Bytes {
        let schema = batches[0].schema();
        let mut sink = ParquetSink::new(Vec::new(), schema.clone()).unwrap();
        for b in batches {
            let rg = encode_row_group(&sink.encoder(), b).unwrap();
            sink.append(rg).unwrap();
        }
        let file = Bytes::from(sink.into_inner().unwrap());
        let reader = ParquetRecordBatchReaderBuilder::try_new(file.clone())
            .unwrap()
            .build()
            .unwrap();
        let back: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
        assert_eq!(back[0].schema(), schema, "the Arrow types read back");
        let want = arrow_select_concat(batches);
        let got = arrow_select_concat(&back);
        assert_eq!(got.num_rows(), want.num_rows());
        for (k, (g, w)) in got.columns().iter().zip(want.columns()).enumerate() {
            assert_eq!(g.as_ref(), w.as_ref(), "column {k}");
        }
        file
    }

    /// Rows of `batches` as one batch (no arrow-select here: row by row),
    /// dictionaries as the strings they stand for.
    fn arrow_select_concat(batches: &[RecordBatch]) -> RecordBatch {
        let schema = batches[0].schema();
        let cols: Vec<ArrayRef> = (0..schema.fields().len())
            .map(|k| {
                let parts: Vec<&dyn Array> = batches.iter().map(|b| b.column(k).as_ref()).collect();
                concat(&parts)
            })
            .collect();
        let fields: Vec<Field> = schema
            .fields()
            .iter()
            .zip(&cols)
            .map(|(f, c)| Field::new(f.name(), c.data_type().clone(), f.is_nullable()))
            .collect();
        RecordBatch::try_new(Arc::new(Schema::new(fields)), cols).unwrap()
    }

    fn concat(parts: &[&dyn Array]) -> ArrayRef {
        match parts[0].data_type() {
            DataType::Utf8 => Arc::new(
                parts
                    .iter()
                    .flat_map(|a| a.as_string::<i32>().iter())
                    .collect::<StringArray>(),
            ),
            DataType::Binary => Arc::new(
                parts
                    .iter()
                    .flat_map(|a| a.as_binary::<i32>().iter())
                    .collect::<BinaryArray>(),
            ),
            DataType::UInt64 => Arc::new(
                parts
                    .iter()
                    .flat_map(|a| a.as_primitive::<arrow_array::types::UInt64Type>().iter())
                    .collect::<UInt64Array>(),
            ),
            // Compared by the values the keys stand for.
            DataType::Dictionary(..) => Arc::new(
                parts
                    .iter()
                    .flat_map(|a| {
                        let d = a.as_dictionary::<arrow_array::types::Int16Type>();
                        let v = d.values().as_string::<i32>().clone();
                        d.keys()
                            .iter()
                            .map(move |k| k.map(|k| v.value(k as usize).to_string()))
                            .collect::<Vec<_>>()
                    })
                    .collect::<StringArray>(),
            ),
            t => panic!("no concat for {t}"),
        }
    }

    /// A row's host, path, scheme and input.
    type Row<'a> = (Option<&'a str>, Option<&'a str>, &'a str, Option<&'a [u8]>);

    fn schema() -> Arc<Schema> {
        Arc::new(Schema::new(vec![
            Field::new("line", DataType::UInt64, false),
            // A dictionary column (its name is not among the unique ones).
            Field::new("host", DataType::Utf8, true),
            // Plain pages.
            Field::new("path", DataType::Utf8, true),
            // Required, with a dictionary.
            Field::new("scheme", DataType::Utf8, false),
            Field::new("input", DataType::Binary, true),
            // An Arrow dictionary, its keys and values as they are.
            Field::new(
                "host_kind",
                DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8)),
                true,
            ),
        ]))
    }

    fn batch(rows: &[Row]) -> RecordBatch {
        let line: UInt64Array = (0..rows.len() as u64).collect();
        let host: StringArray = rows.iter().map(|r| r.0).collect();
        let path: StringArray = rows.iter().map(|r| r.1).collect();
        let scheme: StringArray = rows.iter().map(|r| Some(r.2)).collect();
        let input: BinaryArray = rows.iter().map(|r| r.3).collect();
        // Keys by the host's length, `unused` never used, null with the
        // host.
        let keys: arrow_array::Int16Array = rows
            .iter()
            .map(|r| r.0.map(|h| [0, 2, 3][h.len() % 3]))
            .collect();
        let values = Arc::new(StringArray::from(vec![
            "ipv4",
            "unused",
            "reg-name",
            "ip-literal",
        ]));
        let kind =
            arrow_array::DictionaryArray::<arrow_array::types::Int16Type>::try_new(keys, values)
                .unwrap();
        RecordBatch::try_new(
            schema(),
            vec![
                Arc::new(line),
                Arc::new(host),
                Arc::new(path),
                Arc::new(scheme),
                Arc::new(input),
                Arc::new(kind),
            ],
        )
        .unwrap()
    }

    #[test]
    fn values_nulls_and_empty_strings_read_back() {
        let rows: Vec<Row> = vec![
            (
                Some("example.com"),
                Some("/a"),
                "http",
                Some(b"\xff\x00raw"),
            ),
            (None, None, "urn", None),
            (Some(""), Some(""), "file", Some(b"")),
            (Some("example.com"), Some("/b?c"), "http", None),
            (
                Some("h\u{e9}t\u{e9}.example"),
                Some("/\u{1f600}"),
                "https",
                Some(b"x"),
            ),
        ];
        // One row, a few rows, nine (a bit-packed group and one more).
        round_trip(&[batch(&rows[..1])]);
        round_trip(&[batch(&rows), batch(&rows[1..2])]);
        let nine: Vec<_> = rows.iter().cycle().take(9).cloned().collect();
        round_trip(&[batch(&nine)]);
        // All null but the required column.
        let nulls: Vec<_> = (0..20).map(|_| (None, None, "x", None)).collect();
        round_trip(&[batch(&nulls)]);
    }

    #[test]
    fn pages_split_by_rows_and_bytes_and_large_dictionaries_go_plain() {
        // 50,000 rows: data pages of at most PAGE_ROWS; a dictionary of
        // 50,000 distinct hosts of ~30 bytes passes DICTIONARY_BYTES.
        let hosts: Vec<String> = (0..50_000)
            .map(|i| format!("host-{i:08}.example.org"))
            .collect();
        let paths: Vec<String> = (0..50_000)
            .map(|i| format!("/{}", "p".repeat(i % 97)))
            .collect();
        let rows: Vec<_> = (0..50_000)
            .map(|i| {
                (
                    (i % 7 != 3).then_some(hosts[i].as_str()),
                    (i % 11 != 5).then_some(paths[i].as_str()),
                    ["http", "https", "ftp"][i % 3],
                    None,
                )
            })
            .collect();
        let file = round_trip(&[batch(&rows)]);
        let r = SerializedFileReader::new(file).unwrap();
        let rg = r.metadata().row_group(0);
        let host = rg.column(1);
        assert!(host.dictionary_page_offset().is_none(), "too large: plain");
        let scheme = rg.column(3);
        assert!(scheme.dictionary_page_offset().is_some());
        let mut n = 0;
        let mut pr = r
            .get_row_group(0)
            .unwrap()
            .get_column_page_reader(2)
            .unwrap();
        while let Some(p) = pr.get_next_page().unwrap() {
            assert!(p.num_values() as usize <= PAGE_ROWS);
            n += 1;
        }
        assert!(n >= 3, "50,000 rows in pages of at most {PAGE_ROWS}: {n}");
        // Long values: pages end by bytes.
        let long = "/".repeat(300_000);
        let rows: Vec<_> = (0..10)
            .map(|_| (None, Some(long.as_str()), "http", None))
            .collect();
        let file = round_trip(&[batch(&rows)]);
        let r = SerializedFileReader::new(file).unwrap();
        let mut pr = r
            .get_row_group(0)
            .unwrap()
            .get_column_page_reader(2)
            .unwrap();
        let mut n = 0;
        while pr.get_next_page().unwrap().is_some() {
            n += 1;
        }
        assert!(n >= 3, "3 MB of values in pages of about 1 MB: {n}");
    }

    #[test]
    fn statistics_are_the_bounds_truncated_as_the_crate_does() {
        let long_lo = format!("/a{}", "z".repeat(100));
        let long_hi = format!("/z{}", "b".repeat(100));
        let rows: Vec<Row> = vec![
            (Some("b.example"), Some(long_lo.as_str()), "http", None),
            (None, Some("/m"), "ftp", None),
            (Some("a.example"), Some(long_hi.as_str()), "https", None),
            (Some("c.example"), None, "http", None),
        ];
        let file = round_trip(&[batch(&rows)]);
        let r = SerializedFileReader::new(file).unwrap();
        let rg = r.metadata().row_group(0);
        let stats = |k: usize| match rg.column(k).statistics().unwrap() {
            Statistics::ByteArray(s) => s.clone(),
            s => panic!("{s:?}"),
        };
        let host = stats(1);
        assert_eq!(host.min_opt().unwrap().data(), b"a.example");
        assert_eq!(host.max_opt().unwrap().data(), b"c.example");
        assert_eq!(host.null_count_opt(), Some(1));
        assert!(host.min_is_exact() && host.max_is_exact());
        let path = stats(2);
        assert_eq!(
            path.min_opt().unwrap().data(),
            &long_lo.as_bytes()[..TRUNCATE]
        );
        assert!(!path.min_is_exact());
        // The maximum cut to 64 bytes, its last byte grown: still above
        // every value.
        let max = path.max_opt().unwrap().data();
        assert!(max.len() <= TRUNCATE && max > long_hi.as_bytes());
        assert!(!path.max_is_exact());
        assert_eq!(path.null_count_opt(), Some(1));
        let scheme = stats(3);
        assert_eq!(scheme.min_opt().unwrap().data(), b"ftp");
        assert_eq!(scheme.max_opt().unwrap().data(), b"https");
        // An Arrow dictionary's bounds are those of the values its keys use.
        let kind = stats(5);
        assert_eq!(kind.min_opt().unwrap().data(), b"ipv4");
        assert_eq!(kind.max_opt().unwrap().data(), b"ipv4");
        assert_eq!(kind.null_count_opt(), Some(1));
    }

    #[test]
    fn a_lookup_that_probes_too_long_gives_up() {
        // Every slot taken by another value's hash: the lookup stops after
        // MAX_PROBE slots instead of going round the table.
        let mut d = Dictionary::new();
        let h = d.hash(b"example.com");
        d.values.push(b"other");
        let taken = (u64::from(h ^ 1) << 32) | 1;
        d.slots.iter_mut().for_each(|s| *s = taken);
        assert_eq!(d.key(b"example.com"), None);
        // A free slot within reach: the value is added.
        let mask = d.slots.len() - 1;
        d.slots[((h as usize & mask) + MAX_PROBE - 1) & mask] = 0;
        assert_eq!(d.key(b"example.com"), Some(1));
        assert_eq!(d.key(b"example.com"), Some(1));
    }

    #[test]
    fn levels_and_keys_are_the_hybrid_encoding() {
        // Eight rows, the third null: one bit-packed group.
        let a: ArrayRef = Arc::new(StringArray::from(vec![
            Some("a"),
            Some("b"),
            None,
            Some("a"),
            Some("a"),
            Some("b"),
            Some("c"),
            Some("d"),
        ]));
        let s = Strings::of(&a).unwrap();
        let mut out = Vec::new();
        levels(&mut out, s.nulls, 0..8, 1);
        assert_eq!(out, [2, 0, 0, 0, 0b11, 0b1111_1011]);
        out.clear();
        // From the second row: seven bits moved down one, the eighth zero.
        levels(&mut out, s.nulls, 1..8, 1);
        assert_eq!(out, [2, 0, 0, 0, 0b11, 0b0111_1101]);
        out.clear();
        levels(&mut out, s.nulls, 3..8, 0);
        assert_eq!(out, [2, 0, 0, 0, 5 << 1, 1]);
        out.clear();
        bitpack(&mut out, &[0, 1, 0, 0, 1, 2, 3], 2);
        assert_eq!(out, [0b11, 0b0000_0100, 0b0011_1001]);
        out.clear();
        varint(&mut out, 300);
        assert_eq!(out, [0xAC, 0x02]);
    }
}
