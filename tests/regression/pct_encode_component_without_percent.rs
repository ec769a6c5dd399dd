//! Bug: `pct::encode(Component::Port, "8a")` returned `8%61` and
//! `encode(Component::Scheme, "a b")` returned `a%20b`, both invalid for
//! their component (RFC 3986 3.1 and 3.2.3 have no pct-encoded). Found by
//! trying the API as a new user. Fixed: a component whose grammar takes no
//! `%` gets an error naming the first byte it cannot hold.

use urilex::{pct, Component, Parser};

#[test]
fn components_without_percent_encoding_refuse_what_they_cannot_hold() {
    let e = pct::encode(Component::Port, "8a").unwrap_err();
    assert_eq!(
        (e.component, e.index, e.byte),
        (Component::Port, 1, Some(b'a'))
    );
    let e = pct::encode(Component::Scheme, "a b").unwrap_err();
    assert_eq!(
        (e.component, e.index, e.byte),
        (Component::Scheme, 1, Some(b' '))
    );
    // A scheme begins with a letter (3.1): nothing to encode about that.
    assert_eq!(pct::encode(Component::Scheme, "8a").unwrap_err().index, 0);
    assert_eq!(pct::encode(Component::Scheme, "").unwrap_err().byte, None);
    assert_eq!(pct::encode(Component::Port, "443").unwrap(), "443");
    assert_eq!(
        pct::encode(Component::Scheme, "svn+ssh").unwrap(),
        "svn+ssh"
    );
    // What encode gives is always valid for its component.
    for c in Component::ALL {
        for s in ["a b", "8a", "x%", "é", "/?#[]@", ""] {
            if let Ok(e) = pct::encode(c, s) {
                if !matches!(c, Component::Authority | Component::Host) {
                    assert!(
                        Parser::new().validate_component(c, e.as_bytes()).is_ok() || e.is_empty(),
                        "{c} {s:?} -> {e:?}"
                    );
                }
            }
        }
    }
}
