//! x86_64 DFA skip kernels: SSSE3 (16 bytes) and AVX2 (32 bytes), two
//! byte shuffles per block; SSE2 (16 bytes), two compares per range of the
//! set. All share `run_blocks`: a run ends with the input's last block at
//! the latest. Inputs shorter than a block go to SSSE3 (from AVX2) or the
//! scalar twin.

use super::super::skip::ranges::TOO_MANY;
use super::super::skip::{run_blocks, skip_scalar, Nibbles, Ranges};
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
