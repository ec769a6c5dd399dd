//! One line as the generated fast paths read it: its bytes and the
//! bitmaps of its run sets ([`Line`]), and where they write what they find
//! ([`Sink`]). The bottom of the engine: it knows only the kernels' `Row`.

use crate::scan::Row;
use core::cell::Cell;

/// Whether byte `b` is in a 256-bit set.
#[inline(always)]
pub(crate) fn in_set(set: &[u64; 4], b: u8) -> bool {
    set[(b >> 6) as usize] & (1u64 << (b & 63)) != 0
}

/// Where a generated fast path writes what it finds: the spans' slots,
/// the host kind, and the profile's `fixed` mask (see `Spans`).
pub(crate) trait Sink {
    fn fixed(&mut self, fixed: u8);
    /// Slot `slot` is at `pos`; no save on the way here wrote it (a
    /// program with a fast path saves each slot at most once on a path:
    /// `codegen/bitprog.rs`, `eligible`).
    fn save(&mut self, slot: usize, pos: usize);
    fn kind(&mut self, kind: u8);
}

/// One line and the bitmaps it lies in. Positions are counted from the
/// bitmaps' start: the line starts at `start()`.
///
/// A line is closed (single inputs, tokens, a column's items: it ends
/// where its bytes do) or open (a batch's lines, [`Line::open`]): its
/// bytes go on past it to the end of what its bitmaps classify, and it
/// ends at the first LF, a CR before it not part of it, or at the
/// buffer's end. No run set holds an LF or a CR and no literal of a
/// grammar is one, so a program stops at the first of them: there it asks
/// [`Line::ends`], and the line loop needs no search for line ends.
pub(crate) struct Line<'a> {
    /// The bytes from the bitmaps' start to the line's end (closed), or
    /// to the end of what the bitmaps classify (open).
    b: &'a [u8],
    /// Where the line starts.
    base: usize,
    /// Bit j of `rows[w][k]` is set when byte `64 w + j` is not in run
    /// set k; the end of `b` is a stop in every run set.
    rows: &'a [Row],
    /// Open, and whether `b` ends where the buffer does (else it ends
    /// where the bitmaps do, which is no line end).
    open: Option<bool>,
    /// The line's end and the next line's start, once [`Line::ends`]
    /// found them.
    found: Cell<Option<(usize, usize)>>,
}

impl<'a> Line<'a> {
    /// The closed line `b[base..]` over `rows`, the bitmaps of `b` from
    /// its start.
    #[inline(always)]
    pub(crate) fn new(b: &'a [u8], base: usize, rows: &'a [Row]) -> Line<'a> {
        Line {
            b,
            base,
            rows,
            open: None,
            found: Cell::new(None),
        }
    }

    /// The open line from `base` in `b`, the bytes that `rows` classify
    /// (every run set's stop at `b`'s end); `last` when `b` ends where the
    /// buffer does.
    #[inline(always)]
    pub(crate) fn open(b: &'a [u8], base: usize, rows: &'a [Row], last: bool) -> Line<'a> {
        Line {
            b,
            base,
            rows,
            open: Some(last),
            found: Cell::new(None),
        }
    }
}

/// The first stop at or after `i` in `words` (a run of 64 bytes or more:
/// out of line). The line's end is a stop in every run set.
#[cold]
#[inline(never)]
fn far_stop(rows: &[Row], k: usize, i: usize) -> usize {
    let mut w = i >> 6;
    let mut m = rows[w][k] & (!0u64 << (i & 63));
    while m == 0 {
        w += 1;
        m = rows[w][k];
    }
    64 * w + m.trailing_zeros() as usize
}

impl<'a> Line<'a> {
    /// Where the line starts, in positions from the bitmaps' start.
    #[inline(always)]
    pub(crate) fn start(&self) -> usize {
        self.base
    }

