//! x86_64 classifier kernels: 64-byte blocks against up to nine sets
//! (SSSE3, AVX2, AVX-512 BW), and runs of blocks (AVX2, AVX-512 BW, and
//! AVX-512 VBMI with GFNI).

use super::super::rows::{rows_by_blocks, Row, RowSets, MAX_CLASSES, NEAR_RUN};
use super::ahead;
use core::arch::x86_64::*;

/// AVX2 `Classify` kernel: the block as two 32-byte halves (see
/// [`classify_halves_avx2`]).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn classify_avx2(
    block: &[u8; 64],
    sets: &[[u8; 16]],
    out: &mut [u64],
    stride: usize,
) {
    let p = block.as_ptr() as *const __m256i;
    // SAFETY: `block` is 64 bytes: two unaligned 32-byte loads.
    let (v0, v1) = unsafe { (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))) };
    let mut t = [_mm256_setzero_si256(); MAX_CLASSES];
    let n = sets.len().min(MAX_CLASSES);
    for (t, lo) in t.iter_mut().zip(&sets[..n]) {
        *t = table_avx2(lo);
    }
    classify_joined_avx2(v0, v1, &t[..n], None, |k, m| out[k * stride] = m);
}

/// A set's nibble table in both lanes of a register.
#[target_feature(enable = "avx2")]
#[inline]
fn table_avx2(lo: &[u8; 16]) -> __m256i {
    // SAFETY: `lo` is 16 bytes: one unaligned 16-byte load.
    _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(lo.as_ptr() as *const __m128i) })
}

/// A 32-byte half's low nibbles, and the bit of each byte's high nibble
/// (`1 << h` for `h < 8`, none for bytes from 0x80): what each set's
/// table is looked up and tested with ([`outside`]).
#[target_feature(enable = "avx2")]
#[inline]
fn nibbles(v: __m256i) -> (__m256i, __m256i) {
    let nib = _mm256_set1_epi8(0x0f);
    let bits = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0,
        0, 0, 0, 0, 0, 0,
    );
    let hi = _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
    (_mm256_and_si256(v, nib), hi)
}

/// Bit i set when byte i of the half whose [`nibbles`] are `(l, hi)` is
/// outside the set of table `t` (`table_avx2`): a shuffle, an and, a
/// compare with zero and a mask move.
#[target_feature(enable = "avx2")]
#[inline]
fn outside(t: __m256i, (l, hi): (__m256i, __m256i)) -> u32 {
    let a = _mm256_and_si256(_mm256_shuffle_epi8(t, l), hi);
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(a, _mm256_setzero_si256())) as u32
}

/// Bit i set when byte i of half `v` is not the byte of `one` (in every
/// lane of it).
#[target_feature(enable = "avx2")]
#[inline]
fn not_byte(v: __m256i, one: __m256i) -> u32 {
    !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, one)) as u32)
}

/// The body of the AVX2 kernels for runs of blocks, one 32-byte half
/// after the other (`half(h)` reads half `h`, 0 the block's first 32
/// bytes): per set (its table, `table_avx2`) the half's bits
/// ([`outside`]) given to `put` as half `h` of set k's word; with `one`, a
/// set after the tables of that one byte. A half at a time, every table
/// stays in a register beside the half's three, and no set's first half
/// waits to be joined with its second: each is stored as it is
/// ([`put_half`]).
#[target_feature(enable = "avx2")]
#[inline]
fn classify_halves_avx2(
    half: impl Fn(usize) -> __m256i,
    tables: &[__m256i],
    one: Option<__m256i>,
    mut put: impl FnMut(usize, usize, u32),
) {
    for h in 0..2 {
        let v = half(h);
        let n = nibbles(v);
        for (k, &t) in tables.iter().enumerate() {
            put(k, h, outside(t, n));
        }
        if let Some(one) = one {
            put(tables.len(), h, not_byte(v, one));
        }
    }
}

