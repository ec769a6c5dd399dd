//! Batch parsing: many references at once into a columnar result that the
//! caller owns and reuses, one 40-byte record per reference and no
//! allocation per reference.
//!
//! A record holds the line's offset in the buffer, its status (valid or the
//! error kind), which components are present, the host kind, and the span
//! of every component as `u16` offsets from the line's start. A line longer
//! than `u16::MAX` keeps its spans in a side table instead, so nothing is
//! lost. Results are identical to [`Parser::parse_bytes`] on every line
//! (tested differentially).

mod lines;
#[cfg(feature = "rayon")]
mod parallel;
mod record;

pub use lines::lines;
#[cfg(feature = "rayon")]
pub use parallel::validate_lines_parallel;
#[allow(unused_imports)]
use record::{error_record, record, valid_record, Record, RecordSink, ALL_PARTS, LONG, VALID};

use crate::engine::bits::{count_lines, fast_lines};
use crate::engine::{LineSink, Spans, DEFAULT_SLOTS};
use crate::{Component, ErrorKind, HostKind, ParseError, Parser, Profile, UriRef};
use core::ops::Range;

/// An error in a batch: what [`ParseError`] says, as plain values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BatchError {
    /// The kind of fault.
    pub kind: ErrorKind,
    /// The component the grammar places it in.
    pub component: Option<Component>,
    /// Byte offset in the line.
    pub index: usize,
}

/// Where a batch's references came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Source {
    #[default]
    Lines,
    Items,
    Offsets,
}

/// An offset of a string column (Arrow's `i32` and `i64`, or unsigned):
/// where an item begins in the column's values. Negative offsets are
/// taken as past any buffer's end (and so refused).
pub trait Offset: Copy {
    /// The offset as an index.
    fn index(self) -> usize;
}

macro_rules! offset {
    ($($t:ty),*) => {$(
        impl Offset for $t {
            #[inline(always)]
            fn index(self) -> usize {
                usize::try_from(self).unwrap_or(usize::MAX)
            }
        }
    )*};
}
offset!(i32, i64, u32, u64, usize);

/// The first and last offsets of a column, checked against its values
/// `buf` (see [`Batch::parse_offsets`]).
fn offset_bounds<O: Offset>(buf: &[u8], offsets: &[O]) -> (usize, usize) {
    let (Some(first), Some(last)) = (offsets.first(), offsets.last()) else {
        return (0, 0);
    };
    let (first, last) = (first.index(), last.index());
    assert!(
        first <= last && last <= buf.len(),
        "offsets {first}..{last} outside values of {} bytes",
        buf.len()
    );
    assert!(
        last - first <= u32::MAX as usize,
        "items of {} bytes: at most u32::MAX at once",
        last - first
    );
    (first, last)
}

/// The ends of a column's items, counted from `base` (its first offset),
/// each checked to be at or after the one before and within `len`.
fn checked_ends<O: Offset>(
    len: usize,
    base: usize,
    offsets: &[O],
) -> impl Iterator<Item = usize> + '_ {
    let mut prev = 0;
    offsets.iter().skip(1).map(move |o| {
        let end = o.index().wrapping_sub(base);
        assert!(
            end >= prev && end <= len,
            "offsets decrease or pass the values' end"
        );
        prev = end;
        end
    })
}

/// Each item of a column in turn, with where it starts (counted from
/// `base`): the loop for an entry without a fast one.
fn each_item<O: Offset>(buf: &[u8], base: usize, offsets: &[O], mut f: impl FnMut(usize, &[u8])) {
    let mut at = 0;
    for end in checked_ends(buf.len(), base, offsets) {
        f(at, &buf[at..end]);
        at = end;
    }
}