    /// Where a line whose end is at `i` ends, and where the next one
    /// starts; `None` when `i` is not its end. A closed line ends at
    /// its bytes' end. An open one ends at an LF, at a CR before an LF or
    /// before the buffer's end, or at the buffer's end; the end of its
    /// bytes that is not the buffer's is none (the line goes on past its
    /// bitmaps).
    #[inline(always)]
    fn end_at(&self, i: usize) -> Option<(usize, usize)> {
        let Some(last) = self.open else {
            return (i == self.b.len()).then_some((i, i));
        };
        match self.b.get(i) {
            None => last.then_some((i, i)),
            Some(b'\n') => Some((i, i + 1)),
            Some(b'\r') => match self.b.get(i + 1) {
                Some(b'\n') => Some((i, i + 2)),
                None if last => Some((i, i + 1)),
                _ => None,
            },
            Some(_) => None,
        }
    }

    /// Whether the line ends at `i` (its program matched up to there):
    /// an open line keeps where, for [`Line::found`].
    #[inline(always)]
    pub(crate) fn ends(&self, i: usize) -> bool {
        match self.end_at(i) {
            Some(f) => {
                self.found.set(Some(f));
                true
            }
            None => false,
        }
    }

    /// Whether the line could end at `i` (a branch that may be empty can
    /// go on there), without keeping it.
    #[inline(always)]
    pub(crate) fn at_end(&self, i: usize) -> bool {
        self.end_at(i).is_some()
    }

    /// Where [`Line::ends`] found the line's end (the program matched),
    /// and the next line's start (positions from the bitmaps' start).
    #[inline(always)]
    pub(crate) fn found(&self) -> Option<(usize, usize)> {
        self.found.get()
    }

    /// A closed line's bytes.
    pub(crate) fn bytes(&self) -> &'a [u8] {
        debug_assert!(self.open.is_none(), "an open line has no known end");
        &self.b[self.base..]
    }

    /// The first position at or after `i` (from `start()` to the end of
    /// the line's bytes) whose byte is not in run set `k`, or that end.
    ///
    /// The 64 positions from `i` are read as one word from two, so that
    /// where a run crosses a word boundary is no branch: only a run of 64
    /// bytes or more takes another. The second word is read only when the
    /// first has no stop from `i` on, and then the line goes on into it; a
    /// set's words have one more at the end for the read itself.
    #[inline(always)]
    pub(crate) fn stop(&self, k: usize, i: usize) -> usize {
        let rows = self.rows;
        let w = i >> 6;
        // One bounds check for both words.
        let two = &rows[w..w + 2];
        let m = ((u128::from(two[1][k]) << 64 | u128::from(two[0][k])) >> (i & 63)) as u64;
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
        // A run of 64 bytes or more (long paths): the next 64 positions
        // the same way, then out of line.
        let m =
            ((u128::from(rows[w + 2][k]) << 64 | u128::from(rows[w + 1][k])) >> (i & 63)) as u64;
        if m != 0 {
            return i + 64 + m.trailing_zeros() as usize;
        }
        far_stop(rows, k, i + 128)
    }

    /// The byte at `i`, if `i` is before the end of the line's bytes (an
    /// open line's LF or CR is a byte: no literal matches it).
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    /// Whether the byte at `i` is in `set` (false at the end); the
    /// generated code tests sets of a few ranges with a `match` instead.
    #[allow(dead_code)]
    #[inline(always)]
    pub(crate) fn byte_in(&self, set: &[u64; 4], i: usize) -> bool {
        self.b.get(i).is_some_and(|&b| in_set(set, b))
    }

    /// Whether a branch whose FIRST set is `set` (and `end`) can go on at
    /// `i`.
    #[inline(always)]
    pub(crate) fn first(&self, set: &[u64; 4], end: bool, i: usize) -> bool {
        match self.b.get(i) {
            Some(&b) if in_set(set, b) => true,
            _ => end && self.at_end(i),
        }
    }
}
