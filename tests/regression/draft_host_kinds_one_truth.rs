//! Bug: under url-draft-05, `urilex parse` gave `http://1.2.3.256/` host
//! kind `ipv4` (the grammar's `hostnumber`) while `UriRef::host()` said
//! `RegName`, and `lint` missed the ambiguous `010.0.0.1` that the default
//! profile flags. Found by trying the CLI as a new user. Fixed: the
//! grammar's kind is the one truth; a number it takes that is not four
//! dec-octets is `Host::Ipv4Text`, and lint looks at every host that reads
//! as a number without being a dotted-decimal address.

use urilex::{Host, HostKind, LintKind, Parser, Profile};

#[test]
fn the_grammar_says_the_kind_and_lint_sees_the_number() {
    let p = Parser::new().profile(Profile::UrlDraft05);
    for (input, host) in [
        ("http://1.2.3.256/", Host::Ipv4Text("1.2.3.256")),
        ("http://010.0.0.1/", Host::Ipv4Text("010.0.0.1")),
        ("http://10.0.0.1/", Host::Ipv4("10.0.0.1".parse().unwrap())),
    ] {
        let u = p.parse(input).unwrap();
        assert_eq!(u.host_kind(), Some(HostKind::Ipv4), "{input}");
        assert_eq!(u.host(), Some(host), "{input}");
        assert_eq!(u.host().map(|h| h.kind()), u.host_kind(), "{input}");
    }
    let ambiguous = |p: Parser, s: &str| {
        p.parse(s)
            .unwrap()
            .lints()
            .iter()
            .any(|l| l.kind == LintKind::AmbiguousIpv4)
    };
    assert!(ambiguous(p, "http://010.0.0.1/"));
    assert!(ambiguous(Parser::new(), "http://010.0.0.1/"));
    assert!(!ambiguous(p, "http://10.0.0.1/"));
    assert!(!ambiguous(Parser::new(), "http://10.0.0.1/"));
}
