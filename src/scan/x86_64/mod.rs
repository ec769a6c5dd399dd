//! x86_64 kernels: SSSE3 (16 bytes) and AVX2 (32 bytes), two byte shuffles
//! per block; SSE2 (16 bytes), two compares per range of the set. All
//! share `run_blocks`: a run ends with the input's last block at the
//! latest. Inputs shorter than a block go to SSSE3 (from AVX2) or the
//! scalar kernel.

use super::rows::{rows_by_blocks, Row, RowSets};
use super::skip::ranges::TOO_MANY;
use super::skip::{run_blocks, skip_scalar, Nibbles, Ranges};
use core::arch::x86_64::*;

/// SSE2 skip: byte `b` is in range `k` when `b - start_k <= span_k`
/// (wrapping, unsigned), that is when `min(b - start_k, span_k)` is
/// `b - start_k`.
///
/// # Safety
/// The CPU must support SSE2 (every x86_64 CPU does).
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn skip_sse2(set: &Nibbles, ranges: &Ranges, input: &[u8], from: usize) -> usize {
    let n = ranges[0];
    if n == TOO_MANY {
        return skip_scalar(set, input, from);
    }
    let n = (n as usize).min(15);
    let mut starts = [_mm_setzero_si128(); 15];
    let mut spans = [_mm_setzero_si128(); 15];
    for k in 0..n {
        starts[k] = _mm_set1_epi8(ranges[1 + 2 * k] as i8);
        spans[k] = _mm_set1_epi8(ranges[2 + 2 * k] as i8);
    }
    let outside = |at: usize| {
        // SAFETY: `run_blocks` asks only for blocks in the input
        // (`at + 16 <= input.len()`); the load is unaligned.
        let v = unsafe { _mm_loadu_si128(input.as_ptr().add(at) as *const __m128i) };
        let mut inside = _mm_setzero_si128();
        for k in 0..n {
            let d = _mm_sub_epi8(v, starts[k]);
            inside = _mm_or_si128(inside, _mm_cmpeq_epi8(_mm_min_epu8(d, spans[k]), d));
        }
        u64::from(!(_mm_movemask_epi8(inside) as u32) & 0xffff)
    };
    run_blocks(input.len(), from, 16, 1, outside, |i| {
        skip_scalar(set, input, i)
    })
}

/// SSSE3 skip.
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn skip_ssse3(set: &Nibbles, input: &[u8], from: usize) -> usize {
    // SAFETY: `set` is 32 bytes, so both 16-byte loads are in bounds;
    // unaligned loads are allowed by `_mm_loadu_si128`.
    let (lo, hi) = unsafe {
        (
            _mm_loadu_si128(set.as_ptr() as *const __m128i),
            _mm_loadu_si128(set.as_ptr().add(16) as *const __m128i),
        )
    };
    let nib = _mm_set1_epi8(0x0f);
    let outside = |at: usize| {
        // SAFETY: `run_blocks` asks only for blocks in the input
        // (`at + 16 <= input.len()`); the load is unaligned.
        let v = unsafe { _mm_loadu_si128(input.as_ptr().add(at) as *const __m128i) };
        let l = _mm_shuffle_epi8(lo, _mm_and_si128(v, nib));
        let h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), nib));
        let none = _mm_cmpeq_epi8(_mm_and_si128(l, h), _mm_setzero_si128());
        u64::from(_mm_movemask_epi8(none) as u32)
    };
    run_blocks(input.len(), from, 16, 1, outside, |i| {
        skip_scalar(set, input, i)
    })
}

/// AVX2 skip.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn skip_avx2(set: &Nibbles, input: &[u8], from: usize) -> usize {
    // SAFETY: `set` is 32 bytes, so both 16-byte loads are in bounds.
    let (lo, hi) = unsafe {
        (
            _mm_loadu_si128(set.as_ptr() as *const __m128i),
            _mm_loadu_si128(set.as_ptr().add(16) as *const __m128i),
        )
    };
    let (lo, hi) = (
        _mm256_broadcastsi128_si256(lo),
        _mm256_broadcastsi128_si256(hi),
    );
    let nib = _mm256_set1_epi8(0x0f);
    let outside = |at: usize| {
        // SAFETY: `run_blocks` asks only for blocks in the input
        // (`at + 32 <= input.len()`); the load is unaligned.
        let v = unsafe { _mm256_loadu_si256(input.as_ptr().add(at) as *const __m256i) };
        let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
        let h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
        let none = _mm256_cmpeq_epi8(_mm256_and_si256(l, h), _mm256_setzero_si256());
        u64::from(_mm256_movemask_epi8(none) as u32)
    };
    run_blocks(input.len(), from, 32, 1, outside, |i| {
        // SAFETY: the CPU supports SSSE3 (AVX2 implies it); an input
        // shorter than 32 bytes goes 16 at a time.
        unsafe { skip_ssse3(set, input, i) }
    })
}

