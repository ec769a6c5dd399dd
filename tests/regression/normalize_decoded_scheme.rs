//! Bug: normalization was not idempotent. Found by fuzz target `resolve`.
//!
//! Under the `url-draft-05` profile, `hp%61SER:PASS@EXA` is a relative path
//! (a scheme cannot hold "%"; that grammar allows ":" in a first segment).
//! Decoding the unreserved `%61` gave `hpaSER:PASS@EXA`, which reads as a
//! URI with scheme `hpaSER`, so a second normalization lower-cased it: the
//! reference had changed meaning. Fixed by RFC 3986 4.2's rule: a first
//! segment with a colon in a relative-path reference is written after "./".

use urilex::{Parser, Profile};

#[test]
fn decoded_first_segment_stays_a_path() {
    let p = Parser::new().profile(Profile::UrlDraft05);
    let u = p.parse("hp%61SER:PASS@EXA").unwrap();
    assert!(u.scheme().is_none());
    let once = u.normalized();
    assert_eq!(once.as_str(), "./hpaSER:PASS@EXA");
    let again = p.parse(once.as_str()).unwrap();
    assert!(again.scheme().is_none());
    assert_eq!(again.normalized().as_str(), once.as_str());
}