/// The body of the AVX2 kernels where a block's bitmaps are read soon
/// after they are stored (a single input, a token): both halves'
/// [`nibbles`] once, then per set its two halves' bits joined into the
/// set's word for `put`; with `one`, a set after the tables of that one
/// byte. (A word stored as two halves and read at once waits for both
/// stores: [`classify_halves_avx2`] is for runs of blocks.)
#[target_feature(enable = "avx2")]
#[inline]
fn classify_joined_avx2(
    v0: __m256i,
    v1: __m256i,
    tables: &[__m256i],
    one: Option<__m256i>,
    mut put: impl FnMut(usize, u64),
) {
    let join = |m0: u32, m1: u32| u64::from(m0) | u64::from(m1) << 32;
    let (n0, n1) = (nibbles(v0), nibbles(v1));
    for (k, &t) in tables.iter().enumerate() {
        put(k, join(outside(t, n0), outside(t, n1)));
    }
    if let Some(one) = one {
        put(tables.len(), join(not_byte(v0, one), not_byte(v1, one)));
    }
}

/// Writes `m` as half `h` of `word`: its low 32 bits (bytes 0..32 of the
/// block) for `h` 0, its high ones for 1, the other half left as it is.
#[inline(always)]
fn put_half(word: &mut u64, h: usize, m: u32) {
    assert!(h < 2, "a word has two halves");
    let p = (word as *mut u64).cast::<u32>();
    // SAFETY: `word` is one u64, so u32 `h` (0 or 1) of it is in it and
    // aligned, and written through the only reference to it; x86_64 is
    // little-endian, so u32 0 is the word's low half.
    unsafe { p.add(h).write(m) }
}

/// A `pshufb` mask from offset `s` (1 to 15) moves a register's bytes
/// down by `s` and clears the `s` at the top.
static DOWN: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// Quarter `k` (bytes `16 k..16 k + 16`) of a block that holds `tail`
/// (fewer than 64 bytes) and zeros after it, read in place: no byte past
/// the end is read, and nothing is stored to be read back (a zero-padded
/// copy, read by wide loads, waits for its narrow stores: the stores
/// cannot be forwarded).
#[target_feature(enable = "avx2")]
#[inline]
fn tail_quarter(tail: &[u8], k: usize) -> __m128i {
    let n = tail.len();
    if 16 * k + 16 <= n {
        // SAFETY: bytes `16 k..16 k + 16` are in `tail`: an unaligned
        // 16-byte load.
        unsafe { _mm_loadu_si128(tail.as_ptr().add(16 * k) as *const __m128i) }
    } else if 16 * k >= n {
        _mm_setzero_si128()
    } else if n >= 16 {
        // The tail's last 16 bytes, moved down so that byte `16 k` comes
        // first.
        let s = 16 * k + 16 - n;
        // SAFETY: `n >= 16`, so bytes `n - 16..n` are in `tail`; `s` is 1
        // to 15, so `DOWN[s..s + 16]` is in `DOWN` (32 bytes). Unaligned
        // 16-byte loads.
        let (last, down) = unsafe {
            (
                _mm_loadu_si128(tail.as_ptr().add(n - 16) as *const __m128i),
                _mm_loadu_si128(DOWN.as_ptr().add(s) as *const __m128i),
            )
        };
        _mm_shuffle_epi8(last, down)
    } else {
        let (lo, hi) = short_words(tail);
        _mm_set_epi64x(hi as i64, lo as i64)
    }
}

/// The bytes of `t` (fewer than 16) as two little-endian words, zeros
/// after them: from loads that overlap where `t` is not a multiple of
/// their size (overlapping bytes are the same bytes, so OR-ing is exact).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[inline(always)]
pub(crate) fn short_words(t: &[u8]) -> (u64, u64) {
    let n = t.len();
    let word = |a: usize| u64::from_le_bytes(t[a..a + 8].try_into().expect("8 bytes"));
    let half = |a: usize| u64::from(u32::from_le_bytes(t[a..a + 4].try_into().expect("4 bytes")));
    match n {
        // The second word: bytes `n - 8..n` moved down past the `16 - n`
        // that the first holds.
        9..=15 => (word(0), word(n - 8) >> (8 * (16 - n))),
        8 => (word(0), 0),
        4..=7 => (half(0) | half(n - 4) << (8 * (n - 4)), 0),
        1..=3 => (
            u64::from(t[0])
                | u64::from(t[n / 2]) << (8 * (n / 2))
                | u64::from(t[n - 1]) << (8 * (n - 1)),
            0,
        ),
        _ => (0, 0),
    }
}