/// SSE2 `unset_mask`: four compares with all ones, packed down to bytes
/// (saturation keeps 0 and -1 as they are) and one mask move.
///
/// # Safety
/// The CPU must support SSE2 (every x86_64 CPU does).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) unsafe fn unset_mask_sse2(slots: &[u32; 16]) -> u16 {
    let p = slots.as_ptr() as *const __m128i;
    let ones = _mm_set1_epi32(-1);
    // SAFETY: `slots` is 64 bytes, four unaligned 16-byte loads.
    let [a, b, c, d] = unsafe { [0, 1, 2, 3].map(|k| _mm_loadu_si128(p.add(k))) };
    let ab = _mm_packs_epi32(_mm_cmpeq_epi32(a, ones), _mm_cmpeq_epi32(b, ones));
    let cd = _mm_packs_epi32(_mm_cmpeq_epi32(c, ones), _mm_cmpeq_epi32(d, ones));
    _mm_movemask_epi8(_mm_packs_epi16(ab, cd)) as u16
}

/// SSE2 `find_pct_or_upper`: per block, "%" by a compare and "A" to "Z" by
/// `min(b - 'A', 25) == b - 'A'` (unsigned), then a mask move; the blocks
/// go through `run_blocks`, the input's last block finishing the search.
///
/// # Safety
/// The CPU must support SSE2 (every x86_64 CPU does), and `s` must hold at
/// least 16 bytes.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) unsafe fn find_pct_or_upper_sse2(s: &[u8], upper: bool) -> Option<usize> {
    debug_assert!(s.len() >= 16);
    let pct = _mm_set1_epi8(b'%' as i8);
    let a = _mm_set1_epi8(b'A' as i8);
    let span = _mm_set1_epi8(25);
    let up = _mm_set1_epi8(if upper { -1 } else { 0 });
    let marks = |at: usize| {
        // SAFETY: `run_blocks` asks only for blocks in the input
        // (`at + 16 <= s.len()`); the load is unaligned.
        let x = unsafe { _mm_loadu_si128(s.as_ptr().add(at) as *const __m128i) };
        let d = _mm_sub_epi8(x, a);
        let caps = _mm_cmpeq_epi8(_mm_min_epu8(d, span), d);
        let m = _mm_or_si128(_mm_cmpeq_epi8(x, pct), _mm_and_si128(caps, up));
        u64::from(_mm_movemask_epi8(m) as u32)
    };
    // No input shorter than a block comes here.
    let k = run_blocks(s.len(), 0, 16, 1, marks, |i| i);
    (k < s.len()).then_some(k)
}

/// SSE2 `find_dot_segment`: a "/" compare on the block at `k` and a "."
/// compare on the block at `k + 1` mark the sixteen places `k..k + 16` at
/// once (a place: a byte with one after it), through `run_blocks`.
///
/// # Safety
/// The CPU must support SSE2 (every x86_64 CPU does), and `s` must hold at
/// least 17 bytes.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) unsafe fn find_dot_segment_sse2(s: &[u8]) -> Option<usize> {
    debug_assert!(s.len() >= 17);
    let slash = _mm_set1_epi8(b'/' as i8);
    let dot = _mm_set1_epi8(b'.' as i8);
    let places = s.len() - 1;
    let marks = |at: usize| {
        // SAFETY: `run_blocks` asks only for blocks of places in the input
        // (`at + 16 <= places`), so both loads end within `s`.
        let (x, y) = unsafe {
            let p = s.as_ptr().add(at);
            (
                _mm_loadu_si128(p as *const __m128i),
                _mm_loadu_si128(p.add(1) as *const __m128i),
            )
        };
        let m = _mm_and_si128(_mm_cmpeq_epi8(x, slash), _mm_cmpeq_epi8(y, dot));
        u64::from(_mm_movemask_epi8(m) as u32)
    };
    // No input shorter than a block of places comes here.
    let k = run_blocks(places, 0, 16, 1, marks, |i| i);
    (k < places).then_some(k)
}

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
    classify_halves_avx2(v0, v1, sets, |k, m| out[k * stride] = m);
}

