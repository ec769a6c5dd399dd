//! x86_64 store kernels of the batch (SSE2).

use core::arch::x86_64::*;

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
