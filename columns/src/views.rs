//! Result columns built in one pass: substrings of the input as views of
//! its buffers, other text copied into one buffer.

use crate::refs::Refs;
use arrow_array::builder::StringViewBuilder;
use arrow_array::{ArrayRef, StringViewArray};
use arrow_buffer::{Buffer, NullBuffer, ScalarBuffer};
use std::ops::Range;
use std::sync::Arc;
use urilex::{Batch, Component};

/// A `Utf8View` result whose values are mostly substrings of the input:
/// each such value is a view into the input's buffer (the buffer is
/// shared, not copied: the result keeps it alive), a value of 12 bytes or
/// less, or one made anew, is copied.
pub struct Views {
    b: StringViewBuilder,
    /// The input buffers added as blocks, by address, and their indices
    /// (a view column has a few data buffers; the others one).
    blocks: Vec<(usize, u32)>,
}

impl Views {
    /// A result of `rows` values.
    pub fn new(rows: usize) -> Views {
        Views {
            b: StringViewBuilder::with_capacity(rows),
            blocks: Vec::new(),
        }
    }

    /// Bytes `range` of value `i` of `refs` (ASCII: parts of valid
    /// references; a slice of any value is UTF-8 where it is cut at ASCII
    /// bytes).
    #[inline]
    pub fn part(&mut self, refs: &Refs<'_>, i: usize, range: Range<usize>) {
        let len = range.len();
        if len > 12 {
            if let Some((buffer, offset)) = refs.source(i, &range) {
                if let (Some(block), Ok(offset), Ok(len)) = (
                    self.block_of(buffer),
                    u32::try_from(offset),
                    u32::try_from(len),
                ) {
                    if self.b.try_append_view(block, offset, len).is_ok() {
                        return;
                    }
                }
            }
        }
        let v = &refs.value(i)[range];
        self.b
            .append_value(std::str::from_utf8(v).unwrap_or_default());
    }

    /// The block index of `buffer`, added when it is new (`None` for a
    /// buffer too large for a view's 32-bit offset).
    #[inline]
    fn block_of(&mut self, buffer: &Buffer) -> Option<u32> {
        let key = buffer.as_ptr() as usize;
        if let Some(&(_, b)) = self.blocks.iter().find(|(k, _)| *k == key) {
            return Some(b);
        }
        if buffer.len() >= u32::MAX as usize {
            return None;
        }
        let b = self.b.append_block(buffer.clone());
        self.blocks.push((key, b));
        Some(b)
    }

    /// A value made anew.
    #[inline]
    pub fn text(&mut self, s: &str) {
        self.b.append_value(s);
    }

    /// A null.
    #[inline]
    pub fn null(&mut self) {
        self.b.append_null();
    }

    /// The column.
    pub fn finish(mut self) -> ArrayRef {
        Arc::new(self.b.finish())
    }
}

/// Bits appended one at a time, kept 64 a word with the word being filled
/// and its count (a bit at a time into Arrow's builder costs a call and a
/// capacity check per value); their number is `64 words + filled`.
pub struct Bits {
    words: Vec<u64>,
    word: u64,
    filled: u32,
}

impl Bits {
    /// Room for `n` bits.
    pub fn new(n: usize) -> Bits {
        Bits {
            words: Vec::with_capacity(n.div_ceil(64)),
            word: 0,
            filled: 0,
        }
    }

    /// Appends `set`.
    #[inline(always)]
    pub fn push(&mut self, set: bool) {
        self.word |= u64::from(set) << self.filled;
        self.filled += 1;
        if self.filled == 64 {
            self.words.push(self.word);
            self.word = 0;
            self.filled = 0;
        }
    }

    /// Appends `n` bits, the low ones of `bits` (`n` at most 64).
    #[inline]
    fn push_word(&mut self, bits: u64, n: u32) {
        if n == 0 {
            return;
        }
        let bits = if n < 64 { bits & ((1 << n) - 1) } else { bits };
        self.word |= bits << self.filled;
        let room = 64 - self.filled;
        if n < room {
            self.filled += n;
            return;
        }
        self.words.push(self.word);
        self.word = if room < 64 { bits >> room } else { 0 };
        self.filled = n - room;
    }

