//! Bug: under the seed 000 profile, normalization made an invalid
//! reference. Found by fuzz target `resolve`.
//!
//! `file:.e/.././5/..)/5/?/ass@[::1]:443/path/to/re` is an opaque-part URI
//! (seed 000 section 3). Removing its dot segments gave `file:/5/..)/5/?/…`,
//! which the grammar reads as an abs-path and a query, where "[" is not
//! allowed. Fixed: under the draft profiles a step that would make the
//! result invalid is not taken.

use urilex::{NormalizeOptions, Parser, Profile};

#[test]
fn opaque_part_keeps_its_dots_when_removing_them_breaks_the_grammar() {
    let p = Parser::new().profile(Profile::Rfc2396bis00);
    let input = "file:.e/.././5/..)/5/?/ass@[::1]:443/path/to/re";
    let u = p.parse(input).unwrap();
    for o in [
        NormalizeOptions::new(),
        NormalizeOptions::new().scheme_based(true),
    ] {
        let once = u.normalized_with(o);
        let v = p.parse(once.as_str()).expect("normal form is valid");
        assert_eq!(once.as_str(), input);
        assert_eq!(v.normalized_with(o).as_str(), once.as_str());
    }
}
