//! Bug: under the seed 000 profile, resolution returned an invalid
//! reference. Found by fuzz target `resolve`.
//!
//! The base `http:././..///b[d/ea//../././b/d[/ea//2./` is an opaque-part
//! URI ("[" is allowed only there). Seed 000 section 5.2 merges its path
//! with `.` all the same; with ".." above the root removed that gives a
//! hierarchical path with "[", which its
//! grammar rejects. Fixed: under the draft profiles such a target is
//! `ResolveError::InvalidTarget`.

use urilex::{DotAboveRoot, Parser, Profile, ResolveError, ResolveOptions};

#[test]
fn relative_path_against_an_opaque_base() {
    let p = Parser::new().profile(Profile::Rfc2396bis00);
    let base = p
        .parse("http:././..///b[d/ea//../././b/d[/ea//2./")
        .unwrap();
    let r = p.parse(".").unwrap();
    let remove = ResolveOptions::new().dot_above_root(DotAboveRoot::Remove);
    assert_eq!(
        base.resolve_with(&r, remove),
        Err(ResolveError::InvalidTarget)
    );
    // Keeping the leading ".." (the profile's default) leaves a valid opaque part.
    let kept = base.resolve(&r).unwrap();
    assert!(p.parse(kept.as_str()).is_ok());
    // An absolute reference still resolves, and the seed's own table holds.
    assert_eq!(
        base.resolve(&p.parse("g:h").unwrap()).unwrap().as_str(),
        "g:h"
    );
}