    /// Appends the bits of `other`, in order.
    pub fn append(&mut self, other: Bits) {
        for &w in &other.words {
            self.push_word(w, 64);
        }
        self.push_word(other.word, other.filled);
    }

    /// The bits.
    pub fn finish(mut self) -> arrow_buffer::BooleanBuffer {
        let len = 64 * self.words.len() + self.filled as usize;
        if self.filled > 0 {
            self.words.push(self.word);
        }
        arrow_buffer::BooleanBuffer::new(Buffer::from_vec(self.words), 0, len)
    }

    /// The bits as validity: `None` when every one is set.
    pub fn nulls(self) -> Option<NullBuffer> {
        let nulls = NullBuffer::new(self.finish());
        (nulls.null_count() > 0).then_some(nulls)
    }
}

/// A `Utf8View` result of substrings of the values of one buffer (a `Utf8`
/// or `LargeUtf8` input), made at once: one 16-byte view a row pushed in
/// place (exact size, no builder's checks per value), the nulls a bitmap,
/// the input's buffer the one data block.
pub struct SpanViews<'a> {
    bytes: &'a [u8],
    buffer: &'a Buffer,
    views: Vec<u128>,
    /// The validity bits.
    valid: Bits,
    /// Whether every span pushed is ASCII (then the views need no UTF-8
    /// check: see `finish`).
    ascii: bool,
    /// Bytes of the buffer found ASCII at once ([`SpanViews::ascii_within`]):
    /// a span inside them needs no check of its own.
    known: std::ops::Range<usize>,
    /// Where `ascii_within` found a few bytes that are not ASCII: the range
    /// it checked and those bytes' positions, in order. `known` is then
    /// the window between two of them that the last span fell in, moved
    /// as the spans move on.
    windows: Option<(Range<usize>, Arc<[usize]>)>,
}

/// Bytes that are not ASCII `ascii_within` keeps the positions of (the
/// values' few non-ASCII characters); with more, every span outside the
/// ASCII range is checked on its own.
const FEW: usize = 1 << 10;

