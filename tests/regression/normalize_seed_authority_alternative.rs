//! Bug: normalization was not idempotent under the seed 000 profile. Found
//! by fuzz target `resolve`.
//!
//! Seed 000 has `authority = server / reg-name`. In
//! `FOO://%55se%72FOO://%55se%72@EXam` the authority `%55se%72FOO:` is a
//! reg-name (a hostname cannot hold "%"). Decoded and lower-cased it is
//! `userfoo:`, which the grammar reads as a server with an empty port, and
//! the next pass dropped that port (RFC 3986 3.2.3). Fixed: under the draft
//! profiles normalization repeats until nothing changes.

use urilex::{NormalizeOptions, Parser, Profile};

#[test]
fn seed_authority_reading_change_reaches_a_fixpoint() {
    let p = Parser::new().profile(Profile::Rfc2396bis00);
    let u = p.parse("FOO://%55se%72FOO://%55se%72@EXam").unwrap();
    for o in [
        NormalizeOptions::new(),
        NormalizeOptions::new().scheme_based(true),
    ] {
        let once = u.normalized_with(o);
        let twice = p.parse(once.as_str()).unwrap().normalized_with(o);
        assert_eq!(once.as_str(), twice.as_str());
    }
}
