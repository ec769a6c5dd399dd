//! Byte classification for the DFA's hot loop: "skip while the byte is in
//! this set", sixteen or thirty-two bytes at a time. This module holds all
//! of urilex's `unsafe` code.
//!
//! The sets are the self-loop sets of DFA states, emitted by the generator
//! as two 16-byte nibble tables (`lo`, `hi`) from the same byte classes as
//! the scalar tables: byte `b` is in the set when
//! `lo[b & 15] & hi[b >> 4] != 0`. With `hi[h] = 1 << h` for `h < 8` and 0
//! above, this is exact for any set of ASCII bytes, and no byte of 0x80 or
//! more is ever in it. Kernels: `scalar` (always built, the reference),
//! x86_64 SSSE3 and AVX2 (chosen at run time). The `force-scalar` feature
//! uses the scalar kernel everywhere. (SSE2 alone has no byte shuffle, so
//! x86_64 machines without SSSE3 use the scalar kernel.)
#![allow(unsafe_code)]

pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

/// A byte set as nibble tables: `[lo; 16]` then `[hi; 16]`.
pub(crate) type Nibbles = [u8; 32];

/// Which kernel the DFA skip loop uses on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// One byte at a time.
    Scalar,
    /// x86_64 SSSE3, 16 bytes at a time.
    Ssse3,
    /// x86_64 AVX2, 32 bytes at a time.
    Avx2,
}

/// The kernel chosen for this machine (and build).
pub fn kernel() -> Kernel {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
        if std::arch::is_x86_feature_detected!("ssse3") {
            return Kernel::Ssse3;
        }
    }
    Kernel::Scalar
}

/// First index at or after `from` whose byte is not in the set (or the
/// length), with the best kernel for this machine.
#[inline]
pub(crate) fn skip(set: &Nibbles, input: &[u8], from: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { x86_64::skip_avx2(set, input, from) };
        }
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: the CPU supports SSSE3, checked just above.
            return unsafe { x86_64::skip_ssse3(set, input, from) };
        }
    }
    scalar::skip(set, input, from)
}

/// [`skip`] with a chosen kernel (for tests and benchmarks); `None` when
/// this machine cannot run it.
#[doc(hidden)]
pub fn skip_with(kernel: Kernel, set: &[u8; 32], input: &[u8], from: usize) -> Option<usize> {
    match kernel {
        Kernel::Scalar => Some(scalar::skip(set, input, from)),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 if std::arch::is_x86_feature_detected!("avx2") => {
            // SAFETY: the CPU supports AVX2, checked in the guard.
            Some(unsafe { x86_64::skip_avx2(set, input, from) })
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Ssse3 if std::arch::is_x86_feature_detected!("ssse3") => {
            // SAFETY: the CPU supports SSSE3, checked in the guard.
            Some(unsafe { x86_64::skip_ssse3(set, input, from) })
        }
        _ => None,
    }
}

/// Nibble tables for an ASCII byte set given as a 256-bit mask (for tests;
/// the generator emits the real ones). `None` if the set has a byte >= 0x80.
#[doc(hidden)]
pub fn nibbles_of(set: &[u64; 4]) -> Option<[u8; 32]> {
    if set[2] != 0 || set[3] != 0 {
        return None;
    }
    let mut t = [0u8; 32];
    for b in 0..128u8 {
        if set[(b >> 6) as usize] >> (b & 63) & 1 != 0 {
            t[(b & 15) as usize] |= 1 << (b >> 4);
        }
    }
    for h in 0..8 {
        t[16 + h] = 1 << h;
    }
    Some(t)
}
