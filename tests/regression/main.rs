//! Regression tests, one file per bug found (mostly by the fuzzers in
//! fuzz/), each naming the bug and the input that showed it.

mod authority_errors_blame_userinfo;
mod draft_host_kinds_one_truth;
mod normalize_decoded_scheme;
mod normalize_draft_opaque_double_slash;
mod normalize_rfc1738_keeps_every_part;
mod normalize_rooted_relative_dots;
mod normalize_seed_authority_alternative;
mod normalize_seed_opaque_dots;
mod pct_encode_component_without_percent;
mod resolve_seed_opaque_base;