/// The columnar results of parsing many references. Reuse one `Batch`
/// across calls: its storage is kept.
///
/// ```
/// use urilex::{Batch, Component, Parser};
/// let buf = b"http://a/b?q\r\nnot a uri\n//[::1]:80/\n";
/// let mut batch = Batch::new();
/// batch.parse_lines(&Parser::new(), buf);
/// assert_eq!(batch.len(), 3);
/// assert!(batch.is_valid(0) && !batch.is_valid(1) && batch.is_valid(2));
/// assert_eq!(batch.component(0, Component::Query, buf), Some(&b"q"[..]));
/// assert_eq!(batch.error(1).unwrap().index, 3);
/// assert_eq!(batch.line(2, buf), b"//[::1]:80/");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// The records in order, in parts: one for a serial parse, one per
    /// piece of the buffer for a parallel one (each filled by its thread,
    /// so nothing waits for a count of the lines or is copied afterwards).
    parts: Vec<Vec<[u64; 5]>>,
    /// Index of the first record of each part in use (the first
    /// `firsts.len()` parts).
    firsts: Vec<usize>,
    /// Spans of lines longer than `u16::MAX` bytes.
    long: Vec<Spans>,
    /// Length of the buffer given to `parse_lines`; for `parse_offsets`,
    /// where the last item ends, counted from `base`.
    buf_len: usize,
    /// For `parse_offsets`: where the first item starts in the buffer
    /// (records count their starts from there).
    base: usize,
    /// Where the references came from: lines, items (then `line` is
    /// moot) or a column's values and offsets.
    source: Source,
    /// The profile the batch was parsed with.
    profile: Profile,
    /// The parts whose spans the records do not hold (bit c for
    /// `Component` c): none but after
    /// [`parse_offsets_keeping`](Batch::parse_offsets_keeping).
    dropped: u8,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Room for `n` references before growing.
    pub fn with_capacity(n: usize) -> Batch {
        Batch {
            parts: vec![Vec::with_capacity(n)],
            firsts: vec![0],
            ..Batch::default()
        }
    }

    /// Number of references.
    pub fn len(&self) -> usize {
        match self.firsts.last() {
            Some(&first) => first + self.parts[self.firsts.len() - 1].len(),
            None => 0,
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i` (panics past the end, as slice indexing does).
    #[inline]
    fn rec(&self, i: usize) -> Record {
        Record::from_words(self.words(i))
    }

    /// The five words record `i` is stored as.
    #[inline(always)]
    fn words(&self, i: usize) -> [u64; 5] {
        if self.firsts.len() <= 1 {
            return self.parts[0][i];
        }
        assert!(i < self.len(), "index {i} out of a batch of {}", self.len());
        // The last part starting at or before `i` (empty parts share
        // their first with the next one).
        let k = self.firsts.partition_point(|&f| f <= i) - 1;
        self.parts[k][i - self.firsts[k]]
    }

    /// Every record, in order.
    fn records(&self) -> impl Iterator<Item = Record> + '_ {
        self.parts[..self.firsts.len()]
            .iter()
            .flatten()
            .map(|&w| Record::from_words(w))
    }

    /// Bytes of storage per reference (the records only).
    pub const RECORD_BYTES: usize = core::mem::size_of::<Record>();

    /// Parses every line of `buf` (lines end at LF; a CR just before the LF
    /// is not part of the line; the last line needs no LF). Replaces what
    /// the batch held.
    pub fn parse_lines(&mut self, parser: &Parser, buf: &[u8]) {
        self.clear(parser, buf.len(), Source::Lines);
        let mut out = Records {
            base: 0,
            records: &mut self.parts[0],
            stream: false,
            long: &mut self.long,
        };
        parse_buf(parser, buf, &mut out);
    }

    /// Parses the items of a string column given as its values and
    /// offsets (Arrow's layout): item `i` is `buf[offsets[i]..offsets[i +
    /// 1]]`, so there is one item fewer than offsets. The items are
    /// classified a window of the buffer at a time, as `parse_lines`
    /// classifies lines, with no copy and no pass per item; every byte
    /// belongs to its item (a CR or an LF in one is an invalid byte, not a
    /// line end). A sliced column's first offset need not be 0.
    ///
    /// [`line`](Self::line) and [`line_start`](Self::line_start) give the
    /// items and their starts in `buf`.
    ///
    /// # Panics
    /// When offsets decrease or pass `buf`'s end, or the items span more
    /// than `u32::MAX` bytes (records hold 32-bit offsets: split larger
    /// columns).
    ///
    /// ```
    /// use urilex::{Batch, Component, Parser};
    /// let values = b"http://a/b?qnot a uri//[::1]:80/";
    /// let offsets: [i32; 5] = [0, 12, 21, 32, 32];
    /// let mut batch = Batch::new();
    /// batch.parse_offsets(&Parser::new(), values, &offsets);
    /// assert_eq!(batch.len(), 4);
    /// assert!(batch.is_valid(0) && !batch.is_valid(1) && batch.is_valid(2));
    /// assert_eq!(batch.component(0, Component::Query, values), Some(&b"q"[..]));
    /// assert_eq!(batch.line(2, values), b"//[::1]:80/");
    /// assert_eq!(batch.line(3, values), b""); // an empty reference is valid
    /// assert!(batch.is_valid(3));
    /// ```
    pub fn parse_offsets<O: Offset>(&mut self, parser: &Parser, buf: &[u8], offsets: &[O]) {
        self.offsets_keeping::<ALL_PARTS, O>(parser, buf, offsets);
    }

    /// [`parse_offsets`](Self::parse_offsets) for a caller that reads one
    /// part: every item's verdict, error and host kind as there, but the
    /// records may hold that part's spans alone. The fast path then saves
    /// no other span: for the host, on the kasztp URLs, about 46 fewer
    /// instructions an item of some 400 (callgrind). Reading another
    /// part's span from this batch ([`span`](Self::span),
    /// [`Entry::span`], [`get`](Self::get), ...) panics until the next
    /// parse; which parts a part keeps may grow (for now only `Host`
    /// keeps fewer than all).
    ///
    /// ```
    /// use urilex::{Batch, Component, Parser};
    /// let values = b"http://a.example/b?qnot a urihttps://[::1]:80/";
    /// let offsets: [i32; 4] = [0, 19, 28, 46];
    /// let mut batch = Batch::new();
    /// batch.parse_offsets_keeping(&Parser::new(), values, &offsets, Component::Host);
    /// assert!(batch.is_valid(0) && !batch.is_valid(1) && batch.is_valid(2));
    /// assert_eq!(batch.component(0, Component::Host, values), Some(&b"a.example"[..]));
    /// assert_eq!(batch.component(2, Component::Host, values), Some(&b"[::1]"[..]));
    /// assert!(batch.error(1).is_some());
    /// ```
    pub fn parse_offsets_keeping<O: Offset>(
        &mut self,
        parser: &Parser,
        buf: &[u8],
        offsets: &[O],
        part: Component,
    ) {
        const HOST: u8 = 1 << Component::Host as u8;
        match part {
            Component::Host => self.offsets_keeping::<HOST, O>(parser, buf, offsets),
            _ => self.parse_offsets(parser, buf, offsets),
        }
    }

    /// The items' records with the spans of the parts in `KEEP` (bit c
    /// for `Component` c): `parse_offsets` and `parse_offsets_keeping`.
    fn offsets_keeping<const KEEP: u8, O: Offset>(
        &mut self,
        parser: &Parser,
        buf: &[u8],
        offsets: &[O],
    ) {
        let (base, last) = offset_bounds(buf, offsets);
        self.clear(parser, last - base, Source::Offsets);
        self.base = base;
        self.dropped = !KEEP;
        let mut out = FastRecords::<KEEP> {
            parser,
            // Records count from the first item's start.
            base: 0,
            stream: false,
            records: &mut self.parts[0],
            long: &mut self.long,
        };
        let buf = &buf[base..last];
        let ends = checked_ends(buf.len(), base, offsets);
        if crate::engine::bits::fast_items(
            parser.get_profile(),
            parser.get_syntax(),
            buf,
            ends,
            &mut out,
        ) {
            return;
        }
        // No fast path: every record from the exact engine, all its parts.
        self.dropped = 0;
        each_item(buf, base, offsets, |at, item| out.slow(at, item));
    }

    /// Parses each item (a slice of strings or byte strings).
    pub fn parse_items<S: AsRef<[u8]>>(&mut self, parser: &Parser, items: &[S]) {
        self.clear(parser, 0, Source::Items);
        for item in items {
            self.push(parser, 0, item.as_ref());
        }
    }

    /// Empties the batch down to one part in use (a serial parse fills
    /// it). The others keep their storage for the next parallel parse.
    fn clear(&mut self, parser: &Parser, buf_len: usize, source: Source) {
        for p in &mut self.parts {
            p.clear();
        }
        if self.parts.is_empty() {
            self.parts.push(Vec::new());
        }
        self.firsts.clear();
        self.firsts.push(0);
        self.long.clear();
        self.base = 0;
        self.profile = parser.get_profile();
        self.buf_len = buf_len;
        self.source = source;
        self.dropped = 0;
    }

    /// Panics unless the records hold part `c`'s spans.
    #[inline(always)]
    fn kept(&self, c: Component) {
        if self.dropped & (1 << c as usize) != 0 {
            not_kept(c);
        }
    }

    fn push(&mut self, parser: &Parser, start: usize, line: &[u8]) {
        let rec = record(parser, start, line, &mut self.long);
        self.parts[0].push(rec.words());
    }

    /// Whether reference `i` is valid.
    pub fn is_valid(&self, i: usize) -> bool {
        self.rec(i).status & !LONG == VALID
    }

    /// The error of reference `i`, if invalid.
    pub fn error(&self, i: usize) -> Option<BatchError> {
        self.parse_error(i).map(|e| BatchError {
            kind: e.kind,
            component: e.component(),
            index: e.index(),
        })
    }

    /// The full [`ParseError`] of reference `i` (with its rule and byte).
    pub fn parse_error(&self, i: usize) -> Option<ParseError> {
        let r = self.rec(i);
        if r.status & !LONG == VALID {
            return None;
        }
        let kind = crate::uri::error::ErrorKind::from_index(r.status - 1)?;
        Some(ParseError {
            kind,
            part: self
                .profile
                .tables()
                .parts
                .get(r.err_component as usize)
                .map(|p| p.name)
                .filter(|n| !n.is_empty()),
            index: r.wide(),
            byte: r.spans[2].checked_sub(1).map(|b| b as u8),
            rule: self
                .profile
                .tables()
                .rules
                .get(r.spans[3] as usize)
                .copied()
                .unwrap_or(""),
        })
    }

    /// The span of component `c` of reference `i`, relative to its line.
    /// Every valid reference has a path (possibly empty).
    pub fn span(&self, i: usize, c: Component) -> Option<Range<usize>> {
        self.kept(c);
        let r = self.rec(i);
        if r.status & !LONG != VALID {
            return None;
        }
        let k = c as usize;
        if r.present & (1 << k) == 0 {
            return None;
        }
        if r.status & LONG != 0 {
            return self.long[r.wide() as usize].get(c).map(|(s, e)| s..e);
        }
        Some(r.spans[2 * k] as usize..r.spans[2 * k + 1] as usize)
    }

    /// The host kind of reference `i`.
    pub fn host_kind(&self, i: usize) -> Option<HostKind> {
        self.kept(Component::Host);
        let r = self.rec(i);
        if r.present & (1 << Component::Host as usize) == 0 {
            return None;
        }
        HostKind::from_index(r.host_kind)
    }

    /// Offset of reference `i`'s line in the buffer given to `parse_lines`
    /// (or its item's in the one given to `parse_offsets`).
    pub fn line_start(&self, i: usize) -> usize {
        self.base + self.rec(i).start as usize
    }

    /// The text of line `i` of `buf` (the buffer given to `parse_lines`).
    pub fn line<'b>(&self, i: usize, buf: &'b [u8]) -> &'b [u8] {
        &buf[self.line_range(i, buf)]
    }

    /// Where line `i` is in `buf`, without its line end.
    fn line_range(&self, i: usize, buf: &[u8]) -> Range<usize> {
        self.line_range_at(i, self.start(i), buf)
    }

    /// Where line `i` starts: its record's head word alone.
    #[inline]
    fn start(&self, i: usize) -> usize {
        let w = if self.firsts.len() <= 1 {
            self.parts[0][i][0]
        } else {
            let k = self.firsts.partition_point(|&f| f <= i) - 1;
            self.parts[k][i - self.firsts[k]][0]
        };
        w as u32 as usize
    }

    /// [`line_range`](Self::line_range) of the line that starts at `start`.
    #[inline]
    fn line_range_at(&self, i: usize, start: usize, buf: &[u8]) -> Range<usize> {
        let next = (i + 1 < self.len()).then(|| self.start(i + 1));
        if self.source == Source::Offsets {
            // Items end where the next begins, every byte their own.
            let end = (self.base + next.unwrap_or(self.buf_len)).min(buf.len());
            return (self.base + start).min(end)..end;
        }
        let end = match next {
            Some(next) => next - 1,
            None => {
                let e = if self.source == Source::Items {
                    buf.len()
                } else {
                    buf.len().min(self.buf_len)
                };
                if e > start && buf[e - 1] == b'\n' {
                    e - 1
                } else {
                    e
                }
            }
        };
        let end = end.max(start).min(buf.len());
        if end > start && buf[end - 1] == b'\r' {
            start..end - 1
        } else {
            start..end
        }
    }

    /// Component `c` of line `i` of `buf`.
    pub fn component<'b>(&self, i: usize, c: Component, buf: &'b [u8]) -> Option<&'b [u8]> {
        let line = self.line(i, buf);
        self.span(i, c).and_then(|r| line.get(r))
    }

    /// Reference `i` as a [`UriRef`] borrowing line `i` of `buf` (the
    /// buffer given to `parse_lines`), or its error.
    ///
    /// ```
    /// use urilex::{Batch, Parser};
    /// let buf = b"https://example.com:8443/x\n";
    /// let mut batch = Batch::new();
    /// batch.parse_lines(&Parser::new(), buf);
    /// assert_eq!(batch.get(0, buf).unwrap().port_u16(), Some(8443));
    /// ```
    pub fn get<'b>(&self, i: usize, buf: &'b [u8]) -> Result<UriRef<'b>, ParseError> {
        if let Some(e) = self.parse_error(i) {
            return Err(e);
        }
        let line = self.line(i, buf);
        // Valid references are ASCII in every grammar, so this holds.
        let text = core::str::from_utf8(line).map_err(|e| ParseError {
            kind: ErrorKind::InvalidCharacter,
            part: None,
            index: e.valid_up_to() as u32,
            byte: line.get(e.valid_up_to()).copied(),
            rule: "",
        })?;
        Ok(UriRef::from_spans(text, self.spans_of(i), self.profile))
    }

    /// [`get`](Self::get) from the buffer as text, for a caller that
    /// checked the whole buffer is UTF-8 once (a check per line costs
    /// more than the rest of a short line's work).
    ///
    /// ```
    /// use urilex::{Batch, Parser};
    /// let buf = "https://example.com/x\nnot a uri\n";
    /// let mut batch = Batch::new();
    /// batch.parse_lines(&Parser::new(), buf.as_bytes());
    /// assert_eq!(batch.get_str(0, buf).unwrap().host_str(), Some("example.com"));
    /// assert!(batch.get_str(1, buf).is_err());
    /// ```
    #[inline]
    pub fn get_str<'b>(&self, i: usize, buf: &'b str) -> Result<UriRef<'b>, ParseError> {
        let r = self.rec(i);
        if r.status & !LONG != VALID {
            if let Some(e) = self.parse_error(i) {
                return Err(e);
            }
        }
        // Lines are cut at ASCII bytes: character boundaries.
        let line = &buf[self.line_range_at(i, r.start as usize, buf.as_bytes())];
        Ok(UriRef::from_spans(line, self.spans_from(&r), self.profile))
    }

    /// The spans of valid reference `i`.
    #[inline]
    fn spans_of(&self, i: usize) -> Spans {
        self.spans_from(&self.rec(i))
    }

    /// The spans of a valid reference's record.
    #[inline]
    fn spans_from(&self, r: &Record) -> Spans {
        assert!(
            self.dropped == 0,
            "the batch kept one part's spans (parse_offsets_keeping)"
        );
        if r.status & LONG != 0 {
            self.long[r.wide() as usize]
        } else {
            let mut spans = Spans::EMPTY;
            spans.fixed = self.profile.tables().fixed;
            for c in 0..DEFAULT_SLOTS / 2 {
                if r.present & (1 << c) != 0 {
                    spans.slots[2 * c] = r.spans[2 * c] as u32;
                    spans.slots[2 * c + 1] = r.spans[2 * c + 1] as u32;
                }
            }
            spans.kind = r.host_kind;
            spans
        }
    }

    /// Reference `i` with its record decoded once, for code that reads
    /// several of its parts (a row writer): each [`span`](Self::span) call
    /// finds and decodes the record again.
    ///
    /// ```
    /// use urilex::{Batch, Component, Parser};
    /// let buf = b"http://a/b?q\nnot a uri\n";
    /// let mut batch = Batch::new();
    /// batch.parse_lines(&Parser::new(), buf);
    /// let e = batch.entry(0);
    /// assert!(e.is_valid());
    /// assert_eq!(e.span(Component::Query), Some(11..12));
    /// assert_eq!(e.line_start(), 0);
    /// assert_eq!(batch.entry(1).line_start(), 13);
    /// ```
    #[inline]
    pub fn entry(&self, i: usize) -> Entry<'_> {
        Entry {
            batch: self,
            w: self.words(i),
        }
    }

    /// Every reference in order, each as [`entry`](Self::entry) gives it,
    /// without a search for its record.
    #[inline]
    pub fn entries(&self) -> impl Iterator<Item = Entry<'_>> + '_ {
        self.parts[..self.firsts.len()]
            .iter()
            .flatten()
            .map(move |&w| Entry { batch: self, w })
    }

    /// Part `c` of every reference in order, for code that reads one part
    /// of all of them (a column): `f` is given its start in the buffer
    /// given to `parse_lines` or `parse_offsets` (not in its line, as
    /// [`span`](Self::span) gives it) and its length, or `None` where the
    /// reference is not valid or has no such part. Whether the batch kept
    /// `c` is checked once, not per reference, and the records are read
    /// in a loop of their own.
    ///
    /// ```
    /// use urilex::{Batch, Component, Parser};
    /// let buf = b"http://a/b?q\nnot a uri\n//host\n";
    /// let mut batch = Batch::new();
    /// batch.parse_lines(&Parser::new(), buf);
    /// let mut hosts = Vec::new();
    /// batch.for_each_span(Component::Host, |s| hosts.push(s));
    /// assert_eq!(hosts, [Some((7, 1)), None, Some((25, 4))]);
    /// assert_eq!(&buf[25..29], b"host");
    /// ```
    #[inline(always)]
    pub fn for_each_span(&self, c: Component, mut f: impl FnMut(Option<(usize, usize)>)) {
        self.kept(c);
        for part in &self.parts[..self.firsts.len()] {
            for w in part {
                let line = self.base + w[0] as u32 as usize;
                f(self.record_span(w, c).map(|(s, e)| (line + s, e - s)))
            }
        }
    }

    /// The span of part `c` in record `w`, relative to its line: `None`
    /// where the reference is not valid or has no such part.
    #[inline(always)]
    fn record_span(&self, w: &[u64; 5], c: Component) -> Option<(usize, usize)> {
        let (status, present) = ((w[0] >> 32) as u8, (w[0] >> 40) as u8);
        let k = c as usize;
        if status & !LONG != VALID || present & (1 << k) == 0 {
            return None;
        }
        if status & LONG != 0 {
            return self.long[w[1] as u32 as usize].get(c);
        }
        // Spans 2k and 2k + 1 share a word (four 16-bit spans a word); a
        // component's index is below 8, so the word is one of the four.
        let word = w[1 + (k / 2) % 4] >> (32 * (k % 2));
        Some(((word & 0xffff) as usize, ((word >> 16) & 0xffff) as usize))
    }

    /// Counts of valid references, and of invalid ones by error kind.
    pub fn counts(&self) -> Counts {
        let mut c = Counts {
            total: self.len(),
            ..Counts::default()
        };
        for r in self.records() {
            match r.status & !LONG {
                VALID => c.valid += 1,
                s => c.invalid[s as usize - 1] += 1,
            }
        }
        c
    }
}

