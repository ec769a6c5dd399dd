//! Bug: errors inside an authority without "@" were put in the userinfo:
//! `http://example.com:80a/` reported "'/' at byte 22 in userinfo", where
//! the fault is the "a" at byte 21, in the port. Until an "@" a DFA cannot
//! tell the userinfo from the host and port (RFC 3986 3.2: `[ userinfo "@"
//! ] host [ ":" port ]`). Found by trying the CLI as a new user. Fixed:
//! with no "@" before the authority's end, the error names the host or the
//! port at the first byte that no valid reading accepts.

use urilex::{Component, ErrorKind, Parser, Profile};

#[test]
fn authority_errors_name_host_or_port() {
    let cases = [
        ("http://example.com:80a/", 21, Component::Port),
        ("http://exa mple.com/path", 10, Component::Host),
        ("http://a:-1/", 9, Component::Port),
        ("//h:8x", 5, Component::Port),
        ("http://a{b/", 8, Component::Host),
    ];
    // By name: RFC 6874 only when the build has its feature.
    for profile in ["rfc3986", "rfc6874"]
        .into_iter()
        .filter_map(Profile::from_name)
    {
        let p = Parser::new().profile(profile);
        for (input, index, component) in cases {
            let e = p.parse(input).unwrap_err();
            assert_eq!(
                (e.index(), e.component()),
                (index, Some(component)),
                "{input}: {e}"
            );
            // Batches and verdicts say the same.
            assert!(!p.is_valid(input.as_bytes()));
            let mut batch = urilex::Batch::new();
            batch.parse_lines(&p, input.as_bytes());
            let b = batch.error(0).unwrap();
            assert_eq!(
                (b.index, b.component),
                (index, Some(component)),
                "{input} (batch)"
            );
        }
    }
    let e = Parser::new().parse("http://example.com:80a/").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid character 'a' (0x61) at byte 21 in port (rule port)"
    );
    // With an "@" the userinfo is real, and so is its error.
    let e = Parser::new().parse("http://us er@h/").unwrap_err();
    assert_eq!(
        (e.index(), e.component(), e.kind()),
        (9, Some(Component::Userinfo), ErrorKind::InvalidCharacter)
    );
}
