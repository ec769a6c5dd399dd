//! Bug: normalization kept every dot segment of a relative reference, also
//! of absolute-path and network-path references, where removing them
//! cannot change the result: RFC 3986 5.2.2 applies remove_dot_segments to
//! exactly such a path when resolving. Found by trying the API as a new
//! user. Fixed: rooted references lose their dots; relative-path
//! references keep them (their ".." may climb the base's path).

use urilex::{resolve_into, ResolveOptions, UriRef};

#[test]
fn rooted_references_lose_their_dot_segments() {
    let cases = [
        ("/a/b/../../c", "/c"),
        ("/..", "/"),
        ("/./foo/bar", "/foo/bar"),
        ("//host/.//foo/bar", "//host//foo/bar"),
        ("/a/%2E%2E/b?q#f", "/b?q#f"),
        // Relative-path references keep them.
        ("a/../b", "a/../b"),
        ("../x", "../x"),
        ("./y", "./y"),
    ];
    let bases = ["http://h/p/q/r", "s:/", "s://a", "f:x/y/z"];
    let (mut a, mut b) = (String::new(), String::new());
    for (input, want) in cases {
        let u = UriRef::parse(input).unwrap();
        let n = u.normalized();
        assert_eq!(n.as_str(), want, "{input}");
        // The same target against every base.
        for base in bases {
            let base = UriRef::parse(base).unwrap();
            resolve_into(&base, &u, ResolveOptions::new(), &mut a).unwrap();
            resolve_into(&base, &n.as_ref(), ResolveOptions::new(), &mut b).unwrap();
            // The same target, or (after decoding "%2E") an equivalent one.
            let (ta, tb) = (UriRef::parse(&a).unwrap(), UriRef::parse(&b).unwrap());
            assert!(ta.equivalent(&tb), "{input} against {base}: {a} {b}");
        }
    }
}
