//! Regression tests, one file per bug found (mostly by the fuzzers in
//! fuzz/), each naming the bug and the input that showed it.

mod normalize_decoded_scheme;
mod normalize_seed_authority_alternative;
mod normalize_seed_opaque_dots;
mod resolve_seed_opaque_base;