/// SSSE3 `Classify` kernel: the same, in four 16-byte quarters.
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn classify_ssse3(
    block: &[u8; 64],
    sets: &[[u8; 16]],
    out: &mut [u64],
    stride: usize,
) {
    let p = block.as_ptr() as *const __m128i;
    // SAFETY: `block` is 64 bytes: four unaligned 16-byte loads.
    let v = unsafe { [0, 1, 2, 3].map(|q| _mm_loadu_si128(p.add(q))) };
    let nib = _mm_set1_epi8(0x0f);
    let bits = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
    let l = v.map(|x| _mm_and_si128(x, nib));
    let h = v.map(|x| _mm_shuffle_epi8(bits, _mm_and_si128(_mm_srli_epi16(x, 4), nib)));
    let zero = _mm_setzero_si128();
    for (k, lo) in sets.iter().take(MAX_CLASSES).enumerate() {
        // SAFETY: `lo` is 16 bytes: one unaligned 16-byte load.
        let t = unsafe { _mm_loadu_si128(lo.as_ptr() as *const __m128i) };
        let mut m = 0u64;
        for q in 0..4 {
            let a = _mm_and_si128(_mm_shuffle_epi8(t, l[q]), h[q]);
            let bits = _mm_movemask_epi8(_mm_cmpeq_epi8(a, zero)) as u32 & 0xffff;
            m |= u64::from(bits) << (16 * q);
        }
        out[k * stride] = m;
    }
}

/// AVX-512 `Classify` kernel: all 64 bytes in one register; per set one shuffle,
/// and a test that writes the 64-bit mask of bytes outside the set
/// directly (no mask move, no halves to join).
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(crate) unsafe fn classify_avx512(
    block: &[u8; 64],
    sets: &[[u8; 16]],
    out: &mut [u64],
    stride: usize,
) {
    // SAFETY: `block` is 64 bytes: one unaligned 64-byte load.
    let v = unsafe { _mm512_loadu_si512(block.as_ptr() as *const __m512i) };
    let nib = _mm512_set1_epi8(0x0f);
    let bits = _mm512_broadcast_i32x4(_mm_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
    ));
    let l = _mm512_and_si512(v, nib);
    let h = _mm512_shuffle_epi8(bits, _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
    for (k, lo) in sets.iter().take(MAX_CLASSES).enumerate() {
        // SAFETY: `lo` is 16 bytes: one unaligned 16-byte load.
        let t = _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(lo.as_ptr() as *const __m128i) });
        out[k * stride] = _mm512_testn_epi8_mask(_mm512_shuffle_epi8(t, l), h);
    }
}

/// AVX2 `ClassifyRows` kernel: per 32-byte half of a block its nibbles
/// once, then per set a shuffle, an and, a compare with zero and a mask
/// move (see `classify_halves_avx2`); a last block cut short is read
/// in place, a quarter at a time (`tail_quarter`). The loop is compiled
/// once per number of sets (`rows_avx2`), so that the sets' tables stay
/// in registers and no set count is tested inside it, and a ninth set of
/// one byte (the line end of the profiles' line sets) is a compare with
/// that byte.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn classify_rows_avx2(src: &[u8], sets: &RowSets, rows: &mut [Row]) {
    match (sets.n, sets.ninth_byte) {
        (9, Some(b)) => rows_avx2::<8, true>(src, sets, rows, b),
        (9, None) => rows_avx2::<9, false>(src, sets, rows, 0),
        (8, _) => rows_avx2::<8, false>(src, sets, rows, 0),
        (7, _) => rows_avx2::<7, false>(src, sets, rows, 0),
        (6, _) => rows_avx2::<6, false>(src, sets, rows, 0),
        (5, _) => rows_avx2::<5, false>(src, sets, rows, 0),
        (4, _) => rows_avx2::<4, false>(src, sets, rows, 0),
        (3, _) => rows_avx2::<3, false>(src, sets, rows, 0),
        (2, _) => rows_avx2::<2, false>(src, sets, rows, 0),
        (1, _) => rows_avx2::<1, false>(src, sets, rows, 0),
        _ => {}
    }
}

