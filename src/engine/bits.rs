//! The fast path: a line classified once into bitmaps, and the generated
//! structure programs (`codegen/bitprog.rs`) run over them.
//!
//! [`Line`] holds, per run set of the profile (`ProfileTables::runs`), a
//! bitmap of the line's bytes *outside* the set, with every position from
//! the line's end on set, so that the end of a run is one trailing-zero
//! count away ([`Line::stop`]). [`leaf`] runs a leaf DFA over a line: a
//! state with a run set jumps to the run's end, any other steps one byte.
//! The generated programs decide every choice without backtracking and
//! return the spans, or `None` when the line is invalid or a choice is one
//! the generator could not prove; the caller then asks the exact engine,
//! which gives the same spans or the exact error.

use crate::scan::{classify, MAX_CLASSES};

/// A generated fast path (`Entry::fast`): writes the spans and says
/// whether it could (the spans are then the program's).
pub(crate) type FastPath = fn(&Line<'_>, &mut super::Spans) -> bool;

/// Longest line the fast path takes: four 64-bit words of bitmap.
pub(crate) const MAX_LINE: usize = 255;

/// A line of at most [`MAX_LINE`] bytes and its bitmaps. One `Line` is
/// filled again for each line of a batch: only the words up to the one
/// holding the line's end are written, and only those are ever read.
pub(crate) struct Line<'a> {
    b: &'a [u8],
    /// `stops[w][k]`: bit j set when byte `64 w + j` is not in run set k
    /// or is at or past the end (for the line-end set, `k` last: set when
    /// the byte is not an LF).
    stops: [[u64; MAX_CLASSES]; 4],
}

/// The 64 bytes of `buf` at `at`, zero past its end (NUL is in no set).
#[inline(always)]
fn block<'b>(buf: &'b [u8], at: usize, pad: &'b mut [u8; 64]) -> &'b [u8; 64] {
    match buf.get(at..at + 64) {
        Some(s) => s.try_into().expect("64 bytes"),
        None => {
            let rest = buf.get(at..).unwrap_or(&[]);
            *pad = [0; 64];
            pad[..rest.len()].copy_from_slice(rest);
            pad
        }
    }
}

impl<'a> Line<'a> {
    pub(crate) fn new() -> Line<'a> {
        Line {
            b: &[],
            stops: [[!0; MAX_CLASSES]; 4],
        }
    }

    /// Marks the positions from the line's end on in every run set.
    #[inline(always)]
    fn end(&mut self, nk: usize) {
        let len = self.b.len();
        let w = &mut self.stops[len >> 6];
        for x in w.iter_mut().take(nk) {
            *x |= !0u64 << (len & 63);
        }
    }

    /// This line: a whole input of at most [`MAX_LINE`] bytes, against
    /// the run sets `runs` (a profile's, without its line-end set).
    #[inline]
    pub(crate) fn fill(&mut self, input: &'a [u8], runs: &[[u8; 16]]) {
        debug_assert!(input.len() <= MAX_LINE);
        let mut pad = [0u8; 64];
        for w in 0..=input.len() / 64 {
            classify(block(input, 64 * w, &mut pad), runs, &mut self.stops[w]);
        }
        self.b = input;
        self.end(runs.len());
        crate::steps::add(input.len() + 1);
    }

    /// This line: the one of `buf` that starts at `pos` (`pos <
    /// buf.len()`), found and classified in one pass; `runs` is a
    /// profile's run sets with the line-end set last. The line ends at an
    /// LF (a CR before it, or before the buffer's end, is not part of it)
    /// as in `batch::lines`. Returns where the next line starts, or `None`
    /// when the line is longer than [`MAX_LINE`].
    #[inline]
    pub(crate) fn fill_from(
        &mut self,
        buf: &'a [u8],
        pos: usize,
        runs: &[[u8; 16]],
    ) -> Option<usize> {
        let nk = runs.len() - 1;
        let rest = buf.len() - pos;
        let mut pad = [0u8; 64];
        let mut found = None;
        for w in 0..4 {
            let out = &mut self.stops[w];
            classify(block(buf, pos + 64 * w, &mut pad), runs, out);
            let avail = rest - 64 * w;
            let mut lf = !out[nk];
            if avail < 64 {
                lf &= (1u64 << avail) - 1;
            }
            if lf != 0 {
                let len = 64 * w + lf.trailing_zeros() as usize;
                found = Some((len, pos + len + 1));
                break;
            }
            if avail <= 64 {
                found = Some((rest, buf.len()));
                break;
            }
        }
        let (mut len, next) = found?;
        if len > 0 && buf[pos + len - 1] == b'\r' {
            len -= 1;
        }
        if len > MAX_LINE {
            return None;
        }
        self.b = &buf[pos..pos + len];
        self.end(nk);
        crate::steps::add(len + 1);
        Some(next)
    }

    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.b.len()
    }

    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.b
    }

    /// The first position at or after `i` (`i <= len`) whose byte is not
    /// in run set `k`, or the length.
    #[inline(always)]
    pub(crate) fn stop(&self, k: usize, i: usize) -> usize {
        let mut w = i >> 6;
        let mut m = self.stops[w & 3][k] & (!0u64 << (i & 63));
        // The bit at the length is set, and `i <= len <= 255`: the words
        // read are those `fill` wrote.
        while m == 0 {
            w += 1;
            m = self.stops[w & 3][k];
        }
        64 * w + m.trailing_zeros() as usize
    }

    /// The byte at `i`, if `i` is before the end.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    /// Whether the byte at `i` is in `set` (false at the end).
    #[inline(always)]
    pub(crate) fn byte_in(&self, set: &[u64; 4], i: usize) -> bool {
        self.b.get(i).is_some_and(|&b| super::in_set(set, b))
    }

    /// Whether a branch whose FIRST set is `set` (and `end`) can go on at
    /// `i`.
    #[inline(always)]
    pub(crate) fn first(&self, set: &[u64; 4], end: bool, i: usize) -> bool {
        match self.b.get(i) {
            Some(&b) => super::in_set(set, b),
            None => end,
        }
    }
}
