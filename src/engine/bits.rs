//! The fast path: bytes classified once into bitmaps, and the generated
//! structure programs (`codegen/bitprog.rs`) run over them.
//!
//! The bitmaps hold, per 64-byte word and per run set of the profile
//! (`ProfileTables::runs`), the bytes *outside* the set, so that the end of
//! a run is one trailing-zero count away ([`Line::stop`]); a word's bitmaps
//! of every set lie together (a `Row`). No run set holds
//! an LF or a CR (the generator makes sure), so a run always stops at the
//! end of its line. A batch classifies its buffer a window at a time
//! ([`for_each_line`]): each byte once, with no work per line, and the
//! lines come from the line-end set's bitmap; there the runs of the sets
//! the generator marks also go on through valid escapes
//! ([`fold_escapes`]). A single input is classified on its own
//! ([`Single`]). The generated programs decide every choice without
//! backtracking and write the spans, or answer false when the line is
//! invalid or a choice is one the generator could not prove; the caller
//! then asks the exact engine, which gives the same spans or the exact
//! error.

use super::line::{Line, Sink};
use super::tables::{CountLoop, FastLoop, FastPath, ProfileTables};
use crate::scan::{row_classifier, ClassifyRows, Row, RowSets, MAX_CLASSES};

/// What a caller makes of the lines of a buffer that one entry's fast path
/// walks ([`fast_lines`]): the engine owns the loop, the bitmaps and the
/// generated program; the caller owns where a line's spans go and what the
/// line becomes (a batch builds its records). Generic, so that the loop,
/// the program and the sink's writes are compiled together, an instance
/// per entry.
pub(crate) trait LineSink {
    /// Where the fast path writes one line's spans.
    type Spans: Sink;
    /// An empty one, for the next line.
    fn spans(&self) -> Self::Spans;
    /// The fast path answered for the line at offset `at` of the buffer
    /// and wrote `spans`: true when the sink took the line, false to have
    /// it go to [`slow`](LineSink::slow) (spans it cannot hold).
    fn fast(&mut self, at: usize, spans: &Self::Spans) -> bool;
    /// The line at `at` that the fast path did not answer (invalid, a
    /// choice it cannot make, or longer than a window).
    fn slow(&mut self, at: usize, line: &[u8]);
}

/// The lines of `buf` in order, each through the batch fast path of
/// `profile`'s entry for `syntax` (over bitmaps with escapes folded into
/// the runs) into `sink`. False, with nothing done, when the entry has no
/// such loop (a profile that chooses its rule by the scheme, or an entry
/// without a fast path).
#[inline]
pub(crate) fn fast_lines<L: LineSink>(
    profile: super::Profile,
    syntax: super::Syntax,
    buf: &[u8],
    sink: &mut L,
) -> bool {
    profile.fast_loop(syntax, Lines { buf, sink }).is_some()
}

/// [`fast_lines`]' loop, which the generated code runs with the entry's
/// fast path.
struct Lines<'b, 's, L> {
    buf: &'b [u8],
    sink: &'s mut L,
}

impl<L: LineSink> FastLoop for Lines<'_, '_, L> {
    type Spans = L::Spans;
    type Out = ();

