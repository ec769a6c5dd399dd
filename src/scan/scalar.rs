//! The reference kernel: one byte at a time, from the same nibble tables.

use super::Nibbles;

/// Whether `b` is in the set.
#[inline(always)]
pub(crate) fn contains(set: &Nibbles, b: u8) -> bool {
    set[(b & 15) as usize] & set[16 + (b >> 4) as usize] != 0
}

/// First index at or after `from` whose byte is not in the set.
#[inline]
pub(crate) fn skip(set: &Nibbles, input: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < input.len() && contains(set, input[i]) {
        i += 1;
    }
    i
}

/// Bit k set when `slots[k]` is `u32::MAX`, one slot at a time.
#[cfg_attr(
    all(target_arch = "x86_64", not(feature = "force-scalar")),
    allow(dead_code)
)]
#[inline]
pub(crate) fn unset_mask(slots: &[u32; 16]) -> u16 {
    let mut m = 0u16;
    for (k, &s) in slots.iter().enumerate() {
        m |= u16::from(s == u32::MAX) << k;
    }
    m
}

/// Whether `b` is in the set of low-nibble table `lo` (the high table is
/// `1 << h` for `h < 8`: no byte of 0x80 or more is in a set).
#[inline(always)]
pub(crate) const fn in_lo(lo: &[u8; 16], b: u8) -> bool {
    b < 0x80 && lo[(b & 15) as usize] & (1 << (b >> 4)) != 0
}

/// The scalar `Classify` kernel, one byte at a time: bit i of `out[k]` set when `block[i]`
/// is not in set k.
pub(crate) fn classify(block: &[u8; 64], sets: &[[u8; 16]], out: &mut [u64], stride: usize) {
    for (k, lo) in sets.iter().take(super::MAX_CLASSES).enumerate() {
        let mut m = 0u64;
        for (i, &b) in block.iter().enumerate() {
            m |= u64::from(!in_lo(lo, b)) << i;
        }
        out[k * stride] = m;
    }
}

/// Whether the byte after a colon may go on a URI whose scheme ends there
/// (extraction's candidates): `/`, ASCII whitespace, or 0xC2 (the first
/// byte of U+00A0).
#[inline(always)]
pub(crate) fn after_colon(b: u8) -> bool {
    matches!(b, b'/' | b' ' | 0x09..=0x0d | 0xc2)
}

/// Extraction's candidate colons in one block, one byte at a time (the twin
/// of the SIMD kernels): `src` is the block with one byte of context on
/// each side (66 bytes); bit i is set when `src[i + 1]` is `:` and
/// `src[i + 2]` is [`after_colon`] or `src[i]` an ASCII letter.
#[inline]
pub(crate) fn colon_marks(src: &[u8; 66]) -> u64 {
    let mut m = 0u64;
    for i in 0..64 {
        let hit = src[i + 1] == b':' && candidate_colon(src[i], src[i + 2]);
        m |= u64::from(hit) << i;
    }
    m
}

/// Whether a colon between `before` and `after` is one of extraction's
/// candidates: `after` is [`after_colon`] or `before` an ASCII letter.
#[inline(always)]
pub(crate) fn candidate_colon(before: u8, after: u8) -> bool {
    after_colon(after) || before.is_ascii_alphabetic()
}