/// One reference of a [`Batch`], its record read once
/// ([`Batch::entry`], [`Batch::entries`]); each part is taken out of the
/// stored words when asked for.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    batch: &'a Batch,
    w: [u64; 5],
}

impl Entry<'_> {
    #[inline(always)]
    fn status(&self) -> u8 {
        (self.w[0] >> 32) as u8
    }

    #[inline(always)]
    fn present(&self) -> u8 {
        (self.w[0] >> 40) as u8
    }

    /// Whether the reference is valid.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.status() & !LONG == VALID
    }

    /// Offset of its line in the buffer given to `parse_lines` (or its
    /// item's in the one given to `parse_offsets`).
    #[inline]
    pub fn line_start(&self) -> usize {
        self.batch.base + self.w[0] as u32 as usize
    }

    /// The span of component `c`, relative to the line, as
    /// [`Batch::span`] gives it.
    #[inline]
    pub fn span(&self, c: Component) -> Option<Range<usize>> {
        self.batch.kept(c);
        self.batch.record_span(&self.w, c).map(|(s, e)| s..e)
    }

    /// The host kind, as [`Batch::host_kind`] gives it.
    #[inline]
    pub fn host_kind(&self) -> Option<HostKind> {
        self.batch.kept(Component::Host);
        if self.present() & (1 << Component::Host as usize) == 0 {
            return None;
        }
        HostKind::from_index((self.w[0] >> 48) as u8)
    }
}

