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

use crate::parse::{Spans, NONE};
use crate::tables::{DEFAULT_SLOTS, MAX_SLOTS};
use crate::{Component, ErrorKind, HostKind, ParseError, Parser, Profile, UriRef};
use core::ops::Range;

const VALID: u8 = 0;
/// Set in `status` when the spans live in `Batch::long`.
const LONG: u8 = 0x80;

/// One reference's result: 40 bytes, five aligned 8-byte words without
/// padding (so `scan::push_streaming` can store it word by word).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(8))]
pub(crate) struct Record {
    /// Offset of the line in the buffer (0 for slices).
    start: u32,
    /// `VALID`, or the error kind + 1; `LONG` when spans are in the side table.
    status: u8,
    /// Bit c: component c is present.
    present: u8,
    /// Host kind, or `u8::MAX`.
    host_kind: u8,
    /// Error component, or `u8::MAX`.
    err_component: u8,
    /// Valid: start and end of each of the default grammar's parts (the
    /// typed `Component`s), relative to `start`. Invalid: error index (two
    /// halves), offending byte + 1 (0 at end), and the rule's index in the
    /// profile's rule table.
    spans: [u16; DEFAULT_SLOTS],
}

// The record is laid out for the default grammar's eight parts: five
// 8-byte words that `scan::push_streaming` stores one by one and that
// `scan::unset_mask` reads as one 64-byte line. A default grammar with
// another number of parts stops the build here, to have both resized.
// References with parts beyond these (other profiles) keep all their
// spans in the side table.
const _: () = assert!(DEFAULT_SLOTS == 16 && DEFAULT_SLOTS <= MAX_SLOTS);
const _: () = assert!(core::mem::size_of::<Record>() == 40);
// No padding: the fields' sizes add up to the whole.
const _: () = {
    use core::mem::size_of;
    assert!(
        size_of::<u32>() + 4 * size_of::<u8>() + size_of::<[u16; DEFAULT_SLOTS]>()
            == size_of::<Record>()
    );
};

/// From this many bytes of input on, a parallel parse stores the records
/// past the caches (`scan::push_streaming`): they outgrow them anyway, and
/// a store that first reads its line doubles the memory traffic, which
/// the threads share. (One thread measured no faster with it.)
#[cfg(feature = "rayon")]
const STREAM_FROM: usize = 8 << 20;

/// Appends `r`, streamed past the caches when `stream`.
#[cfg(feature = "rayon")]
#[inline(always)]
fn put_record(records: &mut Vec<Record>, r: Record, stream: bool) {
    if stream {
        crate::scan::push_streaming(records, r);
    } else {
        records.push(r);
    }
}

impl Record {
    /// A record from five words, field by field (tests).
    #[cfg(test)]
    pub(crate) fn from_words(w: [u64; 5]) -> Record {
        let b: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        let u16_at = |k: usize| u16::from_le_bytes([b[k], b[k + 1]]);
        Record {
            start: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            status: b[4],
            present: b[5],
            host_kind: b[6],
            err_component: b[7],
            spans: core::array::from_fn(|k| u16_at(8 + 2 * k)),
        }
    }

    /// The record's fields as five words, the inverse of `from_words`.
    #[cfg(test)]
    pub(crate) fn words(&self) -> [u64; 5] {
        let mut b = Vec::with_capacity(40);
        b.extend_from_slice(&self.start.to_le_bytes());
        b.extend_from_slice(&[
            self.status,
            self.present,
            self.host_kind,
            self.err_component,
        ]);
        for s in self.spans {
            b.extend_from_slice(&s.to_le_bytes());
        }
        core::array::from_fn(|k| u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().unwrap()))
    }

    /// The 32-bit value kept in `spans[0..2]`: the error index of an invalid
    /// reference, or a long line's place in the side table.
    fn wide(&self) -> u32 {
        self.spans[0] as u32 | (self.spans[1] as u32) << 16
    }
    fn set_wide(&mut self, v: u32) {
        self.spans[0] = v as u16;
        self.spans[1] = (v >> 16) as u16;
    }
}

/// The lines of `buf` with their offsets, as every urilex batch and the
/// CLI read them: lines end at LF, a CR just before the LF is not part of
/// the line (any other CR is), the last line needs no LF, and an empty
/// buffer has none.
///
/// ```
/// let v: Vec<(usize, &[u8])> = urilex::lines(b"a\r\nb\n\nc\rd\n").collect();
/// assert_eq!(v, [(0, &b"a"[..]), (3, b"b"), (5, b""), (6, b"c\rd")]);
/// assert_eq!(urilex::lines(b"").count(), 0);
/// assert_eq!(urilex::lines(b"\n").count(), 1);
/// assert_eq!(urilex::lines(b"x").count(), 1);
/// ```
pub fn lines(buf: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let body = buf.strip_suffix(b"\n").unwrap_or(buf);
    let empty = buf.is_empty();
    let mut start = 0;
    memchr::memchr_iter(b'\n', body)
        .chain(core::iter::once(body.len()))
        .filter(move |_| !empty)
        .map(move |end| {
            let line = &body[start..end];
            let at = start;
            start = end + 1;
            (at, line.strip_suffix(b"\r").unwrap_or(line))
        })
}

