//! Every SIMD kernel this machine can run against the scalar kernel, on
//! arbitrary ASCII sets, inputs and starting points. Half the sets are
//! built from four ranges, as grammar sets are, so that the SSE2 kernel
//! (one compare per range, scalar past fifteen) runs its own path.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use urilex::scan::{
    classify_rows_with, classify_with, colon_chunk_with, colon_marks_with, nibbles_of, ranges_of,
    skip_with, Kernel, CHUNK,
};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    set: [u64; 2],
    from: u8,
    bytes: &'a [u8],
}

fuzz_target!(|x: Input| {
    let mut set = [x.set[0], x.set[1], 0, 0];
    if x.from & 1 == 1 {
        // Four ranges: a start (7 bits) and a length (0-15) per 16 bits.
        set = [0; 4];
        for k in 0..4 {
            let bits = x.set[0] >> (16 * k);
            let start = (bits & 0x7f) as u8;
            let end = start.saturating_add((bits >> 8) as u8 & 15).min(127);
            for b in start..=end {
                set[(b >> 6) as usize] |= 1 << (b & 63);
            }
        }
    }
    let t = nibbles_of(&set).expect("ASCII set");
    let r = ranges_of(&t);
    let from = (x.from as usize).min(x.bytes.len());
    let want = skip_with(Kernel::Scalar, &t, &r, x.bytes, from).unwrap();
    // The scalar kernel itself against the bitmask.
    let mut i = from;
    while i < x.bytes.len() && set[(x.bytes[i] >> 6) as usize] >> (x.bytes[i] & 63) & 1 != 0 {
        i += 1;
    }
    assert_eq!(want, i);
    for k in [Kernel::Sse2, Kernel::Ssse3, Kernel::Avx2, Kernel::Neon] {
        if let Some(got) = skip_with(k, &t, &r, x.bytes, from) {
            assert_eq!(got, want, "{k:?}");
        }
    }
    // The line classifier: this set and three more made from it, over the
    // first 64 bytes (zero-padded), every kernel against the scalar one.
    let mut block = [0u8; 64];
    let n = x.bytes.len().min(64);
    block[..n].copy_from_slice(&x.bytes[..n]);
    let tables: Vec<[u8; 16]> = (0..4u32)
        .map(|k| {
            let s = [
                set[0].rotate_left(7 * k),
                set[1] ^ set[0].rotate_right(k),
                0,
                0,
            ];
            nibbles_of(&s).expect("ASCII set")[..16].try_into().unwrap()
        })
        .collect();
    let want = classify_with(Kernel::Scalar, &block, &tables).unwrap();
    for k in [
        Kernel::Ssse3,
        Kernel::Avx2,
        Kernel::Avx512,
        Kernel::Avx512Vbmi,
    ] {
        if let Some(got) = classify_with(k, &block, &tables) {
            assert_eq!(got[..4], want[..4], "{k:?}");
        }
    }
    // The rows kernels over all the bytes (a last block cut short reads as
    // if zeros followed), against the scalar rows.
    let want = classify_rows_with(Kernel::Scalar, x.bytes, &tables).unwrap();
    for k in [
        Kernel::Ssse3,
        Kernel::Avx2,
        Kernel::Avx512,
        Kernel::Avx512Vbmi,
    ] {
        if let Some(got) = classify_rows_with(k, x.bytes, &tables) {
            for (w, (g, e)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g[..4], e[..4], "{k:?} block {w}");
            }
        }
    }
    // Extraction's candidate colons over the first 66 bytes (zero-padded):
    // every kernel against the scalar one.
    let mut src = [0u8; 66];
    let n = x.bytes.len().min(66);
    src[..n].copy_from_slice(&x.bytes[..n]);
    let want = colon_marks_with(Kernel::Scalar, &src).unwrap();
    for k in [Kernel::Avx2, Kernel::Avx512] {
        if let Some(got) = colon_marks_with(k, &src) {
            assert_eq!(got, want, "{k:?}");
        }
    }
    // And over a whole chunk: the input repeated to fill it.
    if !x.bytes.is_empty() {
        let mut chunk = [0u8; 64 * CHUNK + 2];
        for (c, b) in chunk.iter_mut().zip(x.bytes.iter().cycle()) {
            *c = *b;
        }
        let want = colon_chunk_with(Kernel::Scalar, &chunk).unwrap();
        for k in [Kernel::Avx2, Kernel::Avx512] {
            if let Some(got) = colon_chunk_with(k, &chunk) {
                assert_eq!(got, want, "{k:?} chunk");
            }
        }
    }
});