/// The body of the AVX2 kernels: per half the low nibbles and the bit of
/// each high nibble once, then per set one shuffle, an and, a compare with
/// zero and a mask move.
#[target_feature(enable = "avx2")]
#[inline]
fn classify_halves_avx2(
    v0: __m256i,
    v1: __m256i,
    sets: &[[u8; 16]],
    mut put: impl FnMut(usize, u64),
) {
    let nib = _mm256_set1_epi8(0x0f);
    let bits = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0,
        0, 0, 0, 0, 0, 0,
    );
    let (l0, l1) = (_mm256_and_si256(v0, nib), _mm256_and_si256(v1, nib));
    let h0 = _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16(v0, 4), nib));
    let h1 = _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16(v1, 4), nib));
    let zero = _mm256_setzero_si256();
    for (k, lo) in sets.iter().take(super::MAX_CLASSES).enumerate() {
        // SAFETY: `lo` is 16 bytes: one unaligned 16-byte load.
        let t =
            _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(lo.as_ptr() as *const __m128i) });
        let a = _mm256_and_si256(_mm256_shuffle_epi8(t, l0), h0);
        let b = _mm256_and_si256(_mm256_shuffle_epi8(t, l1), h1);
        let m0 = _mm256_movemask_epi8(_mm256_cmpeq_epi8(a, zero)) as u32;
        let m1 = _mm256_movemask_epi8(_mm256_cmpeq_epi8(b, zero)) as u32;
        put(k, u64::from(m0) | u64::from(m1) << 32);
    }
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
    for (k, lo) in sets.iter().take(super::MAX_CLASSES).enumerate() {
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
    for (k, lo) in sets.iter().take(super::MAX_CLASSES).enumerate() {
        // SAFETY: `lo` is 16 bytes: one unaligned 16-byte load.
        let t = _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(lo.as_ptr() as *const __m128i) });
        out[k * stride] = _mm512_testn_epi8_mask(_mm512_shuffle_epi8(t, l), h);
    }
}

