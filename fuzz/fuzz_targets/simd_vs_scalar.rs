//! Every SIMD kernel this machine can run against the scalar kernel, on
//! arbitrary ASCII sets, inputs and starting points.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use urilex::scan::{nibbles_of, skip_with, Kernel};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    set: [u64; 2],
    from: u8,
    bytes: &'a [u8],
}

fuzz_target!(|x: Input| {
    let set = [x.set[0], x.set[1], 0, 0];
    let t = nibbles_of(&set).expect("ASCII set");
    let from = (x.from as usize).min(x.bytes.len());
    let want = skip_with(Kernel::Scalar, &t, x.bytes, from).unwrap();
    // The scalar kernel itself against the bitmask.
    let mut i = from;
    while i < x.bytes.len() && set[(x.bytes[i] >> 6) as usize] >> (x.bytes[i] & 63) & 1 != 0 {
        i += 1;
    }
    assert_eq!(want, i);
    for k in [Kernel::Ssse3, Kernel::Avx2] {
        if let Some(got) = skip_with(k, &t, x.bytes, from) {
            assert_eq!(got, want, "{k:?}");
        }
    }
});
