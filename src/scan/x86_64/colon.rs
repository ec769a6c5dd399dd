//! x86_64 kernels of extraction's candidate colons (AVX2, AVX-512 BW).

use super::super::colon::{ChunkSrc, Marks, CHUNK};
use super::ahead;
use core::arch::x86_64::*;

/// The second pass of the chunk kernels: the whole colon test (`$c.block`)
/// on the blocks whose bit is set in `$colons`, the others' marks cleared;
/// which blocks have a candidate. An unsafe expression: every block's 66
/// bytes must be readable from `$src`.
macro_rules! marked_blocks {
    ($c:expr, $src:expr, $colons:expr, $marks:expr) => {{
        let mut colons: u32 = $colons;
        *$marks = [0; CHUNK];
        let mut any = 0u32;
        while colons != 0 {
            let w = colons.trailing_zeros() as usize;
            colons &= colons - 1;
            let m = $c.block($src.as_ptr().add(64 * w));
            $marks[w] = m;
            any |= u32::from(m != 0) << w;
        }
        any
    }};
}

/// The constants of the AVX-512 colon test (see `colon_block_avx512`).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[derive(Clone, Copy)]
struct Colon512 {
    colon: __m512i,
    slash: __m512i,
    space: __m512i,
    nbsp: __m512i,
    nine: __m512i,
    four: __m512i,
    case: __m512i,
    a: __m512i,
    z: __m512i,
}

#[cfg_attr(feature = "force-scalar", allow(dead_code))]
impl Colon512 {
    #[target_feature(enable = "avx512f,avx512bw")]
    fn new() -> Colon512 {
        Colon512 {
            colon: _mm512_set1_epi8(b':' as i8),
            slash: _mm512_set1_epi8(b'/' as i8),
            space: _mm512_set1_epi8(b' ' as i8),
            nbsp: _mm512_set1_epi8(0xc2u8 as i8),
            nine: _mm512_set1_epi8(9),
            four: _mm512_set1_epi8(4),
            case: _mm512_set1_epi8(0x20),
            a: _mm512_set1_epi8(b'a' as i8),
            z: _mm512_set1_epi8(25),
        }
    }

    /// The candidate colons of the 64 bytes from `p + 1` (see
    /// `scalar::colon_marks`), the compares straight into mask registers.
    ///
    /// # Safety
    /// The 66 bytes from `p` must be readable.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn block(&self, p: *const u8) -> u64 {
        // SAFETY: 64 bytes from `p`, `p + 1` and `p + 2` are readable (the
        // caller's promise); the loads are unaligned.
        let (prev, cur, next) = unsafe {
            (
                _mm512_loadu_si512(p as *const __m512i),
                _mm512_loadu_si512(p.add(1) as *const __m512i),
                _mm512_loadu_si512(p.add(2) as *const __m512i),
            )
        };
        let after = _mm512_cmpeq_epi8_mask(next, self.slash)
            | _mm512_cmpeq_epi8_mask(next, self.space)
            | _mm512_cmpeq_epi8_mask(next, self.nbsp)
            | _mm512_cmple_epu8_mask(_mm512_sub_epi8(next, self.nine), self.four);
        let letter = _mm512_cmple_epu8_mask(
            _mm512_sub_epi8(_mm512_or_si512(prev, self.case), self.a),
            self.z,
        );
        _mm512_cmpeq_epi8_mask(cur, self.colon) & (after | letter)
    }
}

/// Extraction's candidate colons of one block and its context (see
/// `scalar::colon_marks`), for tests against the twin: the test
/// [`colon_chunk_avx512`] runs on every block.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn colon_block_avx512(src: &[u8; 66]) -> u64 {
    // SAFETY: the 66 bytes of `src` are readable.
    unsafe { Colon512::new().block(src.as_ptr()) }
}

/// Extraction's candidate colons of [`CHUNK`](CHUNK) blocks (see
/// `scalar::colon_marks`): `src` holds them with one byte of context before
/// the first and after the last. Returns which blocks have one (bit w for
/// `marks[w]`), so that the search goes from one candidate to the next
/// with no loop over empty blocks.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn colon_chunk_avx512(src: &ChunkSrc, marks: &mut Marks) -> u32 {
    let c = Colon512::new();
    // First the blocks with a colon at all (prose has few: one load and
    // one compare a block), then the whole test on those only.
    let mut colons = 0u32;
    for w in 0..CHUNK {
        ahead(src.as_ptr().wrapping_add(64 * w));
        // SAFETY: `src` holds `64 CHUNK + 2` bytes, so the 64 from
        // `64 w + 1` are in it; the load is unaligned.
        let cur = unsafe { _mm512_loadu_si512(src.as_ptr().add(64 * w + 1) as *const __m512i) };
        colons |= u32::from(_mm512_cmpeq_epi8_mask(cur, c.colon) != 0) << w;
    }
    // SAFETY: the 66 bytes from `64 w` are in `src` for every block w.
    unsafe { marked_blocks!(c, src, colons, marks) }
}

