//! Extraction's candidate colons: a `:` with an ASCII letter before it, or
//! `/`, whitespace or U+00A0 after it, marked a kilobyte at a time
//! (AVX-512 BW, AVX2), with its scalar twin (memchr for the colons). For
//! `extract`.

use super::{Chosen, Cpu, Kernel};

/// Blocks of 64 bytes whose candidate colons extraction marks at once
/// (see [`colon_chunk`]).
pub const CHUNK: usize = 16;

/// A chunk of text with one byte of context before and after.
pub type ChunkSrc = [u8; 64 * CHUNK + 2];

/// A chunk's candidate colons, a word per block.
pub type Marks = [u64; CHUNK];

/// A kernel of extraction's candidate colons over a chunk: the marks, and
/// which words have one.
pub(crate) type ColonChunk = fn(&ChunkSrc, &mut Marks) -> u32;

static COLON: Chosen<ColonChunk> = Chosen::new(pick);

/// The colon kernel for this machine, chosen once.
#[inline]
pub(crate) fn colon_kernel() -> ColonChunk {
    COLON.get()
}

fn pick(c: Cpu) -> ColonChunk {
    #[cfg(target_arch = "x86_64")]
    {
        fn avx2(src: &ChunkSrc, marks: &mut Marks) -> u32 {
            // SAFETY: handed out only where `cpu` found AVX2.
            unsafe { super::x86_64::colon_chunk_avx2(src, marks) }
        }
        fn avx512(src: &ChunkSrc, marks: &mut Marks) -> u32 {
            // SAFETY: handed out only where `cpu` found AVX-512 BW (and F).
            unsafe { super::x86_64::colon_chunk_avx512(src, marks) }
        }
        if c.avx512 {
            return avx512;
        } else if c.avx2 {
            return avx2;
        }
    }
    let _ = c;
    colon_chunk_scalar
}

/// Whether the byte after a colon may go on a URI whose scheme ends there
/// (extraction's candidates): `/`, ASCII whitespace, or 0xC2 (the first
/// byte of U+00A0).
#[inline(always)]
pub(crate) fn after_colon(b: u8) -> bool {
    matches!(b, b'/' | b' ' | 0x09..=0x0d | 0xc2)
}

/// Extraction's candidate colons in one block, one byte at a time (the twin
/// of the SIMD block kernels): `src` is the block with one byte of context
/// on each side (66 bytes); bit i is set when `src[i + 1]` is `:` and
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

/// The scalar twin of the chunk kernels: the colons by memchr (prose has
/// few, and memchr has SIMD where this crate has no colon kernel, as on
/// aarch64), each tested as `colon_marks` tests a byte.
fn colon_chunk_scalar(src: &ChunkSrc, marks: &mut Marks) -> u32 {
    *marks = [0; CHUNK];
    let mut any = 0;
    for c in memchr::memchr_iter(b':', &src[1..src.len() - 1]) {
        // The colon is `src[c + 1]`, its context `src[c]` and `src[c + 2]`.
        if candidate_colon(src[c], src[c + 2]) {
            marks[c / 64] |= 1 << (c % 64);
            any |= 1 << (c / 64);
        }
    }
    any
}

/// Where extraction looks for a URI (see `extract`): bit i of `marks[w]`
/// is set when byte `at + 64 w + i` of `text` is a `:` followed by `/`,
/// ASCII whitespace or 0xC2 (U+00A0's first byte), or preceded by an ASCII
/// letter. Every URI extraction takes has such a colon after its scheme;
/// most other colons of running text (times of day, JSON keys) have
/// neither. Bytes outside `text` count as NUL. Returns which words have a
/// candidate (bit w for `marks[w]`).
#[inline]
pub(crate) fn colon_chunk(kern: ColonChunk, text: &[u8], at: usize, marks: &mut Marks) -> u32 {
    const LEN: usize = 64 * CHUNK + 2;
    match at.checked_sub(1).and_then(|b| text.get(b..b + LEN)) {
        Some(src) => kern(src.try_into().expect("a chunk"), marks),
        None => {
            // The text's first chunk or its last: through a copy, NUL
            // around the text.
            let mut pad = [0u8; LEN];
            let from = at.saturating_sub(1).min(text.len());
            let rest = &text[from..text.len().min(at + LEN - 1)];
            let to = usize::from(at == 0);
            pad[to..to + rest.len()].copy_from_slice(rest);
            kern(&pad, marks)
        }
    }
}

