//! The fast path's classifier: 64-byte blocks against up to nine sets at
//! once, a bitmap word per set of the bytes outside it ([`Classify`] per
//! block, [`ClassifyRows`] per run of blocks), with its scalar twin. For
//! the batch's windows and single inputs (`engine::bits`) and extraction's
//! tokens ([`token_run`]). Kernels: AVX-512 VBMI with GFNI (rows only),
//! AVX-512 BW, AVX2, SSSE3, NEON.

use super::{Chosen, Cpu, Kernel};

/// Most sets a [`Classify`] kernel takes: a profile's run sets and the line end.
pub const MAX_CLASSES: usize = 9;

/// Runs of at most this many bytes are read right after they are
/// classified (a single input or a token: the fast path takes at most 255
/// bytes, `engine::bits::MAX_LINE`), so a kernel that stores a word's
/// parts apart joins them first for such runs (x86_64's AVX2 rows kernel):
/// a word read soon after its parts were stored apart waits for them all.
pub(crate) const NEAR_RUN: usize = 256;

/// A line classifier kernel: 64 bytes against up to [`MAX_CLASSES`] sets
/// at once, each a 16-byte low-nibble table (bit `h` of entry `l`: byte
/// `16 h + l` is in the set; ASCII only); bit i of `out[k]` is set when
/// `block[i]` is *not* in set k, written to `out[k * stride]` (so that a
/// window's bitmaps are filled set by set in place; `stride` 1 for one
/// block). The fast path's one pass over its input
/// (`engine::bits`), chosen once per batch or input (see [`classifier`]).
pub(crate) type Classify = fn(&[u8; 64], &[[u8; 16]], &mut [u64], usize);

static CLASSIFY: Chosen<Classify> = Chosen::new(pick_classify);

/// The best [`Classify`] kernel for this machine, chosen once.
#[inline]
pub(crate) fn classifier() -> Classify {
    CLASSIFY.get()
}

fn pick_classify(c: Cpu) -> Classify {
    #[cfg(target_arch = "x86_64")]
    {
        fn avx512(b: &[u8; 64], s: &[[u8; 16]], o: &mut [u64], n: usize) {
            // SAFETY: handed out only where `cpu` found AVX-512 BW (and F).
            unsafe { super::x86_64::classify_avx512(b, s, o, n) }
        }
        fn avx2(b: &[u8; 64], s: &[[u8; 16]], o: &mut [u64], n: usize) {
            // SAFETY: handed out only where `cpu` found AVX2.
            unsafe { super::x86_64::classify_avx2(b, s, o, n) }
        }
        fn ssse3(b: &[u8; 64], s: &[[u8; 16]], o: &mut [u64], n: usize) {
            // SAFETY: handed out only where `cpu` found SSSE3.
            unsafe { super::x86_64::classify_ssse3(b, s, o, n) }
        }
        if c.avx512 {
            return avx512;
        } else if c.avx2 {
            return avx2;
        } else if c.ssse3 {
            return ssse3;
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        fn neon(b: &[u8; 64], s: &[[u8; 16]], o: &mut [u64], n: usize) {
            // SAFETY: handed out only where `cpu` found NEON.
            unsafe { super::aarch64::classify_neon(b, s, o, n) }
        }
        if c.neon {
            return neon;
        }
    }
    let _ = c;
    classify_scalar
}

/// Whether `b` is in the set of low-nibble table `lo` (the high table is
/// `1 << h` for `h < 8`: no byte of 0x80 or more is in a set).
#[inline(always)]
pub(crate) const fn in_lo(lo: &[u8; 16], b: u8) -> bool {
    b < 0x80 && lo[(b & 15) as usize] & (1 << (b >> 4)) != 0
}

/// The scalar twin of the [`Classify`] kernels, one byte at a time: bit i
/// of `out[k]` set when `block[i]` is not in set k.
pub(crate) fn classify_scalar(block: &[u8; 64], sets: &[[u8; 16]], out: &mut [u64], stride: usize) {
    for (k, lo) in sets.iter().take(MAX_CLASSES).enumerate() {
        let mut m = 0u64;
        for (i, &b) in block.iter().enumerate() {
            m |= u64::from(!in_lo(lo, b)) << i;
        }
        out[k * stride] = m;
    }
}

/// One 64-byte block's bitmaps, one word per set (see [`Classify`]): the
/// fast path keeps a window's bitmaps word by word, so that the words of
/// every set for one place lie together and a set's index is a constant.
pub type Row = [u64; MAX_CLASSES];

/// The sets of a run of blocks ([`ClassifyRows`]), prepared once: the
/// nibble tables, and for the first eight sets one 128-entry table whose
/// entry `b` has bit k set when byte `b` is *not* in set k (the AVX-512
/// VBMI kernel's).
#[derive(Clone, Debug)]
pub struct RowSets {
    pub(in crate::scan) nibbles: [[u8; 16]; MAX_CLASSES],
    pub(in crate::scan) n: usize,
    /// The VBMI kernel's table (x86_64 only).
    #[cfg_attr(
        any(not(target_arch = "x86_64"), feature = "force-scalar"),
        allow(dead_code)
    )]
    pub(in crate::scan) outside: [u8; 128],
    /// Bit k: set k's stops leave out each `%` that begins a valid escape
    /// (see [`RowSets::with_escapes`]).
    pub(in crate::scan) escapes: u16,
    /// See [`RowSets::escape_probe`].
    pub(in crate::scan) probe: u8,
    /// The ninth set's one byte, when it holds one (a line end): the VBMI
    /// kernel compares with it instead of looking the nibbles up.
    #[cfg_attr(
        any(not(target_arch = "x86_64"), feature = "force-scalar"),
        allow(dead_code)
    )]
    pub(in crate::scan) ninth_byte: Option<u8>,
}

