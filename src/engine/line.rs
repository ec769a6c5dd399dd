//! One line as the generated fast paths read it: its bytes and the
//! bitmaps of its run sets ([`Line`]), and where they write what they find
//! ([`Sink`]). The bottom of the engine: it knows only the kernels' `Row`.

use crate::scan::Row;

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
/// bitmaps' start: the line is `start()..end()`.
pub(crate) struct Line<'a> {
    /// The bytes from the bitmaps' start to the line's end.
    b: &'a [u8],
    /// Where the line starts.
    base: usize,
    /// Bit j of `rows[w][k]` is set when byte `64 w + j` is not in run
    /// set k; the line's end is a stop in every run set.
    rows: &'a [Row],
}

impl<'a> Line<'a> {
    /// The line `b[base..]` over `rows`, the bitmaps of `b` from its start.
    #[inline(always)]
    pub(crate) fn new(b: &'a [u8], base: usize, rows: &'a [Row]) -> Line<'a> {
        Line { b, base, rows }
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

    /// Where the line ends.
    #[inline(always)]
    pub(crate) fn end(&self) -> usize {
        self.b.len()
    }

    /// The line.
    pub(crate) fn bytes(&self) -> &'a [u8] {
        &self.b[self.base..]
    }

    /// The first position at or after `i` (`start() <= i <= end()`) whose
    /// byte is not in run set `k`, or the end.
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

    /// The byte at `i`, if `i` is before the end.
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
            Some(&b) => in_set(set, b),
            None => end,
        }
    }
}