/// [`classify_rows_avx2`] for `N` sets of nibble tables and, when `ONE`,
/// a ninth set of the one byte `one` (row word `N`). A run of more than
/// [`NEAR_RUN`] bytes (a batch's window) stores each half of a set's word as
/// it comes; a shorter one (a single input, whose bitmaps are read at
/// once) joins the halves first, as a word read soon after its two halves
/// were stored apart waits for both stores to reach the cache.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx2")]
#[inline]
fn rows_avx2<const N: usize, const ONE: bool>(
    src: &[u8],
    sets: &RowSets,
    rows: &mut [Row],
    one: u8,
) {
    if src.len() > NEAR_RUN {
        rows_avx2_stored::<N, ONE, true>(src, sets, rows, one)
    } else {
        rows_avx2_stored::<N, ONE, false>(src, sets, rows, one)
    }
}

/// [`rows_avx2`] with the halves of a word stored apart (`APART`:
/// [`classify_halves_avx2`]) or joined ([`classify_joined_avx2`]).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx2")]
#[inline]
fn rows_avx2_stored<const N: usize, const ONE: bool, const APART: bool>(
    src: &[u8],
    sets: &RowSets,
    rows: &mut [Row],
    one: u8,
) {
    let t: [__m256i; N] = core::array::from_fn(|k| table_avx2(&sets.nibbles[k]));
    let one = ONE.then(|| _mm256_set1_epi8(one as i8));
    let blocks = src.chunks_exact(64);
    let tail = blocks.remainder();
    let whole = blocks.len();
    for (b, row) in blocks.zip(rows.iter_mut()) {
        ahead(b.as_ptr());
        let p = b.as_ptr() as *const __m256i;
        // SAFETY: `b` is 64 bytes: an unaligned 32-byte load of either
        // half.
        let half = |h: usize| unsafe { _mm256_loadu_si256(p.add(h)) };
        if APART {
            classify_halves_avx2(half, &t, one, |k, h, m| put_half(&mut row[k], h, m));
        } else {
            classify_joined_avx2(half(0), half(1), &t, one, |k, m| row[k] = m);
        }
    }
    if let (false, Some(row)) = (tail.is_empty(), rows.get_mut(whole)) {
        let half =
            |h: usize| _mm256_set_m128i(tail_quarter(tail, 2 * h + 1), tail_quarter(tail, 2 * h));
        if APART {
            classify_halves_avx2(half, &t, one, |k, h, m| put_half(&mut row[k], h, m));
        } else {
            classify_joined_avx2(half(0), half(1), &t, one, |k, m| row[k] = m);
        }
    }
}

/// AVX-512 `ClassifyRows` kernel: `classify_avx512` in a loop.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn classify_rows_avx512(src: &[u8], sets: &RowSets, rows: &mut [Row]) {
    rows_by_blocks(
        |b, s, o, n| {
            ahead(b.as_ptr());
            // SAFETY: this function runs only where AVX-512 F and BW are
            // supported.
            unsafe { classify_avx512(b, s, o, n) }
        },
        src,
        sets,
        rows,
    )
}