impl RowSets {
    /// `sets`: at most [`MAX_CLASSES`] low-nibble tables (see [`Classify`]).
    /// A `const fn`, so that the generated tables hold each profile's.
    pub const fn new(sets: &[[u8; 16]]) -> RowSets {
        let n = if sets.len() < MAX_CLASSES {
            sets.len()
        } else {
            MAX_CLASSES
        };
        let mut nibbles = [[0u8; 16]; MAX_CLASSES];
        let mut outside = [0xffu8; 128];
        let mut k = 0;
        while k < n {
            nibbles[k] = sets[k];
            let mut b = 0;
            while k < 8 && b < 128 {
                if in_lo(&sets[k], b as u8) {
                    outside[b] &= !(1 << k);
                }
                b += 1;
            }
            k += 1;
        }
        // The ninth set's byte, when it has exactly one.
        let ninth_byte = match (n == MAX_CLASSES, members(&nibbles[MAX_CLASSES - 1])) {
            (true, (1, last)) => Some(last),
            _ => None,
        };
        RowSets {
            nibbles,
            n,
            outside,
            escapes: 0,
            probe: 0,
            ninth_byte,
        }
    }

    /// The same, where the stops of each set k in `mask` (bit k) leave out
    /// each `%` that begins a valid escape (`%` and two hex digits): the
    /// generator folds escapes into those runs (`codegen/bitprog.rs`), and
    /// whoever classifies against these sets clears those stops
    /// (`engine::bits`). The kernels themselves classify bytes alone.
    ///
    /// Every `%` is a stop of each such set (its leaf loops through an
    /// escape, not through a `%` alone), so the stops of one of them are
    /// where escapes are looked for: the one of these sets with the fewest
    /// stops among the ASCII bytes, kept as [`RowSets::escape_probe`].
    pub const fn with_escapes(mut self, mask: u16) -> RowSets {
        self.escapes = mask;
        let mut fewest = usize::MAX;
        let mut k = 0;
        while k < self.n {
            if mask & (1 << k) != 0 {
                assert!(!in_lo(&self.nibbles[k], b'%'), "an escape set holds the %");
                let stops = 128 - members(&self.nibbles[k]).0;
                if stops < fewest {
                    fewest = stops;
                    self.probe = k as u8;
                }
            }
            k += 1;
        }
        self
    }

    /// The sets whose runs go on through escapes (see
    /// [`RowSets::with_escapes`]).
    pub(crate) fn escapes(&self) -> u16 {
        self.escapes
    }

    /// The set of [`RowSets::escapes`] whose stops are fewest: each `%`
    /// is one of them.
    pub(crate) fn escape_probe(&self) -> usize {
        self.probe as usize
    }

    /// The nibble tables.
    pub(crate) fn sets(&self) -> &[[u8; 16]] {
        &self.nibbles[..self.n]
    }
}

