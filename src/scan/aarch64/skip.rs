//! The aarch64 skip kernel, NEON: 16 bytes at a time, two table lookups
//! per block on the same nibble tables as the x86_64 SSSE3 and AVX2
//! kernels; the tail is the input's last sixteen bytes, and only inputs
//! shorter than that finish with the scalar kernel (its twin,
//! `scan::skip::skip_scalar`).

use super::super::skip::{run_blocks, skip_scalar, Nibbles};
use core::arch::aarch64::*;

/// NEON skip. A lane is in the set when `lo[b & 15] & hi[b >> 4]` is not
/// zero; the sixteen verdicts are narrowed to four bits each of a `u64`
/// (shift each 16-bit pair right by 4 and keep the low byte), so the first
/// lane outside the set is the lowest clear bit over four.
///
/// # Safety
/// The CPU must support NEON (every aarch64 CPU that runs Linux does).
#[target_feature(enable = "neon")]
pub(crate) unsafe fn skip_neon(set: &Nibbles, input: &[u8], from: usize) -> usize {
    // SAFETY: `set` is 32 bytes, so both 16-byte loads are in bounds.
    let (lo, hi) = unsafe { (vld1q_u8(set.as_ptr()), vld1q_u8(set.as_ptr().add(16))) };
    let nib = vdupq_n_u8(0x0f);
    // Four bits per lane, set for the lanes outside the set.
    let outside = |at: usize| {
        // SAFETY: `run_blocks` asks only for blocks in the input
        // (`at + 16 <= input.len()`); `vld1q_u8` has no alignment requirement.
        let v = unsafe { vld1q_u8(input.as_ptr().add(at)) };
        let l = vqtbl1q_u8(lo, vandq_u8(v, nib));
        let h = vqtbl1q_u8(hi, vshrq_n_u8::<4>(v));
        let inside = vtstq_u8(l, h);
        let nibbles = vshrn_n_u16::<4>(vreinterpretq_u16_u8(inside));
        !vget_lane_u64::<0>(vreinterpret_u64_u8(nibbles))
    };
    run_blocks(input.len(), from, 16, 4, outside, |i| {
        skip_scalar(set, input, i)
    })
}