/// AVX2 `ClassifyRows` kernel: `classify_avx2` in a loop; a last block
/// cut short is read in place, a quarter at a time (`tail_quarter`).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn classify_rows_avx2(src: &[u8], sets: &RowSets, rows: &mut [Row]) {
    let blocks = src.chunks_exact(64);
    let tail = blocks.remainder();
    let whole = blocks.len();
    for (block, row) in blocks.zip(rows.iter_mut()) {
        ahead(block.as_ptr());
        let p = block.as_ptr() as *const __m256i;
        // SAFETY: `block` is 64 bytes: two unaligned 32-byte loads.
        let (v0, v1) = unsafe { (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))) };
        // A row holds `MAX_CLASSES` words, and `k` is below it.
        classify_halves_avx2(v0, v1, sets.sets(), |k, m| row[k] = m);
    }
    if let (false, Some(row)) = (tail.is_empty(), rows.get_mut(whole)) {
        // Called here, not from a closure (which would not have AVX2
        // enabled, so could not inline them).
        let (q0, q1) = (tail_quarter(tail, 0), tail_quarter(tail, 1));
        let (q2, q3) = (tail_quarter(tail, 2), tail_quarter(tail, 3));
        let (v0, v1) = (_mm256_set_m128i(q1, q0), _mm256_set_m128i(q3, q2));
        classify_halves_avx2(v0, v1, sets.sets(), |k, m| row[k] = m);
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
const MAX_NIBBLE: usize = super::MAX_CLASSES - 1;

/// How far ahead of the block it reads a streaming kernel (the colon
/// marks, the rows kernels) asks for the text (`prefetcht0`): extraction
/// and batches stream through inputs larger than the caches. On the
/// generated extraction text (29 MB) the hint made extraction about 9%
/// faster (`extract_corpus`); `urilex validate` on 237 MB, about 5%.
const PREFETCH: usize = 1024;

/// Asks for the bytes [`PREFETCH`] after `p`. A prefetch is a hint: it
/// never faults, wherever it points (the address is formed with
/// `wrapping_add`, not as an in-bounds offset).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[inline(always)]
fn ahead(p: *const u8) {
    // SAFETY: SSE is part of x86_64; a prefetch reads nothing.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(PREFETCH) as *const i8) }
}

/// The second pass of the chunk kernels: the whole colon test (`$c.block`)
/// on the blocks whose bit is set in `$colons`, the others' marks cleared;
/// which blocks have a candidate. An unsafe expression: every block's 66
/// bytes must be readable from `$src`.
macro_rules! marked_blocks {
    ($c:expr, $src:expr, $colons:expr, $marks:expr) => {{
        let mut colons: u32 = $colons;
        *$marks = [0; super::CHUNK];
        let mut any = 0u32;
        while colons != 0 {
            let w = colons.trailing_zeros() as usize;
            colons &= colons - 1;
            let m = $c.block($src.as_ptr().add(64 * w));
            $marks[w] = m;
            any |= u32::from(m != 0) << w;
        }
        any
    }};
}

/// The constants of the AVX-512 colon test (see `colon_block_avx512`).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[derive(Clone, Copy)]
struct Colon512 {
    colon: __m512i,
    slash: __m512i,
    space: __m512i,
    nbsp: __m512i,
    nine: __m512i,
    four: __m512i,
    case: __m512i,
    a: __m512i,
    z: __m512i,
}

#[cfg_attr(feature = "force-scalar", allow(dead_code))]
impl Colon512 {
    #[target_feature(enable = "avx512f,avx512bw")]
    fn new() -> Colon512 {
        Colon512 {
            colon: _mm512_set1_epi8(b':' as i8),
            slash: _mm512_set1_epi8(b'/' as i8),
            space: _mm512_set1_epi8(b' ' as i8),
            nbsp: _mm512_set1_epi8(0xc2u8 as i8),
            nine: _mm512_set1_epi8(9),
            four: _mm512_set1_epi8(4),
            case: _mm512_set1_epi8(0x20),
            a: _mm512_set1_epi8(b'a' as i8),
            z: _mm512_set1_epi8(25),
        }
    }

    /// The candidate colons of the 64 bytes from `p + 1` (see
    /// `scalar::colon_marks`), the compares straight into mask registers.
    ///
    /// # Safety
    /// The 66 bytes from `p` must be readable.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn block(&self, p: *const u8) -> u64 {
        // SAFETY: 64 bytes from `p`, `p + 1` and `p + 2` are readable (the
        // caller's promise); the loads are unaligned.
        let (prev, cur, next) = unsafe {
            (
                _mm512_loadu_si512(p as *const __m512i),
                _mm512_loadu_si512(p.add(1) as *const __m512i),
                _mm512_loadu_si512(p.add(2) as *const __m512i),
            )
        };
        let after = _mm512_cmpeq_epi8_mask(next, self.slash)
            | _mm512_cmpeq_epi8_mask(next, self.space)
            | _mm512_cmpeq_epi8_mask(next, self.nbsp)
            | _mm512_cmple_epu8_mask(_mm512_sub_epi8(next, self.nine), self.four);
        let letter = _mm512_cmple_epu8_mask(
            _mm512_sub_epi8(_mm512_or_si512(prev, self.case), self.a),
            self.z,
        );
        _mm512_cmpeq_epi8_mask(cur, self.colon) & (after | letter)
    }
}

/// Extraction's candidate colons of one block and its context (see
/// `scalar::colon_marks`), for tests against the twin: the test
/// [`colon_chunk_avx512`] runs on every block.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn colon_block_avx512(src: &[u8; 66]) -> u64 {
    // SAFETY: the 66 bytes of `src` are readable.
    unsafe { Colon512::new().block(src.as_ptr()) }
}

/// Extraction's candidate colons of [`CHUNK`](super::CHUNK) blocks (see
/// `scalar::colon_marks`): `src` holds them with one byte of context before
/// the first and after the last. Returns which blocks have one (bit w for
/// `marks[w]`), so that the search goes from one candidate to the next
/// with no loop over empty blocks.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn colon_chunk_avx512(src: &super::ChunkSrc, marks: &mut super::Marks) -> u32 {
    let c = Colon512::new();
    // First the blocks with a colon at all (prose has few: one load and
    // one compare a block), then the whole test on those only.
    let mut colons = 0u32;
    for w in 0..super::CHUNK {
        ahead(src.as_ptr().wrapping_add(64 * w));
        // SAFETY: `src` holds `64 CHUNK + 2` bytes, so the 64 from
        // `64 w + 1` are in it; the load is unaligned.
        let cur = unsafe { _mm512_loadu_si512(src.as_ptr().add(64 * w + 1) as *const __m512i) };
        colons |= u32::from(_mm512_cmpeq_epi8_mask(cur, c.colon) != 0) << w;
    }
    // SAFETY: the 66 bytes from `64 w` are in `src` for every block w.
    unsafe { marked_blocks!(c, src, colons, marks) }
}