/// A span read from a batch that did not keep it (out of line, so that
/// the check costs its readers one test).
#[cold]
#[inline(never)]
fn not_kept(c: Component) -> ! {
    panic!(
        "the batch kept no {} spans (parse_offsets_keeping)",
        c.as_str()
    )
}

/// Line counts from [`validate_lines`]: total, valid, and invalid by
/// [`ErrorKind`] (in the order of [`ErrorKind::ALL`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Lines seen.
    pub total: usize,
    /// Valid lines.
    pub valid: usize,
    /// Invalid lines by error kind.
    pub invalid: [usize; 7],
}

impl Counts {
    /// Adds another count to this one.
    ///
    /// ```
    /// let mut a = urilex::Counts { total: 2, valid: 1, invalid: [1, 0, 0, 0, 0, 0, 0] };
    /// a.add(&a.clone());
    /// assert_eq!((a.total, a.valid, a.invalid[0]), (4, 2, 2));
    /// ```
    pub fn add(&mut self, o: &Counts) {
        self.total += o.total;
        self.valid += o.valid;
        for (a, b) in self.invalid.iter_mut().zip(o.invalid) {
            *a += b;
        }
    }
}

/// Counts valid and invalid lines of `buf` without computing spans: the
/// validating DFA decides each line, and only invalid lines are diagnosed
/// for their error kind. Lines as in [`Batch::parse_lines`].
///
/// ```
/// let c = urilex::validate_lines(&urilex::Parser::new(), b"http://a/\nnot valid\n%zz\n");
/// assert_eq!((c.total, c.valid), (3, 1));
/// assert_eq!(c.invalid[urilex::ErrorKind::InvalidPercentEncoding as usize], 1);
/// ```
pub fn validate_lines(parser: &Parser, buf: &[u8]) -> Counts {
    let mut c = Counts::default();
    let mut total = 0;
    let mut slow = |line: &[u8]| {
        total += 1;
        c.count_exact(parser, line);
    };
    if let Some(passed) = count_lines(parser.get_profile(), parser.get_syntax(), buf, &mut slow) {
        c.total += total + passed;
        c.valid += passed;
        return c;
    }
    let Some(d) = parser.line_dfa() else {
        for (_, line) in lines(buf) {
            c.count(parser, line, false);
        }
        return c;
    };
    scan_lines(
        buf,
        |pos| d.run_from(buf, pos),
        |_, line, s| c.count(parser, line, s.is_some_and(|s| d.accept[s as usize])),
    );
    c
}

