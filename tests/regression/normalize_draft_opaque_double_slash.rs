//! Bug: `urilex normalize --profile url-draft-05` turned `http://a.b-/`
//! into `http:/.//a.b-/`. Under seed 001's grammar a hostname cannot end
//! in "-", so the text is an opaque URL whose opaque part is `//a.b-/`;
//! the "/." that RFC 3986 3.3 needs before a path starting with "//" made
//! it a hierarchical URL with another path. Found by trying the CLI as a
//! new user. Fixed: where the profile already reads the text with no
//! authority, nothing is put before the path.

use urilex::{Parser, Profile};

#[test]
fn an_opaque_part_starting_with_two_slashes_is_kept() {
    let p = Parser::new().profile(Profile::UrlDraft05);
    for input in ["http://a.b-/", "news://x-/y"] {
        let u = p.parse(input).unwrap();
        assert_eq!(u.authority(), None, "{input} is opaque under url-draft-05");
        let n = u.normalized();
        assert_eq!(n.as_str(), input);
        let v = p.parse(n.as_str()).unwrap();
        assert_eq!((v.authority(), v.path()), (None, u.path()));
    }
    // RFC 3986 still needs the "/." (3.3): "a:/.//b" has path "//b".
    let u = urilex::UriRef::parse("a:/.//b").unwrap();
    assert_eq!(u.normalized().as_str(), "a:/.//b");
}