#[cfg(feature = "rayon")]
fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    }
}

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
    parts: Vec<Vec<Record>>,
    /// Index of the first record of each part in use (the first
    /// `firsts.len()` parts).
    firsts: Vec<usize>,
    /// Spans of lines longer than `u16::MAX` bytes.
    long: Vec<Spans>,
    /// Length of the buffer given to `parse_lines`.
    buf_len: usize,
    /// Whether the references came from `parse_items` (then `line` is moot).
    from_items: bool,
    /// The profile the batch was parsed with.
    profile: Profile,
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
    fn rec(&self, i: usize) -> &Record {
        if self.firsts.len() <= 1 {
            return &self.parts[0][i];
        }
        assert!(i < self.len(), "index {i} out of a batch of {}", self.len());
        // The last part starting at or before `i` (empty parts share
        // their first with the next one).
        let k = self.firsts.partition_point(|&f| f <= i) - 1;
        &self.parts[k][i - self.firsts[k]]
    }

    /// Every record, in order.
    fn records(&self) -> impl Iterator<Item = &Record> {
        self.parts[..self.firsts.len()].iter().flatten()
    }

    /// Bytes of storage per reference (the records only).
    pub const RECORD_BYTES: usize = core::mem::size_of::<Record>();

    /// Parses every line of `buf` (lines end at LF; a CR just before the LF
    /// is not part of the line; the last line needs no LF). Replaces what
    /// the batch held.
    pub fn parse_lines(&mut self, parser: &Parser, buf: &[u8]) {
        self.clear(parser, buf.len(), false);
        let records = &mut self.parts[0];
        parse_buf(parser, buf, 0, &mut self.long, |r| records.push(r));
    }

    /// Parses each item (a slice of strings or byte strings).
    pub fn parse_items<S: AsRef<[u8]>>(&mut self, parser: &Parser, items: &[S]) {
        self.clear(parser, 0, true);
        for item in items {
            self.push(parser, 0, item.as_ref());
        }
    }

    /// [`parse_lines`](Self::parse_lines) across threads, keeping the order
    /// of the lines. Needs the `rayon` feature.
    ///
    /// It runs on the caller's rayon pool (inside `ThreadPool::install`) or
    /// on rayon's global pool, and never starts threads of its own; `threads`
    /// is how many of them to split the work for (0: every thread of that
    /// pool; 1: no splitting, on the calling thread).
    ///
    /// ```
    /// # #[cfg(feature = "rayon")] {
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let buf = "http://a/b\n".repeat(20_000);
    /// let mut batch = urilex::Batch::new();
    /// pool.install(|| batch.parse_lines_parallel(&urilex::Parser::new(), buf.as_bytes(), 0));
    /// assert_eq!(batch.len(), 20_000);
    /// # }
    /// ```
    ///
    /// The buffer is cut after line ends into pieces, and each thread fills
    /// the records of its pieces into their own parts of the batch: nothing
    /// counts the lines first, and nothing is copied afterwards.
    #[cfg(feature = "rayon")]
    pub fn parse_lines_parallel(&mut self, parser: &Parser, buf: &[u8], threads: usize) {
        use rayon::prelude::*;
        let threads = thread_count(threads);
        if threads <= 1 || buf.len() < 1 << 16 {
            return self.parse_lines(parser, buf);
        }
        let cuts = line_cuts(buf, threads * 8);
        let pieces: Vec<(usize, usize)> = cuts.windows(2).map(|w| (w[0], w[1])).collect();
        self.clear(parser, buf.len(), false);
        // Parts kept from an earlier call keep their storage.
        let mut parts = core::mem::take(&mut self.parts);
        parts.resize_with(pieces.len(), Vec::new);
        let stream = buf.len() >= STREAM_FROM;
        let longs: Vec<Vec<Spans>> = pieces
            .par_iter()
            .zip(parts.par_iter_mut())
            .map(|(&(a, b), part)| {
                // `clear` above emptied every part.
                let mut long = Vec::new();
                parse_buf(parser, &buf[a..b], a, &mut long, |r| {
                    put_record(part, r, stream)
                });
                // Before the join hands the part to this thread's caller.
                if stream {
                    crate::scan::stream_fence();
                }
                long
            })
            .collect();
        self.parts = parts;
        self.firsts.clear();
        let mut first = 0;
        for p in &self.parts {
            self.firsts.push(first);
            first += p.len();
        }
        // Long lines' spans: renumber each part's into one side table.
        if longs.iter().any(|l| !l.is_empty()) {
            for (part, l) in self.parts.iter_mut().zip(longs) {
                let base = self.long.len() as u32;
                if base > 0 {
                    for r in part.iter_mut().filter(|r| r.status & LONG != 0) {
                        r.set_wide(r.wide() + base);
                    }
                }
                self.long.extend_from_slice(&l);
            }
        }
    }

    /// Empties the batch down to one part in use (a serial parse fills
    /// it). The others keep their storage for the next parallel parse.
    fn clear(&mut self, parser: &Parser, buf_len: usize, from_items: bool) {
        for p in &mut self.parts {
            p.clear();
        }
        if self.parts.is_empty() {
            self.parts.push(Vec::new());
        }
        self.firsts.clear();
        self.firsts.push(0);
        self.long.clear();
        self.profile = parser.get_profile();
        self.buf_len = buf_len;
        self.from_items = from_items;
    }

    fn push(&mut self, parser: &Parser, start: usize, line: &[u8]) {
        let rec = record(parser, start, line, &mut self.long);
        self.parts[0].push(rec);
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
        let kind = crate::error::ErrorKind::from_index(r.status - 1)?;
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
        let r = self.rec(i);
        if r.present & (1 << Component::Host as usize) == 0 {
            return None;
        }
        HostKind::from_index(r.host_kind)
    }

    /// Offset of reference `i`'s line in the buffer given to `parse_lines`.
    pub fn line_start(&self, i: usize) -> usize {
        self.rec(i).start as usize
    }

    /// The text of line `i` of `buf` (the buffer given to `parse_lines`).
    pub fn line<'b>(&self, i: usize, buf: &'b [u8]) -> &'b [u8] {
        let start = self.rec(i).start as usize;
        let end = match (i + 1 < self.len()).then(|| self.rec(i + 1)) {
            Some(next) => next.start as usize - 1,
            None => {
                let e = if self.from_items {
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
        let l = &buf[start..end];
        l.strip_suffix(b"\r").unwrap_or(l)
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
        let r = self.rec(i);
        let line = self.line(i, buf);
        let spans = if r.status & LONG != 0 {
            self.long[r.wide() as usize]
        } else {
            let mut spans = Spans::EMPTY;
            for c in 0..DEFAULT_SLOTS / 2 {
                if r.present & (1 << c) != 0 {
                    spans.slots[2 * c] = r.spans[2 * c] as u32;
                    spans.slots[2 * c + 1] = r.spans[2 * c + 1] as u32;
                }
            }
            spans.kind = r.host_kind;
            spans
        };
        // Valid references are ASCII in every grammar, so this holds.
        let text = core::str::from_utf8(line).map_err(|e| ParseError {
            kind: ErrorKind::InvalidCharacter,
            part: None,
            index: e.valid_up_to() as u32,
            byte: line.get(e.valid_up_to()).copied(),
            rule: "",
        })?;
        Ok(UriRef::from_spans(text, spans, self.profile))
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
    let mut count = |line: &[u8], valid: bool| {
        c.total += 1;
        if valid && line.len() < u32::MAX as usize {
            c.valid += 1;
        } else {
            match parser.verdict(line) {
                Ok(()) => c.valid += 1,
                Err(e) => c.invalid[e.kind as usize] += 1,
            }
        }
    };
    let Some(d) = parser.line_dfa() else {
        for (_, line) in lines(buf) {
            count(line, false);
        }
        return c;
    };
    scan_lines(
        buf,
        |pos| d.run_from(buf, pos),
        |_, line, s| count(line, s.is_some_and(|s| d.accept[s as usize])),
    );
    c
}

/// The lines of `buf` as runs of a DFA that stops at line ends find them.
/// No URI has an LF or a CR, so a run from a line's start (`run(pos)`:
/// where it stopped, and what it found) stops at the end of a valid line:
/// no separate search for line ends. A line the run gives up on earlier is
/// invalid; only then is its end searched for (memchr). `each` gets the
/// line's start, the line, and the run's result when the run reached the
/// line's end (`None` for a line it gave up on). Lines are exactly those of
/// [`lines`]: a CR ends a line before an LF and at the end of the buffer.
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

/// The records of the lines of `buf` in order (`base` added to their
/// offsets). With a tagged DFA that stops at line ends, one run per line
/// over the buffer finds the line and its spans together (`scan_lines`); a
/// line it gives up on is parsed again on its own for the exact error.
fn parse_buf(
    parser: &Parser,
    buf: &[u8],
    base: usize,
    long: &mut Vec<Spans>,
    mut put: impl FnMut(Record),
) {
    let Some(t) = parser.line_tdfa() else {
        for (start, line) in lines(buf) {
            put(record(parser, base + start, line, long));
        }
        return;
    };
    scan_lines(
        buf,
        |pos| crate::parse::run_tdfa_from(t, buf, pos),
        |pos, line, spans| {
            put(match spans.flatten() {
                Some(s) if line.len() < u32::MAX as usize => {
                    let s = crate::uri_ref::with_path(s, line.len());
                    valid_record(base + pos, line, s, long)
                }
                _ => record(parser, base + pos, line, long),
            })
        },
    );
}

/// [`validate_lines`] across threads: on the caller's rayon pool or the
/// global one (never a pool of its own), the work split for `threads` of
/// them (0: all of the pool's).
#[cfg(feature = "rayon")]
pub fn validate_lines_parallel(parser: &Parser, buf: &[u8], threads: usize) -> Counts {
    use rayon::prelude::*;
    let threads = thread_count(threads);
    if threads <= 1 || buf.len() < 1 << 16 {
        return validate_lines(parser, buf);
    }
    let cuts = line_cuts(buf, threads * 8);
    let parts: Vec<Counts> = cuts
        .par_windows(2)
        .map(|w| validate_lines(parser, &buf[w[0]..w[1]]))
        .collect();
    let mut c = Counts::default();
    for p in &parts {
        c.add(p);
    }
    c
}

/// The record of a valid line: inlined into the hot loop, so the spans
/// go from the run's registers to the record without a round trip through
/// memory.
#[inline(always)]
fn valid_record(start: usize, line: &[u8], spans: Spans, long: &mut Vec<Spans>) -> Record {
    let mut rec = Record {
        start: start as u32,
        status: VALID,
        host_kind: spans.kind,
        err_component: u8::MAX,
        ..Record::default()
    };
    // Branch-free: a component is present when both its ends are set.
    // An absent span's halves are never read (`present` says so), so the
    // offsets are only narrowed, which compiles to a few vector moves.
    // Bit c from bits 2c and 2c + 1 of the unset slots.
    let inline: &[u32; DEFAULT_SLOTS] = spans
        .slots
        .first_chunk()
        .expect("MAX_SLOTS >= DEFAULT_SLOTS");
    let unset = u32::from(crate::scan::unset_mask(inline));
    let mut both = !(unset | unset >> 1) & 0x5555;
    both = (both | both >> 1) & 0x3333;
    both = (both | both >> 2) & 0x0f0f;
    both = (both | both >> 4) & 0x00ff;
    rec.present = both as u8;
    // Parts beyond the default grammar's (another profile's) do not fit
    // the record: such a reference keeps its spans in the side table.
    let extra = spans.slots[DEFAULT_SLOTS..].iter().any(|&s| s != NONE);
    if line.len() <= u16::MAX as usize && !extra {
        rec.spans = inline.map(|s| s as u16);
    } else {
        rec.status = LONG;
        rec.set_wide(long.len() as u32);
        long.push(spans);
    }
    rec
}

/// The record of one line (spans of a line over `u16::MAX` go to `long`):
/// for each item of `parse_items`, each line of a profile without a
/// line-stopping DFA, and the lines `parse_buf`'s run gave up on. Out of
/// line, so that `parse_buf`'s hot loop stays small.
#[inline(never)]
fn record(parser: &Parser, start: usize, line: &[u8], long: &mut Vec<Spans>) -> Record {
    match parser.spans(line) {
        Ok(spans) => valid_record(start, line, spans, long),
        Err(e) => error_record(parser, start, &e),
    }
}

/// The record of an invalid line.
#[cold]
fn error_record(parser: &Parser, start: usize, e: &ParseError) -> Record {
    let mut rec = Record {
        start: start as u32,
        status: e.kind as u8 + 1,
        host_kind: u8::MAX,
        err_component: e
            .part
            .and_then(|n| parser.get_profile().part(n))
            .map_or(u8::MAX, |p| p.index() as u8),
        ..Record::default()
    };
    rec.set_wide(e.index);
    rec.spans[2] = e.byte.map_or(0, |b| b as u16 + 1);
    rec.spans[3] = parser
        .get_profile()
        .tables()
        .rules
        .iter()
        .position(|r| *r == e.rule)
        .map_or(u16::MAX, |i| i as u16);
    rec
}

/// Cut points (0, ..., len) just after line ends, about `pieces` apart.
#[cfg(feature = "rayon")]
fn line_cuts(buf: &[u8], pieces: usize) -> Vec<usize> {
    let mut cuts = vec![0usize];
    for k in 1..pieces {
        let at = buf.len() * k / pieces;
        if at <= *cuts.last().unwrap_or(&0) {
            continue;
        }
        match memchr::memchr(b'\n', &buf[at..]) {
            Some(i) if at + i + 1 < buf.len() => cuts.push(at + i + 1),
            _ => break,
        }
    }
    cuts.push(buf.len());
    cuts
}
