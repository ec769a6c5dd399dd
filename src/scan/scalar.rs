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