/// Whether each item of a string column (as [`Batch::parse_offsets`]
/// takes it: values and offsets) is a valid reference, in order, into
/// `each`: the spanless fast path over the whole column, and the exact
/// engine for the items it does not pass. The same verdicts as
/// [`Parser::parse_bytes`], with no spans kept.
///
/// # Panics
/// As [`Batch::parse_offsets`] does.
///
/// ```
/// let mut valid = Vec::new();
/// urilex::validate_offsets(&urilex::Parser::new(), b"http://a/x y%zz", &[0u32, 8, 11, 14], |v| valid.push(v));
/// assert_eq!(valid, [true, false, false]);
/// ```
pub fn validate_offsets<O: Offset>(
    parser: &Parser,
    buf: &[u8],
    offsets: &[O],
    mut each: impl FnMut(bool),
) {
    let (base, last) = offset_bounds(buf, offsets);
    let buf = &buf[base..last];
    let mut verdict = |item: &[u8], passed: bool| {
        each(passed || parser.verdict(item).is_ok());
    };
    let ends = checked_ends(buf.len(), base, offsets);
    if crate::engine::bits::verdict_items(
        parser.get_profile(),
        parser.get_syntax(),
        buf,
        ends,
        &mut verdict,
    ) {
        return;
    }
    each_item(buf, base, offsets, |_, item| verdict(item, false));
}

