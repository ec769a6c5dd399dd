//! Byte classification for the DFA's hot loop: "skip while the byte is in
//! this set", sixteen or thirty-two bytes at a time. This module holds all
//! of urilex's `unsafe` code.
//!
//! The sets are the self-loop sets of DFA states, emitted by the generator
//! as two 16-byte nibble tables (`lo`, `hi`) from the same byte classes as
//! the scalar tables: byte `b` is in the set when
//! `lo[b & 15] & hi[b >> 4] != 0`. With `hi[h] = 1 << h` for `h < 8` and 0
//! above, this is exact for any set of ASCII bytes, and no byte of 0x80 or
//! more is ever in it. SSE2 has no byte shuffle, so the generator also
//! emits each set as byte ranges (`Ranges`), derived from the nibble
//! tables by [`ranges_of`], which the generator and the library share.
//! Kernels: `scalar` (always built, the reference), x86_64 SSE2,
//! SSSE3 and AVX2 (the best one chosen at run time), and aarch64 NEON. The
//! `force-scalar` feature uses the scalar kernel everywhere.
#![allow(unsafe_code)]

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

/// A byte set as nibble tables: `[lo; 16]` then `[hi; 16]`.
pub(crate) type Nibbles = [u8; 32];

/// The same set as ranges: `[n, start_0, span_0, start_1, span_1, ...]`;
/// byte `b` is in the set when `b.wrapping_sub(start_k) <= span_k` for some
/// `k < n`. `n` is `ranges::TOO_MANY` (0xff) for a set of more than 15
/// ranges (none of the bundled grammars has one; the SSE2 kernel then runs
/// scalar).
pub(crate) type Ranges = [u8; 32];

/// `codegen/ranges.rs`, as the build writes it beside the tables.
mod ranges {
    include!(concat!(env!("OUT_DIR"), "/ranges.rs"));
}
/// A nibble-table set as its maximal runs of consecutive bytes (see
/// `Ranges`); the generator emits every table with this same function.
#[doc(hidden)]
pub use ranges::ranges_of;

/// Which kernel the DFA skip loop uses on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// One byte at a time.
    Scalar,
    /// x86_64 SSE2, 16 bytes at a time, one compare per range of the set.
    Sse2,
    /// x86_64 SSSE3, 16 bytes at a time.
    Ssse3,
    /// x86_64 AVX2, 32 bytes at a time.
    Avx2,
    /// x86_64 AVX-512 (F and BW), 64 bytes at a time: only the fast
    /// path's line classifier (`Classify`) and extraction's colon marks
    /// have a kernel for it; the skip kernels use AVX2 there.
    Avx512,
    /// aarch64 NEON, 16 bytes at a time.
    Neon,
    /// x86_64 AVX-512 with VBMI and GFNI: only the batch's rows kernel
    /// (`ClassifyRows`): one 128-entry table lookup gives every set's bit
    /// of a byte, and a bit transpose turns them into the sets' words.
    Avx512Vbmi,
}

/// The kernel chosen for this machine (and build).
pub fn kernel() -> Kernel {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            Kernel::Avx2
        } else if std::arch::is_x86_feature_detected!("ssse3") {
            Kernel::Ssse3
        } else {
            Kernel::Sse2
        }
    }
    #[cfg(all(target_arch = "aarch64", not(feature = "force-scalar")))]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            Kernel::Neon
        } else {
            Kernel::Scalar
        }
    }
    #[cfg(any(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        feature = "force-scalar"
    ))]
    {
        Kernel::Scalar
    }
}

/// First index at or after `from` whose byte is not in the set (or the
/// length), with the best kernel for this machine.
#[inline]
pub(crate) fn skip(set: &Nibbles, ranges: &Ranges, input: &[u8], from: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            unsafe { x86_64::skip_avx2(set, input, from) }
        } else if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: the CPU supports SSSE3, checked just above.
            unsafe { x86_64::skip_ssse3(set, input, from) }
        } else {
            // SAFETY: every x86_64 CPU supports SSE2.
            unsafe { x86_64::skip_sse2(set, ranges, input, from) }
        }
    }
    #[cfg(all(target_arch = "aarch64", not(feature = "force-scalar")))]
    {
        let _ = ranges;
        if std::arch::is_aarch64_feature_detected!("neon") {
            // SAFETY: the CPU supports NEON, checked just above.
            unsafe { aarch64::skip_neon(set, input, from) }
        } else {
            scalar::skip(set, input, from)
        }
    }
    #[cfg(any(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        feature = "force-scalar"
    ))]
    {
        let _ = ranges;
        scalar::skip(set, input, from)
    }
}

/// Most sets a [`Classify`] kernel takes: a profile's run sets and the line end.
pub const MAX_CLASSES: usize = 9;