    #[inline(always)]
    fn run(self, t: &ProfileTables, fast: impl Fn(&Line<'_>, &mut L::Spans) -> bool) {
        let sink = self.sink;
        for_each_line(
            self.buf,
            &t.line_sets,
            #[inline(always)]
            |next| take(sink, &fast, next),
        );
    }
}

/// One line (or item) through the fast path `fast` into `sink`: its
/// spans when the fast path answers and the sink takes them, else to the
/// sink's slow path.
#[inline(always)]
fn take<L: LineSink>(
    sink: &mut L,
    fast: &impl Fn(&Line<'_>, &mut L::Spans) -> bool,
    next: Next<'_>,
) {
    let (at, line) = match next {
        Next::Fast(at, line) => {
            let mut spans = sink.spans();
            if fast(&line, &mut spans) && sink.fast(at, &spans) {
                return;
            }
            (at, line.bytes())
        }
        Next::Long(at, line) => (at, line),
    };
    sink.slow(at, line);
}

/// [`fast_lines`] over the items of a string column: `buf` holds them one
/// after another, item `i` ending at the `i`th of `ends` (the first starts
/// at 0); see [`for_each_item`].
#[inline]
pub(crate) fn fast_items<L: LineSink>(
    profile: super::Profile,
    syntax: super::Syntax,
    buf: &[u8],
    ends: impl Iterator<Item = usize>,
    sink: &mut L,
) -> bool {
    profile
        .fast_loop(syntax, Items { buf, ends, sink })
        .is_some()
}

/// [`fast_items`]' loop.
struct Items<'b, 's, I, L> {
    buf: &'b [u8],
    ends: I,
    sink: &'s mut L,
}

impl<I: Iterator<Item = usize>, L: LineSink> FastLoop for Items<'_, '_, I, L> {
    type Spans = L::Spans;
    type Out = ();

    #[inline(always)]
    fn run(self, t: &ProfileTables, fast: impl Fn(&Line<'_>, &mut L::Spans) -> bool) {
        let sink = self.sink;
        for_each_item(
            self.buf,
            0,
            self.ends,
            &t.line_sets,
            #[inline(always)]
            |next| take(sink, &fast, next),
        );
    }
}

/// The spanless fast path of `profile`'s entry for `syntax` over the
/// items of a string column (as [`fast_items`] takes them): `each` gets
/// every item in order and whether the fast path passed it (an item it
/// did not pass may still be valid: the exact engine decides). False,
/// with nothing done, when the entry has no such loop.
#[inline]
pub(crate) fn verdict_items(
    profile: super::Profile,
    syntax: super::Syntax,
    buf: &[u8],
    ends: impl Iterator<Item = usize>,
    each: &mut dyn FnMut(&[u8], bool),
) -> bool {
    profile
        .count_loop(syntax, Verdicts { buf, ends, each })
        .is_some()
}

/// [`verdict_items`]' loop.
struct Verdicts<'b, 's, I> {
    buf: &'b [u8],
    ends: I,
    each: &'s mut dyn FnMut(&[u8], bool),
}

impl<I: Iterator<Item = usize>> CountLoop for Verdicts<'_, '_, I> {
    type Out = ();

    #[inline(always)]
    fn run(self, t: &ProfileTables, valid: impl Fn(&Line<'_>) -> bool) {
        let each = self.each;
        for_each_item(
            self.buf,
            0,
            self.ends,
            &t.line_sets,
            #[inline(always)]
            |next| match next {
                Next::Fast(_, line) => each(line.bytes(), valid(&line)),
                Next::Long(_, line) => each(line, false),
            },
        );
    }
}

/// `validate_lines`' loop: how many lines of `buf` the spanless fast path
/// of `profile`'s entry for `syntax` passed; every other line goes to
/// `slow`. `None`, with nothing done, when the entry has no such loop.
#[inline]
pub(crate) fn count_lines(
    profile: super::Profile,
    syntax: super::Syntax,
    buf: &[u8],
    slow: &mut dyn FnMut(&[u8]),
) -> Option<usize> {
    profile.count_loop(syntax, Counted { buf, slow })
}

/// [`count_lines`]' loop.
struct Counted<'b, 's> {
    buf: &'b [u8],
    slow: &'s mut dyn FnMut(&[u8]),
}

impl CountLoop for Counted<'_, '_> {
    type Out = usize;

    #[inline(always)]
    fn run(self, t: &ProfileTables, valid: impl Fn(&Line<'_>) -> bool) -> usize {
        let slow = self.slow;
        let mut passed = 0;
        for_each_line(
            self.buf,
            &t.line_sets,
            #[inline(always)]
            |next| match next {
                Next::Fast(_, line) => {
                    if valid(&line) {
                        passed += 1;
                    } else {
                        slow(line.bytes());
                    }
                }
                Next::Long(_, line) => slow(line),
            },
        );
        passed
    }
}

/// Longest single input the fast path takes: four 64-bit words of bitmap.
pub(crate) const MAX_LINE: usize = 255;

// Single inputs and tokens are read right after they are classified:
// the kernels keep such runs' words whole (`scan::rows::NEAR_RUN`).
const _: () = assert!(MAX_LINE <= crate::scan::rows::NEAR_RUN);

/// Bytes of a batch classified at once.
const WINDOW: usize = 16 * 1024;

/// Bitmap words of a window: one more for its last bytes, and two more
/// that [`Line::stop`] and the LF search may read with the last.
const WORDS: usize = WINDOW / 64 + 3;

// Every line of a window, and every position in it, fits in 16 bits (a
// batch record's offsets).
const _: () = assert!(64 * WORDS <= 0xffff);

/// Rows of a single input or a token: four for [`MAX_LINE`] bytes, and one
/// more that [`Line::stop`] reads with the last.
const SHORT: usize = 5;

/// The bitmaps of one input of at most [`MAX_LINE`] bytes, on the stack:
/// `N` rows, more than the input's words (see [`fast_single`]).
pub(crate) struct Single<const N: usize = SHORT> {
    rows: [Row; N],
}

impl<const N: usize> Single<N> {
    /// Classifies `input` against `runs` (a profile's run sets, without
    /// its line-end set: `ProfileTables::single_sets`); every position
    /// from the input's end on is a stop. The row after the end's is
    /// cleared, not classified: a stop search reads it with the end's row,
    /// whose stop at the end comes first. Inlined, so that the rows are
    /// built where the caller keeps them.
    #[inline(always)]
    pub(crate) fn new(input: &[u8], runs: &RowSets) -> Single<N> {
        let mut rows = [[0u64; MAX_CLASSES]; N];
        classify_single(input, runs, &mut rows);
        Single { rows }
    }

    pub(crate) fn line<'a>(&'a self, input: &'a [u8]) -> Line<'a> {
        Line::new(input, 0, &self.rows)
    }
}

/// Classifies `input` into `rows` (cleared, more than the input's words;
/// see [`Single::new`]).
#[inline(always)]
fn classify_single(input: &[u8], runs: &RowSets, rows: &mut [Row]) {
    let words = input.len() / 64 + 1;
    assert!(words < rows.len(), "an input too long for its rows");
    row_classifier()(input, runs, rows);
    // Every position from the end on is a stop. In a last block shorter
    // than 64 bytes the kernel read zeros past the end, and NUL is in no
    // run set (`codegen/bitprog.rs` makes sure); an end on a block's
    // boundary lies in the cleared row after the blocks, which becomes all
    // stops. (OR-ing the end's mask into the row the kernel had just
    // stored read it back in wide loads that stalled on those stores.)
    if input.len().is_multiple_of(64) {
        rows[words - 1] = [!0; MAX_CLASSES];
    }
    fold_escapes(input, 0, &mut rows[..words], runs, None);
    crate::steps::add(input.len() + 1);
}

use super::tables::escape::escape_at;

/// Clears position `p`'s stop (in its row) in each set of `mask`.
#[inline(always)]
fn clear_stop(row: &mut Row, p: usize, mask: u16) {
    let keep = !(1u64 << (p % 64));
    let mut m = mask;
    while m != 0 {
        row[m.trailing_zeros() as usize] &= keep;
        m &= m - 1;
    }
}

/// Clears, in each run set of `sets.escapes()` (bit k: set k), the stop
/// at every `%` of the text `rows` classify (`text[origin..]`, word w of
/// `rows` its bytes from `origin + 64 w`) that begins a valid escape in
/// `text`. The generator folded escapes into those sets' runs
/// (`RowSets::with_escapes`): a leaf state whose run set it is loops
/// through `%` and two hex digits and nothing else, and the hex digits are
/// in the set, so that the run now goes on through them and the leaf takes
/// no step per escape; a `%` that begins no valid escape stays a stop,
/// where the leaf stops as it did.
///
/// The `%`s are looked for among the stops of one of those sets (the one
/// with the fewest: `RowSets::escape_probe`), less the line ends (stops
/// of every run set) where `lf` gives their set: in URI text few bytes
/// but `%`s, a `#` and the line's end stop a query's run. A search of the
/// text for `%` (memchr) cost more on text with few of them, and much more
/// on text with many (a call per `%`).
#[inline]
fn fold_escapes(text: &[u8], origin: usize, rows: &mut [Row], sets: &RowSets, lf: Option<usize>) {
    let mask = sets.escapes();
    if mask == 0 {
        return;
    }
    let probe = sets.escape_probe();
    for (w, row) in rows.iter_mut().enumerate() {
        let mut c = row[probe];
        if let Some(lf) = lf {
            c &= row[lf];
        }
        while c != 0 {
            let p = 64 * w + c.trailing_zeros() as usize;
            if escape_at(text, origin + p) {
                clear_stop(row, p, mask);
            }
            c &= c - 1;
        }
    }
}

/// `fast` over one input of at most [`MAX_LINE`] bytes: its spans, or
/// `None` where the fast path cannot tell. The rows are as many as the
/// input needs (two under 64 bytes, the most common; three under 128;
/// five), so that less is cleared.
#[cfg(test)]
#[inline(always)]
pub(crate) fn fast_single(input: &[u8], sets: &RowSets, fast: FastPath) -> Option<super::Spans> {
    let mut spans = super::Spans::EMPTY;
    fast_single_into(input, sets, fast, &mut spans).then_some(spans)
}

/// [`fast_single`] writing the spans into `spans` (which must be
/// `Spans::EMPTY`): where the caller keeps them (a `UriRef` being made), so
/// that they are not copied there afterwards. `false` where the fast path
/// cannot tell, and `spans` then holds what it had saved.
#[inline(always)]
pub(crate) fn fast_single_into(
    input: &[u8],
    sets: &RowSets,
    fast: FastPath,
    spans: &mut super::Spans,
) -> bool {
    #[inline(always)]
    fn with<const N: usize>(
        input: &[u8],
        sets: &RowSets,
        fast: FastPath,
        spans: &mut super::Spans,
    ) -> bool {
        // The rows are classified where they stay: built by `Single::new`
        // and moved here, they were copied (a `memcpy` call per input).
        let mut rows = [[0u64; MAX_CLASSES]; N];
        classify_single(input, sets, &mut rows);
        let line = Line::new(input, 0, &rows);
        fast(&line, spans)
    }
    match input.len() {
        0..64 => with::<2>(input, sets, fast, spans),
        64..128 => with::<3>(input, sets, fast, spans),
        _ => with::<SHORT>(input, sets, fast, spans),
    }
}

/// The bitmaps of a token in a text (extraction): up to [`MAX_LINE`] bytes
/// from its start, classified by the rows kernel against a profile's run
/// sets and, last, the set of bytes the token is made of, two blocks at a
/// time until the token's end is found. Kept from token to token: only the
/// words a token reaches are read.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    rows: [Row; SHORT],
}

impl Token {
    pub(crate) const fn new() -> Token {
        Token {
            rows: [[!0u64; MAX_CLASSES]; SHORT],
        }
    }

    /// Classifies `t[at..]` against `sets` (run sets, then the token's
    /// set) until a byte outside the last set, or the text's end: the
    /// token, or `None` past [`MAX_LINE`] bytes (see `scan::token_run`).
    #[inline]
    pub(crate) fn classify<'t>(
        &mut self,
        t: &'t [u8],
        at: usize,
        sets: &RowSets,
    ) -> Option<&'t str> {
        crate::scan::token_run(t, at, sets, &mut self.rows, MAX_LINE)
    }

    /// The line `t[at..at + len]` (`len` at most the token's length): with
    /// `cut`, every position from `len` on becomes a stop in every run set.
    /// Without, the caller knows it is one: the token's end is a byte
    /// outside the token's set, and so outside each run set that lies in
    /// it, or the text's end, which the kernel reads as NUL.
    #[inline]
    pub(crate) fn line<'a>(
        &'a mut self,
        t: &'a [u8],
        at: usize,
        len: usize,
        cut: bool,
    ) -> Line<'a> {
        debug_assert!(len <= MAX_LINE);
        if cut {
            for s in self.rows[len / 64].iter_mut() {
                *s |= !0u64 << (len & 63);
            }
        }
        Line::new(&t[at..at + len], 0, &self.rows)
    }
}

