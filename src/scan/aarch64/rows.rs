//! The aarch64 line classifier, NEON (`classify_neon`): 64 bytes against
//! up to nine sets, the twin of `scan::rows`' scalar classifier.

use super::super::rows::MAX_CLASSES;
use core::arch::aarch64::*;

/// NEON `Classify` kernel: the block as four 16-byte quarters; per quarter
/// the low nibbles and the bit of each high nibble once (a table lookup),
/// then per set one lookup, an and and a compare with zero per quarter.
/// NEON has no mask move: each lane's verdict keeps one bit of its byte
/// position (1 to 128), and three rounds of pairwise adds fold the 64
/// lanes into the 64 bits of one word, lane i at bit i.
///
/// # Safety
/// The CPU must support NEON (every aarch64 CPU that runs Linux does).
#[target_feature(enable = "neon")]
pub(crate) unsafe fn classify_neon(
    block: &[u8; 64],
    sets: &[[u8; 16]],
    out: &mut [u64],
    stride: usize,
) {
    let p = block.as_ptr();
    // SAFETY: `block` is 64 bytes: four 16-byte loads at 0, 16, 32 and 48;
    // `vld1q_u8` has no alignment requirement.
    let v = unsafe { [0, 1, 2, 3].map(|q| vld1q_u8(p.add(16 * q))) };
    let pow: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];
    let lane: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
    // SAFETY: both arrays are 16 bytes.
    let (pow, lane) = unsafe { (vld1q_u8(pow.as_ptr()), vld1q_u8(lane.as_ptr())) };
    let nib = vdupq_n_u8(0x0f);
    let l = v.map(|x| vandq_u8(x, nib));
    // Bytes of 0x80 and more get high nibble bit 0: in no set.
    let h = v.map(|x| vqtbl1q_u8(pow, vshrq_n_u8::<4>(x)));
    for (k, lo) in sets.iter().take(MAX_CLASSES).enumerate() {
        // SAFETY: `lo` is 16 bytes.
        let t = unsafe { vld1q_u8(lo.as_ptr()) };
        let m = [0, 1, 2, 3].map(|q| {
            let outside = vceqzq_u8(vandq_u8(vqtbl1q_u8(t, l[q]), h[q]));
            vandq_u8(outside, lane)
        });
        let s = vpaddq_u8(vpaddq_u8(m[0], m[1]), vpaddq_u8(m[2], m[3]));
        let s = vpaddq_u8(s, s);
        out[k * stride] = vgetq_lane_u64::<0>(vreinterpretq_u64_u8(s));
    }
}