/// A line classifier kernel: 64 bytes against up to [`MAX_CLASSES`] sets
/// at once, each a 16-byte low-nibble table (bit `h` of entry `l`: byte
/// `16 h + l` is in the set; ASCII only); bit i of `out[k]` is set when
/// `block[i]` is *not* in set k, written to `out[k * stride]` (so that a
/// window's bitmaps are filled set by set in place; `stride` 1 for one
/// block). The fast path's one pass over its input
/// (`engine::bits`), chosen once per batch or input (see [`classifier`]).
pub(crate) type Classify = fn(&[u8; 64], &[[u8; 16]], &mut [u64], usize);

/// The best [`Classify`] kernel for this machine, as a function to call per
/// block without asking the CPU again (the batch's per-line classifier).
pub(crate) fn classifier() -> Classify {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        fn avx512(b: &[u8; 64], s: &[[u8; 16]], o: &mut [u64], n: usize) {
            // SAFETY: `classifier` hands this out only after detecting
            // AVX-512 BW (and so F).
            unsafe { x86_64::classify_avx512(b, s, o, n) }
        }
        fn avx2(b: &[u8; 64], s: &[[u8; 16]], o: &mut [u64], n: usize) {
            // SAFETY: `classifier` hands this out only after detecting
            // AVX2.
            unsafe { x86_64::classify_avx2(b, s, o, n) }
        }
        fn ssse3(b: &[u8; 64], s: &[[u8; 16]], o: &mut [u64], n: usize) {
            // SAFETY: `classifier` hands this out only after detecting
            // SSSE3.
            unsafe { x86_64::classify_ssse3(b, s, o, n) }
        }
        if std::arch::is_x86_feature_detected!("avx512bw") {
            return avx512;
        } else if std::arch::is_x86_feature_detected!("avx2") {
            return avx2;
        } else if std::arch::is_x86_feature_detected!("ssse3") {
            return ssse3;
        }
    }
    #[cfg(all(target_arch = "aarch64", not(feature = "force-scalar")))]
    {
        fn neon(b: &[u8; 64], s: &[[u8; 16]], o: &mut [u64], n: usize) {
            // SAFETY: `classifier` hands this out only after detecting
            // NEON.
            unsafe { aarch64::classify_neon(b, s, o, n) }
        }
        if std::arch::is_aarch64_feature_detected!("neon") {
            return neon;
        }
    }
    scalar::classify
}

/// One 64-byte block's bitmaps, one word per set (see [`Classify`]): the
/// fast path keeps a window's bitmaps word by word, so that the words of
/// every set for one place lie together and a set's index is a constant.
pub(crate) type Row = [u64; MAX_CLASSES];