/// AVX-512 VBMI `ClassifyRows` kernel. Per block: the bytes reversed within
/// each 8-byte group (`vpermb`); one lookup of the low seven bits in the
/// 128-entry table of the first eight sets (`vpermi2b`: entry `b`, bit k
/// set when `b` is outside set k), bytes from 0x80 outside every set; a
/// transpose of the 8x8 bit matrix of each group (`gf2p8affineqb` with the
/// group as the matrix and the eight one-bit bytes as the data: byte j of
/// the result gathers bit j of the group's eight bytes, which the reversal
/// put in order); and a byte gather (`vpermb`) that puts byte j of each
/// group together, so that the 64 bytes are the first eight sets' words,
/// stored at once. A ninth set goes through the nibble tables as in
/// `classify_avx512`.
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI, and GFNI.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub(crate) unsafe fn classify_rows_vbmi(src: &[u8], sets: &RowSets, rows: &mut [Row]) {
    let o = sets.outside.as_ptr() as *const __m512i;
    // SAFETY: `outside` is 128 bytes, `REVERSE` and `GATHER` 64: unaligned
    // 64-byte loads.
    let (t0, t1, rev, gather) = unsafe {
        (
            _mm512_loadu_si512(o),
            _mm512_loadu_si512(o.add(1)),
            _mm512_loadu_si512(REVERSE.as_ptr() as *const __m512i),
            _mm512_loadu_si512(GATHER.as_ptr() as *const __m512i),
        )
    };
    let unit = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
    let ones = _mm512_set1_epi8(-1);
    // The ninth set, if any.
    let ninth = sets.n > 8;
    let one = sets.ninth_byte;
    let nib = _mm512_set1_epi8(0x0f);
    let bits = _mm512_broadcast_i32x4(_mm_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
    ));
    // SAFETY: each nibble table is 16 bytes: one unaligned 16-byte load.
    let t8 = _mm512_broadcast_i32x4(unsafe {
        _mm_loadu_si128(sets.nibbles[MAX_NIBBLE].as_ptr() as *const __m128i)
    });
    let blocks = src.len().div_ceil(64).min(rows.len());
    for (b, row) in rows.iter_mut().enumerate().take(blocks) {
        let left = src.len() - 64 * b;
        let v = if left >= 64 {
            // SAFETY: 64 bytes from `64 b` are in `src`: one unaligned
            // 64-byte load.
            unsafe { _mm512_loadu_si512(src.as_ptr().add(64 * b) as *const __m512i) }
        } else {
            // SAFETY: the mask covers the `left` bytes from `64 b` that
            // are in `src`; a masked load does not touch the others (they
            // read as zero).
            unsafe {
                _mm512_maskz_loadu_epi8(!0u64 >> (64 - left), src.as_ptr().add(64 * b) as *const i8)
            }
        };
        ahead(src.as_ptr().wrapping_add(64 * b));
        let r = _mm512_permutexvar_epi8(rev, v);
        let c = _mm512_permutex2var_epi8(t0, r, t1);
        let c = _mm512_mask_blend_epi8(_mm512_movepi8_mask(r), c, ones);
        let t = _mm512_gf2p8affine_epi64_epi8::<0>(unit, c);
        let g = _mm512_permutexvar_epi8(gather, t);
        // SAFETY: a row is nine 8-byte words: the first eight are 64
        // bytes in it, written by one unaligned store.
        unsafe { _mm512_storeu_si512(row.as_mut_ptr() as *mut __m512i, g) };
        if let Some(b) = one {
            row[MAX_NIBBLE] = _mm512_cmpneq_epi8_mask(v, _mm512_set1_epi8(b as i8));
        } else if ninth {
            let l = _mm512_and_si512(v, nib);
            let h = _mm512_shuffle_epi8(bits, _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
            row[MAX_NIBBLE] = _mm512_testn_epi8_mask(_mm512_shuffle_epi8(t8, l), h);
        }
    }
}

/// The VBMI kernel's byte order within each 8-byte group, reversed.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
static REVERSE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i & !7 | (7 - (i & 7))) as u8;
        i += 1;
    }
    t
};

/// The VBMI kernel's gather: result byte 8 j + q is byte j of group q.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
static GATHER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (8 * (i & 7) + i / 8) as u8;
        i += 1;
    }
    t
};

/// The ninth set's index (the last a row holds).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
const MAX_NIBBLE: usize = MAX_CLASSES - 1;