/// How many bytes a low-nibble table's set holds, and the last of them
/// (0 when none).
const fn members(lo: &[u8; 16]) -> (usize, u8) {
    let (mut count, mut last) = (0, 0);
    let mut b = 0;
    while b < 128 {
        if in_lo(lo, b as u8) {
            count += 1;
            last = b as u8;
        }
        b += 1;
    }
    (count, last)
}

/// A run of blocks: the `src.len().div_ceil(64)` blocks of `src` (at most
/// `rows.len()`) classified into `rows` (row w: block w, as [`Classify`]
/// with stride 1); a last block shorter than 64 bytes is read as if zeros
/// followed it (the caller makes the places past the end stops). The fast
/// path's classifier of a batch window, chosen once per batch (see
/// [`row_classifier`]); each kernel is its block kernel in a loop, but
/// for AVX-512 VBMI, which has its own.
pub(crate) type ClassifyRows = fn(&[u8], &RowSets, &mut [Row]);

/// The per-block kernel `kern` over a run of blocks (the twin of every
/// rows kernel, and the rows kernel of machines without one of its own).
#[inline(always)]
pub(crate) fn rows_by_blocks(
    kern: impl Fn(&[u8; 64], &[[u8; 16]], &mut [u64], usize),
    src: &[u8],
    sets: &RowSets,
    rows: &mut [Row],
) {
    let blocks = src.chunks_exact(64);
    let tail = blocks.remainder();
    let whole = blocks.len();
    for (block, row) in blocks.zip(rows.iter_mut()) {
        kern(block.try_into().expect("64 bytes"), sets.sets(), row, 1);
    }
    if let (false, Some(row)) = (tail.is_empty(), rows.get_mut(whole)) {
        let mut pad = [0u8; 64];
        pad[..tail.len()].copy_from_slice(tail);
        kern(&pad, sets.sets(), row, 1);
    }
}

static ROWS: Chosen<ClassifyRows> = Chosen::new(pick_rows);

/// The best [`ClassifyRows`] kernel for this machine, chosen once.
#[inline]
pub(crate) fn row_classifier() -> ClassifyRows {
    ROWS.get()
}

fn pick_rows(c: Cpu) -> ClassifyRows {
    #[cfg(target_arch = "x86_64")]
    {
        fn vbmi(src: &[u8], s: &RowSets, rows: &mut [Row]) {
            // SAFETY: handed out only where `cpu` found AVX-512 F, BW and
            // VBMI, and GFNI.
            unsafe { super::x86_64::classify_rows_vbmi(src, s, rows) }
        }
        fn avx512(src: &[u8], s: &RowSets, rows: &mut [Row]) {
            // SAFETY: handed out only where `cpu` found AVX-512 BW (and F).
            unsafe { super::x86_64::classify_rows_avx512(src, s, rows) }
        }
        fn avx2(src: &[u8], s: &RowSets, rows: &mut [Row]) {
            // SAFETY: handed out only where `cpu` found AVX2.
            unsafe { super::x86_64::classify_rows_avx2(src, s, rows) }
        }
        if c.vbmi {
            return vbmi;
        } else if c.avx512 {
            return avx512;
        } else if c.avx2 {
            return avx2;
        }
    }
    let _ = c;
    fn by_blocks(src: &[u8], s: &RowSets, rows: &mut [Row]) {
        rows_by_blocks(classifier(), src, s, rows)
    }
    by_blocks
}

/// Whether the rows kernel of this machine reads a short input's blocks
/// in place, with no zero-padded copy to read back (AVX-512 VBMI by a
/// masked load, AVX2 by `x86_64::tail_quarter`), so that classifying a
/// single input costs less than the tagged DFA's pass (see
/// `Parser::spans`).
#[inline]
pub(crate) fn rows_in_place() -> bool {
    let c = super::cpu();
    c.vbmi || (!c.avx512 && c.avx2)
}