/// The sets of a run of blocks ([`ClassifyRows`]), prepared once: the
/// nibble tables, and for the first eight sets one 128-entry table whose
/// entry `b` has bit k set when byte `b` is *not* in set k (the AVX-512
/// VBMI kernel's).
#[derive(Clone, Debug)]
pub struct RowSets {
    nibbles: [[u8; 16]; MAX_CLASSES],
    n: usize,
    /// The VBMI kernel's table (x86_64 only).
    #[cfg_attr(
        any(not(target_arch = "x86_64"), feature = "force-scalar"),
        allow(dead_code)
    )]
    outside: [u8; 128],
    /// Bit k: set k's stops leave out each `%` that begins a valid escape
    /// (see [`RowSets::with_escapes`]).
    escapes: u16,
    /// See [`RowSets::escape_probe`].
    probe: u8,
    /// The ninth set's one byte, when it holds one (a line end): the VBMI
    /// kernel compares with it instead of looking the nibbles up.
    #[cfg_attr(
        any(not(target_arch = "x86_64"), feature = "force-scalar"),
        allow(dead_code)
    )]
    ninth_byte: Option<u8>,
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
                if scalar::in_lo(&sets[k], b as u8) {
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
                assert!(
                    !scalar::in_lo(&self.nibbles[k], b'%'),
                    "an escape set holds the %"
                );
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
        if scalar::in_lo(lo, b as u8) {
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
fn rows_by_blocks(
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

/// The best [`ClassifyRows`] kernel for this machine, chosen once (a
/// single input asks for it on every parse).
pub(crate) fn row_classifier() -> ClassifyRows {
    static ROWS: std::sync::LazyLock<ClassifyRows> = std::sync::LazyLock::new(pick_row_classifier);
    *ROWS
}

fn pick_row_classifier() -> ClassifyRows {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        fn vbmi(src: &[u8], s: &RowSets, rows: &mut [Row]) {
            // SAFETY: `pick_row_classifier` hands this out only after detecting
            // AVX-512 F, BW and VBMI, and GFNI.
            unsafe { x86_64::classify_rows_vbmi(src, s, rows) }
        }
        fn avx512(src: &[u8], s: &RowSets, rows: &mut [Row]) {
            // SAFETY: `pick_row_classifier` hands this out only after detecting
            // AVX-512 BW (and so F).
            unsafe { x86_64::classify_rows_avx512(src, s, rows) }
        }
        fn avx2(src: &[u8], s: &RowSets, rows: &mut [Row]) {
            // SAFETY: `pick_row_classifier` hands this out only after detecting
            // AVX2.
            unsafe { x86_64::classify_rows_avx2(src, s, rows) }
        }
        if has_vbmi() {
            return vbmi;
        } else if std::arch::is_x86_feature_detected!("avx512bw") {
            return avx512;
        } else if std::arch::is_x86_feature_detected!("avx2") {
            return avx2;
        }
    }
    fn by_blocks(src: &[u8], s: &RowSets, rows: &mut [Row]) {
        let kern = classifier();
        rows_by_blocks(kern, src, s, rows)
    }
    by_blocks
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

/// Whether the rows kernel of this machine reads a short input's blocks
/// in place, with no zero-padded copy to read back (AVX-512 VBMI by a
/// masked load, AVX2 by `x86_64::tail_quarter`), so that classifying a
/// single input costs less than the tagged DFA's pass (see
/// `Parser::spans`). Detected once.
pub(crate) fn rows_in_place() -> bool {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        static IN_PLACE: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
            has_vbmi()
                || (!std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx2"))
        });
        *IN_PLACE
    }
    #[cfg(not(all(target_arch = "x86_64", not(feature = "force-scalar"))))]
    {
        false
    }
}

/// Whether this machine runs the AVX-512 VBMI rows kernel.
#[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
fn has_vbmi() -> bool {
    std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vbmi")
        && std::arch::is_x86_feature_detected!("gfni")
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
    match kernel {
        #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
        Kernel::Avx512Vbmi if has_vbmi() => {
            // SAFETY: the CPU supports AVX-512 F, BW, VBMI and GFNI,
            // checked in the guard.
            unsafe { x86_64::classify_rows_vbmi(src, &sets, &mut rows) }
        }
        #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
        Kernel::Avx512 if std::arch::is_x86_feature_detected!("avx512bw") => {
            // SAFETY: the CPU supports AVX-512 BW (and so F), checked in
            // the guard.
            unsafe { x86_64::classify_rows_avx512(src, &sets, &mut rows) }
        }
        #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
        Kernel::Avx2 if std::arch::is_x86_feature_detected!("avx2") => {
            // SAFETY: the CPU supports AVX2, checked in the guard.
            unsafe { x86_64::classify_rows_avx2(src, &sets, &mut rows) }
        }
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
    match kernel {
        Kernel::Scalar => scalar::classify(block, sets, &mut out, 1),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 if std::arch::is_x86_feature_detected!("avx2") => {
            // SAFETY: the CPU supports AVX2, checked in the guard.
            unsafe { x86_64::classify_avx2(block, sets, &mut out, 1) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 if std::arch::is_x86_feature_detected!("avx512bw") => {
            // SAFETY: the CPU supports AVX-512 BW (and so F), checked in
            // the guard.
            unsafe { x86_64::classify_avx512(block, sets, &mut out, 1) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512Vbmi => {
            let rows = classify_rows_with(kernel, block, sets)?;
            out = rows[0];
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Ssse3 if std::arch::is_x86_feature_detected!("ssse3") => {
            // SAFETY: the CPU supports SSSE3, checked in the guard.
            unsafe { x86_64::classify_ssse3(block, sets, &mut out, 1) }
        }
        #[cfg(target_arch = "aarch64")]
        Kernel::Neon if std::arch::is_aarch64_feature_detected!("neon") => {
            // SAFETY: the CPU supports NEON, checked in the guard.
            unsafe { aarch64::classify_neon(block, sets, &mut out, 1) }
        }
        _ => return None,
    }
    Some(out)
}

/// Bit k set when `slots[k]` is `u32::MAX` (an unset span end): the batch
/// records' "component present" bits, sixteen compares at once with SSE2.
#[inline(always)]
pub(crate) fn unset_mask(slots: &[u32; 16]) -> u16 {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        // SAFETY: every x86_64 CPU supports SSE2.
        unsafe { x86_64::unset_mask_sse2(slots) }
    }
    #[cfg(not(all(target_arch = "x86_64", not(feature = "force-scalar"))))]
    {
        scalar::unset_mask(slots)
    }
}

/// Appends `words` to `v`, stored past the caches where the CPU has
/// streaming stores (x86_64: five 8-byte `movnti`, SSE2), else a plain
/// push. For a batch far larger than the caches: a plain store first reads
/// the line it writes, doubling the memory traffic of every record. Call
/// [`stream_fence`] before another thread reads them. Plain words: what
/// they hold is the caller's business (the batch's records).
#[cfg_attr(not(feature = "rayon"), allow(dead_code))]
#[inline(always)]
pub(crate) fn push_streaming(v: &mut Vec<[u64; 5]>, words: [u64; 5]) {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        if v.len() == v.capacity() {
            v.reserve(1);
        }
        // SAFETY: `reserve` left room for one more element at `len`, which
        // is 8-aligned (a `[u64; 5]`): five aligned words, each written once
        // with SSE2 (every x86_64 CPU); `set_len` then covers the element,
        // fully written. Loads on this thread see the stores.
        unsafe {
            let at = v.as_mut_ptr().add(v.len()) as *mut i64;
            for (k, &w) in words.iter().enumerate() {
                core::arch::x86_64::_mm_stream_si64(at.add(k), w as i64);
            }
            v.set_len(v.len() + 1);
        }
    }
    #[cfg(not(all(target_arch = "x86_64", not(feature = "force-scalar"))))]
    v.push(words);
}

/// Orders the streamed stores of [`push_streaming`] before what follows
/// (x86_64: `sfence`; nothing elsewhere, where they are plain stores).
#[cfg_attr(not(feature = "rayon"), allow(dead_code))]
#[inline]
pub(crate) fn stream_fence() {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    // SAFETY: `sfence` is SSE (every x86_64 CPU) and has no operands.
    unsafe {
        core::arch::x86_64::_mm_sfence()
    }
}

/// The block loop of every SIMD kernel. `outside(at)` classifies the
/// `width` bytes at `at`, `lane` bits per byte (the first byte lowest), set
/// for the bytes outside the set; it is only asked for blocks within the
/// input (`at + width <= len`). Blocks go from `from` until one has a byte
/// outside. A run that gets within a block of the end finishes with the
/// input's last block, which starts at or before the run's place: the lanes
/// before the place are shifted out and the input's end stops the run
/// (both shifts are under 64 for the kernels' widths and lanes). `short`
/// finishes an input shorter than one block.
#[inline(always)]
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
fn run_blocks(
    len: usize,
    from: usize,
    width: usize,
    lane: u32,
    mut outside: impl FnMut(usize) -> u64,
    short: impl FnOnce(usize) -> usize,
) -> usize {
    let mut i = from;
    while i + width <= len {
        let bits = outside(i);
        if bits != 0 {
            return i + (bits.trailing_zeros() / lane) as usize;
        }
        i += width;
    }
    if i < len && len >= width {
        let at = len - width;
        let lane = lane as usize;
        let bits = outside(at) >> (lane * (i - at)) | 1 << (lane * (len - i));
        return i + bits.trailing_zeros() as usize / lane;
    }
    short(i)
}

/// [`skip`] with a chosen kernel (for tests and benchmarks); `None` when
/// this machine cannot run it. `ranges` is [`ranges_of`] the set.
#[doc(hidden)]
pub fn skip_with(
    kernel: Kernel,
    set: &[u8; 32],
    ranges: &[u8; 32],
    input: &[u8],
    from: usize,
) -> Option<usize> {
    let _ = ranges; // only the SSE2 kernel reads them
    match kernel {
        Kernel::Scalar => Some(scalar::skip(set, input, from)),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 => {
            // SAFETY: every x86_64 CPU supports SSE2.
            Some(unsafe { x86_64::skip_sse2(set, ranges, input, from) })
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 if std::arch::is_x86_feature_detected!("avx2") => {
            // SAFETY: the CPU supports AVX2, checked in the guard.
            Some(unsafe { x86_64::skip_avx2(set, input, from) })
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Ssse3 if std::arch::is_x86_feature_detected!("ssse3") => {
            // SAFETY: the CPU supports SSSE3, checked in the guard.
            Some(unsafe { x86_64::skip_ssse3(set, input, from) })
        }
        #[cfg(target_arch = "aarch64")]
        Kernel::Neon if std::arch::is_aarch64_feature_detected!("neon") => {
            // SAFETY: the CPU supports NEON, checked in the guard.
            Some(unsafe { aarch64::skip_neon(set, input, from) })
        }
        _ => None,
    }
}

/// Blocks of 64 bytes whose candidate colons extraction marks at once
/// (see [`colon_chunk`]).
pub const CHUNK: usize = 16;

/// A chunk of text with one byte of context before and after.
pub type ChunkSrc = [u8; 64 * CHUNK + 2];

/// A chunk's candidate colons, a word per block.
pub type Marks = [u64; CHUNK];

/// A kernel of extraction's candidate colons over a chunk: the marks, and
/// which words have one.
pub(crate) type ColonChunk = fn(&ChunkSrc, &mut Marks) -> u32;

/// The colon kernel for this machine, chosen once.
pub(crate) fn colon_kernel() -> ColonChunk {
    static KERNEL: std::sync::LazyLock<ColonChunk> = std::sync::LazyLock::new(pick_colon_kernel);
    *KERNEL
}

fn pick_colon_kernel() -> ColonChunk {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        fn avx2(src: &ChunkSrc, marks: &mut Marks) -> u32 {
            // SAFETY: `pick_colon_kernel` hands this out only after detecting
            // AVX2.
            unsafe { x86_64::colon_chunk_avx2(src, marks) }
        }
        fn avx512(src: &ChunkSrc, marks: &mut Marks) -> u32 {
            // SAFETY: `pick_colon_kernel` hands this out only after detecting
            // AVX-512 BW (and so F).
            unsafe { x86_64::colon_chunk_avx512(src, marks) }
        }
        if std::arch::is_x86_feature_detected!("avx512bw") {
            return avx512;
        } else if std::arch::is_x86_feature_detected!("avx2") {
            return avx2;
        }
    }
    colon_chunk_scalar
}

/// The scalar twin of the chunk kernels: the colons by memchr (prose has
/// few, and memchr has SIMD where this crate has no colon kernel, as on
/// aarch64), each tested as `scalar::colon_marks` tests a byte.
fn colon_chunk_scalar(src: &ChunkSrc, marks: &mut Marks) -> u32 {
    *marks = [0; CHUNK];
    let mut any = 0;
    for c in memchr::memchr_iter(b':', &src[1..src.len() - 1]) {
        // The colon is `src[c + 1]`, its context `src[c]` and `src[c + 2]`.
        if scalar::candidate_colon(src[c], src[c + 2]) {
            marks[c / 64] |= 1 << (c % 64);
            any |= 1 << (c / 64);
        }
    }
    any
}

/// Where extraction looks for a URI (see `extract`): bit i of `marks[w]`
/// is set when byte `at + 64 w + i` of `text` is a `:` followed by `/`,
/// ASCII whitespace or 0xC2 (U+00A0's first byte), or preceded by an ASCII
/// letter. Every URI extraction takes has such a colon after its scheme;
/// most other colons of running text (times of day, JSON keys) have
/// neither. Bytes outside `text` count as NUL. Returns which words have a
/// candidate (bit w for `marks[w]`).
#[inline]
pub(crate) fn colon_chunk(kern: ColonChunk, text: &[u8], at: usize, marks: &mut Marks) -> u32 {
    const LEN: usize = 64 * CHUNK + 2;
    match at.checked_sub(1).and_then(|b| text.get(b..b + LEN)) {
        Some(src) => kern(src.try_into().expect("a chunk"), marks),
        None => {
            // The text's first chunk or its last: through a copy, NUL
            // around the text.
            let mut pad = [0u8; LEN];
            let from = at.saturating_sub(1).min(text.len());
            let rest = &text[from..text.len().min(at + LEN - 1)];
            let to = usize::from(at == 0);
            pad[to..to + rest.len()].copy_from_slice(rest);
            kern(&pad, marks)
        }
    }
}

/// [`colon_chunk`]'s kernel of choice over one chunk and its context (for
/// tests): `Scalar`; `Avx2` or `Avx512` on x86_64; `None` for any other or
/// where this machine cannot run it.
#[doc(hidden)]
pub fn colon_chunk_with(kernel: Kernel, src: &ChunkSrc) -> Option<(Marks, u32)> {
    // Not zeros: a kernel must write every word (the caller's marks hold
    // the last chunk's).
    let mut marks = [!0u64; CHUNK];
    #[cfg(target_arch = "x86_64")]
    {
        match kernel {
            Kernel::Avx2 if std::arch::is_x86_feature_detected!("avx2") => {
                // SAFETY: the CPU supports AVX2, checked in the guard.
                let any = unsafe { x86_64::colon_chunk_avx2(src, &mut marks) };
                return Some((marks, any));
            }
            Kernel::Avx512 if std::arch::is_x86_feature_detected!("avx512bw") => {
                // SAFETY: the CPU supports AVX-512 BW (and so F), checked
                // in the guard.
                let any = unsafe { x86_64::colon_chunk_avx512(src, &mut marks) };
                return Some((marks, any));
            }
            _ => {}
        }
    }
    match kernel {
        Kernel::Scalar => {
            let any = colon_chunk_scalar(src, &mut marks);
            Some((marks, any))
        }
        _ => None,
    }
}

/// Extraction's candidate colons of one block and its context (66 bytes;
/// see [`colon_chunk`]) with a chosen kernel (for tests): `Scalar`; `Avx2`
/// or `Avx512` on x86_64; `None` for any other or where this machine
/// cannot run it.
#[doc(hidden)]
pub fn colon_marks_with(kernel: Kernel, src: &[u8; 66]) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        match kernel {
            Kernel::Avx2 if std::arch::is_x86_feature_detected!("avx2") => {
                // SAFETY: the CPU supports AVX2, checked in the guard.
                return Some(unsafe { x86_64::colon_block_avx2(src) });
            }
            Kernel::Avx512 if std::arch::is_x86_feature_detected!("avx512bw") => {
                // SAFETY: the CPU supports AVX-512 BW (and so F), checked
                // in the guard.
                return Some(unsafe { x86_64::colon_block_avx512(src) });
            }
            _ => {}
        }
    }
    match kernel {
        Kernel::Scalar => Some(scalar::colon_marks(src)),
        _ => None,
    }
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

/// Nibble tables for an ASCII byte set given as a 256-bit mask (for tests;
/// the generator emits the real ones). `None` if the set has a byte >= 0x80.
#[doc(hidden)]
pub fn nibbles_of(set: &[u64; 4]) -> Option<[u8; 32]> {
    if set[2] != 0 || set[3] != 0 {
        return None;
    }
    let mut t = [0u8; 32];
    for b in 0..128u8 {
        if set[(b >> 6) as usize] >> (b & 63) & 1 != 0 {
            t[(b & 15) as usize] |= 1 << (b >> 4);
        }
    }
    for h in 0..8 {
        t[16 + h] = 1 << h;
    }
    Some(t)
}

const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of each byte of `x` that equals `c`, exactly: adding 0x7f
/// to the low seven bits sets the high bit unless they are all zero.
#[inline(always)]
fn eq(x: u64, c: u8) -> u64 {
    let y = x ^ (u64::from(c) * ONES);
    !(((y & LOW) + LOW) | y) & !LOW
}

/// The high bit of each byte of `x` in `a..=b` (ASCII bounds), exactly:
/// on the low seven bits nothing carries across bytes, and bytes of 0x80 or
/// more are masked out.
#[inline(always)]
fn within(x: u64, a: u8, b: u8) -> u64 {
    let low = x & LOW;
    let at_least_a = low + (0x80 - u64::from(a)) * ONES;
    let above_b = low + (0x7f - u64::from(b)) * ONES;
    at_least_a & !above_b & !x & !LOW
}

/// The first "%", or with `upper` the first of "%" and "A" to "Z": where
/// percent-encoding normalization (RFC 3986 6.2.2.1, 6.2.2.2) has work.
/// Sixteen bytes at a time with SSE2 from sixteen bytes on, else eight.
#[inline(always)]
pub(crate) fn find_pct_or_upper(s: &[u8], upper: bool) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    if s.len() >= 16 {
        // SAFETY: every x86_64 CPU supports SSE2, and the input has the
        // sixteen bytes the kernel needs.
        return unsafe { x86_64::find_pct_or_upper_sse2(s, upper) };
    }
    find_pct_or_upper_swar(s, upper)
}

/// `find_pct_or_upper` eight bytes at a time in integer arithmetic (the
/// scalar twin of the SSE2 kernel).
#[inline(always)]
pub(crate) fn find_pct_or_upper_swar(s: &[u8], upper: bool) -> Option<usize> {
    let upper = if upper { u64::MAX } else { 0 };
    first_mark(s, |x| eq(x, b'%') | (within(x, b'A', b'Z') & upper))
}

/// First index `k` with `s[k] == b'/'` and `s[k + 1] == b'.'`: where a
/// path segment that starts with "." begins (RFC 3986 5.2.4 has work to
/// do only there). Sixteen places at a time with SSE2 from seventeen bytes
/// on, else eight bytes at a time.
#[inline(always)]
pub(crate) fn find_dot_segment(s: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    if s.len() >= 17 {
        // SAFETY: every x86_64 CPU supports SSE2, and the input has the
        // seventeen bytes the kernel needs.
        return unsafe { x86_64::find_dot_segment_sse2(s) };
    }
    find_dot_segment_swar(s)
}

/// `find_dot_segment` eight bytes at a time in integer arithmetic (the
/// scalar twin of the SSE2 kernel).
#[inline(always)]
pub(crate) fn find_dot_segment_swar(s: &[u8]) -> Option<usize> {
    // A "/" in the last byte of the previous word.
    let mut carry = 0;
    // Each "." whose "/" is the byte before: the "/" is one to the left.
    first_mark(s, |x| {
        let slash = eq(x, b'/');
        let pairs = ((slash << 8) | carry) & eq(x, b'.');
        carry = slash >> 56;
        pairs
    })
    .map(|k| k - 1)
}

/// The first byte whose high bit `marks` sets in the word holding it, eight
/// bytes at a time in plain integer arithmetic: `marks` sees the words of
/// `s` in order (little-endian), the last one zero-padded (no grammar
/// character is NUL, so the padding matches nothing a caller looks for).
#[inline(always)]
fn first_mark(s: &[u8], mut marks: impl FnMut(u64) -> u64) -> Option<usize> {
    let mut chunks = s.chunks_exact(8);
    for (n, chunk) in chunks.by_ref().enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let m = marks(u64::from_le_bytes(word));
        if m != 0 {
            return Some(n * 8 + m.trailing_zeros() as usize / 8);
        }
    }
    let at = s.len() - chunks.remainder().len();
    let m = marks(tail_word(chunks.remainder()));
    (m != 0).then(|| at + m.trailing_zeros() as usize / 8)
}

/// Up to seven bytes as a little-endian word, zero above them. Two
/// overlapping loads instead of a loop: their common bytes are equal, so
/// or-ing them in place is exact.
#[inline(always)]
fn tail_word(t: &[u8]) -> u64 {
    let n = t.len();
    debug_assert!(n < 8);
    if n >= 4 {
        let lo = u32::from_le_bytes([t[0], t[1], t[2], t[3]]) as u64;
        let hi = u32::from_le_bytes([t[n - 4], t[n - 3], t[n - 2], t[n - 1]]) as u64;
        lo | hi << (8 * (n - 4))
    } else if n > 0 {
        t[0] as u64 | (t[n / 2] as u64) << (8 * (n / 2)) | (t[n - 1] as u64) << (8 * (n - 1))
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::find_pct_or_upper_swar;

    /// What `RowSets` derives from the profiles' line sets, whose last set
    /// is the line end: that set is the one-byte ninth the VBMI kernel
    /// compares with wherever a profile has nine sets (as RFC 3986 does),
    /// and the escape probe is one of the escape sets, with `%` a stop.
    #[test]
    fn line_sets_give_the_ninth_byte_and_the_escape_probe() {
        let mut nine = 0;
        for p in crate::Profile::ALL {
            let sets = &p.tables().line_sets;
            assert_eq!(super::members(sets.sets().last().unwrap()), (1, b'\n'));
            if sets.n == super::MAX_CLASSES {
                assert_eq!(sets.ninth_byte, Some(b'\n'), "{p:?}");
                nine += 1;
            } else {
                assert_eq!(sets.ninth_byte, None, "{p:?}");
            }
            if sets.escapes() != 0 {
                let k = sets.escape_probe();
                assert!(sets.escapes() & (1 << k) != 0, "{p:?}");
                assert!(!super::scalar::in_lo(&sets.sets()[k], b'%'), "{p:?}");
            }
        }
        assert!(nine > 0);
        assert_eq!(super::RowSets::new(&[[0u8; 16]; 9]).ninth_byte, None);
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
        let sets = super::RowSets::new(&[digits, letters]);
        let mut rows = [[0u64; super::MAX_CLASSES]; 5];
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
                        .take_while(|&&b| super::scalar::in_lo(&letters, b))
                        .count();
                    let got = super::token_run(&t, at, &sets, &mut rows, 255);
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

    /// `colon_chunk` at every start of texts shorter than a chunk, and
    /// around the chunk's size: its start, inside, and running past its
    /// end, through this machine's kernel and the scalar twin, against the
    /// twin of one block read with its context (NUL outside the text); and
    /// its word mask says which words have a mark.
    #[test]
    fn colon_chunks_match_the_twin_at_the_text_edges() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let span = 64 * super::CHUNK;
        for len in (0..200).chain([span - 1, span, span + 1, span + 2, 2 * span + 70]) {
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    b"a:/ :\xc2Z:........"[(x % 16) as usize]
                })
                .collect();
            let starts: Vec<usize> = if len < 200 {
                (0..len.max(1)).collect()
            } else {
                (0..len).step_by(61).chain([len - 1]).collect()
            };
            for at in starts {
                for kern in [super::colon_kernel(), super::colon_chunk_scalar] {
                    // Not zeros: the kernel must write every word.
                    let mut marks = [!0u64; super::CHUNK];
                    let any = super::colon_chunk(kern, &text, at, &mut marks);
                    for (w, &got) in marks.iter().enumerate() {
                        let mut src = [0u8; 66];
                        for (j, s) in src.iter_mut().enumerate() {
                            let i = (at + 64 * w + j).wrapping_sub(1);
                            *s = text.get(i).copied().unwrap_or(0);
                        }
                        let want = super::scalar::colon_marks(&src);
                        assert_eq!(got, want, "len {len} at {at} block {w}");
                        assert_eq!(any >> w & 1 == 1, want != 0, "len {len} at {at} block {w}");
                    }
                    assert_eq!(any >> super::CHUNK, 0);
                }
            }
        }
    }
    use super::{find_dot_segment, find_dot_segment_swar, find_pct_or_upper};

    /// Words pushed with streaming stores read back as pushed with plain
    /// ones, through every growth of the vector from empty, every byte
    /// value in every position.
    #[test]
    fn push_streaming_equals_push() {
        let (mut plain, mut streamed) = (Vec::new(), Vec::<[u64; 5]>::new());
        let mut rng = crate::engine::gen::Rng(0x57_2EA4);
        for n in 0..5_000u32 {
            let mut words = [0u64; 5];
            for w in &mut words {
                *w = rng.next();
            }
            // Every byte value at some place of the record.
            words[(n % 5) as usize] ^= u64::from(n as u8) << (8 * ((n / 5) % 8));
            plain.push(words);
            super::push_streaming(&mut streamed, words);
        }
        super::stream_fence();
        assert_eq!(plain, streamed);
    }

    /// The SSE2 `unset_mask` against the scalar one: every pattern of set
    /// and unset slots, the set ones holding values near the unset one and
    /// the sign bit (the packs saturate), at four consecutive offsets (so
    /// every placement of the slots within a 16-byte line).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn unset_mask_kernels_agree() {
        let values = [
            0,
            1,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_fffe,
            0xffff,
            0x1_0000,
        ];
        let mut store = [0u32; 20];
        let cases = values
            .iter()
            .flat_map(|&v| (0..4).map(move |shift| (v, shift)));
        for pattern in 0..=u16::MAX as u32 {
            for (v, shift) in cases.clone() {
                let slots = &mut store[shift..shift + 16];
                for (k, s) in slots.iter_mut().enumerate() {
                    *s = if pattern >> k & 1 != 0 { u32::MAX } else { v };
                }
                let slots: &[u32; 16] = (&*slots).try_into().unwrap();
                let want = super::scalar::unset_mask(slots);
                assert_eq!(want as u32, pattern);
                // SAFETY: every x86_64 CPU supports SSE2.
                let got = unsafe { super::x86_64::unset_mask_sse2(slots) };
                assert_eq!(got, want, "{pattern:#x} {v:#x}");
            }
        }
    }

    /// Every byte value at every place of up to six words (three SSE2
    /// blocks, the last one overlapping), after four offsets, with and
    /// without upper case, against the obvious search: the dispatching
    /// search (SSE2 from 16 bytes on x86_64) and the SWAR one.
    #[test]
    fn find_pct_or_upper_matches_the_obvious_search() {
        for upper in [false, true] {
            let naive = |s: &[u8]| {
                s.iter()
                    .position(|&c| c == b'%' || (upper && c.is_ascii_uppercase()))
            };
            for len in 0..=50 {
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut s = vec![b'a'; len];
                        s[at] = b;
                        // A second probe later on, so a miss finds it.
                        if at + 3 < len {
                            s[at + 3] = b'%';
                        }
                        for from in [0, 1, 7, 15].into_iter().filter(|&f| f <= len) {
                            let want = naive(&s[from..]);
                            let at = || format!("{s:?}[{from}..] {upper}");
                            assert_eq!(find_pct_or_upper(&s[from..], upper), want, "{}", at());
                            assert_eq!(find_pct_or_upper_swar(&s[from..], upper), want, "{}", at());
                        }
                    }
                }
            }
        }
    }

    fn naive(s: &[u8]) -> Option<usize> {
        s.windows(2).position(|w| w == b"/.")
    }

    /// Every placement of "/" and "." (and near misses) at every offset and
    /// length up to six words (three SSE2 blocks), against the obvious
    /// search: the dispatching search and the SWAR one.
    #[test]
    fn find_dot_segment_matches_the_obvious_search() {
        let alphabet = [b'/', b'.', b'a', b'/' ^ 0x80, b'.' ^ 0x80, 0, 0xff, b'o'];
        let mut seed = 1u64;
        for len in 0..=50 {
            for _ in 0..1500 {
                let s: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        alphabet[(seed >> 61) as usize]
                    })
                    .collect();
                for from in 0..=s.len() {
                    let want = naive(&s[from..]);
                    assert_eq!(find_dot_segment(&s[from..]), want, "{s:?}[{from}..]");
                    assert_eq!(find_dot_segment_swar(&s[from..]), want, "{s:?}[{from}..]");
                }
            }
        }
        for len in [18, 40] {
            for b in 0..=255u8 {
                for at in 0..len - 1 {
                    let mut s = vec![b'x'; len];
                    s[at] = b'/';
                    s[at + 1] = b;
                    assert_eq!(find_dot_segment(&s), naive(&s));
                    assert_eq!(find_dot_segment_swar(&s), naive(&s));
                    // And "." after every byte value.
                    s[at] = b;
                    s[at + 1] = b'.';
                    assert_eq!(find_dot_segment(&s), naive(&s));
                    assert_eq!(find_dot_segment_swar(&s), naive(&s));
                }
            }
        }
    }
}
