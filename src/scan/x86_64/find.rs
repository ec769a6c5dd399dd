//! x86_64 finders (SSE2): the first `%` or upper-case letter, the first
//! `/.`.

use super::super::skip::run_blocks;
use core::arch::x86_64::*;

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