/// The constants of the AVX2 colon test (see `Colon256::block`).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[derive(Clone, Copy)]
struct Colon256 {
    colon: __m256i,
    slash: __m256i,
    space: __m256i,
    nbsp: __m256i,
    nine: __m256i,
    four: __m256i,
    case: __m256i,
    a: __m256i,
    z: __m256i,
}

#[cfg_attr(feature = "force-scalar", allow(dead_code))]
impl Colon256 {
    #[target_feature(enable = "avx2")]
    fn new() -> Colon256 {
        Colon256 {
            colon: _mm256_set1_epi8(b':' as i8),
            slash: _mm256_set1_epi8(b'/' as i8),
            space: _mm256_set1_epi8(b' ' as i8),
            nbsp: _mm256_set1_epi8(0xc2u8 as i8),
            nine: _mm256_set1_epi8(9),
            four: _mm256_set1_epi8(4),
            case: _mm256_set1_epi8(0x20),
            a: _mm256_set1_epi8(b'a' as i8),
            z: _mm256_set1_epi8(25),
        }
    }

    /// [`Colon512::block`], 32 bytes at a time. A byte is a letter when
    /// `(b | 0x20) - 'a' <= 25` and tab to CR when `b - 9 <= 4` (unsigned,
    /// by `min`, which SSE and AVX2 have for bytes where they have no
    /// unsigned compare).
    ///
    /// # Safety
    /// The 66 bytes from `p` must be readable.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn block(&self, p: *const u8) -> u64 {
        let mut m = 0u64;
        for k in 0..2 {
            // SAFETY: 32 bytes from `p + 32 k`, one and two further, are
            // among the 66 readable from `p` (the caller's promise); the
            // loads are unaligned.
            let (prev, cur, next) = unsafe {
                let q = p.add(32 * k);
                (
                    _mm256_loadu_si256(q as *const __m256i),
                    _mm256_loadu_si256(q.add(1) as *const __m256i),
                    _mm256_loadu_si256(q.add(2) as *const __m256i),
                )
            };
            let ws = _mm256_sub_epi8(next, self.nine);
            let ws = _mm256_cmpeq_epi8(_mm256_min_epu8(ws, self.four), ws);
            let after = _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_cmpeq_epi8(next, self.slash),
                    _mm256_cmpeq_epi8(next, self.space),
                ),
                _mm256_or_si256(_mm256_cmpeq_epi8(next, self.nbsp), ws),
            );
            let l = _mm256_sub_epi8(_mm256_or_si256(prev, self.case), self.a);
            let letter = _mm256_cmpeq_epi8(_mm256_min_epu8(l, self.z), l);
            let hit = _mm256_and_si256(
                _mm256_cmpeq_epi8(cur, self.colon),
                _mm256_or_si256(after, letter),
            );
            m |= u64::from(_mm256_movemask_epi8(hit) as u32) << (32 * k);
        }
        m
    }
}

/// [`colon_block_avx512`] with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn colon_block_avx2(src: &[u8; 66]) -> u64 {
    // SAFETY: the 66 bytes of `src` are readable.
    unsafe { Colon256::new().block(src.as_ptr()) }
}

/// [`colon_chunk_avx512`] with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn colon_chunk_avx2(src: &ChunkSrc, marks: &mut Marks) -> u32 {
    let c = Colon256::new();
    let mut colons = 0u32;
    for w in 0..CHUNK {
        ahead(src.as_ptr().wrapping_add(64 * w));
        // SAFETY: `src` holds `64 CHUNK + 2` bytes, so the 64 from
        // `64 w + 1` are in it; the loads are unaligned.
        let (a, b) = unsafe {
            let p = src.as_ptr().add(64 * w + 1);
            (
                _mm256_loadu_si256(p as *const __m256i),
                _mm256_loadu_si256(p.add(32) as *const __m256i),
            )
        };
        let hit = _mm256_or_si256(_mm256_cmpeq_epi8(a, c.colon), _mm256_cmpeq_epi8(b, c.colon));
        colons |= u32::from(_mm256_movemask_epi8(hit) != 0) << w;
    }
    // SAFETY: the 66 bytes from `64 w` are in `src` for every block w.
    unsafe { marked_blocks!(c, src, colons, marks) }
}
