//! x86_64 kernels: SSSE3 (16 bytes) and AVX2 (32 bytes), two byte shuffles
//! per block; SSE2 (16 bytes), two compares per range of the set. Each
//! finishes a run with the input's last block (which starts at or before
//! the run's place); only inputs shorter than a block finish with the
//! scalar kernel.

use super::ranges::TOO_MANY;
use super::{scalar, Nibbles, Ranges};
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
        return scalar::skip(set, input, from);
    }
    let n = (n as usize).min(15);
    let mut starts = [_mm_setzero_si128(); 15];
    let mut spans = [_mm_setzero_si128(); 15];
    for k in 0..n {
        starts[k] = _mm_set1_epi8(ranges[1 + 2 * k] as i8);
        spans[k] = _mm_set1_epi8(ranges[2 + 2 * k] as i8);
    }
    let outside = |at: usize| {
        // SAFETY: callers pass `at + 16 <= input.len()`, so the 16 bytes at
        // `at` are in bounds; the load is unaligned.
        let v = unsafe { _mm_loadu_si128(input.as_ptr().add(at) as *const __m128i) };
        let mut inside = _mm_setzero_si128();
        for k in 0..n {
            let d = _mm_sub_epi8(v, starts[k]);
            inside = _mm_or_si128(inside, _mm_cmpeq_epi8(_mm_min_epu8(d, spans[k]), d));
        }
        !(_mm_movemask_epi8(inside) as u32) & 0xffff
    };
    let mut i = from;
    while i + 16 <= input.len() {
        let bits = outside(i);
        if bits != 0 {
            return i + bits.trailing_zeros() as usize;
        }
        i += 16;
    }
    match tail_block(input.len(), i, 16) {
        Some(at) => i + tail_stop(outside(at), at, i, input.len()),
        None => scalar::skip(set, input, i),
    }
}

/// Where the block that finishes a run from `i` (with fewer than `width`
/// bytes left) is loaded: the last `width` bytes of the input, which end at
/// its end and start at or before `i`. `None` when the input is shorter
/// than a block (the scalar kernel finishes), or nothing is left.
#[inline(always)]
fn tail_block(len: usize, i: usize, width: usize) -> Option<usize> {
    (i < len && len >= width).then(|| len - width)
}

/// The run's length from `i` given the outside-bits of the block loaded at
/// `at` (`at <= i < len`, the block ending at `len`): the bits before `i`
/// are dropped, and the input's end stops the run.
#[inline(always)]
fn tail_stop(bits: u32, at: usize, i: usize, len: usize) -> usize {
    ((bits >> (i - at)) | 1 << (len - i)).trailing_zeros() as usize
}

/// SSSE3 skip.
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn skip_ssse3(set: &Nibbles, input: &[u8], from: usize) -> usize {
    let mut i = from;
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
        // SAFETY: callers pass `at + 16 <= input.len()`, so the 16 bytes at
        // `at` are in bounds; the load is unaligned.
        let v = unsafe { _mm_loadu_si128(input.as_ptr().add(at) as *const __m128i) };
        let l = _mm_shuffle_epi8(lo, _mm_and_si128(v, nib));
        let h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), nib));
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(l, h), _mm_setzero_si128())) as u32
    };
    while i + 16 <= input.len() {
        let bits = outside(i);
        if bits != 0 {
            return i + bits.trailing_zeros() as usize;
        }
        i += 16;
    }
    match tail_block(input.len(), i, 16) {
        Some(at) => i + tail_stop(outside(at), at, i, input.len()),
        None => scalar::skip(set, input, i),
    }
}

/// AVX2 skip.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn skip_avx2(set: &Nibbles, input: &[u8], from: usize) -> usize {
    let mut i = from;
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
        // SAFETY: callers pass `at + 32 <= input.len()`, so the 32 bytes at
        // `at` are in bounds; the load is unaligned.
        let v = unsafe { _mm256_loadu_si256(input.as_ptr().add(at) as *const __m256i) };
        let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
        let h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
        let none = _mm256_cmpeq_epi8(_mm256_and_si256(l, h), _mm256_setzero_si256());
        _mm256_movemask_epi8(none) as u32
    };
    while i + 32 <= input.len() {
        let bits = outside(i);
        if bits != 0 {
            return i + bits.trailing_zeros() as usize;
        }
        i += 32;
    }
    match tail_block(input.len(), i, 32) {
        // The shift in `tail_stop` is at most 31 and so is `len - i`.
        Some(at) => i + tail_stop(outside(at), at, i, input.len()),
        // SAFETY: the CPU supports SSSE3 (AVX2 implies it); finish 16 at a
        // time.
        None => unsafe { skip_ssse3(set, input, i) },
    }
}
