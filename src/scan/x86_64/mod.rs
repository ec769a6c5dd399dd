//! x86_64 kernels, a file per family (as `scan/` has them): `skip`,
//! `rows`, `colon`, `find`, `stream`; and the prefetch the streaming ones
//! share. Each is reached through its family's dispatch (`scan::cpu`).

mod colon;
mod find;
mod rows;
mod skip;
mod stream;

pub(crate) use colon::*;
#[cfg_attr(feature = "force-scalar", allow(unused_imports))]
pub(crate) use find::*;
pub(crate) use rows::*;
pub(crate) use skip::*;
#[cfg_attr(feature = "force-scalar", allow(unused_imports))]
pub(crate) use stream::*;

use core::arch::x86_64::*;

/// How far ahead of the block it reads a streaming kernel (the colon
/// marks, the rows kernels) asks for the text (`prefetcht0`): extraction
/// and batches stream through inputs larger than the caches. On the
/// generated extraction text (29 MB) the hint made extraction about 9%
/// faster (`extract_corpus`); `urilex validate` on 237 MB, about 5%.
/// 8 KiB ahead rather than 1 KiB (2026-11-28, AMD EPYC, AVX-512 VBMI):
/// on the RFC 3986 text (28 MB of prose, `extract_peers`), where a chunk's
/// few candidates leave the loads idle, extraction went from 0.88–0.91×
/// linkify to 1.01–1.11× (4 KiB: 0.98–1.02×, 16 KiB: 0.99–1.03×, 32 KiB:
/// 0.88–0.92×); `validate_lines` over 200 MB five times, 0.345 → 0.330 s;
/// the generated text and the batch unchanged.
const PREFETCH: usize = 8192;

/// Asks for the bytes [`PREFETCH`] after `p`. A prefetch is a hint: it
/// never faults, wherever it points (the address is formed with
/// `wrapping_add`, not as an in-bounds offset).
#[cfg_attr(feature = "force-scalar", allow(dead_code))]
#[inline(always)]
pub(super) fn ahead(p: *const u8) {
    // SAFETY: SSE is part of x86_64; a prefetch reads nothing.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(PREFETCH) as *const i8) }
}