/// [`colon_chunk`]'s kernel of choice over one chunk and its context (for
/// tests): `Scalar`; `Avx2` or `Avx512` on x86_64; `None` for any other or
/// where this machine cannot run it.
#[doc(hidden)]
pub fn colon_chunk_with(kernel: Kernel, src: &ChunkSrc) -> Option<(Marks, u32)> {
    // Not zeros: a kernel must write every word (the caller's marks hold
    // the last chunk's).
    let mut marks = [!0u64; CHUNK];
    if !super::runs(kernel) {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        match kernel {
            Kernel::Avx2 => {
                // SAFETY: the CPU supports AVX2 (`runs`, above).
                let any = unsafe { super::x86_64::colon_chunk_avx2(src, &mut marks) };
                return Some((marks, any));
            }
            Kernel::Avx512 => {
                // SAFETY: the CPU supports AVX-512 BW and F (`runs`, above).
                let any = unsafe { super::x86_64::colon_chunk_avx512(src, &mut marks) };
                return Some((marks, any));
            }
            _ => {}
        }
    }
    match kernel {
        Kernel::Scalar => {
            let any = colon_chunk_scalar(src, &mut marks);
            Some((marks, any))
        }
        _ => None,
    }
}

/// Extraction's candidate colons of one block and its context (66 bytes;
/// see [`colon_chunk`]) with a chosen kernel (for tests): `Scalar`; `Avx2`
/// or `Avx512` on x86_64; `None` for any other or where this machine
/// cannot run it.
#[doc(hidden)]
pub fn colon_marks_with(kernel: Kernel, src: &[u8; 66]) -> Option<u64> {
    if !super::runs(kernel) {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        match kernel {
            Kernel::Avx2 => {
                // SAFETY: the CPU supports AVX2 (`runs`, above).
                return Some(unsafe { super::x86_64::colon_block_avx2(src) });
            }
            Kernel::Avx512 => {
                // SAFETY: the CPU supports AVX-512 BW and F (`runs`, above).
                return Some(unsafe { super::x86_64::colon_block_avx512(src) });
            }
            _ => {}
        }
    }
    match kernel {
        Kernel::Scalar => Some(colon_marks(src)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `colon_chunk` at every start of texts shorter than a chunk, and
    /// around the chunk's size: its start, inside, and running past its
    /// end, through this machine's kernel and the scalar twin, against the
    /// twin of one block read with its context (NUL outside the text); and
    /// its word mask says which words have a mark.
    #[test]
    fn colon_chunks_match_the_twin_at_the_text_edges() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let span = 64 * CHUNK;
        for len in (0..200).chain([span - 1, span, span + 1, span + 2, 2 * span + 70]) {
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    b"a:/ :\xc2Z:........"[(x % 16) as usize]
                })
                .collect();
            let starts: Vec<usize> = if len < 200 {
                (0..len.max(1)).collect()
            } else {
                (0..len).step_by(61).chain([len - 1]).collect()
            };
            for at in starts {
                for kern in [colon_kernel(), colon_chunk_scalar] {
                    // Not zeros: the kernel must write every word.
                    let mut marks = [!0u64; CHUNK];
                    let any = colon_chunk(kern, &text, at, &mut marks);
                    for (w, &got) in marks.iter().enumerate() {
                        let mut src = [0u8; 66];
                        for (j, s) in src.iter_mut().enumerate() {
                            let i = (at + 64 * w + j).wrapping_sub(1);
                            *s = text.get(i).copied().unwrap_or(0);
                        }
                        let want = colon_marks(&src);
                        assert_eq!(got, want, "len {len} at {at} block {w}");
                        assert_eq!(any >> w & 1 == 1, want != 0, "len {len} at {at} block {w}");
                    }
                    assert_eq!(any >> CHUNK, 0);
                }
            }
        }
    }
}