/// One line of a batch: its start in the buffer, and the line with its
/// bitmaps, or the bare line when it is longer than a window.
pub(crate) enum Next<'a> {
    Fast(usize, Line<'a>),
    Long(usize, &'a [u8]),
}

/// A batch window's bitmaps (see `Line::rows`), on the stack (18 KB), so
/// that a batch allocates nothing.
pub(crate) type WindowRows = [Row; WORDS];

/// Classifies the window of `buf` that starts at `at` into `rows`: its end
/// (`WINDOW` bytes on, or the buffer's) and its words. Out of line and
/// apart from the loop's state, which stays in registers.
#[inline(never)]
fn classify_window(
    buf: &[u8],
    at: usize,
    sets: &RowSets,
    kern: ClassifyRows,
    rows: &mut WindowRows,
) -> (usize, usize) {
    let end = (at + WINDOW).min(buf.len());
    let words = (end - at) / 64 + 1;
    // The window's words, the last one cut short at the buffer's end.
    let last = (at + 64 * words).min(buf.len());
    kern(&buf[at..last], sets, &mut rows[..words]);
    // Past the buffer's end: a stop in every run set, and no LF. (An LF in
    // the last word past the window's end is a real one, and every byte
    // before it is classified: its line is taken here.)
    if end == buf.len() {
        let m = !0u64 << ((end - at) & 63);
        for s in rows[words - 1].iter_mut() {
            *s |= m;
        }
    }
    // An escape's hex digits are read in the buffer: a line's end (LF, CR)
    // or the buffer's is no hex digit.
    fold_escapes(
        buf,
        at,
        &mut rows[..words],
        sets,
        Some(sets.sets().len() - 1),
    );
    crate::steps::add(end - at + 1);
    (end, words)
}

/// The first word of `rows[from..words]` with an LF, and its LFs: where
/// a line goes on through three words or more (out of line).
#[cold]
#[inline(never)]
fn far_line_end(rows: &WindowRows, lf: usize, from: usize, words: usize) -> Option<(usize, u64)> {
    (from..words).find_map(|w| {
        let l = !rows[w][lf];
        (l != 0).then_some((w, l))
    })
}

/// Calls `each` with every line of `buf` in order, classified a window at a
/// time against `runs` (a profile's run sets with the line-end set last:
/// `ProfileTables::line_sets`): each byte once, with no work per line, and
/// the lines found by clearing the lowest bit of the line-end set's word
/// (or taking one of the next two words' when it has none left; past
/// them, out of line), so that the search for a line's end does not wait
/// for the previous line's end. Lines are exactly those of `batch::lines`:
/// an LF ends one, a CR before it (or before the buffer's end) is not part
/// of it. A line longer than a window comes bare, its end found by memchr.
///
/// Inlined into each caller with its `each`, so that the loop's state and
/// the line stay in registers and the fast path is inlined too.
#[inline(always)]
pub(crate) fn for_each_line(buf: &[u8], runs: &RowSets, mut each: impl FnMut(Next<'_>)) {
    let kern = row_classifier();
    // (At most the last of a row's words: no bounds check where it is read.)
    let lf = (runs.sets().len() - 1).min(MAX_CLASSES - 1);
    let mut rows: WindowRows = [[0; MAX_CLASSES]; WORDS];
    // The next line's start.
    let mut pos = 0;
    'windows: while pos < buf.len() {
        // A window from the next line's start: its first byte in `buf`,
        // its end, its words; the word of the line-end bitmap the next LF
        // is looked for in, and its LFs not yet taken.
        let start = pos;
        let (end, words) = classify_window(buf, start, runs, kern, &mut rows);
        // The two words after the window's have no LF, so that the next
        // two words are read without a check (`words + 1 < WORDS`).
        rows[words][lf] = !0;
        rows[words + 1][lf] = !0;
        let mut word = 0;
        let mut lfs = !rows[0][lf];
        loop {
            // The next LF, in this word or one of the next two: which of
            // them is chosen without a branch (a branch on whether this
            // word has one more was mispredicted about once in three lines;
            // with only the next word to choose from, once in four lines of
            // userbait, whose lines are longer). (One bounds check for the
            // two words.)
            let two: &[Row; 2] = rows[word + 1..word + 3].try_into().expect("two rows");
            let (n1, n2) = (!two[0][lf], !two[1][lf]);
            let stop = if lfs | n1 | n2 != 0 {
                let on = usize::from(lfs == 0) + usize::from(lfs | n1 == 0);
                lfs = if lfs != 0 {
                    lfs
                } else if n1 != 0 {
                    n1
                } else {
                    n2
                };
                word += on;
                start + 64 * word + lfs.trailing_zeros() as usize
            } else if let Some((w, l)) = far_line_end(&rows, lf, word + 3, words) {
                (word, lfs) = (w, l);
                start + 64 * word + lfs.trailing_zeros() as usize
            } else if end == buf.len() {
                buf.len()
            } else if start < pos {
                // The line goes on past this window: a window from its
                // start.
                continue 'windows;
            } else {
                // Longer than a window: the bare line.
                let at = pos;
                let lf = memchr::memchr(b'\n', &buf[at..]).map_or(buf.len(), |p| at + p);
                let end = if buf[lf - 1] == b'\r' { lf - 1 } else { lf };
                each(Next::Long(at, &buf[at..end]));
                pos = lf + 1;
                continue 'windows;
            };
            lfs &= lfs.wrapping_sub(1);
            let at = pos;
            let end_of_line = if stop > at && buf[stop - 1] == b'\r' {
                stop - 1
            } else {
                stop
            };
            each(Next::Fast(
                at,
                Line::new(&buf[start..end_of_line], at - start, &rows),
            ));
            pos = stop + 1;
            if pos >= end {
                continue 'windows;
            }
        }
    }
}

/// Calls `each` with every item of `buf` in order, where item `i` is
/// `buf[ends[i - 1]..ends[i]]` (item 0 starts at `first`): a string
/// column's values, which no line end separates. Classified a window at a
/// time as [`for_each_line`] does, each byte once; the items come from the
/// offsets instead of the line-end bitmap, and every byte of an item is
/// its own (an LF or a CR in one is a byte the grammar rejects, not a line
/// end). `ends` must not decrease, start at or after `first`, nor pass
/// `buf`'s end.
///
/// The runs must stop at an item's end, where the next item's first byte
/// lies: while an item is taken, its end is made a stop in every run set
/// (in the one word it falls in, put back after). So is a `%` in its last
/// two bytes in the sets whose runs go through escapes: the escape's hex
/// digits were read across the item's end, in the next item.
#[inline(always)]
pub(crate) fn for_each_item(
    buf: &[u8],
    first: usize,
    ends: impl IntoIterator<Item = usize>,
    runs: &RowSets,
    mut each: impl FnMut(Next<'_>),
) {
    let kern = row_classifier();
    let escapes = runs.escapes();
    let mut rows: WindowRows = [[0; MAX_CLASSES]; WORDS];
    // The window: its first byte in `buf`, and its end: an item that ends
    // there or before lies in its bitmaps (the word of its end included).
    let (mut start, mut end, mut fresh) = (first, first, true);
    let mut at = first;
    for stop in ends {
        if stop > end || fresh {
            // A window from the item's start.
            (start, fresh) = (at, false);
            (end, _) = classify_window(buf, start, runs, kern, &mut rows);
            if stop > end {
                // Longer than a window: the bare item.
                each(Next::Long(at, &buf[at..stop]));
                at = stop;
                continue;
            }
        }
        let p = stop - start;
        let (w, bit) = (p / 64, 1u64 << (p % 64));
        let saved = rows[w];
        for s in rows[w].iter_mut() {
            *s |= bit;
        }
        // A `%` one or two bytes before the end begins no escape (rare:
        // marked out of line). Its stops are not taken back: they lie
        // before the next item's start, and a run is read from its own
        // position on only.
        if escapes != 0
            && ((stop > at && buf[stop - 1] == b'%') || (stop > at + 1 && buf[stop - 2] == b'%'))
        {
            mark_tail_percents(&mut rows, p, &buf[at..stop], escapes);
        }
        each(Next::Fast(
            at,
            Line::new(&buf[start..stop], at - start, &rows),
        ));
        // The end's stop taken back: the next item starts there.
        rows[w] = saved;
        at = stop;
    }
}

/// [`for_each_item`]'s `%` one or two bytes before the end of `item`,
/// which ends at `p` in the window: a stop in each set of `escapes`.
#[cold]
#[inline(never)]
fn mark_tail_percents(rows: &mut WindowRows, p: usize, item: &[u8], escapes: u16) {
    for back in [1, 2] {
        if item.len() >= back && item[item.len() - back] == b'%' {
            let q = p - back;
            for (set, s) in rows[q / 64].iter_mut().enumerate() {
                if escapes & (1 << set) != 0 {
                    *s |= 1u64 << (q % 64);
                }
            }
        }
    }
}

/// Every fast path of every profile against the exact engine (the entry's
/// program) on one input: where a fast path answers, its spans and kind
/// must be the program's, and it may not answer for an input the program
/// rejects. How many fast paths answered, or what differed. For the
/// `fast_path` fuzz target (feature `internals`) and the unit tests.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub(crate) fn check_all(input: &[u8]) -> Result<usize, String> {
    if input.len() > MAX_LINE {
        return Ok(0);
    }
    let mut answered = 0;
    for &p in crate::Profile::ALL {
        let t = p.tables();
        let single = Single::<SHORT>::new(input, &t.single_sets);
        let line = single.line(input);
        // The batch variant runs over bitmaps with escapes folded into the
        // runs (`RowSets::with_escapes`), as a batch's are.
        let sets = t.single_sets.clone().with_escapes(t.line_sets.escapes());
        let folded = Single::<SHORT>::new(input, &sets);
        let folded = folded.line(input);
        for e in t.programs() {
            if e.fast.is_none() {
                continue;
            }
            if check_entry(p, e, input, &line, &folded)?.is_some() {
                answered += 1;
            }
        }
    }
    Ok(answered)
}

/// Entry `e`'s fast path (it has one) on `input`, whose bitmaps are
/// `line` and, with escapes folded into the runs as a batch's are,
/// `folded`: the spanless and batch variants answer when it does, the
/// batch variant writes the same spans and kind, and where it answers its
/// spans are the program's. Its answer, or what differed (see
/// [`check_all`]).
#[cfg_attr(not(any(test, feature = "internals")), allow(dead_code))]
pub(crate) fn check_entry(
    p: crate::Profile,
    e: &super::Entry,
    input: &[u8],
    line: &Line<'_>,
    folded: &Line<'_>,
) -> Result<Option<super::Spans>, String> {
    let t = p.tables();
    let what = || format!("{p:?} {} on {:?}", e.rule, String::from_utf8_lossy(input));
    let fast = e.fast.ok_or_else(|| format!("{}: no fast path", what()))?;
    let mut spans = super::Spans::EMPTY;
    let ok = fast(line, &mut spans);
    let (Some(valid), Some(batch)) = (e.valid, e.batch) else {
        return Err(format!(
            "{}: a fast path without its spanless or batch variant",
            what()
        ));
    };
    if valid(line) != ok {
        return Err(format!(
            "{}: the spanless fast path says {}, the other {ok}",
            what(),
            !ok
        ));
    }
    let mut folded_spans = super::Spans::EMPTY;
    let rec = batch(folded, &mut folded_spans);
    if rec != ok || (ok && folded_spans != spans) {
        return Err(format!(
            "{}: the batch variant says {rec} ({folded_spans:?}), the fast path {ok} ({spans:?})",
            what()
        ));
    }
    if !ok {
        return Ok(None);
    }
    let want = super::run_program(t, e.ops, input);
    if want != Some(spans) {
        return Err(format!("{}: fast path {spans:?}, program {want:?}", what()));
    }
    Ok(want)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// References with escapes in every component, whole, cut short and
    /// broken (`%`, `%4`, `%4g`, `%%41`), placed so that the `%` falls on
    /// every offset around a word's end and the line's end.
    fn escape_inputs() -> Vec<Vec<u8>> {
        let bases = [
            "http://u%41:p@h%4a.example:80/a%2Fb/c?q%3D=%41#f%7e",
            "mailto:a%40b?subject=%20x",
            "//h%41/p%41?%41",
            "p%41/q%41?r%41#s%41",
            "urn:example:a%41b?+c%41?=d%41#e%41",
            "ftp://u%41:p%42@h/a%2Fb;type=a",
        ];
        let pieces = ["%", "%4", "%41", "%4g", "%%41", "%g1", "%41%42"];
        let mut out = Vec::new();
        for base in bases {
            out.push(base.as_bytes().to_vec());
            for at in 0..=base.len() {
                for piece in pieces {
                    let mut v = base.as_bytes()[..at].to_vec();
                    v.extend_from_slice(piece.as_bytes());
                    v.extend_from_slice(&base.as_bytes()[at..]);
                    out.push(v.clone());
                    // The `%` at every offset around the first word's end.
                    for pad in 58 - at.min(58)..66 - at.min(58) {
                        let mut w = b"http://h/".to_vec();
                        w.resize(9 + pad, b'a');
                        w.extend_from_slice(&v);
                        out.push(w);
                    }
                }
            }
        }
        out
    }

    /// `inputs` as the lines of one buffer.
    fn lines_buffer(inputs: &[Vec<u8>]) -> Vec<u8> {
        let mut buf = Vec::new();
        for i in inputs {
            buf.extend_from_slice(i);
            buf.push(b'\n');
        }
        buf
    }

    /// `validate_lines` and `Batch::parse_lines` over `buf` (the lines
    /// `inputs`) agree with `parser` on each line alone: the verdicts, the
    /// host kinds and every span.
    fn batch_matches_single(parser: &crate::Parser, inputs: &[Vec<u8>], buf: &[u8]) {
        let p = parser.get_profile();
        let c = crate::validate_lines(parser, buf);
        let valid = inputs
            .iter()
            .filter(|i| parser.parse_bytes(i).is_ok())
            .count();
        assert_eq!((c.total, c.valid), (inputs.len(), valid), "{p:?}");
        let mut batch = crate::Batch::new();
        batch.parse_lines(parser, buf);
        for (n, i) in inputs.iter().enumerate() {
            let want = parser.parse_bytes(i);
            assert_eq!(
                batch.is_valid(n),
                want.is_ok(),
                "{p:?} {:?}",
                String::from_utf8_lossy(i)
            );
            if let Ok(u) = want {
                assert_eq!(batch.host_kind(n), u.host_kind(), "{p:?}");
                for c in crate::Component::ALL {
                    assert_eq!(
                        batch.span(n, c),
                        u.span(c),
                        "{p:?} {c:?} {:?}",
                        String::from_utf8_lossy(i)
                    );
                }
            }
        }
    }

    /// The fast paths, whose runs go on through escapes, against the exact
    /// programs on every input of [`escape_inputs`], in every profile.
    #[test]
    fn escapes_folded_into_runs_change_no_answer() {
        let mut answered = 0;
        for i in escape_inputs() {
            answered += check_all(&i).unwrap();
        }
        // Most of them are valid in some profile: the fast paths answered
        // (6,457 with RFC 3986 alone, over 10,000 with every profile).
        let floor = if crate::Profile::ALL.len() == 1 {
            6_000
        } else {
            10_000
        };
        assert!(answered > floor, "{answered}");
        assert!(crate::Profile::ALL
            .iter()
            .any(|p| p.tables().line_sets.escapes() != 0));
    }

    /// Single inputs of every length up to `MAX_LINE`, so that the end
    /// falls on every place of a block and on its boundary (where the row
    /// after the blocks becomes all stops): the fast path gives the
    /// program's spans, for valid inputs and for one cut by a space.
    #[test]
    fn single_inputs_end_anywhere_in_a_block() {
        let t = crate::Profile::Rfc3986.tables();
        let e = t.entries[0].as_ref().unwrap();
        let fast = e.fast.unwrap();
        for len in 1..=MAX_LINE {
            for head in ["http://h/", "//h", "?", "a%41"] {
                let mut v = head.as_bytes().to_vec();
                v.resize(len.max(v.len()), b'a');
                let want = super::super::run_program(t, e.ops, &v);
                assert!(want.is_some(), "{len}");
                assert_eq!(fast_single(&v, &t.single_sets, fast), want, "{len} {head}");
                // The same with its last byte outside every run set.
                *v.last_mut().unwrap() = b' ';
                assert_eq!(fast_single(&v, &t.single_sets, fast), None, "{len} {head}");
            }
        }
    }

    /// Authorities of every shape: userinfo with and without `:`, escapes
    /// whole and broken on both sides of the `@`, an `@` or a `:` where a
    /// host or a port should be, IP literals, ports, empty parts.
    fn authority_inputs() -> Vec<Vec<u8>> {
        let users = [
            "",
            "@",
            "u@",
            "u:p@",
            ":@",
            "u%41@",
            "u%4@",
            "%41:%42@",
            "u:p:q@",
            "u%3A@",
            "a.b-c~d!$&'()*+,;=@",
        ];
        let hosts = [
            "",
            "h",
            "h.example",
            "h%41",
            "h%4",
            "h%g1",
            "%41",
            "1.2.3.4",
            "1.2.3",
            "256.1.1.1",
            "[::1]",
            "[v1.a:b]",
            "[v1.%41]",
            "h:",
            "h@x",
            "h:p@x",
            "u:p",
        ];
        let ports = ["", ":", ":80", ":8a", ":@", "::"];
        let tails = ["", "/", "/p%41", "?q", "#f", "/a@b:c"];
        let mut out = Vec::new();
        for u in users {
            for h in hosts {
                for port in ports {
                    for t in tails {
                        for scheme in ["http:", ""] {
                            out.push(format!("{scheme}//{u}{h}{port}{t}").into_bytes());
                        }
                    }
                }
            }
        }
        out
    }

    /// A prefix test that reads its leaf's match off the second branch's
    /// run (`bitprog::shared_run`: RFC 3986's userinfo off reg-name's) gives
    /// the programs' answers on every shape of authority, and the default
    /// grammar's fast path still answers for every valid one with a
    /// userinfo (it did before the runs were shared): where a userinfo
    /// follows, it is found.
    #[test]
    fn shared_runs_find_every_userinfo() {
        let inputs = authority_inputs();
        for i in &inputs {
            check_all(i).unwrap();
        }
        let t = crate::Profile::Rfc3986.tables();
        let e = t.entries[0].as_ref().unwrap();
        let fast = e.fast.unwrap();
        let mut with_userinfo = 0;
        for i in &inputs {
            let Some(want) = super::super::run_program(t, e.ops, i) else {
                continue;
            };
            let got = fast_single(i, &t.single_sets, fast);
            // IP literals aside, every valid line has a fast answer.
            if !i.contains(&b'[') {
                assert_eq!(got, Some(want), "{:?}", String::from_utf8_lossy(i));
            }
            let userinfo = want.get(crate::Component::Userinfo).is_some();
            with_userinfo += usize::from(userinfo && got.is_some());
        }
        assert!(with_userinfo > 1000, "{with_userinfo}");
        // The same in a batch: the batch variant and the counting loop.
        batch_matches_single(&crate::Parser::new(), &inputs, &lines_buffer(&inputs));
    }

    /// The line loop's lines are `urilex::lines`' lines: ended by LF, by
    /// CR LF, a lone CR inside a line, a CR at the buffer's end, empty
    /// lines, lines longer than a window, and the line around each
    /// window's end cut at every offset near it (its LF, its CR or an
    /// escape on the boundary), with and without a last LF. `validate_lines` and
    /// `Batch::parse_lines` agree with `urilex::lines` and each line parsed
    /// alone.
    #[test]
    fn batch_lines_are_the_lines_of_urilex_lines() {
        let parser = crate::Parser::new();
        let bodies: [&[u8]; 8] = [
            b"http://h/p",
            b"http://h/p%41",
            b"http://h/p\rq",
            b"",
            b"//h:80/p?q#f",
            b"http://h/p%4",
            b"a b",
            b"http://[::1]/",
        ];
        let ends: [&[u8]; 3] = [b"\n", b"\r\n", b"\r"];
        let check = |buf: &[u8]| {
            let lines: Vec<(usize, &[u8])> = crate::lines(buf).collect();
            let want = lines
                .iter()
                .filter(|(_, l)| parser.parse_bytes(l).is_ok())
                .count();
            let c = crate::validate_lines(&parser, buf);
            assert_eq!((c.total, c.valid), (lines.len(), want));
            let mut batch = crate::Batch::new();
            batch.parse_lines(&parser, buf);
            assert_eq!(batch.len(), lines.len());
            for (n, &(at, line)) in lines.iter().enumerate() {
                assert_eq!(batch.line_start(n), at);
                assert_eq!(batch.line(n, buf), line, "line {n} at {at}");
                let alone = parser.parse_bytes(line);
                assert_eq!(batch.is_valid(n), alone.is_ok(), "line {n} at {at}");
                if let Ok(u) = alone {
                    for c in crate::Component::ALL {
                        assert_eq!(batch.span(n, c), u.span(c), "line {n} {c:?}");
                    }
                }
            }
        };
        // Every body with every end, and the buffer's end after each.
        for b in bodies {
            for e in ends {
                for tail in [&b""[..], b"http://x/"] {
                    let mut buf = b"http://a/\n".to_vec();
                    buf.extend_from_slice(b);
                    buf.extend_from_slice(e);
                    buf.extend_from_slice(tail);
                    check(&buf);
                    buf.extend_from_slice(b);
                    check(&buf);
                }
            }
        }
        // A line that ends at every offset around the first window's end.
        for b in bodies {
            for e in ends {
                for cut in WINDOW - 70..WINDOW + 70 {
                    let mut buf = Vec::new();
                    while buf.len() + 200 < cut {
                        buf.extend_from_slice(b"http://h.example/abc?d=e\n");
                    }
                    buf.extend_from_slice(b"http://h/");
                    buf.resize(cut.max(buf.len()), b'a');
                    buf.extend_from_slice(b);
                    buf.extend_from_slice(e);
                    buf.extend_from_slice(b"http://h/z\n");
                    check(&buf);
                }
            }
        }
        // Lines longer than a window, valid and not, between short ones.
        let mut buf = b"http://a/\n".to_vec();
        for (n, last) in [&b"b"[..], b"%4", b" "].iter().enumerate() {
            buf.extend_from_slice(b"http://h/");
            buf.resize(buf.len() + WINDOW + 100 * n, b'a');
            buf.extend_from_slice(last);
            buf.extend_from_slice(b"\r\nhttp://b/\n");
        }
        check(&buf);
    }

    /// The same lines in one buffer (escapes read across line ends, in
    /// windows): `validate_lines` and `parse_lines` agree with each line
    /// parsed alone.
    #[test]
    fn escapes_in_batches_match_single_lines() {
        let inputs = escape_inputs();
        let buf = lines_buffer(&inputs);
        for &p in crate::Profile::ALL {
            // Each line's batch fast path answers in the window as it does
            // alone, over bitmaps folded the same way.
            let t = p.tables();
            let sets = t.single_sets.clone().with_escapes(t.line_sets.escapes());
            for e in t.entries.iter().flatten() {
                // (The entries with a line loop: a profile that does not
                // choose its rule by the scheme.)
                let (Some(batch), true) = (e.batch, t.schemes.is_empty()) else {
                    continue;
                };
                let mut n = 0;
                for_each_line(&buf, &t.line_sets, |next| {
                    let Next::Fast(_, line) = next else {
                        panic!("no line is longer than a window")
                    };
                    let i = &inputs[n];
                    n += 1;
                    let alone = Single::<SHORT>::new(i, &sets);
                    let (mut a, mut b) = (super::super::Spans::EMPTY, super::super::Spans::EMPTY);
                    assert_eq!(
                        batch(&line, &mut a),
                        batch(&alone.line(i), &mut b),
                        "{p:?} {}: {:?}",
                        e.rule,
                        String::from_utf8_lossy(i)
                    );
                    // Positions count from the line's start.
                    assert_eq!(a, b);
                });
                assert_eq!(n, inputs.len());
            }
            batch_matches_single(&crate::Parser::new().profile(p), &inputs, &buf);
        }
    }
}