/// The constants of the AVX2 colon test (see `Colon256::block`).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[derive(Clone, Copy)]
struct Colon256 {
    colon: __m256i,
    slash: __m256i,
    space: __m256i,
    nbsp: __m256i,
    nine: __m256i,
    four: __m256i,
    case: __m256i,
    a: __m256i,
    z: __m256i,
}

#[cfg_attr(feature = "force-scalar", allow(dead_code))]
impl Colon256 {
    #[target_feature(enable = "avx2")]
    fn new() -> Colon256 {
        Colon256 {
            colon: _mm256_set1_epi8(b':' as i8),
            slash: _mm256_set1_epi8(b'/' as i8),
            space: _mm256_set1_epi8(b' ' as i8),
            nbsp: _mm256_set1_epi8(0xc2u8 as i8),
            nine: _mm256_set1_epi8(9),
            four: _mm256_set1_epi8(4),
            case: _mm256_set1_epi8(0x20),
            a: _mm256_set1_epi8(b'a' as i8),
            z: _mm256_set1_epi8(25),
        }
    }

    /// [`Colon512::block`], 32 bytes at a time. A byte is a letter when
    /// `(b | 0x20) - 'a' <= 25` and tab to CR when `b - 9 <= 4` (unsigned,
    /// by `min`, which SSE and AVX2 have for bytes where they have no
    /// unsigned compare).
    ///
    /// # Safety
    /// The 66 bytes from `p` must be readable.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn block(&self, p: *const u8) -> u64 {
        let mut m = 0u64;
        for k in 0..2 {
            // SAFETY: 32 bytes from `p + 32 k`, one and two further, are
            // among the 66 readable from `p` (the caller's promise); the
            // loads are unaligned.
            let (prev, cur, next) = unsafe {
                let q = p.add(32 * k);
                (
                    _mm256_loadu_si256(q as *const __m256i),
                    _mm256_loadu_si256(q.add(1) as *const __m256i),
                    _mm256_loadu_si256(q.add(2) as *const __m256i),
                )
            };
            let ws = _mm256_sub_epi8(next, self.nine);
            let ws = _mm256_cmpeq_epi8(_mm256_min_epu8(ws, self.four), ws);
            let after = _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_cmpeq_epi8(next, self.slash),
                    _mm256_cmpeq_epi8(next, self.space),
                ),
                _mm256_or_si256(_mm256_cmpeq_epi8(next, self.nbsp), ws),
            );
            let l = _mm256_sub_epi8(_mm256_or_si256(prev, self.case), self.a);
            let letter = _mm256_cmpeq_epi8(_mm256_min_epu8(l, self.z), l);
            let hit = _mm256_and_si256(
                _mm256_cmpeq_epi8(cur, self.colon),
                _mm256_or_si256(after, letter),
            );
            m |= u64::from(_mm256_movemask_epi8(hit) as u32) << (32 * k);
        }
        m
    }
}

/// [`colon_block_avx512`] with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn colon_block_avx2(src: &[u8; 66]) -> u64 {
    // SAFETY: the 66 bytes of `src` are readable.
    unsafe { Colon256::new().block(src.as_ptr()) }
}

/// [`colon_chunk_avx512`] with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn colon_chunk_avx2(src: &super::ChunkSrc, marks: &mut super::Marks) -> u32 {
    let c = Colon256::new();
    let mut colons = 0u32;
    for w in 0..super::CHUNK {
        ahead(src.as_ptr().wrapping_add(64 * w));
        // SAFETY: `src` holds `64 CHUNK + 2` bytes, so the 64 from
        // `64 w + 1` are in it; the loads are unaligned.
        let (a, b) = unsafe {
            let p = src.as_ptr().add(64 * w + 1);
            (
                _mm256_loadu_si256(p as *const __m256i),
                _mm256_loadu_si256(p.add(32) as *const __m256i),
            )
        };
        let hit = _mm256_or_si256(_mm256_cmpeq_epi8(a, c.colon), _mm256_cmpeq_epi8(b, c.colon));
        colons |= u32::from(_mm256_movemask_epi8(hit) != 0) << w;
    }
    // SAFETY: the 66 bytes from `64 w` are in `src` for every block w.
    unsafe { marked_blocks!(c, src, colons, marks) }
}