/// A token, as extraction calls it: the run of the bytes of `sets`' last
/// set from `at` in `t`, classified into `rows` against every set of `sets`
/// (row w: the 64 bytes from `at + 64 w`) by this machine's rows kernel, two
/// blocks per call until the run ends. The run as a `str`, or `None` when
/// it is longer than `max` (at most 255: `rows` holds four words). A set
/// holds ASCII bytes only, so the run is ASCII and needs no second pass
/// over its bytes to become a `str`.
pub(crate) fn token_run<'t>(
    t: &'t [u8],
    at: usize,
    sets: &RowSets,
    rows: &mut [Row],
    max: usize,
) -> Option<&'t str> {
    assert!(rows.len() >= 4 && max < 256, "four words of rows");
    let kern = row_classifier();
    let last = sets.n.checked_sub(1)?;
    let rest = &t[at.min(t.len())..];
    let mut len = None;
    // One block first (most tokens, URIs, end in it), then the other three.
    for (from, to) in [(0, 64), (64, 256)] {
        let to = rest.len().min(to);
        let words = to.saturating_sub(from).div_ceil(64);
        // The kernel reads a short last block as if zeros followed: no
        // zero byte is in a set, so the text's end is a stop.
        kern(
            rest.get(from..to).unwrap_or(&[]),
            sets,
            &mut rows[from / 64..from / 64 + words],
        );
        if let Some(w) = (from / 64..from / 64 + words).find(|&w| rows[w][last] != 0) {
            len = Some(64 * w + rows[w][last].trailing_zeros() as usize);
            break;
        }
        if to == rest.len() {
            // Every byte to the text's end is in the set.
            len = Some(rest.len());
            break;
        }
    }
    let run = &rest[..len.filter(|&n| n <= max)?];
    // SAFETY: every byte of `run` is in the last set: the kernel sets a
    // byte's bit when the byte is outside it, and the run ends at the first
    // set bit (or at the text's end). No set holds a byte of 0x80 or more:
    // `RowSets` is built from nibble tables, whose high half has bits for
    // the nibbles 0-7 only, and the 128-entry table of the VBMI kernel
    // puts every byte from 0x80 outside every set (see the module docs and
    // `RowSets::new`); every kernel agrees with the scalar twin on every
    // byte value (`tests/scan.rs`). So `run` is ASCII, which is UTF-8.
    Some(unsafe { core::str::from_utf8_unchecked(run) })
}

/// `s` as a `str` when it is ASCII: a word-at-a-time check in place of
/// UTF-8 decoding, for the short ASCII slices extraction hands out off its
/// fast path (whose URIs come from `token_run`, with no check).
#[inline]
pub(crate) fn ascii_str(s: &[u8]) -> Option<&str> {
    if s.is_ascii() {
        // SAFETY: every ASCII byte sequence is valid UTF-8.
        Some(unsafe { core::str::from_utf8_unchecked(s) })
    } else {
        None
    }
}

