//! The DFA skip: the first byte at or after a place that is not in a
//! state's self-loop set, sixteen or thirty-two bytes at a time (x86_64
//! SSE2 on ranges, SSSE3 and AVX2 on nibble tables; aarch64 NEON), with
//! its scalar twin. For the engine's DFAs (`Dfa::skip`).

use super::{Chosen, Cpu, Kernel};

/// A byte set as nibble tables: `[lo; 16]` then `[hi; 16]`.
pub(crate) type Nibbles = [u8; 32];

/// The same set as ranges: `[n, start_0, span_0, start_1, span_1, ...]`;
/// byte `b` is in the set when `b.wrapping_sub(start_k) <= span_k` for some
/// `k < n`. `n` is `ranges::TOO_MANY` (0xff) for a set of more than 15
/// ranges (none of the bundled grammars has one; the SSE2 kernel then runs
/// scalar).
pub(crate) type Ranges = [u8; 32];

/// `codegen/ranges.rs`, as the build writes it beside the tables.
pub(crate) mod ranges {
    include!(concat!(env!("OUT_DIR"), "/ranges.rs"));
}
/// A nibble-table set as its maximal runs of consecutive bytes (see
/// `Ranges`); the generator emits every table with this same function.
#[doc(hidden)]
pub use ranges::ranges_of;

/// A skip kernel: [`skip`]'s arguments, its answer.
type SkipFn = fn(&Nibbles, &Ranges, &[u8], usize) -> usize;

static SKIP: Chosen<SkipFn> = Chosen::new(pick);

fn pick(c: Cpu) -> SkipFn {
    #[cfg(target_arch = "x86_64")]
    {
        fn avx2(set: &Nibbles, _: &Ranges, input: &[u8], from: usize) -> usize {
            // SAFETY: `pick` hands this out only where `cpu` found AVX2.
            unsafe { super::x86_64::skip_avx2(set, input, from) }
        }
        fn ssse3(set: &Nibbles, _: &Ranges, input: &[u8], from: usize) -> usize {
            // SAFETY: `pick` hands this out only where `cpu` found SSSE3.
            unsafe { super::x86_64::skip_ssse3(set, input, from) }
        }
        fn sse2(set: &Nibbles, ranges: &Ranges, input: &[u8], from: usize) -> usize {
            // SAFETY: every x86_64 CPU supports SSE2.
            unsafe { super::x86_64::skip_sse2(set, ranges, input, from) }
        }
        if c.avx2 {
            return avx2;
        } else if c.ssse3 {
            return ssse3;
        } else if c.sse2 {
            return sse2;
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        fn neon(set: &Nibbles, _: &Ranges, input: &[u8], from: usize) -> usize {
            // SAFETY: `pick` hands this out only where `cpu` found NEON.
            unsafe { super::aarch64::skip_neon(set, input, from) }
        }
        if c.neon {
            return neon;
        }
    }
    let _ = c;
    fn twin(set: &Nibbles, _: &Ranges, input: &[u8], from: usize) -> usize {
        skip_scalar(set, input, from)
    }
    twin
}

/// First index at or after `from` whose byte is not in the set (or the
/// length), with the best kernel for this machine.
#[inline]
pub(crate) fn skip(set: &Nibbles, ranges: &Ranges, input: &[u8], from: usize) -> usize {
    SKIP.get()(set, ranges, input, from)
}

/// Whether `b` is in the set.
#[inline(always)]
pub(crate) fn contains(set: &Nibbles, b: u8) -> bool {
    set[(b & 15) as usize] & set[16 + (b >> 4) as usize] != 0
}

/// The scalar twin: one byte at a time.
#[inline]
pub(crate) fn skip_scalar(set: &Nibbles, input: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < input.len() && contains(set, input[i]) {
        i += 1;
    }
    i
}

/// The block loop of every SIMD kernel. `outside(at)` classifies the
/// `width` bytes at `at`, `lane` bits per byte (the first byte lowest), set
/// for the bytes outside the set; it is only asked for blocks within the
/// input (`at + width <= len`). Blocks go from `from` until one has a byte
/// outside. A run that gets within a block of the end finishes with the
/// input's last block, which starts at or before the run's place: the lanes
/// before the place are shifted out and the input's end stops the run
/// (both shifts are under 64 for the kernels' widths and lanes). `short`
/// finishes an input shorter than one block.
#[inline(always)]
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) fn run_blocks(
    len: usize,
    from: usize,
    width: usize,
    lane: u32,
    mut outside: impl FnMut(usize) -> u64,
    short: impl FnOnce(usize) -> usize,
) -> usize {
    let mut i = from;
    while i + width <= len {
        let bits = outside(i);
        if bits != 0 {
            return i + (bits.trailing_zeros() / lane) as usize;
        }
        i += width;
    }
    if i < len && len >= width {
        let at = len - width;
        let lane = lane as usize;
        let bits = outside(at) >> (lane * (i - at)) | 1 << (lane * (len - i));
        return i + bits.trailing_zeros() as usize / lane;
    }
    short(i)
}

/// [`skip`] with a chosen kernel (for tests and benchmarks); `None` when
/// this machine cannot run it. `ranges` is [`ranges_of`] the set.
#[doc(hidden)]
pub fn skip_with(
    kernel: Kernel,
    set: &[u8; 32],
    ranges: &[u8; 32],
    input: &[u8],
    from: usize,
) -> Option<usize> {
    let _ = ranges; // only the SSE2 kernel reads them
    if !super::runs(kernel) {
        return None;
    }
    match kernel {
        Kernel::Scalar => Some(skip_scalar(set, input, from)),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 => {
            // SAFETY: every x86_64 CPU supports SSE2.
            Some(unsafe { super::x86_64::skip_sse2(set, ranges, input, from) })
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            // SAFETY: the CPU supports AVX2 (`runs`, above).
            Some(unsafe { super::x86_64::skip_avx2(set, input, from) })
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Ssse3 => {
            // SAFETY: the CPU supports SSSE3 (`runs`, above).
            Some(unsafe { super::x86_64::skip_ssse3(set, input, from) })
        }
        #[cfg(target_arch = "aarch64")]
        Kernel::Neon => {
            // SAFETY: the CPU supports NEON (`runs`, above).
            Some(unsafe { super::aarch64::skip_neon(set, input, from) })
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