impl<'a> SpanViews<'a> {
    /// A result of `rows` values from `buffer` (at most `u32::MAX` bytes:
    /// see [`Refs::buffer`]).
    pub fn new(buffer: &'a Buffer, rows: usize) -> SpanViews<'a> {
        debug_assert!(buffer.len() <= u32::MAX as usize);
        SpanViews {
            bytes: buffer.as_slice(),
            buffer,
            views: Vec::with_capacity(rows),
            valid: Bits::new(rows),
            ascii: true,
            known: 0..0,
            windows: None,
        }
    }

    /// Says that bytes `range` of the buffer are ASCII, checked here once
    /// (the values the spans will come from), forgetting what was known
    /// before: a span inside them is not checked again. Nothing is assumed
    /// where they are not. Results built a block of rows at a time check
    /// each block's bytes as it comes.
    ///
    /// Where a few of those bytes are not ASCII (a handful of values with
    /// non-ASCII text among many), the windows between them are known
    /// ASCII in the same way: a span inside one is not checked again.
    pub fn check_ascii(&mut self, range: std::ops::Range<usize>) {
        self.known = 0..0;
        self.windows = None;
        // One pass, a block at a time (`is_ascii` reads words), a byte at
        // a time only in a block that has such a byte.
        const BLOCK: usize = 256;
        let bad: Vec<usize> = self.bytes[range.clone()]
            .chunks(BLOCK)
            .enumerate()
            .filter(|(_, c)| !c.is_ascii())
            .flat_map(|(k, c)| {
                let at = range.start + k * BLOCK;
                c.iter()
                    .enumerate()
                    .filter(|(_, b)| !b.is_ascii())
                    .map(move |(j, _)| at + j)
            })
            .take(FEW + 1)
            .collect();
        match bad.len() {
            0 => self.known = range,
            n if n <= FEW => self.windows = Some((range, bad.into())),
            _ => {}
        }
    }

    /// What `other` knows of the buffer's bytes (its ASCII ranges), known
    /// here too.
    pub fn know_as(&mut self, other: &SpanViews<'_>) {
        self.known = other.known.clone();
        self.windows = other.windows.clone();
    }

    /// A view of each span of `spans` (a start in the buffer and a
    /// length: a part of a valid reference, ASCII by every grammar urilex
    /// compiles, checked unless it lies in bytes known ASCII), or a null;
    /// `rows` of them. In a loop of its own: room made for `rows` views at
    /// once, the result's fields read once, not through `self` a row at a
    /// time.
    #[inline(always)]
    pub fn extend(&mut self, rows: usize, spans: impl Spans) {
        let bytes = self.bytes;
        let windows = self.windows.clone();
        let mut views = std::mem::take(&mut self.views);
        views.reserve(rows);
        let mut bits = std::mem::replace(&mut self.valid, Bits::new(0));
        let mut ascii = self.ascii;
        let mut known = self.known.clone();
        // The source walks its spans itself (the engine's records in a
        // plain loop, not a state machine stepped from outside), with the
        // result's state in the loop's own variables: the validity word
        // too, which `Bits::push` on `bits` would keep in memory (8 more
        // instructions a row, callgrind).
        let (mut word, mut filled) = (bits.word, bits.filled);
        spans.each(
            #[inline(always)]
            |s| {
                let set = match s {
                    Some((at, len)) => {
                        let part = &bytes[at..at + len];
                        if (at < known.start || at + len > known.end)
                            && !in_window(windows.as_ref(), &mut known, at, len)
                        {
                            ascii &= part.is_ascii();
                        }
                        views.push(view_of(bytes, part, at));
                        true
                    }
                    None => {
                        views.push(0);
                        false
                    }
                };
                word |= u64::from(set) << filled;
                filled += 1;
                if filled == 64 {
                    bits.words.push(word);
                    (word, filled) = (0, 0);
                }
            },
        );
        (bits.word, bits.filled) = (word, filled);
        self.views = views;
        self.valid = bits;
        self.ascii = ascii;
        self.known = known;
    }

    /// Appends the views of `other`, a result of later rows of the same
    /// buffer (a piece of the column made on another thread): one copy of
    /// its views, its validity bits, and whether all were ASCII.
    pub fn append(&mut self, other: SpanViews<'a>) {
        // (The safety of `finish_with` rests on every view being of
        // this one buffer.)
        assert!(
            self.buffer.as_ptr() == other.buffer.as_ptr()
                && self.buffer.len() == other.buffer.len(),
            "views of one buffer"
        );
        self.views.extend_from_slice(&other.views);
        self.valid.append(other.valid);
        self.ascii &= other.ascii;
    }

    /// [`finish`](Self::finish), with the rows null in `nulls` (the
    /// input's) null in the result too, their views 0.
    pub fn finish_under(mut self, nulls: Option<&NullBuffer>) -> ArrayRef {
        if let Some(n) = nulls.filter(|n| n.null_count() > 0) {
            for i in (0..n.len()).filter(|&i| n.is_null(i)) {
                self.views[i] = 0;
            }
            let valid = std::mem::replace(&mut self.valid, Bits::new(0)).nulls();
            let nulls = NullBuffer::union(valid.as_ref(), Some(n));
            return self.finish_with(nulls);
        }
        self.finish()
    }

    /// The column.
    pub fn finish(mut self) -> ArrayRef {
        let nulls = std::mem::replace(&mut self.valid, Bits::new(0)).nulls();
        self.finish_with(nulls)
    }

    /// The column, with validity `nulls`.
    fn finish_with(self, nulls: Option<NullBuffer>) -> ArrayRef {
        let views = ScalarBuffer::from(self.views);
        let buffers = vec![self.buffer.clone()];
        if !self.ascii {
            // Not a valid reference's parts: Arrow checks every value.
            return match StringViewArray::try_new(views.clone(), buffers, nulls.clone()) {
                Ok(a) => Arc::new(a),
                Err(_) => copied(self.bytes, &views, nulls.as_ref()),
            };
        }
        debug_assert!(arrow_data::validate_string_view(&views, &buffers).is_ok());
        // SAFETY: `new_unchecked` wants each view to describe valid UTF-8
        // within the given buffers. Every view here (made by `extend`
        // here, or by `extend` of a result of the same buffer that
        // `append` took, whose `ascii` it joined) is either 0 (a null:
        // an inline value of no bytes) or `view_of` the bytes
        // `at..at + len` of `self.buffer`, the only buffer given (index 0),
        // sliced in `span` (so in bounds: slicing panics otherwise) at an
        // offset below 2^32 (the buffer is no longer, `Refs::buffer`), and
        // found ASCII there (`self.ascii`, checked on every span pushed
        // that does not lie inside `self.known`, a range of the buffer
        // checked ASCII as a whole in `ascii_within`, or a window that
        // `in_window` placed between two of the non-ASCII bytes that
        // `ascii_within` listed, every one in the range it checked), and
        // ASCII is UTF-8. `view_of` puts values of 12 bytes or less
        // inline with zero padding and the first four bytes as the prefix
        // of longer ones, buffer 0 and the offset, as the format asks (the
        // same views as arrow-rs's `make_view`: `views_made_here_are_arrows`).
        // The views and the nulls have one entry per row.
        #[allow(unsafe_code)]
        let a = unsafe { StringViewArray::new_unchecked(views, buffers, nulls) };
        Arc::new(a)
    }
}

/// Spans for [`SpanViews::extend`], walked by the source itself (a plain
/// loop over the engine's records, not an iterator stepped from outside).
pub trait Spans {
    /// Calls `f` with each span, or `None` for a null, in order.
    fn each(self, f: impl FnMut(Option<(usize, usize)>));
}

/// Part `.1` of every reference of the batch (`Batch::for_each_span`).
impl Spans for (&Batch, Component) {
    #[inline(always)]
    fn each(self, f: impl FnMut(Option<(usize, usize)>)) {
        self.0.for_each_span(self.1, f);
    }
}

/// Spans listed.
impl Spans for &[Option<(usize, usize)>] {
    #[inline(always)]
    fn each(self, f: impl FnMut(Option<(usize, usize)>)) {
        self.iter().copied().for_each(f);
    }
}

/// Whether `at..at + len` lies in an ASCII window of `windows` (a
/// [`SpanViews`]' list of the few bytes that are not ASCII in the range it
/// checked), which becomes `known` (`false` where there are none, or the
/// span holds a byte that is not ASCII or lies outside the checked range).
#[cold]
fn in_window(
    windows: Option<&(Range<usize>, Arc<[usize]>)>,
    known: &mut Range<usize>,
    at: usize,
    len: usize,
) -> bool {
    let Some((range, bad)) = windows else {
        return false;
    };
    if at < range.start || at + len > range.end {
        return false;
    }
    // The first byte that is not ASCII at or after `at`, and the one
    // before it: the window between them holds `at`.
    let j = bad.partition_point(|&b| b < at);
    let start = match j {
        0 => range.start,
        _ => bad[j - 1] + 1,
    };
    let end = bad.get(j).copied().unwrap_or(range.end);
    *known = start..end;
    at + len <= end
}

/// The view of `part`, bytes `at..` of `bytes` (buffer 0), as Arrow's
/// `StringViewArray` lays it out: the length in the low 32 bits, then a
/// value of 12 bytes or less inline (zero padded), or a longer one's first
/// four bytes, its buffer (0) and its offset (`at`, below 2^32: the buffer
/// is no longer, `Refs::buffer`). Made here, inlined, where
/// `arrow_array::builder::make_view` cost a call per part; the inline bytes
/// are one 16-byte load from the buffer, masked, wherever 16 bytes lie
/// there from `at`. Each span's view is compared with `make_view`'s in the
/// tests.
#[inline(always)]
pub(crate) fn view_of(bytes: &[u8], part: &[u8], at: usize) -> u128 {
    let len = part.len();
    if len > 12 {
        let prefix = u32::from_le_bytes([part[0], part[1], part[2], part[3]]);
        return len as u128 | u128::from(prefix) << 32 | (at as u32 as u128) << 96;
    }
    let inline = match bytes.get(at..at + 16) {
        Some(w) => {
            let w = u128::from_le_bytes(w.try_into().expect("16 bytes"));
            // `len` is at most 12: the mask keeps its bytes.
            w & ((1u128 << (8 * len)) - 1)
        }
        None => {
            let mut b = [0u8; 16];
            b[..len].copy_from_slice(part);
            u128::from_le_bytes(b)
        }
    };
    len as u128 | inline << 32
}

/// The values of `views` into `bytes` copied, a byte sequence that is not
/// UTF-8 replaced by U+FFFD (a span cut inside a character: never a valid
/// reference's).
fn copied(bytes: &[u8], views: &[u128], nulls: Option<&NullBuffer>) -> ArrayRef {
    {
        let mut b = StringViewBuilder::with_capacity(views.len());
        for (i, v) in views.iter().enumerate() {
            if nulls.is_some_and(|n| n.is_null(i)) {
                b.append_null();
                continue;
            }
            let len = *v as u32 as usize;
            let bytes = match len <= 12 {
                true => v.to_le_bytes()[4..4 + len].to_vec(),
                false => {
                    let at = (*v >> 96) as u32 as usize;
                    bytes[at..at + len].to_vec()
                }
            };
            b.append_value(String::from_utf8_lossy(&bytes));
        }
        Arc::new(b.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::Array;

    fn buffer(text: &str) -> Buffer {
        Buffer::from(text.as_bytes().to_vec())
    }

    /// A result of `rows` values from `b`, its bytes `range` checked.
    fn known(b: &Buffer, rows: usize, range: Range<usize>) -> SpanViews<'_> {
        let mut v = SpanViews::new(b, rows);
        v.check_ascii(range);
        v
    }

    impl SpanViews<'_> {
        /// One span, or a null.
        fn put(&mut self, s: Option<(usize, usize)>) {
            self.extend(1, &[s][..]);
        }
    }

    /// `view_of` against arrow-rs's `make_view` for every span of every
    /// length up to 40 bytes at every place of a buffer, so that inline
    /// values are loaded in place (16 bytes after them) and copied (fewer:
    /// at the buffer's end), and longer ones are prefix and offset.
    #[test]
    fn views_made_here_are_arrows() {
        let text: Vec<u8> = (0..70u8).map(|i| b'!' + i).collect();
        for at in 0..text.len() {
            for len in 0..=40.min(text.len() - at) {
                let part = &text[at..at + len];
                assert_eq!(
                    view_of(&text, part, at),
                    arrow_array::builder::make_view(part, 0, at as u32),
                    "{at} {len}"
                );
            }
        }
    }

    #[test]
    fn spans_are_views_of_the_buffer_inline_or_not() {
        let b = buffer("http://a-rather-long-host.example/p");
        let mut v = SpanViews::new(&b, 4);
        v.put(Some((0, 4))); // inline
        v.put(None);
        v.put(Some((7, 26))); // a view into the buffer
        v.put(Some((0, 0)));
        let a = v.finish();
        let a = a.as_string_view();
        assert_eq!(a.len(), 4);
        assert_eq!(a.value(0), "http");
        assert!(a.is_null(1));
        assert_eq!(a.value(2), "a-rather-long-host.example");
        assert_eq!(a.value(3), "");
        assert_eq!(a.data_buffers().len(), 1);
        assert_eq!(a.data_buffers()[0].as_ptr(), b.as_ptr(), "no copy");
    }

    #[test]
    fn bytes_known_ascii_spare_the_check_and_no_others() {
        // Checked ASCII as a whole: the spans inside need no check.
        let b = buffer("http://example.com/ and then héllo, more than twelve");
        let v = known(&b, 2, 0..19);
        assert_eq!(v.known, 0..19);
        // A range that is not all ASCII is not taken as known.
        let w = known(&b, 2, 0..b.len());
        assert_eq!(w.known, 0..0);
        // A span reaching past the known bytes is still checked: cut
        // inside a character, it is copied with U+FFFD, not viewed.
        let known = v;
        let mut v = SpanViews::new(&b, 2);
        v.know_as(&known);
        v.put(Some((7, 11)));
        v.put(Some((29, 2)));
        let a = v.finish();
        let a = a.as_string_view();
        assert_eq!(a.value(0), "example.com");
        assert_eq!(a.value(1), "h\u{FFFD}");
    }

    #[test]
    fn ascii_windows_between_a_few_other_bytes() {
        // Two characters that are not ASCII among ASCII text: the spans
        // between them are views; a span cut inside one is checked (and
        // copied with U+FFFD), a span holding a whole one is checked and
        // passes.
        let text = "http://a.example/ é http://b.example/ ö http://c.example/";
        let b = buffer(text);
        let v = known(&b, 0, 0..b.len());
        assert_eq!(v.known, 0..0);
        let (range, bad) = v.windows.clone().expect("a few bytes listed");
        assert_eq!(range, 0..b.len());
        assert_eq!(bad.len(), 4, "two bytes each");
        let e = text.find('é').expect("é");
        let o = text.find('ö').expect("ö");
        let mut w = SpanViews::new(&b, 6);
        w.know_as(&v);
        w.put(Some((7, 9))); // before é
        assert_eq!(w.known, 0..e);
        w.put(Some((e + 3, 17))); // between é and ö
        assert_eq!(w.known, e + 2..o);
        w.put(Some((o + 3, 17))); // after ö
        assert_eq!(w.known, o + 2..b.len());
        w.put(Some((e - 1, 3))); // " é": a whole character, checked
        w.put(Some((0, 4)));
        let a = w.finish();
        let a = a.as_string_view();
        assert_eq!(a.value(0), "a.example");
        assert_eq!(a.value(1), "http://b.example/");
        assert_eq!(a.value(2), "http://c.example/");
        assert_eq!(a.value(3), " é");
        assert_eq!(a.value(4), "http");
        // Cut inside a character: not viewed as if it were ASCII.
        let mut w = SpanViews::new(&b, 2);
        w.know_as(&v);
        w.put(Some((7, 9)));
        w.put(Some((e + 1, 2)));
        let a = w.finish();
        let a = a.as_string_view();
        assert_eq!(a.value(0), "a.example");
        assert_eq!(a.value(1), "\u{FFFD} ");
        // Too many such bytes to list: none kept, every span checked.
        let many = "é".repeat(FEW);
        let b = buffer(&many);
        let v = known(&b, 0, 0..b.len());
        assert!(v.windows.is_none());
    }

    #[test]
    fn bits_in_words_and_as_validity() {
        for n in [0, 1, 63, 64, 65, 130] {
            let mut b = Bits::new(n);
            (0..n).for_each(|i| b.push(i % 5 != 2));
            let bits = b.finish();
            assert_eq!(bits.len(), n);
            assert!((0..n).all(|i| bits.value(i) == (i % 5 != 2)), "{n} bits");
            let mut all = Bits::new(n);
            (0..n).for_each(|_| all.push(true));
            assert!(all.nulls().is_none(), "no nulls where every bit is set");
        }
        let mut b = Bits::new(3);
        [true, false, true].into_iter().for_each(|v| b.push(v));
        let nulls = b.nulls().expect("a null");
        assert_eq!(nulls.null_count(), 1);
        assert!(nulls.is_null(1));
    }

    #[test]
    fn validity_bits_cross_words() {
        // 64-bit words of validity: nulls before, at and after a boundary.
        let b = buffer("abcdefghijklmnopqrstuvwxyz");
        let spans: Vec<_> = (0..200)
            .map(|i| match i % 3 == 0 || i == 63 || i == 64 {
                true => None,
                false => Some((i % 20, 3)),
            })
            .collect();
        // In two calls, the first ending inside a word.
        let mut v = SpanViews::new(&b, 200);
        v.extend(70, &spans[..70]);
        v.extend(130, &spans[70..]);
        let a = v.finish();
        let a = a.as_string_view();
        assert_eq!(a.len(), 200);
        for i in 0..200 {
            let null = i % 3 == 0 || i == 63 || i == 64;
            assert_eq!(a.is_null(i), null, "row {i}");
            if !null {
                assert_eq!(a.value(i).as_bytes(), &b.as_slice()[i % 20..i % 20 + 3]);
            }
        }
    }

    #[test]
    fn spans_that_are_not_ascii_are_checked_or_copied() {
        // Whole characters: Arrow's own check passes them.
        let b = buffer("héllo wörld, more than twelve");
        let mut v = SpanViews::new(&b, 2);
        v.put(Some((0, 6)));
        v.put(Some((0, b.len())));
        let a = v.finish();
        assert_eq!(a.as_string_view().value(0), "héllo");
        // A span cut inside a character: copied, the bad bytes U+FFFD.
        let mut v = SpanViews::new(&b, 1);
        v.put(Some((0, 2)));
        let a = v.finish();
        assert_eq!(a.as_string_view().value(0), "h\u{FFFD}");
    }
}
