//! Regression tests, one file per bug found (mostly by the fuzzers in
//! fuzz/), each naming the bug and the input that showed it.

mod authority_errors_blame_userinfo;
#[cfg(feature = "url-draft-05")]
mod draft_host_kinds_one_truth;
mod ipv6_hosts_are_addresses;
#[cfg(feature = "url-draft-05")]
mod normalize_decoded_scheme;
#[cfg(feature = "url-draft-05")]
mod normalize_draft_opaque_double_slash;
#[cfg(feature = "rfc1738")]
mod normalize_rfc1738_keeps_every_part;
mod normalize_rooted_relative_dots;
#[cfg(feature = "rfc2396bis-00")]
mod normalize_seed_authority_alternative;
#[cfg(feature = "rfc2396bis-00")]
mod normalize_seed_opaque_dots;
mod pct_encode_component_without_percent;
#[cfg(feature = "rfc2396bis-00")]
mod resolve_seed_opaque_base;
#[cfg(feature = "rfc1738")]
mod rfc1738_path_batch_and_single_agree;
#[cfg(feature = "rfc1738")]
mod rfc1738_views_follow_the_grammar;
#[cfg(all(feature = "rfc8141", feature = "urn-draft-03"))]
mod urn_draft_nul_octet;
#[cfg(all(feature = "rfc8141", feature = "urn-draft-03"))]
mod urn_errors_read_the_grammar;