impl Counts {
    /// Counts one line: valid when `valid` says so, else as the exact
    /// validator finds it.
    #[inline(always)]
    fn count(&mut self, parser: &Parser, line: &[u8], valid: bool) {
        self.total += 1;
        if valid && line.len() < u32::MAX as usize {
            self.valid += 1;
        } else {
            self.count_exact(parser, line);
        }
    }

    /// Counts a line the fast verdict did not pass.
    #[inline(never)]
    fn count_exact(&mut self, parser: &Parser, line: &[u8]) {
        match parser.verdict(line) {
            Ok(()) => self.valid += 1,
            Err(e) => self.invalid[e.kind as usize] += 1,
        }
    }
}

/// Where `parse_buf` puts a buffer's records: `records`, streamed past the
/// caches when `stream` (a parallel parse of a large buffer), with offsets
/// from `base`; spans of lines over `u16::MAX` bytes go to `long`.
pub(super) struct Records<'a> {
    pub base: usize,
    pub records: &'a mut Vec<[u64; 5]>,
    pub stream: bool,
    pub long: &'a mut Vec<Spans>,
}

impl Records<'_> {
    #[inline(always)]
    fn put(&mut self, words: [u64; 5]) {
        put_words(self.records, self.stream, words);
    }
}

/// Stores a record's words after the last of `records`, past the caches
/// when `stream`.
#[inline(always)]
fn put_words(records: &mut Vec<[u64; 5]>, stream: bool, words: [u64; 5]) {
    if stream {
        crate::scan::push_streaming(records, words);
    } else {
        records.push(words);
    }
}