/// A rows kernel of choice over `src` (for tests): the rows of its blocks
/// (a short last one read as if zeros followed), or `None` when this
/// machine cannot run it. Every per-block
/// kernel has its rows version (its loop); [`Kernel::Avx512Vbmi`] has
/// only this one.
#[doc(hidden)]
pub fn classify_rows_with(kernel: Kernel, src: &[u8], sets: &[[u8; 16]]) -> Option<Vec<Row>> {
    let sets = RowSets::new(sets);
    let mut rows = vec![[0u64; MAX_CLASSES]; src.len().div_ceil(64)];
    if !super::runs(kernel) {
        return None;
    }
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512Vbmi => {
            // SAFETY: the CPU supports AVX-512 F, BW, VBMI and GFNI
            // (`runs`, above).
            unsafe { super::x86_64::classify_rows_vbmi(src, &sets, &mut rows) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            // SAFETY: the CPU supports AVX-512 BW and F (`runs`, above).
            unsafe { super::x86_64::classify_rows_avx512(src, &sets, &mut rows) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            // SAFETY: the CPU supports AVX2 (`runs`, above).
            unsafe { super::x86_64::classify_rows_avx2(src, &sets, &mut rows) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Kernel::Avx512Vbmi => return None,
        k => {
            let block = [0u8; 64];
            classify_with(k, &block, sets.sets())?;
            rows_by_blocks(
                |b, s, o, _| {
                    o[..s.len()].copy_from_slice(&classify_with(k, b, s).unwrap()[..s.len()])
                },
                src,
                &sets,
                &mut rows,
            );
        }
    }
    Some(rows)
}

/// A [`Classify`] kernel of choice (for tests); `None` when this machine
/// cannot run it (SSE2 has no kernel of its own: it runs the scalar one
/// through [`classifier`]).
#[doc(hidden)]
pub fn classify_with(
    kernel: Kernel,
    block: &[u8; 64],
    sets: &[[u8; 16]],
) -> Option<[u64; MAX_CLASSES]> {
    let mut out = [0u64; MAX_CLASSES];
    if !super::runs(kernel) {
        return None;
    }
    match kernel {
        Kernel::Scalar => classify_scalar(block, sets, &mut out, 1),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            // SAFETY: the CPU supports AVX2 (`runs`, above).
            unsafe { super::x86_64::classify_avx2(block, sets, &mut out, 1) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            // SAFETY: the CPU supports AVX-512 BW and F (`runs`, above).
            unsafe { super::x86_64::classify_avx512(block, sets, &mut out, 1) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512Vbmi => {
            let rows = classify_rows_with(kernel, block, sets)?;
            out = rows[0];
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Ssse3 => {
            // SAFETY: the CPU supports SSSE3 (`runs`, above).
            unsafe { super::x86_64::classify_ssse3(block, sets, &mut out, 1) }
        }
        #[cfg(target_arch = "aarch64")]
        Kernel::Neon => {
            // SAFETY: the CPU supports NEON (`runs`, above).
            unsafe { super::aarch64::classify_neon(block, sets, &mut out, 1) }
        }
        _ => return None,
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `RowSets` derives from the profiles' line sets, whose last set
    /// is the line end: that set is the one-byte ninth the VBMI kernel
    /// compares with wherever a profile has nine sets (as RFC 3986 does),
    /// and the escape probe is one of the escape sets, with `%` a stop.
    #[test]
    fn line_sets_give_the_ninth_byte_and_the_escape_probe() {
        let mut nine = 0;
        for p in crate::Profile::ALL {
            let sets = &p.tables().line_sets;
            assert_eq!(members(sets.sets().last().unwrap()), (1, b'\n'));
            if sets.n == MAX_CLASSES {
                assert_eq!(sets.ninth_byte, Some(b'\n'), "{p:?}");
                nine += 1;
            } else {
                assert_eq!(sets.ninth_byte, None, "{p:?}");
            }
            if sets.escapes() != 0 {
                let k = sets.escape_probe();
                assert!(sets.escapes() & (1 << k) != 0, "{p:?}");
                assert!(!in_lo(&sets.sets()[k], b'%'), "{p:?}");
            }
        }
        assert!(nine > 0);
        assert_eq!(RowSets::new(&[[0u8; 16]; 9]).ninth_byte, None);
    }

    /// `token_run` against a byte-at-a-time run of the last set: runs
    /// ending inside each of the four blocks, at their edges, at the text's
    /// end and past the limit, with bytes of 0x80 and more around them.
    #[test]
    fn token_runs_match_the_last_set_byte_by_byte() {
        let mut letters = [0u8; 16];
        for b in b"abcdefghijklmnopqrstuvwxyz/.:" {
            letters[usize::from(b & 15)] |= 1 << (b >> 4);
        }
        let digits = {
            let mut d = [0u8; 16];
            for b in b"0123456789" {
                d[usize::from(b & 15)] |= 1 << (b >> 4);
            }
            d
        };
        let sets = RowSets::new(&[digits, letters]);
        let mut rows = [[0u64; MAX_CLASSES]; 5];
        for len in [
            0, 1, 63, 64, 65, 127, 128, 129, 191, 192, 200, 254, 255, 256, 300,
        ] {
            for (stop, end) in [(&b" "[..], true), (b"\xc3\xa9", true), (b"", false)] {
                for at in [0, 3] {
                    let mut t = b"\xff\x80x".to_vec();
                    t.truncate(at);
                    t.extend((0..len).map(|i| b"ab/.:z9"[i % 7]));
                    if end {
                        t.extend_from_slice(stop);
                        t.extend_from_slice(b"tail");
                    }
                    let want = t[at.min(t.len())..]
                        .iter()
                        .take_while(|&&b| in_lo(&letters, b))
                        .count();
                    let got = token_run(&t, at, &sets, &mut rows, 255);
                    let want = (want <= 255).then(|| &t[at..at + want]);
                    assert_eq!(
                        got.map(str::as_bytes),
                        want,
                        "len {len} at {at} stop {stop:?}"
                    );
                }
            }
        }
    }
}