/// `parse_buf`'s sink for the engine's line loop (`bits::fast_lines`):
/// a line the fast path answered becomes a record from its [`RecordSink`]
/// words, any other line a record from the exact engine.
///
/// `Records`' fields one by one (not a reference to it), so that the loop
/// keeps the offset base and the stream flag in registers and reaches the
/// record vector through one reference.
struct FastRecords<'r, const KEEP: u8 = ALL_PARTS> {
    parser: &'r Parser,
    base: usize,
    stream: bool,
    records: &'r mut Vec<[u64; 5]>,
    long: &'r mut Vec<Spans>,
}

impl<const KEEP: u8> FastRecords<'_, KEEP> {
    #[inline(always)]
    fn put(&mut self, words: [u64; 5]) {
        put_words(self.records, self.stream, words);
    }
}

impl<const KEEP: u8> LineSink for FastRecords<'_, KEEP> {
    type Spans = RecordSink<KEEP>;

    #[inline(always)]
    fn spans(&self) -> RecordSink<KEEP> {
        RecordSink::new()
    }

    #[inline(always)]
    fn fast(&mut self, at: usize, spans: &RecordSink<KEEP>) -> bool {
        match spans.record(self.base + at) {
            Some(words) => {
                self.put(words);
                true
            }
            None => false,
        }
    }

    #[inline(never)]
    fn slow(&mut self, at: usize, line: &[u8]) {
        let words = record(self.parser, self.base + at, line, self.long).words();
        self.put(words);
    }
}

/// The lines of `buf` as runs of a DFA that stops at line ends find them.
/// No URI has an LF or a CR, so a run from a line's start (`run(pos)`:
/// where it stopped, and what it found) stops at the end of a valid line:
/// no separate search for line ends. A line the run gives up on earlier is
/// invalid; only then is its end searched for (memchr). `each` gets the
/// line's start, the line, and the run's result when the run reached the
/// line's end (`None` for a line it gave up on). Lines are exactly those of
/// [`lines()`]: a CR ends a line before an LF and at the end of the buffer.
#[inline]
fn scan_lines<'b, T>(
    buf: &'b [u8],
    mut run: impl FnMut(usize) -> (usize, T),
    mut each: impl FnMut(usize, &'b [u8], Option<T>),
) {
    let mut pos = 0;
    while pos < buf.len() {
        let (stop, found) = run(pos);
        let (end, next, found) = match buf.get(stop) {
            None => (stop, stop, Some(found)),
            Some(b'\n') => (stop, stop + 1, Some(found)),
            Some(b'\r') if matches!(buf.get(stop + 1), Some(b'\n') | None) => {
                (stop, stop + 2, Some(found))
            }
            Some(_) => {
                let lf = memchr::memchr(b'\n', &buf[stop..]).map_or(buf.len(), |p| stop + p);
                // `lf > stop`: the byte at `stop` is not an LF.
                let end = if buf[lf - 1] == b'\r' { lf - 1 } else { lf };
                (end, lf + 1, None)
            }
        };
        each(pos, &buf[pos..end], found);
        pos = next;
    }
}

/// The records of the lines of `buf` in order, into `out` (its `base`
/// added to their offsets). With the profile's fast path, the engine's
/// line loop for the parser's entry, into [`FastRecords`].
/// With a tagged DFA that stops at line ends, one run per line
/// over the buffer finds the line and its spans together (`scan_lines`); a
/// line it gives up on is parsed again on its own for the exact error.
fn parse_buf(parser: &Parser, buf: &[u8], out: &mut Records<'_>) {
    let mut sink = FastRecords::<ALL_PARTS> {
        parser,
        base: out.base,
        stream: out.stream,
        records: &mut *out.records,
        long: &mut *out.long,
    };
    if fast_lines(parser.get_profile(), parser.get_syntax(), buf, &mut sink) {
        return;
    }
    let Some(t) = parser.line_tdfa() else {
        for (start, line) in lines(buf) {
            let r = record(parser, out.base + start, line, out.long);
            out.put(r.words());
        }
        return;
    };
    scan_lines(
        buf,
        |pos| crate::engine::run_tdfa_from(t, buf, pos),
        |pos, line, spans| {
            let at = out.base + pos;
            let r = match spans.flatten() {
                Some(mut s) if line.len() < u32::MAX as usize => {
                    crate::uri::reference::set_path(&mut s, line.len());
                    valid_record(at, line, s, out.long)
                }
                _ => record(parser, at, line, out.long),
            };
            out.put(r.words());
        },
    );
}
